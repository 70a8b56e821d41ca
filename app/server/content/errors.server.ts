/** A non-OK answer of the content API: its message is the answer's `error` field or `Erreur {status}`. */
export class ContentApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ContentApiError';
    this.status = status;
  }
}

/** The content API did not answer within the time limit (5 s). */
export class ContentTimeoutError extends Error {
  constructor(path: string, timeoutMs: number) {
    super(`Délai dépassé (${timeoutMs / 1000} s) pour ${path}`);
    this.name = 'ContentTimeoutError';
  }
}

/** Neither the content API nor a local copy could give this data. */
export class ContentUnavailableError extends Error {
  readonly path: string;
  constructor(path: string, options?: { cause?: unknown }) {
    super(`Données non disponibles pour ${path}`, options);
    this.name = 'ContentUnavailableError';
    this.path = path;
  }
}

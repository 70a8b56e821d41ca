import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { currentRequest } from './observability/request-context.server';

/*
 * The app's logger: JSON lines in production (for the log collector), readable lines in a terminal
 * during development.
 *
 * Every line is bounded and scrubbed before it is written (one 3,8 MB `update-user`
 * request wrote 7,7 MB of log with the data it tried to save, and during a database outage Better
 * Auth logged a live session token): whatever a caller passes (objects, errors, Better Auth's
 * arguments, the message itself) goes through `scrub`, which
 * - replaces the value of any field whose name says it holds a secret or someone's data (passwords,
 *   tokens, cookies, authorization headers, sessions, request bodies, query parameters),
 * - removes such values from inside texts too (`params: …` of a failed query, `Bearer …`,
 *   `token=…`),
 * - cuts long texts, large objects and arrays and deep nesting, and the whole line at
 *   `LOG_LIMITS.lineChars`.
 * pino's `redact` list stays as a second net for the usual paths.
 *
 * A line written while a request is handled carries its id and route (`requestId`, `route`:
 * observability/request-context.server.ts), whichever module writes it.
 */

export const LOG_LIMITS = {
  /** Characters kept of one text. */
  stringChars: 1_000,
  /** Fields kept of one object, items of one array. */
  keys: 40,
  items: 20,
  /** Objects inside objects. */
  depth: 6,
  /** Characters of text in one line, all values together. */
  lineChars: 8_000,
} as const;

export const REDACTED = '[redacted]';

/** Field names whose values never reach a log. */
const SENSITIVE_KEY =
  /pass(word|wd|phrase)|secret|token|cookie|authori[sz]ation|^sessions?$|api[-_]?key|private[-_]?key|credential|signature|^otp$|^body$|^params$|^parameters$|^values$|^formdata$/i;

/** Secrets that appear inside texts (an error message quoting a query's parameters, a header). */
const SECRETS_IN_TEXT: ReadonlyArray<[RegExp, string]> = [
  // Drizzle's "Failed query: … params: <values>" and pg's own detail lines quote what was written.
  // Up to the stack's frames, which stay (they say where it failed).
  [/\bparams:[\s\S]*?(?=\n\s+at\s|$)/i, `params: ${REDACTED}`],
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, `$1 ${REDACTED}`],
  [/((?:token|password|secret|session|cookie)[\w.-]*["']?\s*[:=]\s*["']?)[^\s"'&;,]+/gi, `$1${REDACTED}`],
];

function scrubText(text: string, budget: { left: number }): string {
  let out = text;
  for (const [pattern, replacement] of SECRETS_IN_TEXT) out = out.replace(pattern, replacement);
  const max = Math.max(0, Math.min(LOG_LIMITS.stringChars, budget.left));
  if (out.length > max) out = `${out.slice(0, max)}… [${out.length} characters]`;
  budget.left -= Math.min(out.length, max);
  return out;
}

function scrubError(error: Error, depth: number, budget: { left: number }, seen: WeakSet<object>) {
  const out: Record<string, unknown> = {
    type: error.name,
    message: scrubText(error.message ?? '', budget),
  };
  if (error.stack) out.stack = scrubText(error.stack, budget);
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'stack') continue;
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : scrubValue(value, depth + 1, budget, seen);
  }
  if (error.cause !== undefined) out.cause = scrubValue(error.cause, depth + 1, budget, seen);
  return out;
}

function scrubValue(value: unknown, depth: number, budget: { left: number }, seen: WeakSet<object>): unknown {
  if (budget.left <= 0) return '[truncated]';
  if (typeof value === 'string') return scrubText(value, budget);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (value instanceof Date) return value;
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (depth >= LOG_LIMITS.depth) return '[nested]';
  seen.add(value);
  if (value instanceof Error) return scrubError(value, depth, budget, seen);
  if (Array.isArray(value)) {
    const items = value.slice(0, LOG_LIMITS.items).map((item) => scrubValue(item, depth + 1, budget, seen));
    if (value.length > LOG_LIMITS.items) items.push(`[${value.length - LOG_LIMITS.items} more items]`);
    return items;
  }
  if (value instanceof Map || value instanceof Set) return `[${value.constructor.name} of ${value.size}]`;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, LOG_LIMITS.keys)) {
    out[key] = SENSITIVE_KEY.test(key)
      ? REDACTED
      : scrubValue((value as Record<string, unknown>)[key], depth + 1, budget, seen);
  }
  if (keys.length > LOG_LIMITS.keys) out['…'] = `${keys.length - LOG_LIMITS.keys} more fields`;
  return out;
}

/** A value as it may be logged: secrets and personal data out, size bounded. */
export function scrub(value: unknown, budget = { left: LOG_LIMITS.lineChars }): unknown {
  return scrubValue(value, 0, budget, new WeakSet());
}

/** Every argument of a logging call, scrubbed with one budget for the whole line. */
function scrubArguments(args: unknown[]): unknown[] {
  const budget = { left: LOG_LIMITS.lineChars };
  const [first, ...rest] = args;
  const out: unknown[] = [];
  if (first instanceof Error) {
    // pino's own form `log.error(err)`: the error under `err`, its message as the line's.
    out.push({ err: scrub(first, budget) });
    if (rest.length === 0) out.push(scrubText(first.message ?? '', budget));
  } else out.push(scrub(first, budget));
  for (const arg of rest) out.push(scrub(arg, budget));
  return out;
}

/**
 * pino-pretty's file, found from this module: pino looks it up from its callers' files, which under
 * Vite's module runner on Node 22 (`npm run dev`) are not files, and it then refuses to start.
 */
function prettyTarget(): string {
  return createRequire(import.meta.url).resolve('pino-pretty');
}

/** The logger's configuration, for `log` and for tests that capture its lines. */
export function createLogger(destination?: DestinationStream, options: { level?: string; pretty?: boolean } = {}) {
  const level = options.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info');
  const pretty = options.pretty ?? process.env.NODE_ENV === 'development';
  const config: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: {
      paths: [
        'password',
        '*.password',
        'smtpPassword',
        '*.smtpPassword',
        'secretKey',
        '*.secretKey',
        'apiKey',
        '*.apiKey',
        'token',
        '*.token',
        'body',
        '*.body',
        'headers.cookie',
        'headers.authorization',
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, scrubArguments(args) as Parameters<typeof method>);
      },
    },
    formatters: {
      // Fields given to `log.child(...)` are scrubbed too.
      bindings: (bindings) => scrub(bindings) as Record<string, unknown>,
    },
    mixin() {
      const request = currentRequest();
      if (!request) return {};
      return request.route ? { requestId: request.requestId, route: request.route } : { requestId: request.requestId };
    },
    // Errors are already plain objects (scrubError): pino's serializer would rename their type.
    serializers: { err: (err: unknown) => err },
    ...(pretty && !destination ? { transport: { target: prettyTarget(), options: { colorize: true } } } : {}),
  };
  return destination ? pino(config, destination) : pino(config);
}

export const log: Logger = createLogger();

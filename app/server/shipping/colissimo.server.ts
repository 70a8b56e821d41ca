import { z } from 'zod';
import { LABEL_MESSAGES } from '~/domain/shipping/messages';
import {
  COLISSIMO_TIMEOUT_MS,
  colissimoApiUrl,
  colissimoMessagesSchema,
  depositDate,
  loadColishipCredentials,
} from '../admin/coliship.server';
import { log } from '../log.server';

/*
 * Client of Colissimo's label web service (SLS REST, `POST {COLISSIMO_API_URL}/generateLabel`), with
 * the Coliship credentials saved in the back office (admin/coliship.server.ts).
 *
 * The service answers a label with `multipart/mixed` (MTOM-like): a part `<jsonInfos>` with the JSON
 * (messages, labelV2Response.parcelNumber), then a part `<label>` with the PDF's bytes. A refusal is
 * a JSON body with an error status and messages of type ERROR. Every failure becomes a French
 * message for the staff or the customer; nothing here throws.
 */

/** An address as the service wants it: line2 is the street, line3 a complement. */
export interface ColissimoAddress {
  companyName?: string;
  lastName?: string;
  firstName?: string;
  line2: string;
  line3?: string;
  countryCode: string;
  city: string;
  zipCode: string;
  phoneNumber?: string;
  email?: string;
}

export interface LabelRequest {
  orderNumber: string;
  sender: ColissimoAddress;
  addressee: ColissimoAddress;
  /** Ad valorem insurance of the parcel, in cents (0: not insured). */
  insuredValueCents: number;
  weightKg: number;
}

export type LabelFailure = 'not_configured' | 'unavailable' | 'credentials' | 'refused' | 'unreadable';

export type LabelResult =
  | { ok: true; parcelNumber: string; pdf: Buffer }
  | { ok: false; reason: LabelFailure; message: string; detail?: string };

export interface ColissimoOptions {
  url?: string;
  timeoutMs?: number;
  /** The pair to authenticate with; by default the one saved in the back office. */
  credentials?: { contractNumber: string; password: string } | null;
  now?: Date;
}

/** The commercial name printed on the label and in the service's notices to the addressee. */
const COMMERCIAL_NAME = 'Soovenirs';

/** The JSON body of generateLabel: `DOS` (with signature) when the parcel is insured, else `DOM`. */
export function generateLabelBody(
  request: LabelRequest,
  credentials: { contractNumber: string; password: string },
  now = new Date(),
) {
  const insured = request.insuredValueCents > 0;
  return {
    contractNumber: credentials.contractNumber,
    password: credentials.password,
    outputFormat: { x: 0, y: 0, outputPrintingType: 'PDF_A4_300dpi' },
    letter: {
      service: {
        productCode: insured ? 'DOS' : 'DOM',
        depositDate: depositDate(now),
        orderNumber: request.orderNumber,
        commercialName: COMMERCIAL_NAME,
      },
      parcel: { weight: request.weightKg, ...(insured ? { insuranceValue: request.insuredValueCents } : {}) },
      sender: { address: request.sender },
      addressee: { address: request.addressee },
    },
  };
}

export interface MimePart {
  headers: Record<string, string>;
  body: Buffer;
}

/** The boundary parameter of a multipart Content-Type (quoted or not), or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** Splits a multipart body into its parts (headers lower-cased, bodies as bytes, binary-safe). */
export function parseMultipart(body: Buffer, boundary: string): MimePart[] {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const parts: MimePart[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    let cursor = start + delimiter.length;
    // The closing delimiter is followed by `--`.
    if (body.subarray(cursor, cursor + 2).toString('latin1') === '--') break;
    if (body.subarray(cursor, cursor + 2).toString('latin1') === '\r\n') cursor += 2;
    const next = body.indexOf(delimiter, cursor);
    if (next === -1) break;
    // The CRLF before a delimiter belongs to the delimiter, not to the part.
    const end = body.subarray(next - 2, next).toString('latin1') === '\r\n' ? next - 2 : next;
    const part = body.subarray(cursor, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    const rawHeaders = headerEnd === -1 ? '' : part.subarray(0, headerEnd).toString('utf8');
    const headers: Record<string, string> = {};
    for (const line of rawHeaders.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: headerEnd === -1 ? part : part.subarray(headerEnd + 4) });
    start = next;
  }
  return parts;
}

const messagesSchema = z.object({
  messages: colissimoMessagesSchema,
  labelV2Response: z.object({ parcelNumber: z.string().nullish() }).nullish(),
});

type ServiceJson = z.infer<typeof messagesSchema>;

function parseJson(bytes: Buffer): ServiceJson | null {
  try {
    const parsed = messagesSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function errorsOf(json: ServiceJson | null) {
  return (json?.messages ?? []).filter((m) => m.type.toUpperCase() === 'ERROR');
}

/** The service's refusal: its bad-credentials answer, or its own words about the label. */
function refusal(json: ServiceJson | null, status: number): LabelResult {
  const errors = errorsOf(json);
  const detail = errors.map((e) => e.messageContent ?? String(e.id ?? '')).join(' ; ') || `HTTP ${status}`;
  if (errors.some((e) => String(e.id) === '30000' || /mot de passe|identifiant/i.test(e.messageContent ?? ''))) {
    return { ok: false, reason: 'credentials', message: LABEL_MESSAGES.credentials, detail };
  }
  if (errors.length === 0) return { ok: false, reason: 'unavailable', message: LABEL_MESSAGES.unavailable, detail };
  return { ok: false, reason: 'refused', message: LABEL_MESSAGES.refused(detail), detail };
}

const unreadable = (detail: string): LabelResult => ({
  ok: false,
  reason: 'unreadable',
  message: LABEL_MESSAGES.unreadable,
  detail,
});

/** Reads the service's answer to generateLabel. */
export function readLabelResponse(status: number, contentType: string | null, body: Buffer): LabelResult {
  const boundary = multipartBoundary(contentType);
  if (status >= 500) {
    return { ok: false, reason: 'unavailable', message: LABEL_MESSAGES.unavailable, detail: `HTTP ${status}` };
  }
  if (!boundary) return status >= 400 ? refusal(parseJson(body), status) : unreadable('réponse sans étiquette');
  const parts = parseMultipart(body, boundary);
  const contentId = (part: MimePart) => (part.headers['content-id'] ?? '').replace(/[<>]/g, '').toLowerCase();
  const jsonPart =
    parts.find((p) => contentId(p) === 'jsoninfos') ?? parts.find((p) => /json/i.test(p.headers['content-type'] ?? ''));
  const labelPart = parts.find((p) => contentId(p) === 'label') ?? parts.find((p) => p !== jsonPart);
  const json = jsonPart ? parseJson(jsonPart.body) : null;
  if (!json) return unreadable('partie jsonInfos absente ou illisible');
  if (status >= 400 || errorsOf(json).length > 0) return refusal(json, status);
  const parcelNumber = json.labelV2Response?.parcelNumber?.trim();
  if (!parcelNumber) return unreadable('numéro de colis absent');
  const pdf = labelPart?.body ?? Buffer.alloc(0);
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') return unreadable('étiquette PDF absente');
  return { ok: true, parcelNumber, pdf: Buffer.from(pdf) };
}

/** Asks the service for a label. Never throws: failures come back with their French message. */
export async function generateLabel(request: LabelRequest, options: ColissimoOptions = {}): Promise<LabelResult> {
  const credentials = options.credentials === undefined ? await loadColishipCredentials() : options.credentials;
  if (!credentials) return { ok: false, reason: 'not_configured', message: LABEL_MESSAGES.notConfigured };
  const url = options.url ?? colissimoApiUrl();
  try {
    const response = await fetch(`${url}/generateLabel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed, application/json' },
      body: JSON.stringify(generateLabelBody(request, credentials, options.now)),
      signal: AbortSignal.timeout(options.timeoutMs ?? COLISSIMO_TIMEOUT_MS),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return readLabelResponse(response.status, response.headers.get('content-type'), body);
  } catch (error) {
    log.warn({ err: error }, 'the Colissimo label service could not be reached');
    return { ok: false, reason: 'unavailable', message: LABEL_MESSAGES.unavailable, detail: (error as Error).message };
  }
}

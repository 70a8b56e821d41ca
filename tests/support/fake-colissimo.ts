import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomIp } from './auth';

/*
 * A local stand-in for Colissimo's label web service (SLS, REST/JSON) at `{base}`:
 * - `POST {base}/checkGenerateLabel` (the Configuration Coliship dialog's check): 200 with a SUCCESS
 *   message when the contract number and password are the ones it knows, 400 with an ERROR message
 *   otherwise (or when the request is not a label request);
 * - `POST {base}/generateLabel`: as the service does, a `multipart/mixed` answer (MTOM-like, parts
 *   separated by `--uuid:…`) whose first part (Content-ID <jsonInfos>) is the JSON with the messages
 *   and `labelV2Response.parcelNumber`, and whose second part (Content-ID <label>) is the label, a
 *   real PDF with the parcel number written in it; 400 with the service's error JSON for bad
 *   credentials or an address it refuses (no postal code, no city).
 * It records what it received.
 *
 * It also stands in for La Poste's tracking service (API « Suivi » v2), which tracks Colissimo's
 * parcels, at `{trackingUrl}` (`…/suivi/v2`): `GET {trackingUrl}/idships/{parcelNumber}` with the
 * header `X-Okapi-Key` answers, for a parcel whose label it made, `{ lang, scope, returnCode: 200,
 * shipment: { idShip, product, isFinal, entryDate, event: [{ order, code, label, date }] } }`, newest
 * event first: the label's announcement (DR1) at first, then the scans the test makes with `scan()`
 * (PC1 « pris en charge », ET1, DI1 « distribué »…). An unknown number is a 404 with `returnCode` and
 * `returnMessage`, a wrong key a 401, as the real service answers.
 */

export interface FakeColissimoRequest {
  path: string;
  contentType: string | undefined;
  body: Record<string, unknown> | null;
}

export interface FakeColissimo {
  /** Base URL to give the shop as COLISSIMO_API_URL. */
  url: string;
  contractNumber: string;
  password: string;
  requests: FakeColissimoRequest[];
  /** The parcel numbers of the labels it generated, in order. */
  parcelNumbers: string[];
  /** Base URL to give the shop as LAPOSTE_TRACKING_API_URL. */
  trackingUrl: string;
  /** The tracking service's key (X-Okapi-Key) it accepts. */
  trackingKey: string;
  /** The tracking requests it received (parcel number, key sent). */
  trackingRequests: Array<{ parcelNumber: string; key: string | undefined }>;
  /** The carrier scans a parcel it made a label for (PC1: taken in at the post office). */
  scan(parcelNumber: string, code: string, options?: { label?: string; at?: Date }): void;
  /** Makes the service answer 503 (an outage) until called with false. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function reply(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
  response.end(JSON.stringify(body));
}

function errorMessage(id: string, messageContent: string) {
  return { messages: [{ id, type: 'ERROR', messageContent, replacementValues: [] }] };
}

/** A one-page PDF (A4) with these lines of text, its cross-reference table computed. */
export function labelPdf(lines: string[]): Buffer {
  const pdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
  const content = ['BT /F1 14 Tf 60 780 Td 18 TL', ...lines.map((line) => `(${pdfText(line)}) Tj T*`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** The service's multipart answer: the JSON part, then the label's bytes. */
function multipartLabel(response: ServerResponse, json: unknown, pdf: Buffer) {
  const boundary = `uuid:${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Transfer-Encoding: binary\r\n` +
        `Content-ID: <jsonInfos>\r\n\r\n${JSON.stringify(json)}\r\n` +
        `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n` +
        'Content-ID: <label>\r\n\r\n',
      'utf8',
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  ]);
  response.writeHead(200, {
    'content-type': `multipart/mixed; boundary="${boundary}"; start="<jsonInfos>"; type="application/json"`,
    'content-length': String(body.length),
  });
  response.end(body);
}

type Address = Record<string, unknown> | undefined;

function addressProblem(address: Address, who: string): string | null {
  if (!address || typeof address.zipCode !== 'string' || address.zipCode.trim() === '') {
    return `Le code postal du ${who} n'est pas renseigné`;
  }
  if (typeof address.city !== 'string' || address.city.trim() === '')
    return `La commune du ${who} n'est pas renseignée`;
  return null;
}

/** La Poste's own wording of its codes (API Suivi v2), for the events the peer makes. */
const CARRIER_LABELS: Record<string, string> = {
  DR1: 'Votre Colissimo va bientôt nous être confié ! Il est en cours de préparation chez l’expéditeur.',
  PC1: 'Votre colis est pris en charge par La Poste.',
  ET1: 'Votre colis est en cours d’acheminement.',
  MD2: 'Votre colis est en cours de livraison.',
  DI1: 'Votre colis est livré.',
};

interface TrackedParcel {
  entryDate: string;
  events: Array<{ code: string; label: string; date: string }>;
}

/** The service's date form: ISO with the Paris offset, as La Poste writes them. */
function carrierDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Coliship's message of a request it accepted. */
const SUCCESS = {
  id: '0',
  type: 'INFOS',
  messageContent: 'La requête a été traitée avec succès',
  replacementValues: [],
};

/** The part of a label request the peer reads. */
interface Letter {
  service?: { productCode?: unknown; orderNumber?: unknown };
  parcel?: { weight?: unknown };
  sender?: { address?: Address };
  addressee?: { address?: Address };
}

export async function startFakeColissimo({
  contractNumber = '123456',
  password = 'Colis-Secret-42',
  trackingKey = 'okapi-test-key-0123456789',
}: {
  contractNumber?: string;
  password?: string;
  trackingKey?: string;
} = {}): Promise<FakeColissimo> {
  const requests: FakeColissimoRequest[] = [];
  const parcelNumbers: string[] = [];
  const tracked = new Map<string, TrackedParcel>();
  const trackingRequests: FakeColissimo['trackingRequests'] = [];
  let down = false;
  let sequence = 0;

  /** The tracking API (Okapi): a parcel's events, newest first, for the right key. */
  function track(request: IncomingMessage, response: ServerResponse, parcelNumber: string) {
    const key = request.headers['x-okapi-key'];
    trackingRequests.push({ parcelNumber, key: typeof key === 'string' ? key : undefined });
    if (down) return reply(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'Service indisponible' });
    if (key !== trackingKey) return reply(response, 401, { code: 'UNAUTHORIZED', message: 'Invalid API key' });
    const parcel = tracked.get(parcelNumber);
    if (!parcel) {
      return reply(response, 404, {
        lang: 'fr_FR',
        scope: 'open',
        returnCode: 404,
        returnMessage: 'Résultat non trouvé',
        idShip: parcelNumber,
      });
    }
    const events = [...parcel.events].reverse().map((event, index, all) => ({ order: all.length - index, ...event }));
    return reply(response, 200, {
      lang: 'fr_FR',
      scope: 'open',
      returnCode: 200,
      shipment: {
        idShip: parcelNumber,
        holder: 4,
        product: 'colissimo',
        isFinal: parcel.events.some((event) => event.code === 'DI1' || event.code === 'DI2'),
        entryDate: parcel.entryDate,
        url: `https://www.laposte.fr/outils/suivre-vos-envois?code=${parcelNumber}`,
        event: events,
      },
    });
  }

  /** The label endpoints: the request checked as Coliship does, then a label for `generateLabel`. */
  function label(response: ServerResponse, body: Record<string, unknown> | null, generate: boolean) {
    const letter = body?.letter as Letter | undefined;
    if (!body || !letter?.service?.productCode || typeof letter.parcel?.weight !== 'number') {
      return reply(response, 400, errorMessage('30100', 'La requête est invalide'));
    }
    if (body.contractNumber !== contractNumber || body.password !== password) {
      return reply(response, 400, errorMessage('30000', 'Identifiant ou mot de passe invalide'));
    }
    const problem =
      addressProblem(letter.sender?.address, 'expéditeur') ?? addressProblem(letter.addressee?.address, 'destinataire');
    if (problem) return reply(response, 400, errorMessage('30220', problem));
    if (!generate) return reply(response, 200, { messages: [{ ...SUCCESS, type: 'SUCCESS' }] });
    return generateLabel(response, letter);
  }

  /** A new parcel number, announced to the tracking API, and its label as a PDF. */
  function generateLabel(response: ServerResponse, letter: Letter) {
    sequence += 1;
    const parcelNumber = `6A${String(Date.now() % 1e8).padStart(8, '0')}${String(sequence % 1000).padStart(3, '0')}`;
    parcelNumbers.push(parcelNumber);
    const announced = carrierDate(new Date());
    tracked.set(parcelNumber, {
      entryDate: announced,
      events: [{ code: 'DR1', label: CARRIER_LABELS.DR1 as string, date: announced }],
    });
    const addressee = letter.addressee?.address ?? {};
    const pdf = labelPdf([
      'Colissimo',
      `Colis ${parcelNumber}`,
      `Commande ${String(letter.service?.orderNumber ?? '')}`,
      `${String(addressee.firstName ?? '')} ${String(addressee.lastName ?? addressee.companyName ?? '')}`.trim(),
      `${String(addressee.zipCode)} ${String(addressee.city)}`,
    ]);
    return multipartLabel(
      response,
      {
        messages: [SUCCESS],
        labelXmlV2Reponse: null,
        labelV2Response: { parcelNumber, parcelNumberPartner: null, pdfUrl: null, fields: null },
      },
      pdf,
    );
  }

  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const idships = /^\/suivi\/v2\/idships\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && idships) return track(request, response, decodeURIComponent(idships[1] as string));
    const body = request.method === 'POST' ? await readJson(request) : null;
    requests.push({ path, contentType: request.headers['content-type'], body });
    if (down) return reply(response, 503, { error: 'Service indisponible' });
    const generate = path.endsWith('/generateLabel');
    if (request.method !== 'POST' || !(generate || path.endsWith('/checkGenerateLabel'))) {
      return reply(response, 404, { error: 'Not found' });
    }
    return label(response, body, generate);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sls-ws/SlsServiceWSRest/2.0`,
    trackingUrl: `http://127.0.0.1:${port}/suivi/v2`,
    trackingKey,
    trackingRequests,
    contractNumber,
    password,
    requests,
    parcelNumbers,
    scan: (parcelNumber, code, options = {}) => {
      const parcel = tracked.get(parcelNumber);
      if (!parcel) throw new Error(`the peer made no label ${parcelNumber}`);
      parcel.events.push({
        code,
        label: options.label ?? CARRIER_LABELS[code] ?? code,
        date: carrierDate(options.at ?? new Date()),
      });
    },
    setDown: (value) => {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Saves the peer's credentials in Configuration Coliship as the staff do, and checks they were accepted. */
export async function saveColishipCredentials(
  shopUrl: string,
  adminCookie: string,
  fake: FakeColissimo,
): Promise<void> {
  const saved = await fetch(`${shopUrl}/admin/api/coliship`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: shopUrl,
      cookie: adminCookie,
      'x-forwarded-for': randomIp(),
    },
    body: new URLSearchParams({ username: 'atelier', password: fake.password, contractNumber: fake.contractNumber }),
  });
  const answer = (await saved.json()) as { ok?: boolean; check?: { ok?: boolean } };
  if (!answer.ok || !answer.check?.ok) throw new Error(`Coliship credentials refused: ${JSON.stringify(answer)}`);
}

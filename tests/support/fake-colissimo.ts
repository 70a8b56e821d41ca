import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for Colissimo's label web service (SLS, REST/JSON), enough for the credentials
 * check of the Configuration Coliship dialog: `POST {base}/checkGenerateLabel` with a JSON label
 * request carrying `contractNumber` and `password`. It answers as the service does: 200 with a
 * SUCCESS message when the pair is the one it knows, 400 with an ERROR message otherwise (or when
 * the request is not a label request), and records what it received.
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

function reply(response: import('node:http').ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
  response.end(JSON.stringify(body));
}

export async function startFakeColissimo({
  contractNumber = '123456',
  password = 'Colis-Secret-42',
}: {
  contractNumber?: string;
  password?: string;
} = {}): Promise<FakeColissimo> {
  const requests: FakeColissimoRequest[] = [];
  let down = false;
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = request.method === 'POST' ? await readJson(request) : null;
    requests.push({ path, contentType: request.headers['content-type'], body });
    if (down) return reply(response, 503, { error: 'Service indisponible' });
    if (request.method !== 'POST' || !path.endsWith('/checkGenerateLabel')) {
      return reply(response, 404, { error: 'Not found' });
    }
    const letter = body?.letter as { service?: { productCode?: unknown }; parcel?: { weight?: unknown } } | undefined;
    if (!body || !letter?.service?.productCode || typeof letter.parcel?.weight !== 'number') {
      return reply(response, 400, {
        messages: [{ id: '30100', type: 'ERROR', messageContent: 'La requête est invalide', replacementValues: [] }],
      });
    }
    if (body.contractNumber !== contractNumber || body.password !== password) {
      return reply(response, 400, {
        messages: [
          { id: '30000', type: 'ERROR', messageContent: 'Identifiant ou mot de passe invalide', replacementValues: [] },
        ],
      });
    }
    return reply(response, 200, {
      messages: [
        { id: '0', type: 'SUCCESS', messageContent: 'La requête a été traitée avec succès', replacementValues: [] },
      ],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sls-ws/SlsServiceWSRest/2.0`,
    contractNumber,
    password,
    requests,
    setDown: (value) => {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { PaConfig } from '~/domain/einvoicing/pa-config';
import { forgetPaTokens } from '~/server/einvoicing/pa-client.server';
import { savePaConfig } from '~/server/einvoicing/pa-config.server';

/*
 * A local plateforme agréée speaking the AFNOR XP Z12-013 interface (docs/plateforme-agreee.md),
 * for the tests and for a developer's shop (`npx tsx tests/support/fake-pa.ts [port]`):
 *  - `POST {url}/oauth/token`: OAuth2 client credentials (HTTP Basic or form fields), a bearer
 *    token for `expiresIn` seconds; every other call wants it (401 otherwise);
 *  - Flow Service at `{url}/flow-service`: `GET /v1/healthcheck`, `POST /v1/flows` (multipart:
 *    `flowInfo` JSON + `file`; the sha256 checked when given; 202 with the flow's full info),
 *    `POST /v1/flows/search` (`{ limit, where }` → `{ limit, filters, results }`),
 *    `GET /v1/flows/{flowId}` (metadata, or `?docType=Original` the file itself);
 *  - Directory Service at `{url}/directory-service`: `GET /v1/siren/code-insee:{siren}`,
 *    `POST /v1/directory-line/search`.
 * It keeps every deposited file; a test scripts the lifecycle of an invoice with `setStatus()`
 * (an incoming CDAR flow, as a PA reports « Rejetée », « Refusée », « Approuvée »…), and reads what
 * the shop sent: `deposits`, and the statuses the shop emitted (`statusesSent`, e.g. « Encaissée »
 * with its amount). `POST {url}/_control/status` does what `setStatus()` does, for a script.
 */

export interface FakePaDeposit {
  flowId: string;
  flowInfo: Record<string, unknown>;
  fileName: string;
  contentType: string;
  file: Buffer;
  submittedAt: string;
}

export interface FakePaStatusSent {
  flowId: string;
  invoiceNumber: string;
  code: number;
  amount: string | null;
  date: string | null;
}

interface StoredFlow {
  flowId: string;
  trackingId: string | null;
  flowType: string;
  flowDirection: 'In' | 'Out';
  flowSyntax: string;
  processingRule: string | null;
  submittedAt: string;
  updatedAt: string;
  file: Buffer;
  contentType: string;
}

export interface FakePa {
  /** Give the shop: flowUrl, directoryUrl, tokenUrl, clientId, clientSecret. */
  url: string;
  flowUrl: string;
  directoryUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  deposits: FakePaDeposit[];
  statusesSent: FakePaStatusSent[];
  tokenRequests: number;
  /** The invoices' (and credit notes') deposits, by document number read from the file name. */
  depositsOf(documentNumber: string): FakePaDeposit[];
  /** Reports a lifecycle status of a document the shop deposited (an incoming CDAR flow). */
  setStatus(documentNumber: string, code: number, reason?: string): string;
  /** A company the directory knows (reachable: it has a platform). */
  addCompany(siren: string, name: string): void;
  /** Makes every service answer 503 until called with false. */
  setDown(down: boolean): void;
  /** Keeps the next deposit but drops its answer (the connection cut): the shop cannot know it arrived. */
  loseNextAnswer(): void;
  /** Waits (bounded) until `predicate` holds, polling the recorded state. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  200: 'Déposée',
  201: 'Émise par la plateforme',
  202: 'Reçue',
  203: 'Mise à disposition',
  204: 'Prise en charge',
  205: 'Approuvée',
  206: 'Approuvée partiellement',
  207: 'En litige',
  208: 'Suspendue',
  209: 'Complétée',
  210: 'Refusée',
  211: 'Paiement transmis',
  212: 'Encaissée',
  213: 'Rejetée',
};

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The CDAR message a PA sends about one invoice (written here, not with the shop's own builder). */
function cdar(documentNumber: string, code: number, reason?: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossDomainAcknowledgementAndResponse xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">
  <rsm:ExchangedDocument><ram:ID>${randomUUID()}</ram:ID><ram:TypeCode>23</ram:TypeCode></rsm:ExchangedDocument>
  <rsm:AcknowledgementDocument>
    <ram:ReferenceReferencedDocument>
      <ram:IssuerAssignedID>${escapeXml(documentNumber)}</ram:IssuerAssignedID>
      <ram:ProcessConditionCode>${code}</ram:ProcessConditionCode>
      <ram:ProcessCondition>${STATUS_NAMES[code] ?? ''}</ram:ProcessCondition>
      ${reason ? `<ram:SpecifiedDocumentStatus><ram:Reason>${escapeXml(reason)}</ram:Reason></ram:SpecifiedDocumentStatus>` : ''}
    </ram:ReferenceReferencedDocument>
  </rsm:AcknowledgementDocument>
</rsm:CrossDomainAcknowledgementAndResponse>`;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  response.writeHead(status, { 'content-type': contentType, 'content-length': payload.length });
  response.end(payload);
}

function error(response: ServerResponse, status: number, message: string): void {
  send(response, status, { errorCode: String(status), errorMessage: message });
}

/** The document number a deposited file's name carries (facture-FA-2026-000001.pdf → FA-2026-000001). */
function documentNumberOf(name: string): string {
  return name.replace(/^(facture|avoir)-/, '').replace(/\.(pdf|xml)$/, '');
}

export async function startFakePa({
  port = 0,
  clientId = 'soovenirs-test',
  clientSecret = `secret-${randomUUID()}`,
  expiresIn = 3600,
  autoDeposited = true,
}: {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  expiresIn?: number;
  /** Reports « Déposée » (200) for every invoice deposited, as PAs do. */
  autoDeposited?: boolean;
} = {}): Promise<FakePa> {
  const flows: StoredFlow[] = [];
  const deposits: FakePaDeposit[] = [];
  const statusesSent: FakePaStatusSent[] = [];
  const tokens = new Map<string, number>();
  const companies = new Map<string, string>();
  let down = false;
  let loseAnswer = false;
  let tokenRequests = 0;

  const now = () => new Date().toISOString();

  function incomingStatus(documentNumber: string, code: number, reason?: string): string {
    const flowId = randomUUID();
    const at = now();
    flows.push({
      flowId,
      trackingId: null,
      flowType: 'CustomerInvoiceLC',
      flowDirection: 'In',
      flowSyntax: 'CDAR',
      processingRule: 'B2B',
      submittedAt: at,
      updatedAt: at,
      file: Buffer.from(cdar(documentNumber, code, reason)),
      contentType: 'application/xml',
    });
    return flowId;
  }

  function metadata(flow: StoredFlow) {
    return {
      flowId: flow.flowId,
      trackingId: flow.trackingId ?? undefined,
      flowType: flow.flowType,
      flowDirection: flow.flowDirection,
      flowSyntax: flow.flowSyntax,
      processingRule: flow.processingRule ?? undefined,
      submittedAt: flow.submittedAt,
      updatedAt: flow.updatedAt,
      acknowledgement: { status: 'Ok' },
    };
  }

  function authorised(request: IncomingMessage): boolean {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    const expires = match?.[1] ? tokens.get(match[1]) : undefined;
    return expires !== undefined && expires > Date.now();
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    tokenRequests++;
    const form = new URLSearchParams((await readBody(request)).toString('utf8'));
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    if (basic?.[1]) {
      const [user = '', pass = ''] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      id = decodeURIComponent(user);
      secret = decodeURIComponent(pass);
    }
    if (form.get('grant_type') !== 'client_credentials') return error(response, 400, 'unsupported_grant_type');
    if (id !== clientId || secret !== clientSecret) return send(response, 401, { error: 'invalid_client' });
    const value = randomUUID();
    tokens.set(value, Date.now() + expiresIn * 1000);
    send(response, 200, { access_token: value, token_type: 'Bearer', expires_in: expiresIn });
  }

  async function deposit(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    let form: FormData;
    try {
      form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type'] ?? '' },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      return error(response, 400, 'multipart/form-data expected');
    }
    const info = form.get('flowInfo');
    const file = form.get('file');
    if (info === null || !(file instanceof Blob)) return error(response, 400, 'flowInfo and file are required');
    let flowInfo: Record<string, unknown>;
    try {
      flowInfo = JSON.parse(typeof info === 'string' ? info : await info.text()) as Record<string, unknown>;
    } catch {
      return error(response, 400, 'flowInfo is not JSON');
    }
    if (!['CII', 'UBL', 'Factur-X', 'CDAR', 'FRR'].includes(String(flowInfo.flowSyntax))) {
      return error(response, 400, 'flowSyntax is required');
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (typeof flowInfo.sha256 === 'string' && flowInfo.sha256 !== sha256)
      return error(response, 400, 'sha256 mismatch');
    const trackingId = typeof flowInfo.trackingId === 'string' ? flowInfo.trackingId : null;
    // The unicity check of a real PA: a flow with the same trackingId is refused.
    if (trackingId && flows.some((flow) => flow.trackingId === trackingId && flow.flowDirection === 'Out')) {
      return error(response, 409, `trackingId ${trackingId} already deposited`);
    }
    const flowId = randomUUID();
    const at = now();
    const name = typeof flowInfo.name === 'string' ? flowInfo.name : (file as File).name;
    const syntax = String(flowInfo.flowSyntax);
    flows.push({
      flowId,
      trackingId,
      flowType: syntax === 'CDAR' ? 'CustomerInvoiceLC' : 'CustomerInvoice',
      flowDirection: 'Out',
      flowSyntax: syntax,
      processingRule: typeof flowInfo.processingRule === 'string' ? flowInfo.processingRule : null,
      submittedAt: at,
      updatedAt: at,
      file: bytes,
      contentType: file.type,
    });
    deposits.push({ flowId, flowInfo, fileName: name, contentType: file.type, file: bytes, submittedAt: at });
    if (syntax === 'CDAR') {
      const xml = bytes.toString('utf8');
      const read = (tag: string) =>
        new RegExp(`<(?:\\w+:)?${tag}[^>]*>([\\s\\S]*?)</(?:\\w+:)?${tag}>`).exec(xml)?.[1]?.trim() ?? null;
      statusesSent.push({
        flowId,
        invoiceNumber: read('IssuerAssignedID') ?? '',
        code: Number(read('ProcessConditionCode')),
        amount: read('ValueAmount'),
        date: /<(?:\w+:)?ValueDateTime>\s*<(?:\w+:)?DateTimeString[^>]*>(\d+)</.exec(xml)?.[1] ?? null,
      });
    } else if (autoDeposited) {
      incomingStatus(documentNumberOf(name), 200);
    }
    if (loseAnswer) {
      loseAnswer = false;
      response.destroy();
      return;
    }
    send(response, 202, { ...flowInfo, flowId, submittedAt: at });
  }

  async function search(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let params: { limit?: number; where?: Record<string, unknown> };
    try {
      params = JSON.parse((await readBody(request)).toString('utf8')) as typeof params;
    } catch {
      return error(response, 400, 'JSON expected');
    }
    const where = params.where ?? {};
    const list = (key: string) => (Array.isArray(where[key]) ? (where[key] as string[]) : null);
    const after = typeof where.updatedAfter === 'string' ? Date.parse(where.updatedAfter) : null;
    const results = flows
      .filter((flow) => !list('flowType') || list('flowType')?.includes(flow.flowType))
      .filter((flow) => !list('flowDirection') || list('flowDirection')?.includes(flow.flowDirection))
      .filter((flow) => typeof where.trackingId !== 'string' || flow.trackingId === where.trackingId)
      .filter((flow) => after === null || Date.parse(flow.updatedAt) > after)
      .slice(0, params.limit ?? 25)
      .map(metadata);
    send(response, 200, { limit: params.limit ?? 25, filters: where, results });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    if (request.method === 'POST' && path === '/_control/status') {
      const body = JSON.parse((await readBody(request)).toString('utf8')) as {
        number: string;
        code: number;
        reason?: string;
      };
      return send(response, 200, { flowId: incomingStatus(body.number, body.code, body.reason) });
    }
    if (down) return error(response, 503, 'PDP temporarily unavailable');
    if (request.method === 'POST' && path === '/oauth/token') return token(request, response);
    if (path === '/flow-service/v1/healthcheck' && request.method === 'GET')
      return send(response, 200, { status: 'UP' });
    if (!authorised(request)) return error(response, 401, 'Missing or invalid token');
    if (request.method === 'POST' && path === '/flow-service/v1/flows') return deposit(request, response);
    if (request.method === 'POST' && path === '/flow-service/v1/flows/search') return search(request, response);
    const flowMatch = /^\/flow-service\/v1\/flows\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && flowMatch) {
      const flow = flows.find((candidate) => candidate.flowId === decodeURIComponent(flowMatch[1] ?? ''));
      if (!flow) return error(response, 404, 'Resource not found');
      if (url.searchParams.get('docType') === 'Original') return send(response, 200, flow.file, flow.contentType);
      return send(response, 200, metadata(flow));
    }
    const sirenMatch = /^\/directory-service\/v1\/siren\/code-insee:(\d{9})$/.exec(path);
    if (request.method === 'GET' && sirenMatch) {
      const name = companies.get(sirenMatch[1] ?? '');
      if (!name) return error(response, 404, 'Resource not found');
      return send(response, 200, {
        siren: sirenMatch[1],
        businessName: name,
        entityType: 'Private',
        administrativeStatus: 'A',
      });
    }
    if (request.method === 'POST' && path === '/directory-service/v1/directory-line/search') {
      const body = JSON.parse((await readBody(request)).toString('utf8')) as { where?: { siren?: string } };
      const siren = body.where?.siren ?? '';
      const results = companies.has(siren)
        ? [{ addressingIdentifier: siren, siren, platform: { id: '0000', name: 'Fake PA' } }]
        : [];
      return send(response, 200, { results });
    }
    error(response, 404, 'Resource not found');
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((cause: unknown) => {
      if (!response.headersSent) error(response, 500, String(cause));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    flowUrl: `${url}/flow-service`,
    directoryUrl: `${url}/directory-service`,
    tokenUrl: `${url}/oauth/token`,
    clientId,
    clientSecret,
    deposits,
    statusesSent,
    get tokenRequests() {
      return tokenRequests;
    },
    depositsOf: (documentNumber) =>
      deposits.filter((d) => d.flowInfo.flowSyntax !== 'CDAR' && documentNumberOf(d.fileName) === documentNumber),
    setStatus: incomingStatus,
    addCompany: (siren, name) => companies.set(siren, name),
    setDown: (value) => {
      down = value;
    },
    loseNextAnswer: () => {
      loseAnswer = true;
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('fake PA: the awaited state did not come');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The settings that point a shop at `pa`, as the back office's « Plateforme agréée » page saves them. */
export function fakePaSettings(pa: FakePa, { enabled = true }: { enabled?: boolean } = {}): PaConfig {
  return {
    enabled,
    testMode: true,
    flowUrl: pa.flowUrl,
    directoryUrl: pa.directoryUrl,
    tokenUrl: pa.tokenUrl,
    clientId: pa.clientId,
    clientSecret: pa.clientSecret,
    scope: '',
    sellerSiren: '123456782',
    sellerRoutingCode: '',
  };
}

/**
 * Points the shop of this test process (its database's settings) at `pa`, enabled or not, and
 * forgets the tokens an earlier platform gave. Throws when the settings are refused.
 */
export async function configureFakePa(pa: FakePa, options: { enabled?: boolean } = {}): Promise<void> {
  forgetPaTokens();
  const saved = await savePaConfig(fakePaSettings(pa, options));
  if (!saved.ok) throw new Error(`the fake PA's settings were refused: ${JSON.stringify(saved)}`);
}

// `npx tsx tests/support/fake-pa.ts [port]`: a local PA for a developer's shop.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pa = await startFakePa({ port: Number(process.argv[2] ?? 8790), clientSecret: 'fake-pa-secret' });
  process.stdout.write(
    `Fake PA listening.\n  Flow Service: ${pa.flowUrl}\n  Directory Service: ${pa.directoryUrl}\n  Token URL: ${pa.tokenUrl}\n  Client id: ${pa.clientId}\n  Client secret: ${pa.clientSecret}\n  Script a status: curl -X POST ${pa.url}/_control/status -d '{"number":"FA-2026-000001","code":213,"reason":"SIREN inconnu"}'\n`,
  );
}

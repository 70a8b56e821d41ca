import { createHash, randomUUID } from 'node:crypto';
import { buildFlowInfo, type FlowProfile, type FlowSyntax, type ProcessingRule } from '~/domain/einvoicing/flow-info';
import { isPaUsable, type PaConfig } from '~/domain/einvoicing/pa-config';
import { log } from '../log.server';
import { loadPaConfig } from './pa-config.server';

/*
 * The client of the plateforme agréée's standard interface, AFNOR XP Z12-013
 * (docs/plateforme-agreee.md): OAuth2 client credentials, the Flow Service (deposit a flow, read
 * one, search flows, download a flow's file) and the Directory Service (look a SIREN up). Node's own
 * fetch and FormData; every call bounded in time; the token kept until shortly before it expires.
 * Nothing here writes to the database: the deposits' outbox is pa-deposits.server.ts.
 */

const TIMEOUT_MS = 20_000;

export class PaError extends Error {
  constructor(
    message: string,
    /** Worth trying again later (network, 5xx, 429, credentials refused); not a file refused. */
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'PaError';
  }
}

export class PaNotConfiguredError extends PaError {
  constructor() {
    super('Plateforme agréée non configurée ou désactivée.', true);
    this.name = 'PaNotConfiguredError';
  }
}

type Credentials = Pick<PaConfig, 'tokenUrl' | 'clientId' | 'clientSecret' | 'scope'>;

const tokens = new Map<string, { token: string; expiresAt: number }>();

function tokenKey(config: Credentials): string {
  return createHash('sha256').update(`${config.tokenUrl}\n${config.clientId}\n${config.clientSecret}`).digest('hex');
}

async function fetchBounded(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new PaError(`PA injoignable (${(error as Error).message})`, true);
  }
}

/** An OAuth2 access token (client credentials grant), from the cache while it is valid. */
async function accessToken(config: Credentials, { fresh = false } = {}): Promise<string> {
  const key = tokenKey(config);
  const cached = tokens.get(key);
  if (!fresh && cached && cached.expiresAt > Date.now()) return cached.token;
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (config.scope) body.set('scope', config.scope);
  const response = await fetchBounded(config.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64')}`,
    },
    body,
  });
  if (!response.ok) {
    throw new PaError(
      `Identifiants refusés par la plateforme (jeton : HTTP ${response.status})`,
      true,
      response.status,
    );
  }
  const json = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
  if (!json || typeof json.access_token !== 'string') throw new PaError('Réponse de jeton illisible', true);
  const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 300;
  // Renewed 30 s before it expires, so that no call carries a token that dies on the way.
  tokens.set(key, { token: json.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 30) * 1000 });
  return json.access_token;
}

/** Forgets the cached tokens (tests, a configuration saved). */
export function forgetPaTokens(): void {
  tokens.clear();
}

interface CallOptions {
  method: 'GET' | 'POST';
  body?: BodyInit;
  headers?: Record<string, string>;
}

async function call(config: PaConfig, base: string, path: string, options: CallOptions): Promise<Response> {
  const send = async (token: string) =>
    fetchBounded(`${base}${path}`, {
      method: options.method,
      headers: { accept: 'application/json', ...options.headers, authorization: `Bearer ${token}` },
      body: options.body,
    });
  let response = await send(await accessToken(config));
  // A token revoked before its time: one fresh token, one more try.
  if (response.status === 401) response = await send(await accessToken(config, { fresh: true }));
  if (response.ok) return response;
  const text = (await response.text().catch(() => '')).slice(0, 500);
  const retryable = response.status >= 500 || response.status === 429 || response.status === 401;
  throw new PaError(`HTTP ${response.status} sur ${path}${text ? ` : ${text}` : ''}`, retryable, response.status);
}

async function usableConfig(config?: PaConfig): Promise<PaConfig> {
  const loaded = config ?? (await loadPaConfig());
  if (!isPaUsable(loaded)) throw new PaNotConfiguredError();
  return loaded;
}

export interface DepositFlowInput {
  /** The file's bytes (a Factur-X PDF, a CII/UBL XML, a CDAR status, an e-reporting FRR file). */
  file: Uint8Array;
  /** Its name as the PA will show it. */
  fileName: string;
  syntax: FlowSyntax;
  profile?: FlowProfile | null;
  processingRule: ProcessingRule;
  /**
   * Our id of the flow, sent as flowInfo.trackingId: the same id on a retry lets the PA's unicity
   * check (and `findFlowByTrackingId`) recognise a deposit that arrived. A new UUID when absent.
   */
  trackingId?: string;
}

/**
 * Deposits one flow on the plateforme agréée (POST {flowUrl}/v1/flows, multipart `flowInfo` +
 * `file`) and returns the PA's flow id. Throws PaNotConfiguredError when no PA is usable, PaError
 * otherwise (`retryable` says whether to try again later). Used by the invoices' outbox and by
 * e-reporting; `config` is for tests and scripts (the stored settings when absent).
 */
export async function depositFlow(input: DepositFlowInput, options: { config?: PaConfig } = {}): Promise<string> {
  const config = await usableConfig(options.config);
  const sha256 = createHash('sha256').update(input.file).digest('hex');
  const flowInfo = buildFlowInfo({
    trackingId: input.trackingId ?? randomUUID(),
    name: input.fileName,
    syntax: input.syntax,
    profile: input.profile ?? null,
    processingRule: input.processingRule,
    sha256,
  });
  const form = new FormData();
  form.set('flowInfo', new Blob([JSON.stringify(flowInfo)], { type: 'application/json' }));
  const type = input.syntax === 'Factur-X' ? 'application/pdf' : 'application/xml';
  form.set('file', new Blob([new Uint8Array(input.file)], { type }), flowInfo.name);
  const response = await call(config, config.flowUrl, '/v1/flows', { method: 'POST', body: form });
  const json = (await response.json().catch(() => null)) as { flowId?: unknown } | null;
  if (!json || typeof json.flowId !== 'string' || json.flowId === '') {
    throw new PaError('Dépôt accepté sans identifiant de flux', true);
  }
  log.info({ flowId: json.flowId, trackingId: flowInfo.trackingId, syntax: input.syntax }, 'PA: flow deposited');
  return json.flowId;
}

/** A flow as the Flow Service describes it (the fields the shop reads). */
export interface PaFlow {
  flowId: string;
  trackingId?: string;
  flowType?: string;
  flowDirection?: string;
  flowSyntax?: string;
  submittedAt?: string;
  updatedAt?: string;
  acknowledgement?: {
    status?: 'Pending' | 'Ok' | 'Error';
    details?: Array<{ reasonCode?: string; reasonMessage?: string; item?: string; level?: string }>;
  };
}

export interface SearchFlowsWhere {
  updatedAfter?: string;
  updatedBefore?: string;
  processingRule?: ProcessingRule[];
  flowType?: string[];
  flowDirection?: Array<'In' | 'Out'>;
  trackingId?: string;
  ackStatus?: 'Pending' | 'Ok' | 'Error';
}

/** POST {flowUrl}/v1/flows/search: the flows matching `where`, at most `limit`. */
export async function searchFlows(
  where: SearchFlowsWhere,
  { limit = 100, config }: { limit?: number; config?: PaConfig } = {},
): Promise<PaFlow[]> {
  const usable = await usableConfig(config);
  const response = await call(usable, usable.flowUrl, '/v1/flows/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit, where }),
  });
  const json = (await response.json().catch(() => null)) as { results?: unknown } | null;
  return Array.isArray(json?.results)
    ? (json.results as PaFlow[]).filter((flow) => typeof flow?.flowId === 'string')
    : [];
}

/** The deposit made with this trackingId, if the PA has it (a retry after a lost answer). */
export async function findFlowByTrackingId(trackingId: string, config?: PaConfig): Promise<PaFlow | null> {
  const [found] = await searchFlows({ trackingId, flowDirection: ['Out'] }, { limit: 1, config });
  return found ?? null;
}

/** GET {flowUrl}/v1/flows/{flowId}: the flow's metadata. */
export async function getFlow(flowId: string, config?: PaConfig): Promise<PaFlow> {
  const usable = await usableConfig(config);
  const response = await call(usable, usable.flowUrl, `/v1/flows/${encodeURIComponent(flowId)}`, { method: 'GET' });
  return (await response.json()) as PaFlow;
}

/** GET {flowUrl}/v1/flows/{flowId}?docType=Original: the file itself (a CDAR status, for instance). */
export async function downloadFlow(flowId: string, config?: PaConfig): Promise<Buffer> {
  const usable = await usableConfig(config);
  const response = await call(usable, usable.flowUrl, `/v1/flows/${encodeURIComponent(flowId)}?docType=Original`, {
    method: 'GET',
    headers: { accept: 'application/xml, application/pdf, application/octet-stream' },
  });
  return Buffer.from(await response.arrayBuffer());
}

export interface DirectoryEntry {
  siren: string;
  businessName: string | null;
  /** Whether the directory lists the company as able to receive e-invoices (it has a platform). */
  receivesInvoices: boolean;
  /** The platform's registration id, when the directory gives it. */
  platformId: string | null;
}

/**
 * Looks a SIREN up in the Directory Service (GET {directoryUrl}/v1/siren/code-insee:{siren}, then
 * its directory lines: POST /v1/directory-line/search). Null when the directory does not know it.
 */
export async function lookupSiren(siren: string, config?: PaConfig): Promise<DirectoryEntry | null> {
  const usable = await usableConfig(config);
  const base = usable.directoryUrl || usable.flowUrl;
  let legalUnit: { siren?: unknown; businessName?: unknown } | null;
  try {
    const response = await call(usable, base, `/v1/siren/code-insee:${encodeURIComponent(siren)}`, { method: 'GET' });
    legalUnit = (await response.json()) as typeof legalUnit;
  } catch (error) {
    if (error instanceof PaError && error.status === 404) return null;
    throw error;
  }
  const lines = await call(usable, base, '/v1/directory-line/search', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit: 10, where: { siren } }),
  });
  const json = (await lines.json().catch(() => null)) as { results?: Array<{ platform?: { id?: unknown } }> } | null;
  const first = json?.results?.[0];
  return {
    siren,
    businessName: typeof legalUnit?.businessName === 'string' ? legalUnit.businessName : null,
    receivesInvoices: Boolean(first),
    platformId: typeof first?.platform?.id === 'string' ? first.platform.id : null,
  };
}

/**
 * « Tester la connexion »: a token from the token endpoint, then the Flow Service's healthcheck.
 * A French sentence either way, never a secret.
 */
export async function testPaConnection(config: PaConfig): Promise<{ ok: boolean; message: string }> {
  if (!config.flowUrl || !config.tokenUrl || !config.clientId || !config.clientSecret) {
    return { ok: false, message: 'Renseignez les adresses, l’identifiant et le secret du client avant de tester.' };
  }
  try {
    await accessToken(config, { fresh: true });
  } catch (error) {
    return { ok: false, message: `Jeton refusé ou injoignable : ${(error as Error).message}` };
  }
  try {
    await call(config, config.flowUrl, '/v1/healthcheck', { method: 'GET' });
    return { ok: true, message: 'Connexion réussie\u00a0: jeton obtenu, service de flux disponible.' };
  } catch (error) {
    return { ok: false, message: `Jeton obtenu, mais le service de flux ne répond pas : ${(error as Error).message}` };
  }
}

import { z } from 'zod';
import { createColishipSchema, type PublicColishipCredentials } from '~/domain/admin/coliship';
import { COLISHIP_MESSAGES } from '~/domain/admin/messages';
import { changedFields } from '~/domain/audit/changes';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * Coliship (Colissimo) credentials: stored in config_options under `coliship_credentials`, the
 * password encrypted (crypto.server.ts), never returned to a browser.
 *
 * Validation calls Colissimo's label web service (SLS, REST/JSON) at COLISSIMO_API_URL (default:
 * the production service): `checkGenerateLabel` checks a label request, credentials included,
 * without creating a label. The service answers 200 with `messages` of type SUCCESS, or an error
 * status with messages of type ERROR (bad credentials among them). The web service authenticates
 * with the contract number and the password; the user name is Coliship's account login, kept with
 * them for the label-printing interface.
 */

export const COLISSIMO_DEFAULT_URL = 'https://ws.colissimo.fr/sls-ws/SlsServiceWSRest/2.0';
const OPTION = 'coliship_credentials';
/** The last check's result is bookkeeping, not a change of the settings: left out of the audit log. */
const LAST_CHECK_FIELDS = ['lastCheck', 'lastCheck.at', 'lastCheck.ok'];
const PASSWORD_CONTEXT = 'coliship_credentials.password';
export const COLISSIMO_TIMEOUT_MS = 10_000;

interface StoredCredentials {
  username: string;
  contractNumber: string;
  /** Ciphertext. */
  password: string;
  lastCheck: { at: string; ok: boolean } | null;
}

export function colissimoApiUrl(): string {
  return (process.env.COLISSIMO_API_URL?.trim() || COLISSIMO_DEFAULT_URL).replace(/\/+$/, '');
}

async function readStored(): Promise<StoredCredentials | null> {
  const value = (await readConfigOption(OPTION)) as Partial<StoredCredentials> | null;
  if (!value || typeof value !== 'object') return null;
  return {
    username: typeof value.username === 'string' ? value.username : '',
    contractNumber: typeof value.contractNumber === 'string' ? value.contractNumber : '',
    password: typeof value.password === 'string' ? value.password : '',
    lastCheck:
      value.lastCheck && typeof value.lastCheck === 'object' && typeof value.lastCheck.at === 'string'
        ? { at: value.lastCheck.at, ok: Boolean(value.lastCheck.ok) }
        : null,
  };
}

function decryptPassword(stored: StoredCredentials): string {
  if (!stored.password) return '';
  if (!isEncryptedSecret(stored.password)) return '';
  try {
    return decryptSecret(stored.password, PASSWORD_CONTEXT);
  } catch (error) {
    log.error({ err: error }, 'the stored Coliship password cannot be decrypted (was APP_SECRET changed?)');
    return '';
  }
}

/** The stored pair the label web service authenticates with (password decrypted), or null when incomplete. */
export async function loadColishipCredentials(): Promise<{ contractNumber: string; password: string } | null> {
  const stored = await readStored();
  if (!stored?.contractNumber) return null;
  const password = decryptPassword(stored);
  return password ? { contractNumber: stored.contractNumber, password } : null;
}

export async function getPublicColishipCredentials(): Promise<PublicColishipCredentials> {
  const stored = await readStored();
  return {
    username: stored?.username ?? '',
    contractNumber: stored?.contractNumber ?? '',
    passwordSet: Boolean(stored?.password),
    lastCheck: stored?.lastCheck ?? null,
  };
}

export type ColishipCheck =
  | { ok: true; message: string }
  | { ok: false; kind: 'invalid'; message: string; description: string; detail?: string }
  | { ok: false; kind: 'error'; message: string; detail?: string };

export type ColishipResult =
  | { ok: true; check: ColishipCheck; credentials: PublicColishipCredentials }
  | { ok: false; error: string; fieldErrors: Record<string, string[]> };

/** Tomorrow in Paris, `YYYY-MM-DD`: a deposit date the service accepts. */
export function depositDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(now.getTime() + 86_400_000));
}

/** The request of the check: a small parcel from the workshop to itself. */
export function checkRequestBody(credentials: { contractNumber: string; password: string }, now = new Date()) {
  const workshop = {
    companyName: 'Soovenirs',
    line2: '12 rue des Archives',
    countryCode: 'FR',
    city: 'Paris',
    zipCode: '75004',
    email: 'contact@soovenirs.fr',
  };
  return {
    contractNumber: credentials.contractNumber,
    password: credentials.password,
    outputFormat: { x: 0, y: 0, outputPrintingType: 'PDF_10x15_300dpi' },
    letter: {
      service: { productCode: 'DOM', depositDate: depositDate(now) },
      parcel: { weight: 0.5 },
      sender: { address: workshop },
      addressee: { address: { ...workshop, lastName: 'Soovenirs', firstName: 'Atelier' } },
    },
  };
}

/** The messages of every answer of the label web service (SUCCESS, INFOS, ERROR…). */
export const colissimoMessagesSchema = z
  .array(
    z.object({
      id: z.union([z.string(), z.number()]).optional(),
      type: z.string(),
      messageContent: z.string().optional(),
    }),
  )
  .optional();

const responseSchema = z.object({ messages: colissimoMessagesSchema });

/** Asks the web service whether these credentials are accepted. Never throws. */
export async function checkColishipCredentials(
  credentials: { contractNumber: string; password: string },
  { url = colissimoApiUrl(), timeoutMs = COLISSIMO_TIMEOUT_MS }: { url?: string; timeoutMs?: number } = {},
): Promise<ColishipCheck> {
  let response: Response;
  try {
    response = await fetch(`${url}/checkGenerateLabel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(checkRequestBody(credentials)),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    log.warn({ err: error }, 'the Colissimo web service could not be reached');
    return { ok: false, kind: 'error', message: COLISHIP_MESSAGES.error, detail: (error as Error).message };
  }
  let body: z.infer<typeof responseSchema> = {};
  try {
    body = responseSchema.parse(await response.json());
  } catch {
    // Not the service's JSON (a proxy's page, an outage): an error, not a refusal of the credentials.
    if (response.ok || response.status >= 500) {
      return { ok: false, kind: 'error', message: COLISHIP_MESSAGES.error, detail: `HTTP ${response.status}` };
    }
  }
  const errors = (body.messages ?? []).filter((m) => m.type.toUpperCase() === 'ERROR');
  if (response.ok && errors.length === 0) return { ok: true, message: COLISHIP_MESSAGES.success };
  if (response.status >= 500) {
    return { ok: false, kind: 'error', message: COLISHIP_MESSAGES.error, detail: `HTTP ${response.status}` };
  }
  return {
    ok: false,
    kind: 'invalid',
    message: COLISHIP_MESSAGES.failure,
    description: COLISHIP_MESSAGES.failureDescription,
    detail: errors.map((e) => e.messageContent ?? String(e.id ?? '')).join(' ; ') || `HTTP ${response.status}`,
  };
}

/**
 * The dialog's form ("Valider"): checks that the three fields are filled, stores the credentials
 * (the password encrypted; an empty password keeps the stored one), then asks the web service
 * whether it accepts them and records the outcome with them.
 */
export async function saveAndCheckColishipCredentials(
  input: { username: unknown; password: unknown; contractNumber: unknown },
  options: { url?: string; actor?: AuditActor } = {},
): Promise<ColishipResult> {
  const stored = await readStored();
  const parsed = createColishipSchema({ passwordStored: Boolean(stored?.password) }).safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: COLISHIP_MESSAGES.required, fieldErrors: z.flattenError(parsed.error).fieldErrors };
  }
  const values = parsed.data;
  const password = values.password || (stored ? decryptPassword(stored) : '');
  if (!password) {
    return { ok: false, error: COLISHIP_MESSAGES.required, fieldErrors: { password: [COLISHIP_MESSAGES.required] } };
  }
  const next: StoredCredentials = {
    username: values.username,
    contractNumber: values.contractNumber,
    password: values.password ? encryptSecret(values.password, PASSWORD_CONTEXT) : (stored?.password ?? ''),
    lastCheck: null,
  };
  await db().transaction(async (tx) => {
    await writeConfigOption(OPTION, next, tx);
    const change = changedFields(stored ?? {}, next, { secrets: ['password'], ignore: LAST_CHECK_FIELDS });
    if (change) {
      await recordAudit(tx, {
        actor: options.actor ?? 'system',
        kind: 'settings.shipping',
        subject: OPTION,
        ...change,
      });
    }
  });

  const check = await checkColishipCredentials({ contractNumber: values.contractNumber, password }, options);
  // An unreachable service says nothing about the credentials: only a definite answer is recorded.
  if (check.ok || check.kind === 'invalid') {
    await writeConfigOption(OPTION, { ...next, lastCheck: { at: new Date().toISOString(), ok: check.ok } });
  }
  return { ok: true, check, credentials: await getPublicColishipCredentials() };
}

/** For the production checklist: credentials stored and accepted by the service at the last check. */
export async function colishipState(): Promise<'verified' | 'stored' | 'missing'> {
  const stored = await readStored();
  if (!stored?.password || !stored.contractNumber) return 'missing';
  return stored.lastCheck?.ok ? 'verified' : 'stored';
}

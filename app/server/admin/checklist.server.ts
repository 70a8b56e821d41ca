import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import {
  CHECKLIST_LABELS,
  type ChecklistItem,
  type ChecklistItemId,
  type ChecklistState,
  PLATFORM_TEST_LABELS,
  type PlatformTestId,
  type PlatformTestResult,
  type PlatformTestState,
} from '~/domain/admin/checklist';
import { PLATFORM_TEST_MESSAGES } from '~/domain/admin/messages';
import { formatCount } from '~/domain/admin/stats';
import { isSmtpConfigured } from '~/domain/email/email-config';
import { missingPaymentKeys, PAYMENT_PROVIDER_LABELS } from '~/domain/payments/payment-config';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import type { SessionUser } from '../auth/session.server';
import { db } from '../db/client.server';
import { loadEmailConfig } from '../email/email-config.server';
import { smtpTransportOptions } from '../email/transport.server';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { providerFor } from '../payments/checkout.server';
import { handleCreateCheckoutRequest } from '../payments/checkout-api.server';
import { loadPaymentConfig } from '../payments/config.server';
import { sandboxMayTakePayments } from '../payments/sandbox-mode.server';
import { countAdmins } from '../users.server';
import { requireStaff } from './access.server';
import { colishipState } from './coliship.server';
import { getOrderDetails } from './orders.server';

/*
 * The Tests tab, computed from the real state of the shop (the prototype fixed half of it as
 * complete): the production checklist of 8 items, and the platform functionality test's probes.
 */

type Check = { state: ChecklistState; detail: string };

async function emailCheck(): Promise<Check> {
  const config = await loadEmailConfig();
  if (!isSmtpConfigured(config)) {
    return {
      state: 'incomplete',
      detail: 'Serveur SMTP, utilisateur et mot de passe à renseigner (Configuration Email).',
    };
  }
  const result = await db().execute<{ held: number; failed: number }>(sql`
    select
      (select count(*) from (select 1 from email_outbox where status = 'held' limit 1000) h)::int as held,
      (select count(*) from (select 1 from email_outbox where status = 'failed'
        and created_at > now() - interval '7 days' limit 1000) f)::int as failed`);
  const { held = 0, failed = 0 } = result.rows[0] ?? {};
  if (held > 0 || failed > 0) {
    return {
      state: 'warning',
      detail: `Configuré, mais ${held} email(s) en attente et ${failed} échec(s) ces 7 derniers jours (voir la boîte d’envoi).`,
    };
  }
  if (!config.enabled)
    return { state: 'warning', detail: 'Configuré, mais les notifications de statut aux clients sont désactivées.' };
  return { state: 'complete', detail: `Envoi par ${config.smtpHost}:${config.smtpPort} depuis ${config.senderEmail}.` };
}

/** A real probe: an anonymous request to the back office must be refused by its guard. */
async function accessControlCheck(): Promise<Check> {
  try {
    await requireStaff(new Request(`${baseUrl()}/admin`), 'dashboard');
    return { state: 'incomplete', detail: 'Une requête anonyme a été acceptée par le contrôle d’accès.' };
  } catch (refusal) {
    const status =
      refusal && typeof refusal === 'object' && 'init' in refusal
        ? (refusal as { init?: { status?: number } }).init?.status
        : undefined;
    if (status === 401) {
      return {
        state: 'complete',
        detail:
          'Chaque page et action de l’administration vérifie le rôle sur le serveur (requête anonyme refusée à l’instant).',
      };
    }
    return { state: 'warning', detail: 'Le contrôle d’accès a répondu de façon inattendue.' };
  }
}

async function guestCheckoutCheck(): Promise<Check> {
  // Whether any guest ordered (the index on user_id answers it at once); the feature itself is always on.
  const result = await db().execute(sql`select 1 from orders where user_id is null limit 1`);
  return {
    state: 'complete',
    detail:
      result.rows.length > 0
        ? 'Les clients peuvent commander sans compte, et certains l’ont fait.'
        : 'Les clients peuvent commander sans compte (aucune commande d’invité pour l’instant).',
  };
}

/** Gapless numbering: this year's counter equals the number of invoices of this year. */
async function invoicesCheck(): Promise<Check> {
  const result = await db().execute<{ year: number; last: number | null; issued: number }>(sql`
    with y as (select extract(year from (now() at time zone 'Europe/Paris'))::int as year)
    select y.year,
      (select last from invoice_counters c where c.kind = 'invoice' and c.year = y.year) as last,
      -- A range of the unique index on number (an index-only count), not a LIKE.
      (select count(*) from invoices i
        where i.number >= 'FA-' || y.year || '-' and i.number < 'FA-' || y.year || '-~')::int as issued
    from y`);
  const row = result.rows[0];
  const last = Number(row?.last ?? 0);
  const issued = Number(row?.issued ?? 0);
  if (last === issued) {
    return {
      state: 'complete',
      detail:
        issued > 0
          ? `${formatCount(issued)} facture(s) émise(s) en ${row?.year}, numérotation continue.`
          : 'Les factures sont émises au paiement, numérotées sans trou (aucune cette année pour l’instant).',
    };
  }
  return {
    state: 'warning',
    detail: `Numérotation ${row?.year} à vérifier : compteur ${last}, ${issued} facture(s) enregistrée(s).`,
  };
}

/**
 * Live keys count as done only once the gateway has accepted them: Stripe answers an
 * authenticated call (the provider's probe); Monetico has no such call, so its keys count once a
 * payment notification sealed with them has been received (a paid Monetico payment).
 */
async function paymentKeysCheck(): Promise<Check> {
  const config = await loadPaymentConfig();
  const label = PAYMENT_PROVIDER_LABELS[config.type];
  if (config.type === 'sandbox') {
    return sandboxMayTakePayments()
      ? { state: 'warning', detail: `${label} : aucun paiement réel n’est encaissé.` }
      : { state: 'incomplete', detail: SANDBOX_POLICY_MESSAGES.adminBanner['sandbox-disabled'] };
  }
  if (missingPaymentKeys(config).length > 0)
    return { state: 'incomplete', detail: `${label} : clés de paiement à renseigner.` };
  if (config.testMode) return { state: 'warning', detail: `${label} configuré en mode test.` };
  if (config.type === 'stripe') {
    const probe = await providerFor('stripe', config).probe();
    return probe.configured
      ? { state: 'complete', detail: `${label} a accepté les clés de production.` }
      : { state: 'incomplete', detail: `${label} n’a pas accepté les clés de production : ${probe.message}` };
  }
  const sealed = await db().execute<{ one: number }>(
    sql`select 1 as one from payments where provider = 'monetico' and status = 'paid' limit 1`,
  );
  return sealed.rows.length > 0
    ? { state: 'complete', detail: `${label} : clés de production confirmées par un paiement reçu.` }
    : {
        state: 'warning',
        detail: `${label} : clés de production enregistrées, confirmées au premier paiement reçu (Monetico n’offre pas de vérification).`,
      };
}

async function adminCheck(): Promise<Check> {
  const n = await countAdmins();
  return n > 0
    ? { state: 'complete', detail: `${n} compte(s) administrateur.` }
    : { state: 'incomplete', detail: 'Aucun administrateur.' };
}

function httpsCheck(): Check {
  const url = baseUrl();
  return url.startsWith('https://')
    ? { state: 'complete', detail: `${url} : cookies sécurisés, connexion chiffrée.` }
    : { state: 'warning', detail: `${url} n’est pas en HTTPS : définissez BASE_URL avec l’adresse publique en https.` };
}

async function carrierCheck(): Promise<Check> {
  const state = await colishipState();
  if (state === 'verified') return { state: 'complete', detail: 'Identifiants acceptés par le service Colissimo.' };
  if (state === 'stored') return { state: 'warning', detail: 'Identifiants enregistrés mais pas encore validés.' };
  return { state: 'incomplete', detail: 'Identifiants Coliship à renseigner (Configuration Coliship).' };
}

const CHECKS: Record<ChecklistItemId, () => Promise<Check> | Check> = {
  email: emailCheck,
  'access-control': accessControlCheck,
  'guest-checkout': guestCheckoutCheck,
  invoices: invoicesCheck,
  'payment-keys': paymentKeysCheck,
  admin: adminCheck,
  https: httpsCheck,
  carrier: carrierCheck,
};

export async function computeChecklist(): Promise<ChecklistItem[]> {
  const entries = Object.entries(CHECKS) as Array<[ChecklistItemId, () => Promise<Check> | Check]>;
  return Promise.all(
    entries.map(async ([id, check]): Promise<ChecklistItem> => {
      try {
        const { state, detail } = await check();
        return { id, label: CHECKLIST_LABELS[id], state, detail };
      } catch (error) {
        log.error({ err: error, item: id }, 'checklist item failed');
        return {
          id,
          label: CHECKLIST_LABELS[id],
          state: 'incomplete',
          detail: 'Vérification impossible (voir les journaux).',
        };
      }
    }),
  );
}

// --- platform functionality test --------------------------------------------------------------

type Probe = () => Promise<{ state: PlatformTestState; message: string }>;

async function timed(id: PlatformTestId, probe: Probe): Promise<PlatformTestResult> {
  const started = performance.now();
  let outcome: { state: PlatformTestState; message: string };
  try {
    outcome = await probe();
  } catch (error) {
    log.warn({ err: error, probe: id }, 'platform test probe failed');
    outcome = { state: 'error', message: (error as Error).message || 'Erreur' };
  }
  return { id, label: PLATFORM_TEST_LABELS[id], ...outcome, durationMs: Math.round(performance.now() - started) };
}

/** The connectivity test: a read of orders (count, limit 1). */
const databaseProbe: Probe = async () => {
  try {
    await db().execute(sql`select count(*) from (select 1 from orders limit 1) t`);
    return { state: 'success', message: PLATFORM_TEST_MESSAGES.databaseOk };
  } catch {
    return { state: 'error', message: PLATFORM_TEST_MESSAGES.databaseError };
  }
};

/** Order functions: the details of the latest order, as the order dialog reads them. */
const ordersProbe: Probe = async () => {
  const latest = await db().execute<{ id: string }>(
    sql`select id from orders order by created_at desc nulls last limit 1`,
  );
  const id = latest.rows[0]?.id;
  if (!id) return { state: 'warning', message: PLATFORM_TEST_MESSAGES.noTestOrder };
  const details = await getOrderDetails(id);
  return details
    ? { state: 'success', message: `${PLATFORM_TEST_MESSAGES.orderFunctionsOk} (commande ${details.number})` }
    : { state: 'error', message: PLATFORM_TEST_MESSAGES.orderFunctionsError };
};

/** The payment probe: create-checkout with `test: true`, with the admin's session. */
function paymentsProbe(request: Request): Probe {
  return async () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    const cookie = request.headers.get('cookie');
    if (cookie) headers.set('cookie', cookie);
    const response = await handleCreateCheckoutRequest(
      new Request(`${baseUrl()}/api/create-checkout`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ test: true }),
      }),
    );
    const body = (await response.json().catch(() => ({}))) as { message?: string; error?: string; testMode?: boolean };
    if (!response.ok) return { state: 'warning', message: PLATFORM_TEST_MESSAGES.paymentKeys };
    return {
      state: body.testMode ? 'warning' : 'success',
      message: `${PLATFORM_TEST_MESSAGES.paymentOk}${body.message ? ` : ${body.message}` : ''}${body.testMode ? ' (mode test)' : ''}`,
    };
  };
}

/** The e-mail service: connects and authenticates to the SMTP server (nothing is sent). */
const emailProbe: Probe = async () => {
  const config = await loadEmailConfig();
  if (!isSmtpConfigured(config)) return { state: 'warning', message: PLATFORM_TEST_MESSAGES.emailConfig };
  const transport = nodemailer.createTransport(smtpTransportOptions(config, { timeoutMs: 8_000 }));
  try {
    await transport.verify();
    return { state: 'success', message: `${PLATFORM_TEST_MESSAGES.emailOk} (${config.smtpHost})` };
  } catch (error) {
    return { state: 'error', message: `Connexion SMTP impossible : ${(error as Error).message}` };
  } finally {
    transport.close();
  }
};

/** Runs every probe (in parallel) and reports each. */
export async function runPlatformTests(
  request: Request,
  admin: Pick<SessionUser, 'email'>,
): Promise<PlatformTestResult[]> {
  const sessionProbe: Probe = async () => ({
    state: 'success',
    message: `${PLATFORM_TEST_MESSAGES.sessionOk} (${admin.email})`,
  });
  return Promise.all([
    timed('database', databaseProbe),
    timed('session', sessionProbe),
    timed('orders', ordersProbe),
    timed('payments', paymentsProbe(request)),
    timed('email', emailProbe),
  ]);
}

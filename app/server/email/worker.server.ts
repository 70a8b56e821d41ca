import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { isSmtpConfigured } from '~/domain/email/email-config';
import { db } from '../db/client.server';
import { emailOutbox, orderEvents } from '../db/schema';
import { log } from '../log.server';
import { OUTBOX_CHANNEL } from './constants.server';
import { type DkimSigning, loadDkim } from './dkim.server';
import { type LoadedEmailConfig, loadEmailConfig } from './email-config.server';
import { type MailHold, readMailHold, waitingMessages } from './mail-hold.server';
import { sealClearOutboxLinks } from './outbox.server';
import { revealEmailData } from './sealed-data.server';
import { InvalidEmailDataError, isSensitiveTemplate, renderEmail } from './templates/registry';
import { classifySmtpError, type SmtpOverrides, sendOverSmtp } from './transport.server';

/*
 * The outbox worker (docs/decisions/031-email-outbox.md). It runs in every app process:
 *  - a row is claimed in a one-statement transaction (FOR UPDATE SKIP LOCKED) that counts the
 *    attempt and pushes next_at out by a lease, so that other processes skip it while it is sent;
 *  - the message is rendered and sent outside any transaction (no connection held during SMTP);
 *  - the outcome is written: sent (with the provider's message id), retry later (30 s doubling),
 *    failed (8th attempt, or a permanent rejection of the recipient or message), or held
 *    (credentials refused, or no usable SMTP configuration) until the configuration is saved.
 * A process that dies mid-send leaves the row to be sent again when the lease ends: at-least-once,
 * with a stable Message-ID so that the duplicate is recognisable.
 * On a restored or copied database the whole outbox is held until an operator releases it
 * (mail-hold.server.ts): no row is claimed, each pass only looks whether the hold is still there.
 */

export interface EmailWorkerOptions {
  /** Longest sleep between two looks at the outbox (ms). A commit that queues a row wakes it sooner. */
  pollMs?: number;
  /** Delay before the first retry (ms), doubled at each further failure. */
  backoffMs?: number;
  maxAttempts?: number;
  /** How long a claimed row stays invisible to other workers (ms): longer than any SMTP exchange. */
  leaseMs?: number;
  /** LISTEN to the commit-time notifications of enqueueEmail (a dedicated connection). */
  listen?: boolean;
  smtp?: SmtpOverrides;
}

type ResolvedOptions = Required<EmailWorkerOptions>;

const DEFAULTS: ResolvedOptions = {
  pollMs: 5_000,
  backoffMs: 30_000,
  maxAttempts: 8,
  leaseMs: 5 * 60_000,
  listen: true,
  smtp: {},
};

function resolveOptions(options: EmailWorkerOptions): ResolvedOptions {
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
}

type ClaimedRow = {
  id: string;
  to: string;
  template: string;
  data: unknown;
  attempts: number;
  order_id: string | null;
};

async function claimNext(leaseMs: number): Promise<ClaimedRow | null> {
  const result = await db().execute<ClaimedRow>(sql`
    update email_outbox
    set attempts = attempts + 1, next_at = now() + make_interval(secs => ${leaseMs / 1000})
    where id = (
      select id from email_outbox
      where status = 'queued' and next_at <= now()
      order by next_at, created_at
      limit 1
      for update skip locked
    )
    returning id, "to", template, data, attempts, order_id`);
  return result.rows[0] ?? null;
}

/** Only the worker that holds the claim (same attempt count, still queued) may write the outcome. */
function claimed(row: ClaimedRow) {
  return and(eq(emailOutbox.id, row.id), eq(emailOutbox.attempts, row.attempts), eq(emailOutbox.status, 'queued'));
}

const REDACTED = { redacted: true };

async function markSent(row: ClaimedRow, providerMessageId: string): Promise<void> {
  await db().transaction(async (tx) => {
    const updated = await tx
      .update(emailOutbox)
      .set({
        status: 'sent',
        sentAt: sql`now()`,
        providerMessageId,
        lastError: null,
        ...(isSensitiveTemplate(row.template) ? { data: REDACTED } : {}),
      })
      .where(claimed(row))
      .returning({ id: emailOutbox.id });
    if (updated.length > 0 && row.order_id) {
      await tx.insert(orderEvents).values({
        orderId: row.order_id,
        actor: 'system',
        kind: 'email_sent',
        data: { outboxId: row.id, template: row.template, to: row.to },
      });
    }
  });
}

async function markFailed(row: ClaimedRow, error: string): Promise<void> {
  await db()
    .update(emailOutbox)
    .set({ status: 'failed', lastError: error, ...(isSensitiveTemplate(row.template) ? { data: REDACTED } : {}) })
    .where(claimed(row));
}

async function markHeld(row: ClaimedRow, error: string): Promise<void> {
  await db().update(emailOutbox).set({ status: 'held', lastError: error }).where(claimed(row));
}

async function scheduleRetry(row: ClaimedRow, error: string, delayMs: number): Promise<void> {
  await db()
    .update(emailOutbox)
    .set({ lastError: error, nextAt: sql`now() + make_interval(secs => ${delayMs / 1000})` })
    .where(claimed(row));
}

export type Outcome = 'sent' | 'retry' | 'failed' | 'held';

export const UNUSABLE_CONFIG_ERROR =
  'Configuration SMTP incomplète ou mot de passe illisible : enregistrez à nouveau la configuration email.';

async function processRow(
  row: ClaimedRow,
  { config, dkim }: { config: LoadedEmailConfig; dkim: DkimSigning | null },
  options: ResolvedOptions,
): Promise<{ outcome: Outcome; connectionProblem: boolean }> {
  if (!isSmtpConfigured(config)) {
    await markHeld(row, UNUSABLE_CONFIG_ERROR);
    return { outcome: 'held', connectionProblem: false };
  }
  let rendered: Awaited<ReturnType<typeof renderEmail>>;
  try {
    // Private links are stored encrypted: decrypted here, only to send (sealed-data.server.ts).
    rendered = await renderEmail(row.template, revealEmailData(row.template, row.data));
  } catch (error) {
    // Data that does not fit its template will not fit it later either.
    const message = error instanceof InvalidEmailDataError ? error.message : `Rendering failed: ${String(error)}`;
    log.error({ outboxId: row.id, template: row.template, err: error }, 'e-mail could not be rendered');
    await markFailed(row, message);
    return { outcome: 'failed', connectionProblem: false };
  }
  try {
    const result = await sendOverSmtp(config, { ...rendered, to: row.to, messageKey: row.id, dkim }, options.smtp);
    await markSent(row, result.messageId);
    log.info({ outboxId: row.id, template: row.template, attempt: row.attempts }, 'e-mail sent');
    return { outcome: 'sent', connectionProblem: false };
  } catch (error) {
    const failure = classifySmtpError(error);
    if (failure.kind === 'rejected') {
      log.warn({ outboxId: row.id, template: row.template, reason: failure.reason }, 'e-mail rejected by the server');
      await markFailed(row, failure.reason);
      return { outcome: 'failed', connectionProblem: false };
    }
    if (failure.kind === 'auth') {
      log.error({ outboxId: row.id, reason: failure.reason }, 'SMTP credentials refused: e-mails held');
      await markHeld(row, `Identifiants SMTP refusés : ${failure.reason}`);
      return { outcome: 'held', connectionProblem: true };
    }
    const connectionProblem = !(error as { responseCode?: number }).responseCode;
    if (row.attempts >= options.maxAttempts) {
      log.error({ outboxId: row.id, attempts: row.attempts, reason: failure.reason }, 'e-mail failed for good');
      await markFailed(row, failure.reason);
      return { outcome: 'failed', connectionProblem };
    }
    const delayMs = options.backoffMs * 2 ** (row.attempts - 1);
    log.warn({ outboxId: row.id, attempt: row.attempts, delayMs, reason: failure.reason }, 'e-mail will be retried');
    await scheduleRetry(row, failure.reason, delayMs);
    return { outcome: 'retry', connectionProblem };
  }
}

export interface DrainResult {
  sent: number;
  retry: number;
  failed: number;
  held: number;
}

/**
 * Sends every due message, one claim at a time, until none is due. Stops early when the SMTP
 * server cannot be reached (the next messages would only wait for the same time-out).
 * Usable without the worker (scripts, tests). Sends nothing while the outgoing mail is held.
 */
export async function drainOutbox(
  options: EmailWorkerOptions = {},
  shouldContinue: () => boolean = () => true,
): Promise<DrainResult> {
  if (await readMailHold()) return { sent: 0, retry: 0, failed: 0, held: 0 };
  return drainDue(resolveOptions(options), shouldContinue);
}

async function drainDue(resolved: ResolvedOptions, shouldContinue: () => boolean): Promise<DrainResult> {
  const counts: DrainResult = { sent: 0, retry: 0, failed: 0, held: 0 };
  let settings: { config: LoadedEmailConfig; dkim: DkimSigning | null } | undefined;
  while (shouldContinue()) {
    const row = await claimNext(resolved.leaseMs);
    if (!row) break;
    settings ??= { config: await loadEmailConfig(), dkim: await loadDkim() };
    const { outcome, connectionProblem } = await processRow(row, settings, resolved);
    counts[outcome]++;
    if (connectionProblem) break;
  }
  return counts;
}

/** Milliseconds until the next queued row is due (0 if one is due now), or null when none is queued. */
async function msUntilNextDue(): Promise<number | null> {
  // Not greatest(0, …) in SQL: PostgreSQL's greatest ignores a null, so an empty outbox said « due
  // now » and the idle worker queried the database a hundred times a second.
  const result = await db().execute<{ ms: number | null }>(sql`
    select (extract(epoch from (min(next_at) - now())) * 1000)::float8 as ms
    from email_outbox where status = 'queued'`);
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, Number(ms));
}

// --- the in-process worker -------------------------------------------------------------------

interface WorkerState {
  options: ResolvedOptions;
  running: boolean;
  wakeRequested: boolean;
  wakeUp: (() => void) | null;
  loop: Promise<void>;
  listener: pg.Client | null;
  reconnectTimer: NodeJS.Timeout | null;
  startedAt: Date;
  /** The hold this worker last saw (logged once when it appears and when it is lifted). */
  hold: MailHold | null;
}

// One worker per process: the startup starts it and the pages wake it, in the one copy of this
// module the server bundle holds (docs/decisions/033).
let processWorker: WorkerState | undefined;

function current(): WorkerState | undefined {
  return processWorker;
}

function wake(state: WorkerState): void {
  if (state.wakeUp) state.wakeUp();
  else state.wakeRequested = true;
}

function sleep(state: WorkerState, ms: number): Promise<void> {
  if (state.wakeRequested || !state.running) {
    state.wakeRequested = false;
    return Promise.resolve();
  }
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      state.wakeUp = null;
      done();
    };
    const timer = setTimeout(finish, ms);
    state.wakeUp = finish;
  });
}

async function runLoop(state: WorkerState): Promise<void> {
  try {
    const sealed = await sealClearOutboxLinks();
    if (sealed > 0) log.info({ sealed }, 'e-mail outbox: private links of older rows encrypted');
  } catch (error) {
    log.error({ err: error }, 'e-mail outbox: older rows could not be sealed (retried at next start)');
  }
  while (state.running) {
    let pause = state.options.pollMs;
    try {
      if (await noticeHold(state)) {
        // Each pass that sent nothing because of the hold, for whoever debugs (and the tests' signal).
        log.debug('e-mail worker: pass skipped, outgoing e-mail held');
        await sleep(state, pause);
        continue;
      }
      await drainDue(state.options, () => state.running);
      const nextDue = await msUntilNextDue();
      // A retry due before the next poll is taken on time (and a row due now at once).
      if (nextDue !== null) pause = Math.min(pause, Math.max(nextDue, 10));
    } catch (error) {
      log.error({ err: error }, 'e-mail worker: pass failed (database unavailable?)');
    }
    await sleep(state, pause);
  }
}

/**
 * Whether the outgoing mail is held now. The worker says so once when it finds the hold (the
 * operator's sign, and the tests' proof that a pass ran and sent nothing) and once when it is lifted.
 */
async function noticeHold(state: WorkerState): Promise<boolean> {
  const hold = await readMailHold();
  if (hold && hold.since !== state.hold?.since) {
    log.warn(
      { reason: hold.reason, since: hold.since, source: hold.source, waiting: await waitingMessages() },
      'e-mail worker: outgoing e-mail is held, nothing sent until it is released',
    );
  } else if (!hold && state.hold) {
    log.info({ since: state.hold.since }, 'e-mail worker: outgoing e-mail released, sending resumes');
  }
  state.hold = hold;
  return hold !== null;
}

function scheduleReconnect(state: WorkerState): void {
  if (!state.running || state.reconnectTimer) return;
  state.reconnectTimer = setTimeout(() => {
    state.reconnectTimer = null;
    void listen(state);
  }, state.options.pollMs);
}

async function listen(state: WorkerState): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  if (!state.running || !connectionString) return;
  const client = new pg.Client({ connectionString });
  let lost = false;
  const onLost = () => {
    if (lost) return;
    lost = true;
    if (state.listener === client) state.listener = null;
    client.end().catch(() => {});
    scheduleReconnect(state);
  };
  client.on('error', onLost);
  client.on('end', onLost);
  client.on('notification', () => wake(state));
  try {
    await client.connect();
    await client.query(`listen ${OUTBOX_CHANNEL}`);
  } catch (error) {
    log.warn({ err: error }, 'e-mail worker: LISTEN failed, polling only until it reconnects');
    onLost();
    return;
  }
  if (!state.running) {
    lost = true;
    await client.end().catch(() => {});
    return;
  }
  state.listener = client;
  // Rows committed while we were not listening.
  wake(state);
}

/** Starts the outbox worker of this process (once; later calls are no-ops while it runs). */
export function startEmailWorker(options: EmailWorkerOptions = {}): void {
  if (current()) return;
  const state: WorkerState = {
    options: resolveOptions(options),
    running: true,
    wakeRequested: false,
    wakeUp: null,
    loop: Promise.resolve(),
    listener: null,
    reconnectTimer: null,
    startedAt: new Date(),
    hold: null,
  };
  processWorker = state;
  state.loop = runLoop(state);
  if (state.options.listen) void listen(state);
  log.info({ pollMs: state.options.pollMs }, 'e-mail worker started');
}

/**
 * Whether this process sends the outbox's e-mails, and since when: the back office's outbox warns
 * when nothing sends them (routes/admin/api/emails.ts).
 */
export function emailWorkerStatus(): { running: boolean; startedAt: string | null } {
  const state = current();
  return { running: Boolean(state?.running), startedAt: state?.startedAt.toISOString() ?? null };
}

/** Stops the worker after the message in flight, if any; call before closeDatabase(). */
export async function stopEmailWorker(): Promise<void> {
  const state = current();
  if (!state) return;
  processWorker = undefined;
  state.running = false;
  if (state.reconnectTimer) clearTimeout(state.reconnectTimer);
  state.reconnectTimer = null;
  wake(state);
  const listener = state.listener;
  state.listener = null;
  await Promise.all([state.loop, listener?.end().catch(() => {})]);
}

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { log } from '../log.server';
import { pool } from './client.server';

/*
 * Messages between the instances of the shop that share one PostgreSQL (docs/operations.md,
 * « Several instances »): what one process caches (HTML pages, WordPress answers, dashboard figures) must be
 * forgotten by every process when it changes. A message is a PostgreSQL NOTIFY on one channel; each
 * process LISTENs on a dedicated connection (not the pool's: a pooled connection is handed to
 * queries and LISTEN belongs to one session).
 *
 * NOTIFY is not stored: a process whose connection is down misses what is sent meanwhile. So when
 * the listener connects again after losing its connection, it tells its owner (onReconnect), who
 * forgets everything it caches. The caches' own time limits stay as the last safety net.
 */

export const BROADCAST_CHANNEL = 'soovenirs_broadcast';

export type BroadcastMessage =
  | { topic: 'page-version'; page: 'priceList' | 'content' }
  | { topic: 'content'; prefix?: string }
  | { topic: 'dashboard-stats' }
  // Someone's access may have changed: open notification streams are checked again.
  | { topic: 'staff-access' };

interface Envelope {
  from: string;
  message: BroadcastMessage;
}

export interface BroadcastListener {
  /** Resolves once LISTEN is in place (the first time). */
  ready: Promise<void>;
  /** Whether the dedicated connection is currently listening. */
  listening(): boolean;
  stop(): Promise<void>;
}

export interface ListenerOptions {
  connectionString: string;
  /** This process's id: its own messages are not handed back (it applied them already). */
  origin: string;
  onMessage(message: BroadcastMessage): void;
  /** Called after the connection came back: messages may have been missed. */
  onReconnect(): void;
  /** First delay before connecting again; doubled up to maxDelayMs. */
  retryDelayMs?: number;
  maxDelayMs?: number;
  /** How often the idle connection is probed, so that a silently dropped one is noticed. */
  heartbeatMs?: number;
}

export function createBroadcastListener({
  connectionString,
  origin,
  onMessage,
  onReconnect,
  retryDelayMs = 250,
  maxDelayMs = 5_000,
  heartbeatMs = 15_000,
}: ListenerOptions): BroadcastListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let connectedOnce = false;
  let listening = false;
  let delay = retryDelayMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const handle = (notification: pg.Notification) => {
    if (notification.channel !== BROADCAST_CHANNEL || !notification.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(notification.payload) as Envelope;
    } catch {
      log.warn('broadcast: unreadable message ignored');
      return;
    }
    if (envelope.from === origin) return;
    try {
      onMessage(envelope.message);
    } catch (error) {
      log.error({ err: error, topic: envelope.message?.topic }, 'broadcast: a message could not be applied');
    }
  };

  const lost = (current: pg.Client, error?: unknown) => {
    if (client !== current) return; // already handled
    client = undefined;
    listening = false;
    clearInterval(heartbeat);
    current.removeAllListeners('notification');
    current.on('error', () => {}); // a late error on a connection we dropped is not a crash
    current.end().catch(() => {});
    if (stopped) return;
    log.warn({ err: error, retryInMs: delay }, 'broadcast: listening connection lost, connecting again');
    schedule();
  };

  const schedule = () => {
    retryTimer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, maxDelayMs);
  };

  const connect = async () => {
    if (stopped) return;
    const current = new pg.Client({ connectionString, keepAlive: true });
    client = current;
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current));
    current.on('notification', handle);
    try {
      await current.connect();
      await current.query(`listen ${BROADCAST_CHANNEL}`);
    } catch (error) {
      lost(current, error);
      return;
    }
    if (stopped || client !== current) return;
    listening = true;
    delay = retryDelayMs;
    heartbeat = setInterval(() => {
      current.query('select 1').catch((error) => lost(current, error));
    }, heartbeatMs);
    heartbeat.unref();
    if (connectedOnce) {
      log.info('broadcast: listening again; caches of this process emptied');
      try {
        onReconnect();
      } catch (error) {
        log.error({ err: error }, 'broadcast: the caches could not be emptied after a reconnection');
      }
    }
    connectedOnce = true;
    markReady();
  };

  void connect();
  return {
    ready,
    listening: () => listening,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      listening = false;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('notification');
        await current.end().catch(() => {});
      }
      markReady();
    },
  };
}

/** Sends a message to every listening process (this one's listener skips it). */
export async function sendBroadcast(
  message: BroadcastMessage,
  origin = processOrigin(),
  client: Pick<pg.Pool, 'query'> = pool(),
): Promise<void> {
  const envelope: Envelope = { from: origin, message };
  await client.query('select pg_notify($1, $2)', [BROADCAST_CHANNEL, JSON.stringify(envelope)]);
}

/**
 * Sends a message after the change was applied here; a failure (database down) is logged, not
 * thrown: the change is made, and the other instances' caches expire on their own (60 s at most).
 */
export async function broadcast(message: BroadcastMessage): Promise<void> {
  if (!process.env.DATABASE_URL) return; // a process without a database (unit tests) has no peers
  try {
    await sendBroadcast(message);
  } catch (error) {
    log.warn({ err: error, topic: message.topic }, 'broadcast: the other instances could not be told');
  }
}

// One listener and one id per process (the server bundle loads this module once: docs/decisions/033).
type State = { origin: string; listener?: BroadcastListener };
const processState: State = { origin: randomUUID() };

function state(): State {
  return processState;
}

export function processOrigin(): string {
  return state().origin;
}

/** Starts this process's listener (once) and waits until it listens. */
export async function startBroadcastListener(
  options: Pick<ListenerOptions, 'onMessage' | 'onReconnect'>,
): Promise<BroadcastListener> {
  const s = state();
  if (!s.listener) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL is not set: the database was not started.');
    s.listener = createBroadcastListener({ connectionString, origin: s.origin, ...options });
  }
  await s.listener.ready;
  return s.listener;
}

export async function stopBroadcastListener(): Promise<void> {
  const s = state();
  const listener = s.listener;
  s.listener = undefined;
  await listener?.stop();
}

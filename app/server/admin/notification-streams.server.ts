import { and, eq, gt, inArray } from 'drizzle-orm';
import { toRole } from '~/domain/account/session-user';
import { can } from '~/domain/staff/permissions';
import { broadcast } from '../db/broadcast.server';
import { db } from '../db/client.server';
import { session, user } from '../db/schema';
import { log } from '../log.server';

/*
 * The open notification streams of this process, by session (docs/decisions/020): a stream lives
 * only as long as the access that opened it.
 *
 *  - At most STREAMS_PER_SESSION streams per session: a further one is refused (429), not the
 *    oldest closed, which would make a fourth open tab and the others take the stream from each
 *    other every few seconds. A tab that closes or reloads gives its stream back at once.
 *  - Every stream's session is checked again when access may have changed (a member deactivated,
 *    a role changed, a session ended: staffAccessChanged, here and in every instance through the
 *    LISTEN/NOTIFY channel of db/broadcast.server.ts) and every STREAM_RECHECK_MS anyway (what no
 *    message announces: a session that expired, a change made straight in the database). A
 *    session that no longer exists, or whose member is deactivated or lost the `dashboard`
 *    capability, has its streams closed; the browser's reconnection then meets the door.
 */

// A member keeps a handful of tabs of the back office open (each holds one); one session that
// opened 898 of them stalled the shop.
export const STREAMS_PER_SESSION = 8;
export const STREAM_RECHECK_MS = 60_000;

/** Why a stream is ended: its access is gone, or this instance is stopping (the client should reconnect). */
export type StreamEnd = 'access' | 'draining';
type Close = (why?: StreamEnd) => void;

interface Registry {
  bySession: Map<string, Set<Close>>;
  timer: NodeJS.Timeout | null;
  /** The check under way, and whether another must follow it (a change arrived meanwhile). */
  running: Promise<void> | null;
  again: boolean;
}

// One registry per process (the server bundle loads this module once: docs/decisions/033).
const theRegistry: Registry = { bySession: new Map(), timer: null, running: null, again: false };

function registry(): Registry {
  return theRegistry;
}

/**
 * Takes one of the session's stream slots: `close` is called when the session's access no longer
 * holds. Returns the function that gives the slot back (when the stream ends for any reason), or
 * null when the session already has STREAMS_PER_SESSION streams open.
 */
export function openStreamSlot(sessionId: string, close: Close, recheckMs = STREAM_RECHECK_MS): Close | null {
  const r = registry();
  const streams = r.bySession.get(sessionId) ?? new Set<Close>();
  if (streams.size >= STREAMS_PER_SESSION) return null;
  streams.add(close);
  r.bySession.set(sessionId, streams);
  if (!r.timer) {
    r.timer = setInterval(() => void recheckStreams(), recheckMs);
    r.timer.unref();
  }
  return () => {
    streams.delete(close);
    if (streams.size === 0 && r.bySession.get(sessionId) === streams) r.bySession.delete(sessionId);
    if (r.bySession.size === 0 && r.timer) {
      clearInterval(r.timer);
      r.timer = null;
    }
  };
}

/**
 * This instance is stopping (server/drain.ts): every stream it holds ends now, each telling its
 * browser to reconnect soon (to another instance behind the proxy), instead of holding the shutdown
 * until the connections are cut. Returns how many were ended.
 */
export function endAllStreams(): number {
  const closes = [...registry().bySession.values()].flatMap((streams) => [...streams]);
  for (const close of closes) close('draining');
  return closes.length;
}

/** How many streams this process holds open for the session (all sessions without one). */
export function openStreamCount(sessionId?: string): number {
  const { bySession } = registry();
  if (sessionId !== undefined) return bySession.get(sessionId)?.size ?? 0;
  let total = 0;
  for (const streams of bySession.values()) total += streams.size;
  return total;
}

/** The sessions among `ids` whose member may still read the notifications. */
async function sessionsStillHolding(ids: string[]): Promise<Set<string>> {
  const rows = await db()
    .select({ id: session.id, role: user.role, banned: user.banned })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(inArray(session.id, ids), gt(session.expiresAt, new Date())));
  return new Set(rows.filter((row) => row.banned !== true && can(toRole(row.role), 'dashboard')).map((row) => row.id));
}

async function checkOnce(): Promise<void> {
  const { bySession } = registry();
  const ids = [...bySession.keys()];
  if (ids.length === 0) return;
  const holding = await sessionsStillHolding(ids);
  for (const id of ids) {
    if (holding.has(id)) continue;
    const streams = bySession.get(id);
    if (!streams) continue;
    log.info({ sessionId: id, streams: streams.size }, 'notification streams closed: their access ended');
    for (const close of [...streams]) close();
  }
}

/**
 * Checks every open stream's session now. A check asked while one runs is made again after it (the
 * running one may have read the rows before the change). A failure (database down) is logged; the
 * next change or the periodic check tries again.
 */
export function recheckStreams(): Promise<void> {
  const r = registry();
  if (r.running) {
    r.again = true;
    return r.running;
  }
  r.running = (async () => {
    do {
      r.again = false;
      try {
        await checkOnce();
      } catch (error) {
        log.warn({ err: error }, 'notification streams: their sessions could not be checked');
      }
    } while (r.again);
    r.running = null;
  })();
  return r.running;
}

/**
 * Someone's access may have changed (deactivation, role, sign-out, revoked sessions): the streams
 * of this process are checked at once, and the other instances are told to check theirs.
 */
export async function staffAccessChanged(): Promise<void> {
  await Promise.all([recheckStreams(), broadcast({ topic: 'staff-access' })]);
}

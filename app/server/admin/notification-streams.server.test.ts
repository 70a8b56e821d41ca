import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { loader, TOO_MANY_STREAMS_MESSAGE } from '~/routes/admin/api/notifications-stream';
import { auth } from '../auth/auth.server';
import { db } from '../db/client.server';
import { session } from '../db/schema';
import { setUserRole } from '../users.server';
import { openStreamCount, openStreamSlot, STREAMS_PER_SESSION } from './notification-streams.server';
import { changeStaffMember } from './staff.server';

/*
 * The notification stream ends with the access that opened it (docs/decisions/020): deactivation,
 * sign-out, a session gone; and a session cannot hold more than STREAMS_PER_SESSION of them.
 */

const BASE = 'http://localhost:3000';
process.env.BASE_URL = BASE;
const PASSWORD = 'Tournesol-Bleu-42-Atelier';

let counter = 0;
async function staffMember(role: 'admin' | 'atelier'): Promise<{ id: string; cookie: string }> {
  counter += 1;
  const email = `equipe${counter}-${Date.now()}@example.fr`;
  const { user } = await auth().api.signUpEmail({
    body: { acceptTerms: true, email, password: PASSWORD, name: 'Membre' } as never,
  });
  await setUserRole(email, role);
  const response = await auth().api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.includes('session_token='));
  if (!cookie) throw new Error('no session cookie');
  return { id: user.id, cookie };
}

const opened: AbortController[] = [];
afterEach(() => {
  for (const controller of opened.splice(0)) controller.abort();
});

/** Opens the stream as the browser's EventSource would; returns its reader, the first chunk read. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  opened.push(controller);
  const request = new Request(`${BASE}/admin/api/notifications/flux`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const response = (await loader({ request, params: {}, context: {} } as never)) as Response;
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('retry:');
  return { reader, abort: () => controller.abort() };
}

async function refusal(cookie: string): Promise<{ status: number; data: unknown }> {
  try {
    await openStream(cookie);
  } catch (error) {
    const thrown = error as { init?: { status?: number }; data?: unknown; status?: number };
    return { status: thrown.init?.status ?? thrown.status ?? 0, data: thrown.data };
  }
  throw new Error('expected the stream to be refused');
}

describe('the notification stream', () => {
  it('is checked again on its own, without any message: a session deleted in the database ends it', async () => {
    expect(openStreamCount()).toBe(0);
    const member = await staffMember('atelier');
    const [row] = await db().select({ id: session.id }).from(session).where(eq(session.userId, member.id));
    const closed = new Promise<void>((resolve) => {
      const release = openStreamSlot(
        row?.id ?? '',
        () => {
          release?.();
          resolve();
        },
        50,
      );
    });
    await db().delete(session).where(eq(session.userId, member.id));
    await closed;
  });

  it('closes the open stream of a member deactivated from « Équipe », at once', async () => {
    const owner = await staffMember('admin');
    const member = await staffMember('atelier');
    const { reader } = await openStream(member.cookie);

    const result = await changeStaffMember({ actorId: owner.id, userId: member.id, change: { kind: 'deactivate' } });
    expect(result.ok).toBe(true);

    // No more orders or names: the stream is over (the member's reconnection meets the door).
    expect((await reader.read()).done).toBe(true);
    expect(openStreamCount()).toBe(0);
    expect((await refusal(member.cookie)).status).toBe(401);
  });

  it('closes on sign-out', async () => {
    const member = await staffMember('atelier');
    const { reader } = await openStream(member.cookie);
    await auth().api.signOut({ headers: new Headers({ cookie: member.cookie }) });
    expect((await reader.read()).done).toBe(true);
  });

  it('keeps the streams of the other members open', async () => {
    const owner = await staffMember('admin');
    const member = await staffMember('atelier');
    const other = await staffMember('atelier');
    const kept = await openStream(other.cookie);
    const { reader } = await openStream(member.cookie);
    await changeStaffMember({ actorId: owner.id, userId: member.id, change: { kind: 'deactivate' } });
    expect((await reader.read()).done).toBe(true);
    expect(openStreamCount()).toBe(1);
    kept.abort();
  });

  it(`refuses a ${STREAMS_PER_SESSION + 1}th stream of one session with 429, and takes one again once a tab closed`, async () => {
    const member = await staffMember('atelier');
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await openStream(member.cookie));
    const refused = await refusal(member.cookie);
    expect(refused).toEqual({ status: 429, data: { message: TOO_MANY_STREAMS_MESSAGE } });

    // Another member's session is not held back by this one's tabs.
    const other = await staffMember('atelier');
    await openStream(other.cookie);

    streams[0]?.abort();
    await openStream(member.cookie);
  });
});

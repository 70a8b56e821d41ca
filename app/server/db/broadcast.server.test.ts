import { afterEach, describe, expect, it } from 'vitest';
import { applyBroadcast } from '~/server/shared-caches.server';
import { pageVersionKey } from '../page-versions.server';
import {
  type BroadcastListener,
  type BroadcastMessage,
  createBroadcastListener,
  sendBroadcast,
} from './broadcast.server';
import { pool } from './client.server';

// Two listeners in this process stand for two instances of the shop on the test database.

const listeners: BroadcastListener[] = [];

function instance(origin: string, onMessage: (m: BroadcastMessage) => void = () => {}) {
  const received: BroadcastMessage[] = [];
  let reconnections = 0;
  const listener = createBroadcastListener({
    connectionString: process.env.DATABASE_URL as string,
    origin,
    onMessage: (message) => {
      received.push(message);
      onMessage(message);
    },
    onReconnect: () => {
      reconnections++;
    },
    retryDelayMs: 50,
    maxDelayMs: 200,
  });
  listeners.push(listener);
  return { listener, received, reconnections: () => reconnections };
}

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.stop()));
});

describe('messages between instances', () => {
  it('reach every other instance, not the sender', async () => {
    const a = instance('instance-a');
    const b = instance('instance-b', applyBroadcast);
    await Promise.all([a.listener.ready, b.listener.ready]);
    const before = pageVersionKey();

    await sendBroadcast({ topic: 'page-version', page: 'priceList' }, 'instance-a');
    await expect.poll(() => b.received).toEqual([{ topic: 'page-version', page: 'priceList' }]);
    // B's cached pages are keyed by a new version: they render afresh.
    expect(pageVersionKey()).not.toBe(before);

    await sendBroadcast({ topic: 'content', prefix: '/faq' }, 'instance-b');
    await expect.poll(() => a.received).toEqual([{ topic: 'content', prefix: '/faq' }]);
    expect(b.received).toHaveLength(1);
  });

  it('listen again after losing their connection, and say that messages may have been missed', async () => {
    const a = instance('instance-a');
    const b = instance('instance-b');
    await Promise.all([a.listener.ready, b.listener.ready]);

    // What a database restart does to every session.
    const { rowCount } = await pool().query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'listen soovenirs_broadcast'`,
    );
    expect(rowCount).toBe(2);
    await expect.poll(() => b.reconnections()).toBe(1);
    await expect.poll(() => a.reconnections()).toBe(1);
    expect(b.listener.listening()).toBe(true);

    await sendBroadcast({ topic: 'dashboard-stats' }, 'instance-a');
    await expect.poll(() => b.received).toEqual([{ topic: 'dashboard-stats' }]);
  });

  it('stop listening when stopped', async () => {
    const a = instance('instance-a');
    await a.listener.ready;
    await a.listener.stop();
    expect(a.listener.listening()).toBe(false);
    const { rows } = await pool().query(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and query = 'listen soovenirs_broadcast'`,
    );
    expect(rows[0].n).toBe(0);
  });
});

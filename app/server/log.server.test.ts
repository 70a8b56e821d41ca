import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_LIMITS, REDACTED } from './log.server';

/** The app's logger writing into memory: the lines exactly as the log collector would get them. */
function capture() {
  const lines: string[] = [];
  let pending = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
      callback();
    },
  });
  return { log: createLogger(stream, { level: 'debug', pretty: false }), lines };
}

const SESSION_TOKEN = 'Zt8vQk3mN0pLr7sXw2yAb9cD4eF6gH1j';
const PASSWORD = 'Cheval-Batterie-Agrafe-42';
const LINE_MAX = LOG_LIMITS.lineChars + 4_000;

describe('the log', () => {
  it('keeps a 3,8 MB update-user request out: bounded line, none of its data', () => {
    const { log, lines } = capture();
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(350_000)}`;
    const payload = {
      name: 'Jeanne Martin',
      image,
      password: PASSWORD,
      extra: Array.from({ length: 5000 }, (_, i) => i),
    };
    expect(JSON.stringify(payload).length).toBeGreaterThan(3_800_000);
    // As auth.server.ts passes Better Auth's arguments on, and as a route might log what it received.
    log.error({ source: 'better-auth', details: [{ body: payload }, payload] }, 'update-user failed');
    log.warn({ input: payload, headers: { cookie: `soovenirs.session_token=${SESSION_TOKEN}` } }, 'invalid input');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.length).toBeLessThan(LINE_MAX);
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(SESSION_TOKEN);
      expect(line).not.toContain('iVBORw0KGgo'.repeat(200));
      expect(() => JSON.parse(line)).not.toThrow();
    }
    const first = JSON.parse(lines[0] ?? '');
    expect(first.msg).toBe('update-user failed');
    expect(first.details[0].body).toBe(REDACTED);
    expect(first.details[1].password).toBe(REDACTED);
    expect(first.details[1].name).toBe('Jeanne Martin');
  });

  it('keeps the session token of a failed query out (Better Auth during a database outage)', () => {
    const { log, lines } = capture();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = new Error(
      `Failed query: select "id", "token", "user_id" from "session" where "session"."token" = $1\nparams: ${SESSION_TOKEN}`,
      { cause },
    );
    Object.assign(error, {
      query: 'select … where "session"."token" = $1',
      params: [SESSION_TOKEN],
      sessionToken: SESSION_TOKEN,
    });
    log.error({ source: 'better-auth', details: [error] }, 'Failed to get session');
    log.error(error);
    log.error(
      { err: error, authorization: `Bearer ${SESSION_TOKEN}` },
      `request with Authorization: Bearer ${SESSION_TOKEN}`,
    );
    log.info(`cookie soovenirs.session_token=${SESSION_TOKEN}; reset token=${SESSION_TOKEN}`);
    log.child({ token: SESSION_TOKEN }).warn({ password: PASSWORD }, 'child logger');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(line).not.toContain(SESSION_TOKEN);
      expect(line).not.toContain(PASSWORD);
    }
    // What an operator needs stays: the error, its code, where it failed.
    const logged = JSON.parse(lines[0] ?? '').details[0];
    expect(logged.type).toBe('Error');
    expect(logged.message).toContain('Failed query: select');
    expect(logged.cause.code).toBe('ECONNREFUSED');
    const second = JSON.parse(lines[1] ?? '');
    expect(second.err.message).toContain('Failed query');
    expect(second.err.stack).toMatch(/\n\s+at /);
  });

  it('keeps what an operator needs: ids, statuses, e-mail addresses of the shop', () => {
    const { log, lines } = capture();
    log.info(
      { orderId: 'SV000042', sessionId: 'cs_test_1', status: 'paid', provider: 'stripe' },
      'payment session created',
    );
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ orderId: 'SV000042', sessionId: 'cs_test_1', status: 'paid' });
  });

  it('cuts long messages, wide objects, long arrays and deep nesting', () => {
    const { log, lines } = capture();
    let deep: Record<string, unknown> = { leaf: 'fond' };
    for (let i = 0; i < 100; i++) deep = { deeper: deep };
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`field${i}`, 'x'.repeat(500)]));
    log.info({ deep, wide, list: Array.from({ length: 100_000 }, () => 'y') }, 'z'.repeat(200_000));
    const line = lines[0] ?? '';
    expect(line.length).toBeLessThan(LINE_MAX);
    const parsed = JSON.parse(line);
    expect(parsed.msg.length).toBeLessThan(LOG_LIMITS.stringChars + 50);
  });
});

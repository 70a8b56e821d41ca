import fs from 'node:fs/promises';
import http from 'node:http';
import fc from 'fast-check';
import pg from 'pg';
import { beforeEach, expect, onTestFailed } from 'vitest';
import { randomIp } from './auth';
import { startServer, type TestServer } from './server';
import { type SharedServer, sharedServerOutput } from './shared-shop';

/*
 * Bad input, sent over real HTTP to the real server: fast-check generators of malformed, oversized
 * and hostile values, the requests that carry them (form posts as a browser without JavaScript
 * sends them, JSON as the API's callers do) and the checks every answer must pass: never a 5xx, a
 * French message when refused, nothing stored, no script reflected.
 */

// ---------------------------------------------------------------------------------------------
// Generators

export const SCRIPT = '<script>alert(1)</script>';
export const IMG = '"><img src=x onerror=alert(1)>';

/** Values that broke real web apps: injection, encodings, numbers at the edges, look-alikes. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  SCRIPT,
  IMG,
  `<svg onload=alert(1)>`,
  'javascript:alert(1)',
  "' OR 1=1 --",
  "'; DROP TABLE orders; --",
  '" OR ""="',
  '1); SELECT pg_sleep(0); --',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uFFFE\uFFFF',
  '🎞️📼👨‍👩‍👧‍👦',
  'שלום\u202Eabc',
  'مرحبا بالعالم',
  '\u200B\u200D\uFEFF',
  'Z̴̡̧̛͔͙̜̰̳̩̦̰̘̗͂͊̈́̈́̆͊̽͘a̷̡̡̛̛̳̯̼̩̹͈̤̠̰̬̭͕̭̫̞̅̓̄̊̾͐̅͂̕ͅl̴g̵o̴',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '-0',
  '1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999999999999999',
  '-99999999999',
  '1.5',
  '1,5',
  '0x1F',
  '١٢٣',
  '１２３',
  '%00',
  '%E0%A4%A',
  '../../../etc/passwd',
  '//evil.example/',
  'https://evil.example/',
  '{{7*7}}',
  // A template placeholder, on purpose: a server that evaluated it would answer 49.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is the literal text
  '${7*7}',
  'test@example.fr',
  'a@b',
  '"<>"@example.fr',
  `${SCRIPT}@example.fr`,
  'admin',
  'on',
  'x'.repeat(300),
];

/** Huge values: 1 KB, 10 KB and 100 KB, in one-byte, two-byte and four-byte characters. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(1_000, 10_000, 100_000), fc.constantFrom('A', 'é', '🎞', SCRIPT, '9'))
  .map(([size, unit]) => unit.repeat(Math.ceil(size / unit.length)));

/** Numbers written as text: huge, negative, fractional, NaN, infinities, big integers. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.integer({ min: -5, max: 200_000 }).map(String),
);

const plainString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** One hostile text value of reasonable size, sometimes two glued together. */
export const smallHostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: plainString },
  { weight: 2, arbitrary: numberText },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_STRINGS), plainString).map(([a, b]) => `${a}${b}${a}`),
  },
);

/** One hostile text value, of any of the kinds above, huge ones included. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: smallHostileString },
  { weight: 1, arbitrary: hugeString },
);

/** A JSON value with hostile leaves: wrong types wherever a caller expects a string or a number. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'email', '$where', ''), tie('value'), {
      maxKeys: 3,
    }),
  ),
})).value;

/** Bodies that are not JSON at all, or JSON of the wrong shape. */
export const MALFORMED_JSON: readonly string[] = [
  '',
  '{',
  '{"orderId":',
  '{"a":1,}',
  "{'a':1}",
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '[{}]',
  'undefined',
  'NaN',
  '1e999999',
  '\u0000',
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  `{"a":"${'\\ud800'}"}`,
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":"${'x'.repeat(100_000)}"}`,
  SCRIPT,
  'a=1&b=2',
];

/** A JSON body: an object with the endpoint's fields (each possibly missing, or of a wrong type), or worse. */
export function jsonBody(fields: readonly string[]): fc.Arbitrary<string> {
  const record = fc
    .tuple(
      fc.tuple(...fields.map((name) => fc.option(fc.tuple(fc.constant(name), hostileJson), { nil: undefined }))),
      fc.dictionary(
        hostileString.filter((key) => key.length < 50),
        hostileJson,
        { maxKeys: 2 },
      ),
    )
    .map(([known, extra]) => {
      const body: Record<string, unknown> = { ...extra };
      for (const entry of known) if (entry) body[entry[0]] = entry[1];
      return body;
    });
  return fc.oneof(
    { weight: 6, arbitrary: record.map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
  );
}

export type FormEntries = Array<[string, string]>;

export interface FormOptions {
  /**
   * No huge values. For posts that the server refuses before reading their body (an unknown order,
   * a page without a form): Node then leaves a large body unread and the connection stalls until
   * its keep-alive timeout (a defect of the server, not of the page under test; closeWhenBodyUnread
   * in server/app.ts deals with it).
   */
  small?: boolean;
}

/**
 * Form fields as a browser would post them, and as a forger would: each named field missing,
 * present once, or repeated (an array for a scalar), with hostile values; some unknown fields too.
 */
export function formFields(
  fields: readonly string[],
  fixed: Record<string, fc.Arbitrary<string>> = {},
  { small = false }: FormOptions = {},
): fc.Arbitrary<FormEntries> {
  const any = small ? smallHostileString : hostileString;
  const field = (name: string) => {
    const value = fixed[name] ?? any;
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant([] as FormEntries) },
      { weight: 5, arbitrary: value.map((v) => [[name, v]] as FormEntries) },
      {
        weight: 1,
        arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => [name, v]) as FormEntries),
      },
    );
  };
  return fc
    .tuple(
      fc.tuple(...fields.map(field)),
      fc.array(fc.tuple(fc.oneof(smallHostileString, fc.constantFrom('a.b.c', '__proto__.x', 'x[]')), any), {
        maxLength: 2,
      }),
    )
    .map(([known, extra]) => [...known.flat(), ...(extra as FormEntries)]);
}

/** Each byte as a form body writes it: unreserved characters as they are, the others as %XX. */
const PERCENT_ENCODED: readonly string[] = Array.from({ length: 256 }, (_, byte) => {
  const c = String.fromCharCode(byte);
  return /[A-Za-z0-9*\-._]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
});

/**
 * Percent-encodes the UTF-8 bytes of a text (a lone surrogate becomes U+FFFD, as a browser sends it).
 * From a table: a regular expression per byte was the bad-input files' largest cost in the test process.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += PERCENT_ENCODED[byte];
  return out;
}

/** Endings that no browser sends: broken escapes, invalid UTF-8, empty names. */
export const RAW_FORM_TAILS: readonly string[] = [
  '',
  '',
  '',
  '&%E0%A4%A=1',
  '&x=%FF%FE%FD',
  '&x=%ED%A0%80',
  '&%=%',
  '&&&=&',
  '&novalue',
  '&=orphan',
  '&x=%C0%AF',
  '&x=%',
];

export function encodeForm(entries: FormEntries, rawTail = ''): string {
  return entries.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&') + rawTail;
}

/** How a form body is labelled: mostly right, sometimes not a form at all. */
export const FORM_CONTENT_TYPES: readonly (string | null)[] = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded;charset=UTF-8',
  'application/json',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  null,
];

export const JSON_CONTENT_TYPES: readonly (string | null)[] = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data',
  null,
];

/** A complete form post: fields, a content type and maybe a broken tail. */
export function formPost(
  fields: readonly string[],
  fixed: Record<string, fc.Arbitrary<string>> = {},
  options: FormOptions = {},
): fc.Arbitrary<{ body: string; contentType: string | null }> {
  return fc
    .tuple(
      formFields(fields, fixed, options),
      fc.constantFrom(...RAW_FORM_TAILS),
      fc.constantFrom(...FORM_CONTENT_TYPES),
    )
    .map(([entries, tail, contentType]) => ({ body: encodeForm(entries, tail), contentType }));
}

export function jsonPost(fields: readonly string[]): fc.Arbitrary<{ body: string; contentType: string | null }> {
  return fc
    .tuple(jsonBody(fields), fc.constantFrom(...JSON_CONTENT_TYPES))
    .map(([body, contentType]) => ({ body, contentType }));
}

/**
 * A path segment of garbage, percent-encoded so that it reaches the router. Kept under 1.5 KB once
 * encoded (an address may repeat it): beyond Node's 16 KB of headers its HTTP parser refuses the
 * request with a 431 before the app sees it (server/client-errors.ts only puts that answer in
 * French).
 */
export const garbageSegment: fc.Arbitrary<string> = fc.oneof(
  fc
    .oneof(
      smallHostileString,
      hugeString.map((s) => [...s].slice(0, 120).join('')),
    )
    .map((s) =>
      percentEncode(s)
        .slice(0, 1500)
        .replace(/%[0-9A-F]?$/, ''),
    ),
  fc.constantFrom('%C3%A9t%C3%A9', '%EF%BF%BD', '00000000-0000-0000-0000-000000000000', '..%2F..%2F', '%2E%2E%2Fadmin'),
);

/**
 * Escapes that do not decode: in a query string the page must cope; in a path, Express refuses them
 * itself before any page runs, and server/app.ts answers in French instead of Express's English
 * "Bad Request" page.
 */
export const BROKEN_ESCAPES: readonly string[] = ['%E0%A4%A', '%FF', '%', '%%', '%C0%AF', '%ED%A0%80', '%zz'];

/** A query value of garbage: any garbage segment, or escapes that do not decode. */
export const garbageQueryValue: fc.Arbitrary<string> = fc.oneof(garbageSegment, fc.constantFrom(...BROKEN_ESCAPES));

// ---------------------------------------------------------------------------------------------
// Requests

export interface SendOptions {
  method?: string;
  body?: string;
  contentType?: string | null;
  cookie?: string;
  /** The Origin header: the server's own by default, as a browser posting a form sends it. */
  origin?: string | null;
  headers?: Record<string, string>;
}

/**
 * One request as a client would make it, from a random client address: Better Auth's per-address
 * limits (kept in the database) then count each request apart, as thousands of visitors would.
 */
export async function send(server: { url: string }, path: string, options: SendOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'x-forwarded-for': randomIp(), ...options.headers };
  if (options.body !== undefined && options.contentType) headers['content-type'] = options.contentType;
  const origin = options.origin === undefined ? server.url : options.origin;
  if (origin) headers.origin = origin;
  if (options.cookie) headers.cookie = options.cookie;
  const request = () =>
    fetch(`${server.url}${path}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      redirect: 'manual',
      headers,
      body: options.body,
    });
  try {
    return await request();
  } catch (error) {
    // After answering a large body early (before reading it all), Node closes that connection;
    // fetch may already have picked it for the next request, which then fails before reaching the
    // server. A browser retries such a request on a new connection: so do we, once.
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return request();
  }
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Milliseconds from the first byte sent to the whole answer received. */
  ms: number;
  /** The client's port: two requests with the same one shared a connection. */
  localPort: number | undefined;
}

export interface RawRequest {
  method?: string;
  headers?: http.OutgoingHttpHeaders;
  /** Sent in this order; the sending stops once the server has closed the connection. */
  body?: Iterable<Buffer>;
  agent?: http.Agent;
}

/**
 * A request through node:http rather than fetch: it sends any method (fetch refuses TRACE), a
 * chunked body of any size, and reports an answer that arrives while the body is still being sent,
 * as a browser does when a server refuses an upload early.
 */
export function rawRequest(url: string, { method = 'GET', headers, body, agent }: RawRequest = {}): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let localPort: number | undefined;
    const req = http.request(url, { method, headers, agent: agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
          localPort,
        }),
      );
    });
    req.on('socket', (socket) => {
      if (socket.localPort) localPort = socket.localPort;
      else socket.once('connect', () => (localPort = socket.localPort));
    });
    // The server closes the connection while the rest of a refused body is on its way: the answer
    // counts, these errors of the sending side do not.
    let answered = false;
    req.on('response', () => {
      answered = true;
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) return;
      // The rest of a refused body cannot be sent: wait for the answer already on its way.
      if (error.code === 'EPIPE') return;
      reject(error);
    });
    req.on('close', () => {
      if (!answered) reject(new Error(`${method} ${url}: connection closed without an answer`));
    });
    void (async () => {
      for (const chunk of body ?? []) {
        // Like a browser, stop sending once the server has answered (a 413 arrives mid-body).
        if (answered || req.destroyed || req.socket?.destroyed) return;
        if (!req.write(chunk)) {
          await new Promise<void>((resume) => {
            const go = () => {
              req.off('drain', go).off('close', go);
              resume();
            };
            req.on('drain', go).on('close', go);
          });
        }
      }
      if (!req.destroyed) req.end();
    })();
  });
}

/** The resident memory of a process, in bytes (VmRSS of /proc/<pid>/status). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

// ---------------------------------------------------------------------------------------------
// Checks

const ENGLISH_ERRORS =
  /Internal Server Error|Bad Request|Unexpected (token|end|Server)|Not Found|Method Not Allowed|Payload Too Large|Forbidden|Unauthorized|SyntaxError|TypeError|ReferenceError|is not a function|Cannot read|stack trace|\bat [\w.<>]+ \(|Invalid (input|email|body|request)|Expected \w+, received/i;
const FRENCH_WORDS =
  /\b(le|la|les|de|des|du|une?|est|vous|votre|veuillez|invalide|requête|introuvable|erreur|autorisée?|méthode|trop|adresse|mot de passe|commande|réessayer|indiquez|choisissez|connecté|requis)\b/i;
const FRENCH_LETTERS = /[àâçéèêëîïôûùüÿœ]/i;

/** Whether a message reads as French (an accent or a French word) and carries no English error. */
export function isFrench(text: string): boolean {
  return !ENGLISH_ERRORS.test(text) && (FRENCH_LETTERS.test(text) || FRENCH_WORDS.test(text));
}

/** The page's visible text: no tags, no scripts. */
export function pageText(html: string): string {
  return (
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      // What the visitor typed, shown back in the form, is theirs, not the page's message.
      .replace(/<textarea[\s\S]*?<\/textarea>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
  );
}

/** The script-bearing forms of the hostile payloads, which must never come back unescaped in HTML. */
const REFLECTED = ['<script>alert(1)', '<img src=x onerror=alert(1)>', '<svg onload=alert(1)>'];

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
  location: string | null;
  setCookies: string[];
}

/** Reads an answer once and checks what every answer must satisfy: no 5xx, no script reflected. */
export async function readAnswer(response: Response, what: string): Promise<Answer> {
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const shown = contentType.includes('html') ? pageText(text) : text;
  const context = `${clip(what, 400)} -> ${response.status} ${contentType}\n${clip(shown, 800)}`;
  expect(response.status, context).toBeLessThan(500);
  if (contentType.includes('html')) {
    for (const payload of REFLECTED) expect(text.includes(payload), `${payload} reflected: ${context}`).toBe(false);
  }
  let json: unknown = null;
  if (contentType.includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return {
    status: response.status,
    contentType,
    text,
    json,
    location: response.headers.get('location'),
    setCookies: response.headers.getSetCookie(),
  };
}

/** The message a refused answer gives: JSON `error` or `message`, a page's text, or plain text. */
export function refusalMessage(answer: Answer): string {
  if (answer.json && typeof answer.json === 'object') {
    const record = answer.json as { error?: unknown; message?: unknown };
    if (typeof record.error === 'string') return record.error;
    if (typeof record.message === 'string') return record.message;
    return '';
  }
  if (answer.contentType.includes('html')) return pageText(answer.text);
  return answer.text;
}

/** A refused request (4xx other than a redirect or "not modified") must say why in French. */
export function expectFrenchRefusal(answer: Answer, what: string): void {
  if (answer.status < 400) return;
  const message = refusalMessage(answer);
  expect(isFrench(message), `${clip(what, 400)} -> ${answer.status}: not French: ${clip(message, 400)}`).toBe(true);
  if (answer.contentType.includes('html')) expect(answer.text).toMatch(/<html[^>]*lang="fr"/);
}

// ---------------------------------------------------------------------------------------------
// What the database holds

/** Tables a request might write to; rate-limit counters and sessions' last-seen are not data. */
export const STORED_TABLES = [
  'user',
  'account',
  'session',
  'orders',
  'order_items',
  'order_events',
  'payments',
  'payment_events',
  'invoices',
  'credit_notes',
  'quotes',
  'email_outbox',
  'contact_messages',
  'notifications',
  'config_options',
  'price_lists',
] as const;

export type RowCounts = Record<(typeof STORED_TABLES)[number], number>;

const COUNT_SQL = `select ${STORED_TABLES.map((t) => `(select count(*)::int from "${t}") as "${t}"`).join(', ')}`;

export class Database {
  private constructor(readonly client: pg.Client) {}

  static async open(url: string): Promise<Database> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new Database(client);
  }

  async counts(): Promise<RowCounts> {
    return (await this.client.query(COUNT_SQL)).rows[0] as RowCounts;
  }

  async query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []) {
    return (await this.client.query<T>(sql, params)).rows;
  }

  close() {
    return this.client.end();
  }
}

/** The environment of a bad-input file's server: request limits raised so that thousands of requests get real answers. */
const FUZZ_ENV = {
  POST_RATE_LIMIT: '1000000',
  CHECKOUT_RATE_LIMIT: '1000000',
  CONTACT_RATE_LIMIT: '1000000',
  // Bad input reaches the sandbox's payment page and notifications: a demo shop lets them take payments.
  PAYMENT_SANDBOX: 'on',
};

/** A server of its own for a bad-input file (one that reads the server's output, or changes shop-wide settings). */
export function startFuzzServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({ env: { ...FUZZ_ENV, ...env } });
}

/**
 * Each property sends a few hundred requests and counts every table around each: about a minute on
 * a busy 2-core machine, so a describe of properties gets three (a 5xx or a stored refusal still
 * fails at once). A property cut by the test's timeout would go on sending in the background and
 * make the next test's counts wrong.
 */
export const PROPERTY_TIME = { timeout: 180_000 };

/**
 * Half of a property's nominal runs by default: the bad-input files were the longest of the e2e
 * project (about 2 minutes of a 15-minute CI). Every run draws new inputs (fast-check seeds from the
 * clock and prints the seed of a failure), so successive CI runs explore further than one long run
 * would. FUZZ_RUNS multiplies the nominal count instead (1 for the full count, 0.2 for a quick look,
 * 5 for a long night).
 */
const DEFAULT_FUZZ_FACTOR = 0.5;

export function runs(n: number): number {
  const factor = Number(process.env.FUZZ_RUNS ?? DEFAULT_FUZZ_FACTOR);
  return Math.max(1, Math.round(n * (Number.isFinite(factor) && factor > 0 ? factor : DEFAULT_FUZZ_FACTOR)));
}

/**
 * Checks a property over `numRuns` generated inputs; the seed and the shrunk counterexample are
 * printed on failure (fast-check's default), so a failure can be replayed.
 */
export async function property<T>(arbitrary: fc.Arbitrary<T>, numRuns: number, check: (value: T) => Promise<void>) {
  const details = await fc.check(fc.asyncProperty(arbitrary, check), { numRuns: runs(numRuns), endOnFailure: true });
  if (!details.failed) return;
  // A 100 KB counterexample would bury the message: its beginning, the cause and the seed suffice.
  const example = clip(fc.stringify(details.counterexample), 1500);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath}")\n` +
      `Counterexample: ${example}\nCause: ${clip(cause, 3000)}`,
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** A failure's cause is often in the server's own log (a stack trace, an exit): shows its end. */
export function showServerLogOnFailure(server: () => TestServer | SharedServer | undefined): void {
  beforeEach(() => {
    onTestFailed(async () => {
      const running = server();
      if (!running) return;
      if (!('process' in running)) {
        console.error(`shared server's output (end):\n${(await sharedServerOutput(running)).slice(-4000)}`);
        return;
      }
      const { exitCode, signalCode } = running.process;
      console.error(`server exit: ${exitCode} ${signalCode}; output (end):\n${running.output().slice(-4000)}`);
    });
  });
}

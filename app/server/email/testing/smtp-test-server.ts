import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/*
 * A real SMTP peer for the integration tests (smtp-server, in this process): TLS with a self-signed
 * certificate for 127.0.0.1, STARTTLS (as on port 587) or implicit TLS (as on 465), password
 * authentication, recipients it may refuse, and a record of what it received.
 */

export interface ReceivedMessage {
  envelopeFrom: string;
  envelopeTo: string[];
  /** Whether the session was encrypted when the message was sent. */
  secure: boolean;
  user: string | undefined;
  headers: Map<string, string>;
  subject: string;
  html: string;
  text: string;
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  /** PEM of the self-signed certificate: the CA the client must trust. */
  cert: string;
  username: string;
  password: string;
  messages: ReceivedMessage[];
  /** Stops listening (connections refused) until start() is called again, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /**
   * The first message to `to` (an envelope recipient) that `matches`, already received or when it
   * arrives (the peer signals each arrival: no polling); rejects after `timeoutMs`.
   */
  waitForMail(
    to: string,
    matches?: (message: ReceivedMessage) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMessage>;
}

export interface TestSmtpServerOptions {
  mode: 'starttls' | 'tls';
  username?: string;
  password?: string;
  /** A recipient for which this returns a text is refused with 550 and that text. */
  refuseRecipient?: (address: string) => string | null;
}

let certificate: Promise<{ key: string; cert: string }> | undefined;

function selfSignedCertificate() {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

// --- a small MIME reader (enough for what nodemailer writes) ----------------------------------

function splitHeadersAndBody(raw: string): [Map<string, string>, string] {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return [headers, body];
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i] as string;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function collectParts(headers: Map<string, string>, body: string, out: { html: string; text: string }): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const [partHeaders, partBody] = splitHeadersAndBody(part.replace(/^\r\n/, ''));
      collectParts(partHeaders, partBody.replace(/\r\n$/, ''), out);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (/^text\/html/i.test(type)) out.html = decoded;
  else if (/^text\/plain/i.test(type)) out.text = decoded;
}

function parseMessage(raw: string, session: SMTPServerSession): ReceivedMessage {
  const [headers, body] = splitHeadersAndBody(raw);
  const parts = { html: '', text: '' };
  collectParts(headers, body, parts);
  return {
    envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
    envelopeTo: session.envelope.rcptTo.map((r) => r.address),
    secure: session.secure,
    user: typeof session.user === 'string' ? session.user : undefined,
    headers,
    subject: decodeHeader(headers.get('subject') ?? ''),
    html: parts.html,
    text: parts.text,
    raw,
  };
}

// --- the server -------------------------------------------------------------------------------

export async function startTestSmtpServer(options: TestSmtpServerOptions): Promise<TestSmtpServer> {
  const { key, cert } = await selfSignedCertificate();
  const username = options.username ?? 'shop@soovenirs.test';
  const password = options.password ?? 'S3cret-p@ss-smtp';
  const messages: ReceivedMessage[] = [];
  // 'message' after each arrival, for the waits below.
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  /** Resolves with `find()`'s first answer, now or after an arrival; rejects after timeoutMs. */
  const waitUntil = <T>(find: () => T | undefined, timeoutMs: number, failure: () => string) =>
    new Promise<T>((resolve, reject) => {
      const now = find();
      if (now !== undefined) return resolve(now);
      const check = () => {
        const found = find();
        if (found === undefined) return;
        clearTimeout(timer);
        arrivals.off('message', check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        arrivals.off('message', check);
        reject(new Error(failure()));
      }, timeoutMs);
      arrivals.on('message', check);
    });
  let server: SMTPServer | undefined;
  let port = 0;

  const create = () =>
    new SMTPServer({
      secure: options.mode === 'tls',
      key,
      cert,
      logger: false,
      banner: 'Soovenirs test SMTP',
      authMethods: ['PLAIN', 'LOGIN'],
      // Implicit TLS has no STARTTLS; on "587" the client must upgrade before authenticating.
      disabledCommands: options.mode === 'tls' ? ['STARTTLS'] : [],
      allowInsecureAuth: false,
      onAuth(auth, _session, callback) {
        if (auth.username === username && auth.password === password) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
      },
      onRcptTo(address, _session, callback) {
        const refusal = options.refuseRecipient?.(address.address);
        if (refusal) return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
        return callback();
      },
      onData(stream: SMTPServerDataStream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          messages.push(parseMessage(Buffer.concat(chunks).toString('utf8'), session));
          callback(null, `Message queued as Q${messages.length}`);
          arrivals.emit('message');
        });
      },
    });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const instance = create();
      instance.on('error', () => {});
      instance.server.once('error', reject);
      instance.listen(port, '127.0.0.1', () => {
        port = (instance.server.address() as AddressInfo).port;
        server = instance;
        resolve();
      });
    });

  await listen();

  return {
    get port() {
      return port;
    },
    cert,
    username,
    password,
    messages,
    stop: () =>
      new Promise<void>((resolve) => {
        const instance = server;
        server = undefined;
        if (!instance) return resolve();
        instance.close(() => resolve());
      }),
    start: listen,
    waitForMessages(count, timeoutMs = 10_000) {
      return waitUntil(
        () => (messages.length >= count ? messages : undefined),
        timeoutMs,
        () => `expected ${count} message(s), received ${messages.length} within ${timeoutMs} ms`,
      );
    },
    waitForMail(to, matches = () => true, timeoutMs = 20_000) {
      return waitUntil(
        () => messages.find((m) => m.envelopeTo.includes(to) && matches(m)),
        timeoutMs,
        () =>
          `no such e-mail to ${to} within ${timeoutMs} ms (subjects received for it: ${
            messages
              .filter((m) => m.envelopeTo.includes(to))
              .map((m) => `« ${m.subject} »`)
              .join(', ') || 'none'
          }; ${messages.length} in all)`,
      );
    },
  };
}

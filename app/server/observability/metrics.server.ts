import http from 'node:http';
import { EVENTS } from '@tus/server';
import type { Counter, Histogram, Registry } from 'prom-client';
import { pool } from '~/server/db/client.server';
import { outboxBacklog } from '~/server/email/outbox.server';
import { measureDisk } from '~/server/files/disk-space.server';
import { localFilesRoot, s3SettingsFromEnv } from '~/server/files/storage.server';
import { uploadServerWatchers } from '~/server/files/uploads.server';
import { log } from '~/server/log.server';

/*
 * Prometheus metrics (prom-client), on a port of their own (METRICS_PORT, bound to METRICS_HOST,
 * 127.0.0.1 unless told otherwise) so that the public site never serves them: the operator's
 * scraper reaches that port, visitors do not. Off unless METRICS_PORT is set: prom-client is not
 * even loaded then, and every count below is one test of an undefined variable (decision 040).
 *
 * Counted where it happens: requests (server/app.ts through observeRequest), payments
 * (payments/notifications.server.ts), refunds (orders/refunds.server.ts), uploads (the tus
 * server's events). Read at scrape time: the database pool, the e-mail outbox, the data disk.
 */

interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
  payments: Counter<'provider' | 'outcome'>;
  refunds: Counter<'method' | 'outcome'>;
  uploads: Counter<'event'>;
  uploadBytes: Counter;
}

let metrics: Metrics | undefined;

type Backlog = Awaited<ReturnType<typeof outboxBacklog>>;
/**
 * The outbox read once per scrape for its two gauges (prom-client collects them side by side). A
 * database that does not answer leaves the last figures: the other metrics matter most then.
 */
let backlog: { at: number; value: Promise<Backlog> } | undefined;
let lastBacklog: Backlog = { queued: 0, held: 0, oldestQueuedSeconds: 0 };
function scrapedBacklog(): Promise<Backlog> {
  if (!backlog || Date.now() - backlog.at > 1_000) {
    const value = outboxBacklog().then(
      (read) => {
        lastBacklog = read;
        return read;
      },
      (error: unknown) => {
        log.warn({ err: error }, 'metrics: the outbox could not be read');
        return lastBacklog;
      },
    );
    backlog = { at: Date.now(), value };
  }
  return backlog.value;
}

/** The pool once the database is open (a scrape may come during the start). */
function openPool(): ReturnType<typeof pool> | undefined {
  try {
    return pool();
  } catch {
    return undefined;
  }
}

export function metricsEnabled(): boolean {
  return metrics !== undefined;
}

/** A request answered: its route's pattern (never the address), method, status and duration. */
export function countRequest(method: string, route: string, status: number, seconds: number): void {
  if (!metrics) return;
  const labels = { method, route, status: String(status) };
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, seconds);
}

/** A payment notification applied: `paid`, `failed`, `canceled`, `pending`, or why it was not (`duplicate`…). */
export function countPayment(provider: string, outcome: string): void {
  metrics?.payments.inc({ provider, outcome });
}

/** A refund made: `succeeded`, `pending` (the gateway confirms later), `due` (still owed), `failed`. */
export function countRefund(method: string, outcome: string): void {
  metrics?.refunds.inc({ method, outcome });
}

/** An upload `started`, `finished` or `refused` (its creation answered 4xx/5xx); bytes of the finished ones. */
export function countUpload(event: 'started' | 'finished' | 'refused', bytes = 0): void {
  if (!metrics) return;
  metrics.uploads.inc({ event });
  if (bytes > 0) metrics.uploadBytes.inc(bytes);
}

async function createMetrics(dataDir: string): Promise<Metrics> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new client.Counter({
    name: 'soovenirs_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new client.Histogram({
    name: 'soovenirs_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new client.Gauge({
    name: 'soovenirs_db_pool_connections',
    help: 'Connections of the PostgreSQL pool: total, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const p = openPool();
      if (!p) return;
      this.set({ state: 'total' }, p.totalCount);
      this.set({ state: 'idle' }, p.idleCount);
      this.set({ state: 'waiting' }, p.waitingCount);
    },
  });
  new client.Gauge({
    name: 'soovenirs_outbox_messages',
    help: 'E-mails in the outbox not sent yet: queued (to send) and held (until an operator releases them).',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const waiting = await scrapedBacklog();
      this.set({ status: 'queued' }, waiting.queued);
      this.set({ status: 'held' }, waiting.held);
    },
  });
  new client.Gauge({
    name: 'soovenirs_outbox_oldest_queued_age_seconds',
    help: 'Age of the oldest e-mail waiting to be sent (0 when none waits).',
    registers,
    async collect() {
      this.set((await scrapedBacklog()).oldestQueuedSeconds);
    },
  });
  const payments = new client.Counter({
    name: 'soovenirs_payments_total',
    help: 'Payment notifications applied, by gateway and outcome (paid, failed, canceled, pending, duplicate, ignored).',
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const refunds = new client.Counter({
    name: 'soovenirs_refunds_total',
    help: 'Refunds made, by method and outcome (succeeded, pending, due, failed).',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const uploads = new client.Counter({
    name: 'soovenirs_uploads_total',
    help: 'Resumable uploads started, finished, and refused at creation.',
    labelNames: ['event'] as const,
    registers,
  });
  const uploadBytes = new client.Counter({
    name: 'soovenirs_upload_bytes_total',
    help: 'Bytes of the uploads finished.',
    registers,
  });
  // The disks that can stop the shop: DATA_DIR's (the embedded PostgreSQL) and, without a bucket,
  // FILES_DIR's (the customers' files and the uploads under way, often a disk of its own).
  const disks: [string, string, () => string | null][] = [
    ['data_dir', 'DATA_DIR', () => dataDir],
    ['files_dir', 'FILES_DIR (without S3_BUCKET)', () => (s3SettingsFromEnv() ? null : localFilesRoot())],
  ];
  for (const [name, what, directory] of disks) {
    const measure = async () => {
      const dir = directory();
      return dir ? measureDisk(dir) : null;
    };
    new client.Gauge({
      name: `soovenirs_${name}_free_bytes`,
      help: `Free space of the filesystem holding ${what}, for the shop (blocks available to unprivileged users).`,
      registers,
      async collect() {
        const disk = await measure();
        if (disk) this.set(disk.freeBytes);
      },
    });
    new client.Gauge({
      name: `soovenirs_${name}_size_bytes`,
      help: `Size of the filesystem holding ${what}.`,
      registers,
      async collect() {
        const disk = await measure();
        if (disk) this.set(disk.totalBytes);
      },
    });
  }
  return { registry, requests, duration, payments, refunds, uploads, uploadBytes };
}

/**
 * Starts counting and serves GET /metrics on host:port (server/serve.ts, when METRICS_PORT is set).
 * Resolves once listening, with the server to close at shutdown.
 */
export async function startMetricsServer(options: { port: number; host: string; dataDir: string }) {
  const created = await createMetrics(options.dataDir);
  metrics = created;
  uploadServerWatchers.add((uploads) => {
    uploads.on(EVENTS.POST_CREATE, () => countUpload('started'));
    uploads.on(EVENTS.POST_FINISH, (_req, _res, upload) => countUpload('finished', upload.size ?? upload.offset));
  });
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics here.\n');
      return;
    }
    created.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': created.registry.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  log.info(
    { host: options.host, port: typeof address === 'object' && address ? address.port : options.port },
    'metrics served',
  );
  return server;
}

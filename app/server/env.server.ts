import { z } from 'zod';
import { parseDiskReserve } from '~/domain/files/disk-space';
import { PAYMENT_SANDBOX_SETTINGS } from '~/domain/payments/sandbox-policy';

function positiveInteger(name: string) {
  return z.coerce
    .number({ message: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be greater than 0`)
    .optional();
}

// Every setting the shop reads from its environment, checked once at start with clear messages.
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    BASE_URL: z.url({ message: 'BASE_URL must be an absolute URL such as https://soovenirs.fr' }).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters long').optional(),
    WORDPRESS_API_URL: z.url({ message: 'WORDPRESS_API_URL must be an absolute URL' }).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Read where they are used (their modules keep their defaults); checked here so that a typo
    // stops the start with a message instead of silently falling back to the default.
    TRUST_PROXY: z.string().min(1).optional(),
    APP_SECRET_PREVIOUS: z.string().min(32, 'APP_SECRET_PREVIOUS must be at least 32 characters long').optional(),
    DB_POOL_MAX: positiveInteger('DB_POOL_MAX'),
    POST_RATE_LIMIT: positiveInteger('POST_RATE_LIMIT'),
    CHECKOUT_RATE_LIMIT: positiveInteger('CHECKOUT_RATE_LIMIT'),
    CONTACT_RATE_LIMIT: positiveInteger('CONTACT_RATE_LIMIT'),
    CONTACT_EMAIL: z.email({ message: 'CONTACT_EMAIL must be an e-mail address' }).optional(),
    CONTENT_DIR: z.string().min(1).optional(),
    SMTP_CONNECT_PORT: z.coerce
      .number({ message: 'SMTP_CONNECT_PORT must be a port number' })
      .int()
      .min(1)
      .max(65535, 'SMTP_CONNECT_PORT must be a port number')
      .optional(),
    SMTP_TLS_REJECT_UNAUTHORIZED: z
      .enum(['true', 'false'], { message: 'SMTP_TLS_REJECT_UNAUTHORIZED must be true or false' })
      .optional(),
    STRIPE_API_URL: z.url({ protocol: /^https?$/, message: 'STRIPE_API_URL must be an absolute URL' }).optional(),
    // The built-in payment sandbox (payments/sandbox-mode.server.ts): off in production unless `on`.
    PAYMENT_SANDBOX: z
      .enum(PAYMENT_SANDBOX_SETTINGS, { message: 'PAYMENT_SANDBOX doit valoir on ou off (bac à sable de paiement)' })
      .optional(),
    COLISSIMO_API_URL: z.url({ protocol: /^https?$/, message: 'COLISSIMO_API_URL must be an absolute URL' }).optional(),
    // La Poste's tracking service (API Suivi v2) for the parcels' events; tests give a local peer.
    LAPOSTE_TRACKING_API_URL: z
      .url({ protocol: /^https?$/, message: 'LAPOSTE_TRACKING_API_URL must be an absolute URL' })
      .optional(),
    // At most one question to the carrier per parcel in this many minutes (page views and the job).
    TRACKING_REFRESH_MINUTES: z.coerce
      .number({ message: 'TRACKING_REFRESH_MINUTES must be a number of minutes' })
      .int('TRACKING_REFRESH_MINUTES must be a number of minutes')
      .min(0, 'TRACKING_REFRESH_MINUTES must be a number of minutes')
      .max(1440, 'TRACKING_REFRESH_MINUTES must be at most 1440 (a day)')
      .optional(),
    // The customers' files in S3-compatible object storage (files/storage.server.ts); without
    // S3_BUCKET they stay in DATA_DIR/files.
    S3_ENDPOINT: z
      .url({ protocol: /^https?$/, message: 'S3_ENDPOINT doit être une adresse complète (https://s3.exemple.fr)' })
      .optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET doit être un nom de compartiment S3 valide')
      .optional(),
    // How long a stopping instance (SIGTERM) keeps answering the requests under way, a slow upload
    // chunk included, before cutting them (server/drain.ts). Under the orchestrator's own limit
    // (systemd TimeoutStopSec, Kubernetes terminationGracePeriodSeconds), which must leave a few
    // seconds more for the workers and the database to stop.
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ message: 'SHUTDOWN_GRACE_SECONDS must be a number of seconds' })
      .int('SHUTDOWN_GRACE_SECONDS must be a whole number of seconds')
      .min(0, 'SHUTDOWN_GRACE_SECONDS must be 0 or more')
      .max(3600, 'SHUTDOWN_GRACE_SECONDS must be at most 3600')
      .default(25),
    // How often the plateforme agréée's statuses are read back (docs/plateforme-agreee.md): the
    // PA is polled, it does not call the shop. Staff can read them at once from the order's page.
    PA_STATUS_POLL_SECONDS: z.coerce
      .number({ message: 'PA_STATUS_POLL_SECONDS must be a number of seconds' })
      .int('PA_STATUS_POLL_SECONDS must be a whole number of seconds')
      .min(5, 'PA_STATUS_POLL_SECONDS must be at least 5')
      .max(86_400, 'PA_STATUS_POLL_SECONDS must be at most 86400')
      .default(300),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // The files' own disk (docs/operations.md, « Files and uploads on disk »): the customers' files
    // and the partial uploads (FILES_DIR/uploads, so that finishing one is a rename) live apart from
    // the embedded PostgreSQL (DATA_DIR/postgres), and an operator may mount another disk there.
    // Default DATA_DIR/files, where the files always were. UPLOAD_DISK_RESERVE is what uploads never
    // take of that disk (bytes, « 2GiB », « 500MB » or « 5% »; default 1 GiB).
    FILES_DIR: z.string().min(1).optional(),
    UPLOAD_DISK_RESERVE: z
      .string()
      .refine(
        (value) => parseDiskReserve(value) !== null,
        'UPLOAD_DISK_RESERVE doit être une taille (« 1GiB », « 500MB », un nombre d’octets) ou une part du disque (« 5% »)',
      )
      .optional(),
    // Observability (app/server/observability, docs/operations.md « Observability »), all off unless
    // set. Prometheus metrics on a port of their own, on loopback unless METRICS_HOST says otherwise
    // (the public site never serves them); OpenTelemetry traces to an OTLP/HTTP endpoint (read by the
    // OpenTelemetry SDK itself, server/tracing.js); errors of loaders and actions to a Sentry DSN.
    METRICS_PORT: z.coerce
      .number({ message: 'METRICS_PORT must be a port number' })
      .int('METRICS_PORT must be a port number')
      .min(1, 'METRICS_PORT must be a port number')
      .max(65535, 'METRICS_PORT must be a port number')
      .optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .url({
        protocol: /^https?$/,
        message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute URL (http://collector:4318)',
      })
      .optional(),
    SENTRY_DSN: z
      .url({ protocol: /^https?$/, message: 'SENTRY_DSN must be the DSN given by Sentry (https://key@host/project)' })
      .optional(),
    SENTRY_ENVIRONMENT: z.string().min(1).optional(),
  })
  // With a database of its own (DATABASE_URL), an instance may share it with others: a secret
  // generated here would differ from theirs (sessions refused, stored passwords unreadable), so the
  // operator must give the shop's one. Without DATABASE_URL, DATA_DIR/app-secret is generated.
  .superRefine((value, ctx) => {
    if (value.DATABASE_URL && !value.APP_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['APP_SECRET'], message: APP_SECRET_REQUIRED });
    }
    // Half an S3 configuration would silently keep the files on this machine's disk.
    const s3 = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
    if (s3.some((name) => value[name] !== undefined)) {
      for (const name of s3.slice(1)) {
        if (value[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: S3_INCOMPLETE });
      }
    }
  });

export const S3_INCOMPLETE =
  'le stockage objet des fichiers demande S3_BUCKET, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY ' +
  '(et S3_ENDPOINT hors Amazon S3) ; sans S3_BUCKET, les fichiers restent dans DATA_DIR/files.';

export const APP_SECRET_REQUIRED =
  'APP_SECRET est obligatoire quand DATABASE_URL est défini : toutes les instances qui partagent la base ' +
  'doivent avoir la même clé secrète (au moins 32 caractères). Générez-en une avec « openssl rand -base64 48 », ' +
  'puis donnez la même valeur à APP_SECRET sur chaque instance. Si la boutique tournait déjà sans APP_SECRET, ' +
  'reprenez plutôt le contenu du fichier DATA_DIR/app-secret, pour garder les sessions et les mots de passe enregistrés.';

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set", as in most shells' `FOO= npm start`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** The public origin of the shop, used in links of e-mails and as the trusted Origin of forms. */
export function baseUrl(): string {
  const e = env();
  return (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
}

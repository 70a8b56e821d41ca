import pino from 'pino';

// JSON lines in production (for the log collector), readable lines in a terminal during development.
const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info');
const pretty = process.env.NODE_ENV === 'development';

export const log = pino({
  level,
  base: undefined,
  redact: [
    'password',
    '*.password',
    'smtpPassword',
    '*.smtpPassword',
    'secretKey',
    '*.secretKey',
    'apiKey',
    '*.apiKey',
  ],
  ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
});

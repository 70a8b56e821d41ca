/** PostgreSQL NOTIFY channel: a row became due (sent at commit, so only committed rows wake the worker). */
export const OUTBOX_CHANNEL = 'email_outbox';

/**
 * Advisory lock serialising "enqueue decides held/queued from the configuration" (shared) with "the
 * configuration is saved and held messages are released" (exclusive): without it, a message queued
 * while the configuration is being saved could stay held although SMTP is configured.
 */
export const EMAIL_CONFIG_LOCK_KEY = 0x5e_e0_c0_f1;

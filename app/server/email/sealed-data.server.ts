import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { EMAIL_TEMPLATES, isEmailTemplateName } from './templates/registry';
import type { TemplateDefinition } from './templates/types';

/*
 * Guest access tokens never sit in clear in email_outbox: the fields of a template that hold a
 * private link (TemplateDefinition.secretFields) are stored encrypted with the APP_SECRET-derived
 * key of the stored secrets (crypto.server.ts), bound to the template and field, and decrypted by
 * the worker only to render the message. A database dump or backup alone yields no usable link.
 */

export function secretFieldsOf(template: string): readonly string[] {
  if (!isEmailTemplateName(template)) return [];
  return (EMAIL_TEMPLATES[template] as TemplateDefinition).secretFields ?? [];
}

function contextOf(template: string, field: string): string {
  return `email_outbox.${template}.${field}`;
}

function mapFields(template: string, data: unknown, change: (value: string, context: string) => string): unknown {
  const fields = secretFieldsOf(template);
  if (fields.length === 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = change(value, contextOf(template, field));
  }
  return copy;
}

/** The data as the outbox stores it: secret fields encrypted (already encrypted ones kept). */
export function sealEmailData(template: string, data: unknown): unknown {
  return mapFields(template, data, (value, context) =>
    isEncryptedSecret(value) ? value : encryptSecret(value, context),
  );
}

/**
 * The data as the template reads it. A clear value (a row written before sealing existed) is
 * returned as is; an altered value or one from another APP_SECRET throws SecretDecryptionError.
 */
export function revealEmailData(template: string, data: unknown): unknown {
  return mapFields(template, data, (value, context) =>
    isEncryptedSecret(value) ? decryptSecret(value, context) : value,
  );
}

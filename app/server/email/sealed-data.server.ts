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

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `data` with the string at `path` (e.g. ['sending', 'slipUrl']) changed; shares the rest. */
function changeAt(data: Json, path: readonly string[], change: (value: string) => string): Json {
  const [key, ...rest] = path as [string, ...string[]];
  const value = data[key];
  if (rest.length === 0) return typeof value === 'string' ? { ...data, [key]: change(value) } : data;
  return isObject(value) ? { ...data, [key]: changeAt(value, rest, change) } : data;
}

function mapFields(template: string, data: unknown, change: (value: string, context: string) => string): unknown {
  const fields = secretFieldsOf(template);
  if (fields.length === 0 || !isObject(data)) return data;
  return fields.reduce<Json>(
    (copy, field) => changeAt(copy, field.split('.'), (value) => change(value, contextOf(template, field))),
    data,
  );
}

/** The string at a secret field's path (`orderUrl`, `sending.slipUrl`) of revealed data, if any. */
export function readSecretField(data: unknown, field: string): string | null {
  let value: unknown = data;
  for (const key of field.split('.')) value = isObject(value) ? value[key] : undefined;
  return typeof value === 'string' ? value : null;
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

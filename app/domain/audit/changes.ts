/*
 * The « before » and « after » of an audit entry: flat objects of the fields that changed, with
 * plain values (strings, numbers, booleans, null). Nested documents (a price list) are flattened
 * to dotted paths (`supports.photos.basePrice`). Secrets (passwords, API keys) are never written:
 * a changed secret is recorded as SECRET_CHANGED on the « after » side only.
 */

export type AuditValue = string | number | boolean | null;
export type AuditFields = Record<string, AuditValue>;

export interface AuditChange {
  before: AuditFields | null;
  after: AuditFields | null;
}

/** What a changed secret is recorded as (« Mot de passe SMTP : modifié »). */
export const SECRET_CHANGED = 'modifié';

/** `{ a: { b: 1 } }` -> `{ 'a.b': 1 }`; arrays and other objects are kept as JSON text. */
export function flattenFields(value: unknown, prefix = ''): AuditFields {
  const out: AuditFields = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (prefix) out[prefix] = toAuditValue(value);
    return out;
  }
  for (const [key, inner] of Object.entries(value)) {
    Object.assign(out, flattenFields(inner, prefix ? `${prefix}.${key}` : key));
  }
  return out;
}

function toAuditValue(value: unknown): AuditValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * The fields of `after` that differ from `before` (flattened), each side with its own value.
 * `secrets` are compared as they are stored (a kept secret keeps its ciphertext, a new one gets a
 * new ciphertext) and recorded as SECRET_CHANGED when they differ. `ignore` leaves out bookkeeping
 * fields (a last-updated date). Null when nothing changed.
 */
export function changedFields(
  before: unknown,
  after: unknown,
  options: { secrets?: readonly string[]; ignore?: readonly string[] } = {},
): AuditChange | null {
  const secrets = new Set(options.secrets ?? []);
  const ignore = new Set(options.ignore ?? []);
  const old = flattenFields(before ?? {});
  const next = flattenFields(after ?? {});
  const result: { before: AuditFields; after: AuditFields } = { before: {}, after: {} };
  for (const key of new Set([...Object.keys(old), ...Object.keys(next)])) {
    if (ignore.has(key) || old[key] === next[key]) continue;
    if (secrets.has(key)) {
      result.after[key] = SECRET_CHANGED;
      continue;
    }
    result.before[key] = old[key] ?? null;
    result.after[key] = next[key] ?? null;
  }
  return Object.keys(result.after).length === 0 ? null : result;
}

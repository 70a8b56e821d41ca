import { changedFields } from '~/domain/audit/changes';
import { DEFAULT_TWO_FACTOR_POLICY, type TwoFactorPolicy, twoFactorPolicyFrom } from '~/domain/staff/two-factor-policy';
import { recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';

/* The team's two-factor rule (domain/staff/two-factor-policy.ts), in config_options.staff_security. */

export async function readTwoFactorPolicy(): Promise<TwoFactorPolicy> {
  const stored = await readConfigOption('staff_security');
  return stored === null ? DEFAULT_TWO_FACTOR_POLICY : twoFactorPolicyFrom(stored);
}

/** Saves the rule and records the change in the audit log, in one transaction. */
export async function saveTwoFactorPolicy(policy: TwoFactorPolicy, actor: string): Promise<void> {
  await db().transaction(async (tx) => {
    const stored = await readConfigOption('staff_security', tx);
    const before = stored === null ? DEFAULT_TWO_FACTOR_POLICY : twoFactorPolicyFrom(stored);
    const change = changedFields(before, policy);
    await writeConfigOption('staff_security', policy, tx);
    if (change) await recordAudit(tx, { actor, kind: 'settings.security', subject: 'staff_security', ...change });
  });
}

import { describe, expect, it } from 'vitest';
import { mustSetUpTwoFactor, twoFactorPolicyFrom, twoFactorPolicySchema } from './two-factor-policy';

const on = { adminTwoFactorRequired: true };
const off = { adminTwoFactorRequired: false };

describe('the team’s two-factor rule', () => {
  it('holds back only administrators without two-factor sign-in, and only when it is on', () => {
    expect(mustSetUpTwoFactor({ role: 'admin', twoFactorEnabled: false }, on)).toBe(true);
    expect(mustSetUpTwoFactor({ role: 'admin', twoFactorEnabled: true }, on)).toBe(false);
    expect(mustSetUpTwoFactor({ role: 'atelier', twoFactorEnabled: false }, on)).toBe(false);
    expect(mustSetUpTwoFactor({ role: 'comptabilite', twoFactorEnabled: false }, on)).toBe(false);
    expect(mustSetUpTwoFactor({ role: 'admin', twoFactorEnabled: false }, off)).toBe(false);
  });

  it('reads the checkbox: ticked is on, absent is off, anything else refused', () => {
    expect(twoFactorPolicySchema.parse({ intent: 'policy', adminTwoFactorRequired: 'on' })).toEqual({
      intent: 'policy',
      adminTwoFactorRequired: true,
    });
    expect(twoFactorPolicySchema.parse({ intent: 'policy' }).adminTwoFactorRequired).toBe(false);
    expect(twoFactorPolicySchema.safeParse({ intent: 'policy', adminTwoFactorRequired: 'yes' }).success).toBe(false);
  });

  it('reads a stored rule leniently (off unless explicitly on)', () => {
    expect(twoFactorPolicyFrom(null)).toEqual(off);
    expect(twoFactorPolicyFrom({ adminTwoFactorRequired: 'true' })).toEqual(off);
    expect(twoFactorPolicyFrom({ adminTwoFactorRequired: true })).toEqual(on);
  });
});

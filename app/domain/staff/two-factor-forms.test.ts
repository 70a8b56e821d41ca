import { describe, expect, it } from 'vitest';
import { readableSecret, TWO_FACTOR_MESSAGES, twoFactorCodeSchema } from './two-factor-forms';

const read = (code: unknown) => twoFactorCodeSchema.safeParse({ code });

describe('the sign-in’s second step', () => {
  it('takes the app’s 6 digits, spaces allowed', () => {
    expect(read('123 456').data?.code).toEqual({ kind: 'totp', code: '123456' });
  });

  it('takes a backup code, with or without its dash', () => {
    expect(read('AbC12-dEf34').data?.code).toEqual({ kind: 'backup', code: 'AbC12-dEf34' });
    expect(read('AbC12dEf34').data?.code).toEqual({ kind: 'backup', code: 'AbC12-dEf34' });
  });

  it.each([['12345'], ['1234567'], ['abc'], [''], [undefined], ['AbC12-dEf3!']])('refuses %j in French', (code) => {
    const result = read(code);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(TWO_FACTOR_MESSAGES.signInCodeRequired);
  });
});

describe('the secret typed by hand', () => {
  it('is grouped by 4', () => {
    expect(readableSecret('otpauth://totp/Soovenirs:a?secret=ABCDEFGHIJKL&issuer=Soovenirs')).toBe('ABCD EFGH IJKL');
  });
});

import { describe, expect, it } from 'vitest';
import { SecretDecryptionError } from '../crypto.server';
import { revealEmailData, sealEmailData } from './sealed-data.server';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

describe('private links in the e-mail outbox', () => {
  it('seals only the link fields of the templates that carry a token, and reads them back', () => {
    const data = { orderNumber: 'SV-2026-000042', orderUrl: `https://shop.test/confirmation?orderId=x&token=${TOKEN}` };
    const sealed = sealEmailData('order-confirmation', data) as Record<string, string>;
    expect(sealed.orderNumber).toBe('SV-2026-000042');
    expect(JSON.stringify(sealed)).not.toContain(TOKEN);
    expect(revealEmailData('order-confirmation', sealed)).toEqual(data);
    // Sealing twice (a resend) does not wrap the value again.
    expect(sealEmailData('order-confirmation', sealed)).toEqual(sealed);
    // Templates without a private link are stored as they are.
    expect(sealEmailData('order-status', data)).toEqual(data);
  });

  it('refuses a sealed link moved to another template or field, or read with another APP_SECRET', () => {
    const sealed = sealEmailData('quote-saved', { quoteUrl: `https://shop.test/devis/${TOKEN}` }) as {
      quoteUrl: string;
    };
    expect(() => revealEmailData('order-confirmation', { orderUrl: sealed.quoteUrl })).toThrow(SecretDecryptionError);
    const secret = process.env.APP_SECRET;
    process.env.APP_SECRET = 'another-secret-that-is-long-enough-for-the-checks';
    try {
      expect(() => revealEmailData('quote-saved', sealed)).toThrow(SecretDecryptionError);
    } finally {
      process.env.APP_SECRET = secret;
    }
  });

  it('reads a row written in clear before links were sealed', () => {
    const clear = { quoteUrl: `https://shop.test/devis/${TOKEN}` };
    expect(revealEmailData('quote-saved', clear)).toEqual(clear);
  });
});

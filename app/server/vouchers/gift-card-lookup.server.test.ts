import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatGiftCardCode, GIFT_CARD_CODE_RANDOM_BYTES, generateGiftCardCode } from '~/domain/vouchers/gift-cards';
import { payByCard } from '../../../tests/support/card-payment';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import { log } from '../log.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { GIFT_CARD_LOOKUP_MESSAGES, lookUpGiftCard } from './gift-card-lookup.server';
import { revealGiftCardCode, startGiftCardOrder } from './gift-cards.server';

/*
 * A typed code (decision 037): found whatever its case, spaces or dashes; a malformed or unknown
 * one refused in French; ten wrong codes a minute from one client (or one account) and even a right
 * code waits for the minute to pass.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
let code: string;

beforeAll(async () => {
  await ensureDefaultPriceList();
  const started = await startGiftCardOrder({
    purchase: {
      amountCents: 5000,
      recipientName: 'Jeanne',
      recipientEmail: 'jeanne@example.fr',
      message: null,
      delivery: 'print',
      sendDate: null,
    },
    buyer: { user: null, name: 'Claire' },
  });
  if (!started.ok) throw new Error(started.message);
  await confirmCheckout({
    orderId: started.orderId,
    method: 'card',
    actor: 'customer',
    accessToken: started.accessToken,
    contact: { email: 'claire@example.fr' },
  });
  await payByCard(started.orderId, 5000);
  code = (await revealGiftCardCode(started.orderId)) as string;
});

const from = (ip: string) =>
  new Request('https://www.soovenirs.test/carte-cadeau/utiliser', { headers: { [CLIENT_IP_HEADER]: ip } });

describe('looking up a typed code', () => {
  it('finds the card however the code is typed, and says its balance', async () => {
    const ip = `10.1.${Math.floor(Math.random() * 250)}.1`;
    for (const typed of [
      code,
      formatGiftCardCode(code).toLowerCase(),
      ` ${formatGiftCardCode(code).replace(/-/g, ' ')} `,
    ]) {
      const found = await lookUpGiftCard(from(ip), typed, null);
      expect(found).toMatchObject({ kind: 'found', card: { balanceCents: 5000, state: 'active' } });
    }
  });

  it('refuses a malformed and an unknown code in French', async () => {
    const ip = `10.2.${Math.floor(Math.random() * 250)}.1`;
    expect(await lookUpGiftCard(from(ip), 'ABCD', null)).toEqual({
      kind: 'refused',
      message: GIFT_CARD_LOOKUP_MESSAGES.malformed,
      limited: false,
    });
    // A well-formed code (its check symbol right) that no card has: the domain's own generator.
    const unknown = generateGiftCardCode(
      new Uint8Array(GIFT_CARD_CODE_RANDOM_BYTES).fill(code === '0'.repeat(16) ? 1 : 0),
    );
    expect(unknown).not.toBe(code);
    expect(await lookUpGiftCard(from(ip), unknown, null)).toEqual({
      kind: 'refused',
      message: GIFT_CARD_LOOKUP_MESSAGES.unknown,
      limited: false,
    });
  });

  it('stops a client after ten wrong codes in a minute, a right one included, and counts per account too', async () => {
    const ip = `10.3.${Math.floor(Math.random() * 250)}.1`;
    for (let i = 0; i < 10; i += 1) {
      const answer = await lookUpGiftCard(from(ip), `WRONG${i}`, null);
      expect(answer).toMatchObject({ kind: 'refused', message: GIFT_CARD_LOOKUP_MESSAGES.malformed });
    }
    expect(await lookUpGiftCard(from(ip), code, null)).toEqual({
      kind: 'refused',
      message: GIFT_CARD_LOOKUP_MESSAGES.limited,
      limited: true,
    });
    // Another client is not held by this one's tries…
    expect(await lookUpGiftCard(from(`${ip}1`), code, null)).toMatchObject({ kind: 'found' });
    // …but an account trying from many addresses is.
    const account = `user_${randomUUID()}`;
    for (let i = 0; i < 10; i += 1) await lookUpGiftCard(from(`10.4.${i}.1`), `WRONG${i}`, account);
    expect(await lookUpGiftCard(from('10.5.0.1'), code, account)).toMatchObject({ kind: 'refused', limited: true });
  });
});

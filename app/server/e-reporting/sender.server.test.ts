import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureFakePa, type FakePa, startFakePa } from '../../../tests/support/fake-pa';
import { configuredFlowSender } from './sender.server';

/*
 * E-reporting's files reach the plateforme agréée through its client (the local fake PA speaks the
 * AFNOR interface): deposited once as an FRR flow for B2C, found again by their tracking id when
 * sent twice, and not sent at all while no platform is enabled.
 */

let pa: FakePa;
beforeAll(async () => {
  pa = await startFakePa();
});
afterAll(async () => {
  await pa.close();
});

describe('the e-reporting sender', () => {
  it('deposits a report on the configured platform once, whatever the number of tries', async () => {
    await configureFakePa(pa);
    const send = await configuredFlowSender();
    expect(send).not.toBeNull();
    const file = {
      name: 'e-reporting-ventes-2027-09-01.xml',
      content: Buffer.from('<SalesReport/>'),
      syntax: 'FRR',
      processingRule: 'B2C' as const,
      trackingId: 'ER-test-2027-09-01',
    };
    const first = await send?.(file);
    const again = await send?.(file);
    expect(again?.flowId).toBe(first?.flowId);
    const deposits = pa.deposits.filter((d) => d.flowInfo.trackingId === file.trackingId);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]?.flowInfo).toMatchObject({ flowSyntax: 'FRR', processingRule: 'B2C' });
    expect(deposits[0]?.file.toString()).toBe('<SalesReport/>');
  });

  it('gives no sender while the platform is not enabled: the reports are exported instead', async () => {
    await configureFakePa(pa, { enabled: false });
    expect(await configuredFlowSender()).toBeNull();
  });
});

import type { Tx } from '../db/client.server';
import type { OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import type { JourneyEmailInput } from './journey-emails.server';

/** The reception supplement's e-mails: the difference to approve and pay, then its receipt. */
export async function enqueueSupplementEmail(
  _tx: Tx,
  facts: OrderFacts,
  input: JourneyEmailInput & { template: 'supplement-requested' | 'supplement-paid' },
): Promise<void> {
  // TODO(issue 15, reception helper): templates and queueing.
  log.info({ orderId: facts.id, template: input.template }, 'supplement e-mail not built yet');
}

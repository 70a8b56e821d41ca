import type { EmailEffect } from '~/domain/orders/lifecycle';
import type { Tx } from '../db/client.server';
import type { OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { enqueueSupplementEmail } from './supplement-emails.server';

/*
 * The e-mails of the originals' journey (issue 15): reception with what was counted, a supplement
 * to approve and pay, the supplement paid, the files ready, the parcel shipped with its tracking
 * link. Queued in the lifecycle's transaction (outbox), one per history event.
 */

export type JourneyTemplate = Extract<
  EmailEffect,
  'originals-received' | 'order-ready' | 'order-shipped' | 'supplement-requested' | 'supplement-paid'
>;

export interface JourneyEmailInput {
  template: JourneyTemplate;
  /** Dedupe key part: one e-mail per history event. */
  eventKey: string;
  now: Date;
  /** The guest's access token when the caller has it (links that open in any browser). */
  accessToken: string | null;
  /** The supplement the e-mail is about (supplement-requested, supplement-paid). */
  adjustmentId: string | null;
  invoiceNumber: string | null;
  /** What the transition's caller handed over (counts, parcel number, pay link token…). */
  data: Record<string, unknown>;
}

export async function enqueueJourneyEmail(tx: Tx, facts: OrderFacts, input: JourneyEmailInput): Promise<void> {
  if (input.template === 'supplement-requested' || input.template === 'supplement-paid') {
    await enqueueSupplementEmail(tx, facts, { ...input, template: input.template });
    return;
  }
  // TODO(issue 15, customer-side helper): templates and queueing of the other journey e-mails.
  log.info({ orderId: facts.id, template: input.template }, 'journey e-mail not built yet');
}

import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import {
  computeMoneticoMac,
  encodeOrderContext,
  formatMoneticoAmount,
  formatMoneticoDate,
  MONETICO_PAYMENT_URLS,
  MONETICO_VERSION,
  moneticoOutcome,
  parseMoneticoAmount,
  verifyMoneticoMac,
} from '~/domain/payments/monetico';
import type { PaymentConfig } from '~/domain/payments/payment-config';
import { db } from '../db/client.server';
import { payments } from '../db/schema';
import { baseUrl } from '../env.server';
import { loadOrderFacts } from '../invoices/order-facts.server';
import type { CreatedSession, NotificationCheck, PaymentProvider, SessionRequest } from './types';
import { PaymentProviderError } from './types';

/*
 * Monetico Paiement, version 3.0: the customer's browser posts a sealed form to Monetico's payment
 * page (our page /paiement/monetico/{reference} builds it, routes/shop/monetico-payment.tsx), and
 * Monetico tells the shop the outcome server to server ("CGI2", POST /api/webhooks/monetico), which
 * the shop answers with the exact receipt Monetico expects (domain/payments/monetico.ts). Each
 * attempt has its own reference (12 letters and digits, unique per terminal): payments.provider_ref.
 */

/** A new reference: 12 upper-case letters and digits. */
export function newMoneticoReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(12);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

const sessionRawSchema = z.object({
  object: z.literal('monetico.session'),
  returnUrl: z.string(),
  cancelUrl: z.string(),
  email: z.string().nullable(),
});

export function createMoneticoProvider(config: PaymentConfig): PaymentProvider {
  return {
    name: 'monetico',

    async createSession(request: SessionRequest): Promise<CreatedSession> {
      if (!config.merchantId || !config.companyCode || !config.secretKey) {
        throw new PaymentProviderError('Monetico is not configured', PAYMENT_MESSAGES.notConfigured);
      }
      const reference = newMoneticoReference();
      return {
        sessionId: reference,
        url: `${baseUrl()}/paiement/monetico/${reference}`,
        raw: {
          object: 'monetico.session',
          returnUrl: request.returnUrl,
          cancelUrl: request.cancelUrl,
          email: request.customerEmail,
        },
      };
    },

    async verifyNotification({ body }): Promise<NotificationCheck> {
      const fields = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
      if (!config.secretKey || !config.merchantId) return { ok: false, status: 503, reason: 'Monetico non configuré' };
      if (!verifyMoneticoMac(fields, config.secretKey)) return { ok: false, status: 400, reason: 'Sceau MAC invalide' };
      if (fields.TPE !== config.merchantId) return { ok: false, status: 400, reason: 'Autre terminal (TPE)' };
      const reference = fields.reference ?? '';
      const outcome = moneticoOutcome(fields['code-retour'] ?? '', config.testMode);
      if (outcome === 'ignored' || reference === '') return { ok: true, notification: null };
      const amount = parseMoneticoAmount(fields.montant ?? '');
      const orderId = z.uuid().safeParse(fields['texte-libre']).success ? (fields['texte-libre'] as string) : null;
      const { MAC, ...kept } = fields;
      return {
        ok: true,
        notification: {
          provider: 'monetico',
          // A seal is unique to its message: the same return delivered twice is one event.
          eventId: `${reference}:${(MAC ?? '').toLowerCase()}`,
          providerRef: reference,
          orderId,
          outcome: outcome === 'paid' ? 'paid' : 'failed',
          amountCents: amount?.cents ?? null,
          currency: amount?.currency ?? null,
          method: 'card',
          detail: outcome === 'failed' ? (fields.motifrefus ?? 'paiement refusé') : undefined,
          // Card numbers never reach us; keep what Monetico returns but the seal.
          raw: kept,
        },
      };
    },

    async probe() {
      const complete = Boolean(config.merchantId && config.companyCode && config.secretKey);
      return complete
        ? { configured: true, message: `Monetico configuré (mode ${config.testMode ? 'test' : 'production'}).` }
        : { configured: false, message: PAYMENT_MESSAGES.notConfigured };
    },
  };
}

export interface MoneticoForm {
  action: string;
  fields: Record<string, string>;
}

/**
 * The sealed form the customer's browser posts to Monetico for the attempt `reference`, or null
 * when the reference is unknown or no longer pending.
 */
export async function moneticoFormFor(
  reference: string,
  config: PaymentConfig,
  now = new Date(),
): Promise<MoneticoForm | null> {
  if (!/^[A-Z0-9]{12}$/.test(reference)) return null;
  const [payment] = await db()
    .select()
    .from(payments)
    .where(and(eq(payments.provider, 'monetico'), eq(payments.providerRef, reference)))
    .limit(1);
  if (payment?.status !== 'pending') return null;
  const session = sessionRawSchema.safeParse((payment.rawEvent as { session?: unknown } | null)?.session);
  if (!session.success) return null;
  const order = await loadOrderFacts(db(), payment.orderId);
  if (!order) return null;
  const c = order.customer;
  const fields: Record<string, string> = {
    TPE: config.merchantId,
    contexte_commande: encodeOrderContext({
      firstName: c.firstName || undefined,
      lastName: c.lastName || undefined,
      email: session.data.email ?? c.email ?? undefined,
      addressLine1: c.street ?? undefined,
      city: c.city ?? undefined,
      postalCode: c.postalCode ?? undefined,
      country: 'FR',
    }),
    date: formatMoneticoDate(now),
    lgue: 'FR',
    mail: session.data.email ?? c.email ?? '',
    montant: formatMoneticoAmount(payment.amountCents),
    reference,
    societe: config.companyCode,
    'texte-libre': order.id,
    url_retour_err: session.data.cancelUrl,
    url_retour_ok: session.data.returnUrl,
    version: MONETICO_VERSION,
  };
  fields.MAC = computeMoneticoMac(fields, config.secretKey);
  return { action: config.testMode ? MONETICO_PAYMENT_URLS.test : MONETICO_PAYMENT_URLS.production, fields };
}

import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../config/config-options.server';
import type { Tx } from '../db/client.server';
import { emailOutbox, orders } from '../db/schema';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { accessTokenMatches, createOrderAccessToken } from '../orders/access.server';
import { readSecretField, revealEmailData, secretFieldsOf } from './sealed-data.server';
import { EMAIL_TEMPLATES } from './templates/registry';

/*
 * A guest has no account: the links of their e-mails (the order, the invoice, a credit note, the
 * slip, the prepaid label, the files) carry a token that opens the order in any browser, the
 * phone's mail app as well as the one that ordered. The pages take it with accessFromLink
 * (orders/access.server.ts: it sets the order's cookie and drops the token from the address).
 *
 * The shop keeps tokens hashed, in two places the pages accept: the order's access token
 * (orders.access_token_hash, the guest's cookie since checkout) and its delivery token
 * (orders.delivery_token_hash). A raw token lives only in the e-mails' links, sealed in the
 * outbox (sealed-data.server.ts). Every e-mail of an order carries the same token: the caller's
 * (the cookie at checkout), else the one an earlier e-mail carried (the confirmation's link), else
 * a new delivery token, whose hash is written in the caller's transaction with the e-mail.
 */

/** The templates whose data may hold a private link. */
const LINK_TEMPLATES = Object.keys(EMAIL_TEMPLATES).filter((template) => secretFieldsOf(template).length > 0);

/**
 * A token from the links of the order's earlier e-mails that matches one of `hashes`, newest
 * e-mail first; null when none does (the rows were purged, or sealed with another APP_SECRET).
 */
export async function recoverLinkToken(
  executor: Executor,
  orderId: string,
  hashes: ReadonlyArray<string | null>,
): Promise<string | null> {
  if (!hashes.some(Boolean)) return null;
  const rows = await executor
    .select({ template: emailOutbox.template, data: emailOutbox.data })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), inArray(emailOutbox.template, LINK_TEMPLATES)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(50);
  for (const row of rows) {
    try {
      const data = revealEmailData(row.template, row.data);
      for (const field of secretFieldsOf(row.template)) {
        const link = readSecretField(data, field);
        if (!link) continue;
        const token = new URL(link, baseUrl()).searchParams.get('token');
        if (token && hashes.some((hash) => accessTokenMatches(token, hash))) return token;
      }
    } catch (error) {
      log.warn({ err: error, orderId }, 'the private link of an older e-mail could not be read');
    }
  }
  return null;
}

/**
 * The token for the links of an e-mail about `orderId`: null for an account holder (they sign in),
 * otherwise a token the order's pages accept (see above). `known`: the guest's token when the
 * caller holds it (their cookie).
 */
export async function guestLinkToken(tx: Tx, orderId: string, known: string | null): Promise<string | null> {
  const [order] = await tx
    .select({ userId: orders.userId, access: orders.accessTokenHash, delivery: orders.deliveryTokenHash })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || order.userId) return null;
  const hashes = [order.access, order.delivery];
  if (known && hashes.some((hash) => accessTokenMatches(known, hash))) return known;
  const recovered = await recoverLinkToken(tx, orderId, hashes);
  if (recovered) return recovered;
  // No e-mail of this order carried a usable token yet: a delivery token, like the files' one.
  const fresh = createOrderAccessToken();
  await tx.update(orders).set({ deliveryTokenHash: fresh.hash }).where(eq(orders.id, orderId));
  return fresh.token;
}

/** A link of the shop (a path or an absolute URL) with the guest's token, when there is one. */
export function withGuestToken(link: string, token: string | null): string {
  const url = new URL(link, `${baseUrl()}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import { user } from './auth';

/**
 * A customer's business identity as their profile keeps it (docs/invoicing.md): company name,
 * SIREN, VAT number, purchase order reference and Chorus Pro references, checked like at checkout
 * (domain/invoices/business-buyer.ts). It only prefills the checkout: each order freezes its own
 * copy in orders.business when placed, so editing the profile never changes an order or a document.
 * The user id is the primary key (its index serves the foreign key).
 */
export const customerBusinessProfiles = pgTable('customer_business_profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  buyer: jsonb('buyer').$type<BusinessBuyer>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * A staff member's saved views of the Commandes tab: a name and the list's URL search
 * string (filters, sort, page size), private to its owner.
 */
export const savedOrderFilters = pgTable(
  'saved_order_filters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: text('query').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('saved_order_filters_user_name_unique').on(t.userId, t.name),
    check('saved_order_filters_name_check', sql`char_length(${t.name}) between 1 and 60`),
  ],
);

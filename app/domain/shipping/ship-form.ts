import { z } from 'zod';
import { LABEL_MESSAGES } from './messages';

/*
 * The « Expédier » dialog's form (components/admin/ship-order.tsx), validated on the server with
 * Conform's parseWithZod (routes/admin/api/shipping.ts): a Colissimo return label made here, or a
 * tracking number typed for another carrier.
 */

export const SHIP_MODE_REQUIRED = 'Choisissez le mode d’expédition';

export const shipInputSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('colissimo') }),
    z.object({
      mode: z.literal('other'),
      // An empty field reaches the schema as undefined (parseWithZod): the same French message.
      parcelNumber: z
        .string({ error: LABEL_MESSAGES.parcelNumberRequired })
        .trim()
        .min(1, LABEL_MESSAGES.parcelNumberRequired)
        .max(40, LABEL_MESSAGES.parcelNumberTooLong),
    }),
  ],
  { error: SHIP_MODE_REQUIRED },
);

export type ShipInput = z.infer<typeof shipInputSchema>;
export type ShipFormInput = { mode: ShipInput['mode']; parcelNumber?: string };

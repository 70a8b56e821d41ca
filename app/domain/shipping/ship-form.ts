import { z } from 'zod';
import '../zod-config';
import { LABEL_MESSAGES } from './messages';
import { normaliseParcelNumber, PARCEL_NUMBER_MESSAGES, parcelNumberProblem, type TypedCarrier } from './parcel-number';

/*
 * The « Expédier » dialog's form (components/admin/ship-order.tsx), validated on the server with
 * Conform's parseWithZod (routes/admin/api/shipping.ts): a Colissimo return label made here, or a
 * tracking number typed for Colissimo / La Poste or for another carrier, checked for that carrier
 * (parcel-number.ts). The correction of a typed number after shipping uses the same fields.
 */

export const SHIP_MODE_REQUIRED = 'Choisissez le mode d’expédition';

/** A typed number: trimmed, normalised (no spaces, upper case), then checked for its carrier. */
function typedParcelNumber(carrier: TypedCarrier) {
  return (
    z
      // An empty field reaches the schema as undefined (parseWithZod): the same French message.
      .string({ error: LABEL_MESSAGES.parcelNumberRequired })
      .trim()
      .min(1, LABEL_MESSAGES.parcelNumberRequired)
      .max(60, LABEL_MESSAGES.parcelNumberTooLong)
      .transform(normaliseParcelNumber)
      .refine((value) => parcelNumberProblem(carrier, value) === null, {
        error: carrier === 'laposte' ? PARCEL_NUMBER_MESSAGES.laPoste : PARCEL_NUMBER_MESSAGES.other,
      })
  );
}

const typedModes = [
  z.object({ mode: z.literal('laposte'), parcelNumber: typedParcelNumber('laposte') }),
  z.object({ mode: z.literal('other'), parcelNumber: typedParcelNumber('other') }),
] as const;

export const shipInputSchema = z.discriminatedUnion(
  'mode',
  [z.object({ mode: z.literal('colissimo') }), ...typedModes],
  {
    error: SHIP_MODE_REQUIRED,
  },
);

/** « Corriger le numéro de suivi »: a typed number replaced by the right one, for its carrier. */
export const parcelCorrectionSchema = z.discriminatedUnion('mode', [...typedModes], { error: SHIP_MODE_REQUIRED });

export type ShipInput = z.infer<typeof shipInputSchema>;
export type TypedParcel = z.infer<typeof parcelCorrectionSchema>;
export type ShipFormInput = { mode: ShipInput['mode']; parcelNumber?: string };

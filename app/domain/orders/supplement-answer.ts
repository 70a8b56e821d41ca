import { z } from 'zod';
import '../zod-config';

/*
 * The customer's answer on /supplement/:id: « Payer le supplément » (intent `pay`, also what a
 * form without an intent means) or « Refuser » (`decline`), which only asks for a confirmation
 * (nothing changes); « Confirmer le refus » (`confirm-decline`) declines.
 * Anything else is the form's own French refusal (no field of the page shows the intent).
 */

export const SUPPLEMENT_ANSWER_MESSAGES = {
  unknownAction: 'Action inconnue\u202F: utilisez les boutons « Payer le supplément » ou « Refuser ».',
} as const;

export const supplementAnswerSchema = z.object({ intent: z.unknown().optional() }).transform(({ intent }, ctx) => {
  if (intent === undefined || intent === 'pay') return 'pay' as const;
  if (intent === 'decline') return 'decline' as const;
  if (intent === 'confirm-decline') return 'confirm-decline' as const;
  ctx.addIssue({ code: 'custom', path: [], message: SUPPLEMENT_ANSWER_MESSAGES.unknownAction });
  return z.NEVER;
});

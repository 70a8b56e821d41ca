import { z } from 'zod';
import '../zod-config';
import type { PriceListDocument } from './default-price-list';
import { type ResolveOptions, resolveSelectionPayload, type Selection, type SelectionErrors } from './selection';

/*
 * The configurator's form on the server (/configurateur), read by Conform's parseWithZod: its
 * fields are checked by the same rules as the live estimate of the browser
 * (resolveSelectionPayload), each French message on its field (`photos.quantity`,
 * `film.reels.small`…, the form's own for « choose a support »). Read with `disableAutoCoercion`:
 * a reel field left empty says « none », which the rules need to see.
 */

export const CONFIGURATOR_MESSAGES = {
  unknownAction: 'Action inconnue\u202F: utilisez les boutons du formulaire.',
} as const;

export type ConfiguratorIntent = 'save' | 'order';

export interface ConfiguratorPost {
  intent: ConfiguratorIntent;
  selection: Selection;
  /** The price list version the visitor was shown (null when the form did not say). */
  shownVersion: number | null;
}

function addSelectionIssues(ctx: z.RefinementCtx, errors: SelectionErrors) {
  for (const [name, messages] of Object.entries(errors)) {
    // '' is the form's own message; the others are dotted field names, as Conform writes them.
    const path = name === '' ? [] : name.split('.');
    for (const message of messages) ctx.addIssue({ code: 'custom', path, message });
  }
}

/** A selection as the configurator's URL or form gives it (an estimate: no support required). */
export function selectionSchema(options: ResolveOptions) {
  return z.looseObject({}).transform((payload, ctx): Selection => {
    const resolved = resolveSelectionPayload(payload, options);
    if (resolved.value) return resolved.value;
    addSelectionIssues(ctx, resolved.error ?? { '': [CONFIGURATOR_MESSAGES.unknownAction] });
    return z.NEVER;
  });
}

/** « Commander » and « Enregistrer le devis »: the intent, the selection (a support at least), the version shown. */
export function configuratorPostSchema(priceList: PriceListDocument) {
  return z.looseObject({}).transform((payload, ctx): ConfiguratorPost => {
    const intent = payload.intent;
    const known = intent === 'save' || intent === 'order';
    if (!known) ctx.addIssue({ code: 'custom', path: [], message: CONFIGURATOR_MESSAGES.unknownAction });
    const resolved = resolveSelectionPayload(payload, { requireSupport: true, priceList });
    if (resolved.error) addSelectionIssues(ctx, resolved.error);
    if (!known || !resolved.value) return z.NEVER;
    const shown = Number(payload.priceListVersion);
    return { intent, selection: resolved.value, shownVersion: Number.isInteger(shown) && shown > 0 ? shown : null };
  });
}

import { z } from 'zod';
import '../zod-config';
import { frenchTypography } from '../format';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';

/*
 * Saved filters of the Commandes tab: a staff member names the list as it is (its URL
 * search string: filters, sort, page size) and finds it again as a link. Each sees only theirs.
 */

export const MAX_FILTER_NAME_LENGTH = 60;
/** Far more than any combination of the list's parameters; a longer one is not from the form. */
export const MAX_FILTER_QUERY_LENGTH = 1000;
/** Saved views are a short list of links, not a store. */
export const MAX_SAVED_FILTERS = 30;

export const SAVED_FILTER_MESSAGES = {
  empty: 'Donnez un nom à ce filtre.',
  tooLong: `Le nom ne doit pas dépasser ${MAX_FILTER_NAME_LENGTH} caractères.`,
  duplicate: (name: string) => frenchTypography(`Vous avez déjà un filtre nommé « ${name} ».`),
  tooMany: `Vous avez déjà ${MAX_SAVED_FILTERS} filtres enregistrés : supprimez-en un d’abord.`,
  notFound: 'Ce filtre n’existe plus.',
  saved: (name: string) => frenchTypography(`Filtre « ${name} » enregistré.`),
  deleted: (name: string) => frenchTypography(`Filtre « ${name} » supprimé.`),
} as const;

/**
 * The list's search string without what is not a filter: the open order's dialog and the page
 * number (a saved view starts at its first page).
 */
export function filterQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('commande');
  params.delete('page');
  return params.toString();
}

export const saveFilterSchema = z.object({
  name: z
    .string({ error: SAVED_FILTER_MESSAGES.empty })
    .trim()
    .min(1, SAVED_FILTER_MESSAGES.empty)
    .max(MAX_FILTER_NAME_LENGTH, SAVED_FILTER_MESSAGES.tooLong)
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE),
  // Empty is the whole list (no filter): a view worth a name too.
  query: z
    .string()
    .max(MAX_FILTER_QUERY_LENGTH)
    .default('')
    .transform((query) => filterQuery(query)),
});

export const deleteFilterSchema = z.object({ id: z.uuid({ error: SAVED_FILTER_MESSAGES.notFound }) });

export interface SavedFilter {
  id: string;
  name: string;
  query: string;
}

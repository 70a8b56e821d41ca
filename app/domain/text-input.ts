/*
 * Text typed into a form is stored in PostgreSQL, whose `text` cannot hold the NUL character
 * (U+0000): such a value would make the insert fail with a server error. No keyboard types it; a
 * form field holding it gets this message instead.
 */

export const FORBIDDEN_CHARACTER_MESSAGE = 'Ce champ contient un caractère non autorisé.';

export function hasNoForbiddenCharacter(value: string | undefined | null): boolean {
  return !value?.includes('\u0000');
}

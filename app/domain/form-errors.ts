/*
 * The order dialog's forms show each French message under its field and the first one in a toast
 * too (the dialog is long: the toast is what the staff see wherever they are in it).
 */

/** The first message of a submission's errors (Conform's `submission.error`), or the fallback. */
export function firstFormError(errors: Record<string, string[] | null> | null | undefined, fallback: string): string {
  for (const messages of Object.values(errors ?? {})) {
    if (messages?.[0]) return messages[0];
  }
  return fallback;
}

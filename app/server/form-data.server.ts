import { data } from 'react-router';

/*
 * The body of a form post, for route actions. `request.formData()` throws a TypeError on a body
 * that is not a form (JSON, plain text, a multipart body without its boundary), which React Router
 * would answer with a 500. A browser never sends such a post to our forms; whoever does gets a 400
 * and the French error page instead.
 */

export const UNREADABLE_FORM_MESSAGE = 'Requête invalide : le formulaire n’a pas pu être lu.';

export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(UNREADABLE_FORM_MESSAGE, { status: 400 });
  }
}

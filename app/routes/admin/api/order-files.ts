import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { extensionFormSchema, RETENTION_MESSAGES } from '~/domain/files/retention';
import { firstFormError } from '~/domain/form-errors';
import { formatDateFr } from '~/domain/format';
import { requireStaff } from '~/server/admin/access.server';
import { deleteOrderFile, loadAdminOrderFiles, markReworkDone } from '~/server/files/admin-files.server';
import { publishOrderFiles } from '~/server/files/publish.server';
import { extendRetention } from '~/server/files/retention.server';
import { readFormData } from '~/server/form-data.server';
import { isOrderId } from '~/server/orders/access.server';
import type { Route } from './+types/order-files';

/*
 * The « Fichiers livrés » section of the order dialog (decision 011). GET: the order's files and its
 * delivery (published, until when, deleted). POST, by `intent`: publish (« Publier la livraison »),
 * extend (« Prolonger la conservation »: a date or + 30 days), delete-file, rework-done. Staff only,
 * checked here for both.
 */

const noStore = { 'Cache-Control': 'no-store' };
const NOT_FOUND = 'Commande introuvable';

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  const files = isOrderId(params.orderId) ? await loadAdminOrderFiles(params.orderId) : null;
  if (!files) throw data({ error: NOT_FOUND }, { status: 404, headers: noStore });
  return data(files, { headers: noStore });
}

export type OrderFilesActionData = { submission?: SubmissionResult<string[]> } & (
  | { intent: string; ok: true; message: string }
  | { intent: string; ok: false; error: string }
);

// Answers a form can correct are 200 with `ok: false` (as the order dialog's other forms).
export async function action({ request, params }: Route.ActionArgs): Promise<OrderFilesActionData> {
  const admin = await requireStaff(request, 'files');
  if (!isOrderId(params.orderId)) throw data({ error: NOT_FOUND }, { status: 404 });
  const orderId = params.orderId;
  const form = await readFormData(request);
  const intent = String(form.get('intent') ?? '');
  const fileId = String(form.get('fileId') ?? '');
  switch (intent) {
    case 'publish': {
      const result = await publishOrderFiles(orderId, admin.id);
      if (!result.ok) return { intent, ok: false, error: result.message };
      if (result.review) {
        // « Preview and keep »: published for the customer's review (decision 030).
        return {
          intent,
          ok: true,
          message: `Fichiers publiés pour la sélection du client jusqu’au ${formatDateFr(result.review.endsAt)} : ${result.review.fileCount} fichier${result.review.fileCount > 1 ? 's' : ''} à choisir, le client est prévenu par email.`,
        };
      }
      return {
        intent,
        ok: true,
        message: `Livraison publiée : ${result.fileCount} fichier${result.fileCount > 1 ? 's' : ''}, le client est prévenu par email.`,
      };
    }
    case 'extend': {
      const submission = parseWithZod(form, { schema: extensionFormSchema });
      if (submission.status !== 'success') {
        const error = firstFormError(submission.error, RETENTION_MESSAGES.dateInvalid);
        return { intent, ok: false, error, submission: submission.reply() };
      }
      const result = await extendRetention(orderId, submission.value, admin.id);
      if (!result.ok) {
        // A refused date is said under the date; a refusal of the order itself, in the form's alert.
        const refusal =
          submission.value.kind === 'until'
            ? { fieldErrors: { until: [result.message] } }
            : { formErrors: [result.message] };
        return { intent, ok: false, error: result.message, submission: submission.reply(refusal) };
      }
      const message = RETENTION_MESSAGES.extended(result.expiresAt);
      return { intent, ok: true, message, submission: submission.reply({ resetForm: true }) };
    }
    case 'delete-file': {
      const result = await deleteOrderFile(orderId, fileId, admin.id);
      return result.ok ? { intent, ok: true, message: result.message } : { intent, ok: false, error: result.message };
    }
    case 'rework-done': {
      const result = await markReworkDone(orderId, fileId, admin.id);
      return result.ok ? { intent, ok: true, message: result.message } : { intent, ok: false, error: result.message };
    }
    default:
      return { intent, ok: false, error: 'Action inconnue.' };
  }
}

import { parseWithZod } from '@conform-to/zod/v4';
import { ORDER_MESSAGE_ERRORS, orderMessageSchema } from '~/domain/admin/order-message';
import { requireStaff } from '~/server/admin/access.server';
import { sendOrderMessage } from '~/server/admin/order-messages.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/order-message';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * « Contacter le client » from the order dialog: POST subject + message, sent by e-mail
 * and kept in the order's history. Answers the form with Conform's result (French messages under
 * the fields); 200 with `ok: false` for what the person can correct.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, 'orders.write');
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: orderMessageSchema });
  if (submission.status !== 'success') return { ok: false as const, result: submission.reply() };
  if (!UUID.test(params.orderId)) {
    return { ok: false as const, result: submission.reply({ formErrors: [ORDER_MESSAGE_ERRORS.notFound] }) };
  }
  const sent = await sendOrderMessage({ orderId: params.orderId, actor: staff, message: submission.value });
  if (!sent.ok) {
    const error = sent.reason === 'no-email' ? ORDER_MESSAGE_ERRORS.noEmail : ORDER_MESSAGE_ERRORS.notFound;
    return { ok: false as const, result: submission.reply({ formErrors: [error] }) };
  }
  return { ok: true as const, to: sent.to, result: submission.reply({ resetForm: true }) };
}

import { and, eq, inArray, isNull } from 'drizzle-orm';
import { EXTRA_COPY_MESSAGES, type ExtraCopyChoice, SHARE_COPY_MESSAGES } from '~/domain/orders/extra-copies';
import { type Database, db } from '../db/client.server';
import { orderFiles } from '../db/schema';
import { type OpenShare, shareSelection } from '../files/sharing.server';
import { isOrderId } from '../orders/access.server';
import { listPickableFiles, type StartedExtraOrder, startExtraCopyOrder } from './extra-copies.server';

/*
 * A relative orders a copy from a family share (/partage/{token}/copie; decisions 028 and
 * 029). The share's token gave the right to its selection only, so the choice is narrowed to
 * it here: « Tous les fichiers » of a selection share means the selection's files (never the whole
 * order), and a file picked outside it is refused, nothing ordered. The order itself is an
 * ordinary extra-copy order (startExtraCopyOrder) linked to the source order, bought by the
 * relative as a guest: their e-mail, their access token, `share:<id>` as who ordered it. Nothing
 * of the customer's account or order (number, address, e-mail) goes onto it.
 */

/** The share's files a relative may pick: the selection's live files (all the order's for `all`). */
export function listShareFiles(share: Pick<OpenShare, 'id' | 'orderId' | 'scope'>, database: Database = db()) {
  return listPickableFiles(share.orderId, shareSelection(share, database), database);
}

export async function startShareCopyOrder(
  input: { share: Pick<OpenShare, 'id' | 'orderId' | 'scope'>; choice: ExtraCopyChoice; email: string },
  database: Database = db(),
): Promise<StartedExtraOrder> {
  const { share, choice } = input;
  let fileIds: 'all' | string[];
  if (choice.fileIds === 'all') {
    // The whole order only when the whole order is shared; otherwise the selection, as it is now.
    fileIds = share.scope === 'all' ? 'all' : (await listShareFiles(share, database)).map((file) => file.id);
    if (fileIds.length === 0) return { ok: false, message: EXTRA_COPY_MESSAGES.noFile };
  } else {
    const wanted = [...new Set(choice.fileIds)];
    if (wanted.length === 0) return { ok: false, message: EXTRA_COPY_MESSAGES.noFile };
    if (!wanted.every(isOrderId)) return { ok: false, message: SHARE_COPY_MESSAGES.outsideShare };
    const inside = await database
      .select({ id: orderFiles.id })
      .from(orderFiles)
      .where(
        and(
          eq(orderFiles.orderId, share.orderId),
          isNull(orderFiles.deletedAt),
          inArray(orderFiles.id, wanted),
          shareSelection(share, database),
        ),
      );
    if (inside.length !== wanted.length) return { ok: false, message: SHARE_COPY_MESSAGES.outsideShare };
    fileIds = wanted;
  }
  return startExtraCopyOrder(
    {
      sourceOrderId: share.orderId,
      fileIds,
      medium: choice.medium,
      quantity: choice.quantity,
      recipient: choice.recipient,
      giftMessage: choice.giftMessage,
      buyer: { user: null, guestEmail: input.email, orderedBy: `share:${share.id}` },
    },
    database,
  );
}

import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { isOrderId } from '~/server/orders/access.server';
import { loadReceptionPhoto } from '~/server/orders/reception.server';
import type { Route } from './+types/reception-photo';

/** A reception photo, for the staff only (the order dialog's thumbnails). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  const photo = isOrderId(params.photoId) ? await loadReceptionPhoto(params.photoId) : null;
  if (!photo) throw data('Photo introuvable', { status: 404 });
  return new Response(new Uint8Array(photo.content), {
    headers: {
      'Content-Type': photo.contentType,
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

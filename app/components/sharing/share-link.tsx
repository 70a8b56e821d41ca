import { UsersIcon } from 'lucide-react';
import { Link } from 'react-router';

/*
 * « Partager avec la famille »: the gallery's way to the order's shares (decision 028), for the
 * customer (owner or guest with the token); the staff see the shares from the same address.
 */
export function ShareLink({ orderId }: { orderId: string }) {
  return (
    <Link
      to={`/commande/${orderId}/partages`}
      className="inline-flex min-h-11 w-fit items-center gap-2 font-medium text-primary underline-offset-4 hover:underline"
    >
      <UsersIcon className="size-5" aria-hidden="true" />
      Partager avec la famille
    </Link>
  );
}

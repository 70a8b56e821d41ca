import { addressLines, type FrozenAddress, formatPhone, sameAddress } from '~/domain/orders/address';

/*
 * The addresses frozen on an order, as the confirmation, the account and the back office show them:
 * the delivery address, and the billing address when the customer gave a different one.
 */

function AddressText({ title, address }: { title: string; address: FrozenAddress }) {
  return (
    <div className="flex flex-col gap-1">
      <h3 className="font-semibold text-sm">{title}</h3>
      <address className="text-sm not-italic leading-relaxed">
        {addressLines(address).map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
        {address.phone ? (
          <span className="block text-muted-foreground">Tél.&nbsp;: {formatPhone(address.phone)}</span>
        ) : null}
      </address>
    </div>
  );
}

export function OrderAddresses({
  delivery,
  billing,
  headingId = 'order-addresses-title',
}: {
  delivery: FrozenAddress | null;
  billing: FrozenAddress | null;
  headingId?: string;
}) {
  if (!delivery && !billing) return null;
  const separateBilling = billing && (!delivery || !sameAddress(billing, delivery));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="font-semibold text-lg">
        Adresses de la commande
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        {delivery ? (
          <AddressText title={separateBilling ? 'Livraison' : 'Livraison et facturation'} address={delivery} />
        ) : null}
        {separateBilling ? <AddressText title="Facturation" address={billing} /> : null}
      </div>
    </section>
  );
}

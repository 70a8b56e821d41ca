import { BOARD_DELIVERY_LABELS } from '~/domain/admin/workshop-board';
import { DELIVERY_METHODS } from '~/domain/pricing/default-price-list';
import { NativeSelect } from './native-select';

/*
 * Filter fields shared by the orders list and the workshop board (GET forms: `livraison=usb`,
 * `etiquette=oui`, `retour=oui`).
 */

export function DeliveryFilter({ value, className }: { value: string | null; className?: string }) {
  return (
    <NativeSelect
      className={className}
      label="Livraison"
      name="livraison"
      defaultValue={value ?? ''}
      options={[
        { value: '', label: 'Toutes les livraisons' },
        ...DELIVERY_METHODS.map((d) => ({ value: d, label: BOARD_DELIVERY_LABELS[d] })),
      ]}
    />
  );
}

export function CheckFilter({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label className="inline-flex min-h-10 items-center gap-2 text-sm">
      <input type="checkbox" name={name} value="oui" defaultChecked={checked} className="size-4 accent-primary" />
      {label}
    </label>
  );
}

/** The options of the order that travel: the prepaid label, the return of the originals. */
export function ShippingOptionFilters({ label, returnOriginals }: { label: boolean; returnOriginals: boolean }) {
  return (
    <>
      <CheckFilter name="etiquette" label="Étiquette prépayée" checked={label} />
      <CheckFilter name="retour" label="Retour des originaux" checked={returnOriginals} />
    </>
  );
}

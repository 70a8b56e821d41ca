/** The prepaid sending label as the customer's pages show it. */
export type PrepaidLabelView =
  /** Made: downloadable, with its parcel number. */
  | { state: 'ready'; parcelNumber: string }
  /** Paid but not made yet (Colissimo failed or was slow): the customer may ask for it. */
  | { state: 'missing' }
  /** Made once the order is paid. */
  | { state: 'unpaid' };

/** The address of the customer's label download (GET serves the PDF; POST makes it when missing). */
export function prepaidLabelPath(orderId: string): string {
  return `/commande/${orderId}/etiquette.pdf`;
}

/** The file name the label downloads as. */
export function labelFileName(orderNumber: string, direction: 'inbound' | 'outbound'): string {
  return `etiquette-${direction === 'inbound' ? 'envoi' : 'retour'}-${orderNumber}.pdf`;
}

/** Set on the page's address when « Générer mon étiquette » failed, so that the page says so. */
export const LABEL_FAILED_PARAM = 'etiquette';

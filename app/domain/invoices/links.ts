/*
 * Where an order's documents are read: /facture/{orderId} (the invoice), `?avoir=` one of its
 * credit notes by number (AV-2026-000001) or id, and /pdf for either as a download.
 */

export function invoiceHref(orderId: string): string {
  return `/facture/${orderId}`;
}

export function creditNoteHref(orderId: string, creditNote: string): string {
  return `/facture/${orderId}?avoir=${encodeURIComponent(creditNote)}`;
}

export function creditNotePdfHref(orderId: string, creditNote: string): string {
  return `/facture/${orderId}/pdf?avoir=${encodeURIComponent(creditNote)}`;
}

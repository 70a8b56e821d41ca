/**
 * One line of an order as it is stored (an `order_items` row without its keys): the customer's
 * choice for one support and the prices it was given then. The customer's pages, the back office,
 * the documents and the invoices read this one shape; the configurator's line before pricing, with
 * its choices typed, is LineChoice (domain/pricing/pricing.ts).
 */
export interface OrderLine {
  type: string;
  quantity: number;
  quality: string;
  resolution: string | null;
  format: string | null;
  /** Number of items restored. */
  restoration: number;
  denoise: boolean;
  reelSize: string | null;
  /** One unit with its options, rounded to the cent (the price tag). */
  unitPriceCents: number;
  lineTotalCents: number;
}

/**
 * A priced row as the customer reads it on an order page, an invoice or a credit note: the words,
 * quantity x unit price = total (VAT included). A line whose total is no whole number of cents per
 * unit is one lot (quantity 1).
 */
export interface PricedRow {
  label: string;
  /** The options of the line in words ("Qualité premium, 3600 dpi, TIFF"), or what the row applies to. */
  detail: string;
  quantity: number;
  /** Unit price including VAT. */
  unitPriceCents: number;
  /** quantity x unit price, including VAT. */
  totalCents: number;
}

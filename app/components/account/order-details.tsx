import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import {
  DELIVERY_LABELS,
  type OrderPrices,
  PAYMENT_METHOD_LABELS,
  priceBreakdown,
} from '~/domain/account/order-details';
import { formatEurosFromCents } from '~/domain/format';
import type { OrderLine } from '~/domain/orders/order-line';
import { orderItemRows } from '~/domain/pricing/item-rows';

/**
 * The lines of an order: support, options, quantity, unit price and amount, each row multiplying
 * exactly (domain/pricing/item-rows.ts): restoration and denoising on rows of their own, a line
 * rounded as a whole shown as one lot.
 */
export function OrderItemsTable({ items, prices }: { items: OrderLine[]; prices: OrderPrices }) {
  return (
    <Table>
      <caption className="sr-only">Articles de la commande</caption>
      <TableHeader>
        <TableRow>
          <TableHead>Support</TableHead>
          <TableHead className="text-right">Quantité</TableHead>
          <TableHead className="text-right">Prix unitaire</TableHead>
          <TableHead className="text-right">Total</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {orderItemRows(items, prices).map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines in their stored order
          <TableRow key={index}>
            <TableCell>
              <span className="font-medium">{row.label}</span>
              <span className="block text-muted-foreground text-xs">{row.detail}</span>
            </TableCell>
            <TableCell className="text-right">{row.quantity}</TableCell>
            <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.unitPriceCents)}</TableCell>
            <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.totalCents)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The price breakdown of the order, ending with the total including VAT. */
export function OrderTotals({ prices, items }: { prices: OrderPrices; items?: OrderLine[] }) {
  return (
    <Table>
      <caption className="sr-only">Détail du prix</caption>
      <TableBody>
        {priceBreakdown(prices, items).map((line) => (
          <TableRow key={line.label}>
            <TableHead scope="row" className="font-normal text-muted-foreground">
              {line.label}
            </TableHead>
            <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(line.cents)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableHead scope="row">Total TTC</TableHead>
          <TableCell className="whitespace-nowrap text-right font-semibold">
            {formatEurosFromCents(prices.totalPriceCents)}
          </TableCell>
        </TableRow>
      </TableFooter>
    </Table>
  );
}

export function deliveryLabel(method: string): string {
  return DELIVERY_LABELS[method] ?? method;
}

export function paymentMethodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS[method] ?? method;
}

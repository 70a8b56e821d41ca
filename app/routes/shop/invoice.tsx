import { DownloadIcon } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { z } from 'zod';
import '~/domain/zod-config';
import { CreditNotesLinks } from '~/components/account/credit-notes-links';
import { invoicePdfHref } from '~/components/account/invoices-list';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { itemOptions, supportLabel } from '~/domain/account/order-details';
import { company } from '~/domain/company';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { creditNotePdfHref } from '~/domain/invoices/links';
import { businessBuyerLines, documentMentions, lineUnitPriceExcludingVat } from '~/domain/invoices/mentions';
import { DEMO_DOCUMENT_NOTICE, parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { listOrderCreditNotes } from '~/server/account/orders.server';
import { getOrderDocuments } from '~/server/invoices/invoices.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import type { Route } from './+types/invoice';

/*
 * /facture/:orderId: the invoice of an order, for its owner, the guest holding the order's access
 * token, or an administrator (the back office opens it by order id); 404 for anyone else and while
 * the order has no invoice. A minimal HTML view of the frozen snapshot; the invoices module
 * extends it and serves the PDF at /facture/:orderId/pdf. `?avoir=AV-2026-000001` (or the credit
 * note's id) shows one of the order's credit notes instead, with its PDF at /pdf?avoir=….
 * A demonstration document (money taken by the sandbox) says so above everything.
 */

const cents = z.number().int();
const party = z.object({
  name: z.string().optional(),
  email: z.string().nullish(),
  street: z.string().nullish(),
  /** Older snapshots' name of the street. */
  address: z.string().nullish(),
  postalCode: z.string().nullish(),
  city: z.string().nullish(),
  country: z.string().nullish(),
});

const snapshotSchema = z
  .object({
    serviceDate: z.string().optional().catch(undefined),
    seller: z
      .object({
        name: z.string().optional(),
        address: z.string().optional(),
        shareCapital: z.string().optional(),
        registration: z.string().optional(),
        vatNumber: z.string().optional(),
      })
      .partial()
      .optional()
      .catch(undefined),
    buyer: party.nullish().catch(undefined),
    deliveryAddress: party.optional().catch(undefined),
    lines: z
      .array(
        z.object({
          label: z.string(),
          /** The options in words ("Qualité standard, 4800 dpi, TIFF"), as the PDF prints them. */
          detail: z.string().optional().catch(undefined),
          quantity: z.number(),
          unitPriceCents: cents,
          totalCents: cents,
          totalExcludingVatCents: cents.optional().catch(undefined),
        }),
      )
      .optional()
      .catch(undefined),
    vatRate: z.number().optional().catch(undefined),
    totalExcludingVatCents: cents.optional().catch(undefined),
    demo: z.boolean().optional().catch(undefined),
  })
  .catch({});

/** The lines of a party's address, as the PDF prints them (street, postal code and city, country). */
function partyLines(p: z.infer<typeof party> | null | undefined): string[] {
  if (!p) return [];
  const cityLine = [p.postalCode, p.city].filter(Boolean).join(' ');
  return [p.street ?? p.address, cityLine, p.country].filter((line): line is string => Boolean(line));
}

/**
 * What the document states beyond its lines, from its snapshot: the business buyer's identity,
 * the mentions (category of operation, VAT on debits, payment terms) and the notes. A snapshot of
 * an older shape that the full schema does not read shows none of them (as before).
 */
function legalMentionsOf(raw: unknown): { business: string[]; mentions: string[] } {
  const snapshot = parseDocumentSnapshot(raw);
  if (!snapshot) return { business: [], mentions: [] };
  return { business: businessBuyerLines(snapshot), mentions: [...documentMentions(snapshot), ...snapshot.notes] };
}

/** « Prix unit. HT » of a line whose snapshot recorded its excluding-VAT share (null otherwise). */
function withUnitExcludingVat<T extends { quantity: number; totalExcludingVatCents?: number | undefined }>(
  line: T,
): T & { unitExcludingVat: string | null } {
  return {
    ...line,
    unitExcludingVat:
      line.totalExcludingVatCents === undefined
        ? null
        : lineUnitPriceExcludingVat({ quantity: line.quantity, totalExcludingVatCents: line.totalExcludingVatCents }),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `${loaded.invoice.title} ${loaded.invoice.number} | Soovenirs` : 'Facture | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: Route.LoaderArgs) {
  // A guest's e-mailed link (?token=…): the order's cookie, then the same address without the token.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const found = await getOrderForViewer(request, params.orderId);
  const invoice = found?.order.invoice;
  if (!found || !invoice) throw data(null, { status: 404 });
  const { order } = found;
  const avoir = new URL(request.url).searchParams.get('avoir');
  if (avoir !== null) {
    const { creditNotes } = await getOrderDocuments(order.id);
    const note = creditNotes.find((n) => n.number === avoir || n.id === avoir);
    if (!note) throw data(null, { status: 404 });
    const s = note.snapshot;
    return {
      viewer: found.viewer,
      invoice: {
        title: 'Avoir' as const,
        number: note.number,
        issuedAt: note.issuedAt,
        isPaid: true,
        amountCents: note.amountCents,
        vatCents: note.vatCents,
        excludingVatCents: s.totalExcludingVatCents,
        vatRate: s.vatRate,
        serviceDate: s.serviceDate,
        demo: Boolean(s.demo),
        invoiceNumber: s.invoiceNumber ?? invoice.number,
        reason: s.reason ?? null,
        pdfHref: creditNotePdfHref(order.id, note.number),
      },
      creditNotes: [],
      order: { id: order.id, number: order.number, createdAt: order.createdAt },
      buyer: { name: s.buyer?.name ?? '', email: s.buyer?.email ?? '', lines: partyLines(s.buyer) },
      delivery: s.deliveryAddress ? { name: s.deliveryAddress.name, lines: partyLines(s.deliveryAddress) } : null,
      lines: s.lines.map(({ label, detail, quantity, unitPriceCents, totalCents, totalExcludingVatCents }) =>
        withUnitExcludingVat({ label, detail, quantity, unitPriceCents, totalCents, totalExcludingVatCents }),
      ),
      ...legalMentionsOf(s),
    };
  }
  const snapshot = snapshotSchema.parse(invoice.snapshot ?? {});
  // The credit notes on this order's invoice, linked from it.
  const creditNotes = await listOrderCreditNotes(order.id);
  const lines = (
    snapshot.lines ??
    order.items.map((item) => ({
      label: supportLabel(item.type),
      detail: itemOptions(item),
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
      totalCents: item.lineTotalCents,
      totalExcludingVatCents: undefined,
    }))
  ).map(withUnitExcludingVat);
  const customerName = `${order.customer.firstName} ${order.customer.lastName}`.trim();
  return {
    viewer: found.viewer,
    invoice: {
      title: 'Facture' as const,
      number: invoice.number,
      issuedAt: invoice.issuedAt,
      isPaid: invoice.isPaid,
      amountCents: invoice.amountCents,
      vatCents: invoice.vatCents,
      excludingVatCents: snapshot.totalExcludingVatCents ?? invoice.amountCents - invoice.vatCents,
      vatRate: snapshot.vatRate ?? 0.2,
      serviceDate: snapshot.serviceDate ?? null,
      demo: Boolean(snapshot.demo),
      invoiceNumber: null,
      reason: null,
      pdfHref: invoicePdfHref(order.id),
    },
    creditNotes,
    order: { id: order.id, number: order.number, createdAt: order.createdAt },
    buyer: {
      name: snapshot.buyer?.name ?? customerName,
      email: snapshot.buyer?.email ?? order.customer.email ?? '',
      lines: snapshot.buyer
        ? partyLines(snapshot.buyer)
        : partyLines({ ...order.customer, street: order.customer.street, country: null }),
    },
    delivery: snapshot.deliveryAddress
      ? { name: snapshot.deliveryAddress.name ?? '', lines: partyLines(snapshot.deliveryAddress) }
      : null,
    lines,
    ...legalMentionsOf(invoice.snapshot),
  };
}

export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { invoice, order, buyer, delivery, lines, viewer, creditNotes, business, mentions } = loaderData;
  return (
    <section
      aria-labelledby="invoice-title"
      className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      {invoice.demo ? (
        <p className="rounded-md border border-warning-tint-border bg-warning-tint px-4 py-2 text-center font-medium text-warning-tint-foreground">
          {DEMO_DOCUMENT_NOTICE}
        </p>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <p className="font-semibold text-sepia text-sm uppercase tracking-wider">{invoice.title}</p>
          <h1 id="invoice-title" className="text-title">
            {invoice.title} {invoice.number}
          </h1>
          <p className="text-muted-foreground">
            Émis{invoice.title === 'Facture' ? 'e' : ''} le {formatDateFr(invoice.issuedAt)} · commande {order.number}
          </p>
          {invoice.invoiceNumber ? (
            <p className="text-muted-foreground">
              Sur la facture{' '}
              <Link to={`/facture/${order.id}`} className="text-primary underline-offset-4 hover:underline">
                {invoice.invoiceNumber}
              </Link>
              {invoice.reason ? ` · motif\u00A0: ${invoice.reason}` : ''}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {invoice.title === 'Facture' ? (
            <Badge variant={invoice.isPaid ? 'success' : 'warning'}>
              {invoice.isPaid ? 'Payée' : 'En attente de paiement'}
            </Badge>
          ) : null}
          <Button asChild variant="outline" size="sm">
            <a href={invoice.pdfHref} download>
              <DownloadIcon aria-hidden="true" />
              Télécharger le PDF
            </a>
          </Button>
        </div>
      </div>

      <div className="grid gap-4 rounded-lg border border-border bg-card p-5 sm:grid-cols-2">
        <div className="flex flex-col gap-0.5 text-sm">
          <h2 className="mb-1 font-semibold text-base">Vendeur</h2>
          <span>{company.legalName}</span>
          <span>
            {company.street}, {company.postalCode} {company.city}
          </span>
          <span>
            Capital {company.capital} · SIREN {company.siren} · {company.rcs}
          </span>
          <span>TVA intracommunautaire {company.vatNumber}</span>
        </div>
        <div className="flex flex-col gap-0.5 text-sm">
          <h2 className="mb-1 font-semibold text-base">Client</h2>
          {buyer.name ? <span>{buyer.name}</span> : null}
          {buyer.email ? <span className="break-all">{buyer.email}</span> : null}
          {buyer.lines.map((line) => (
            <span key={line}>{line}</span>
          ))}
          {business.length > 0 ? (
            <>
              <h3 className="mt-2 font-semibold">Client professionnel</h3>
              {business.map((line) => (
                <span key={line}>{line}</span>
              ))}
            </>
          ) : null}
        </div>
        {delivery ? (
          <div className="flex flex-col gap-0.5 text-sm sm:col-start-2">
            <h2 className="mb-1 font-semibold text-base">Adresse de livraison</h2>
            {delivery.name ? <span>{delivery.name}</span> : null}
            {delivery.lines.map((line) => (
              <span key={line}>{line}</span>
            ))}
          </div>
        ) : null}
      </div>

      {/* On a phone the quantity and unit price go under the designation (two columns, nothing cut);
          the totals are a list of their own, right-aligned, readable at any width. */}
      <Table>
        <caption className="sr-only">
          {invoice.title === 'Facture' ? 'Lignes de la facture' : 'Lignes de l’avoir'}
        </caption>
        <TableHeader>
          <TableRow>
            <TableHead>Désignation</TableHead>
            <TableHead className="hidden text-right sm:table-cell">Quantité</TableHead>
            <TableHead className="hidden text-right sm:table-cell">Prix unit. HT</TableHead>
            <TableHead className="hidden text-right sm:table-cell">Prix unit. TTC</TableHead>
            <TableHead className="text-right">Total TTC</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the invoice's lines in their frozen order
            <TableRow key={index}>
              <TableCell className="whitespace-normal">
                <span className="block">{line.label}</span>
                {line.detail ? <span className="block text-muted-foreground text-xs">{line.detail}</span> : null}
                <span className="block text-muted-foreground text-xs tabular-nums sm:hidden">
                  {line.quantity}
                  {NBSP}×{NBSP}
                  {formatEurosFromCents(line.unitPriceCents)} TTC
                  {line.unitExcludingVat ? ` (${line.unitExcludingVat} HT)` : ''}
                </span>
              </TableCell>
              <TableCell className="hidden text-right sm:table-cell">{line.quantity}</TableCell>
              <TableCell className="hidden whitespace-nowrap text-right sm:table-cell">
                {line.unitExcludingVat ?? '—'}
              </TableCell>
              <TableCell className="hidden whitespace-nowrap text-right sm:table-cell">
                {formatEurosFromCents(line.unitPriceCents)}
              </TableCell>
              <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(line.totalCents)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <dl className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt>Total HT</dt>
        <dd className="whitespace-nowrap text-right tabular-nums">{formatEurosFromCents(invoice.excludingVatCents)}</dd>
        <dt>
          TVA {Math.round(invoice.vatRate * 100)}
          {NBSP}%
        </dt>
        <dd className="whitespace-nowrap text-right tabular-nums">{formatEurosFromCents(invoice.vatCents)}</dd>
        <dt className="border-border border-t pt-1 font-semibold text-base">Total TTC</dt>
        <dd className="whitespace-nowrap border-border border-t pt-1 text-right font-semibold text-base tabular-nums">
          {formatEurosFromCents(invoice.amountCents)}
        </dd>
      </dl>
      {invoice.serviceDate ? (
        <p className="text-muted-foreground text-sm">Date de la prestation : {formatDateFr(invoice.serviceDate)}</p>
      ) : null}
      {mentions.length > 0 ? (
        <section aria-labelledby="invoice-mentions-title" className="flex flex-col gap-1 text-sm">
          <h2 id="invoice-mentions-title" className="font-semibold text-base">
            Mentions
          </h2>
          <ul className="flex flex-col gap-1 text-muted-foreground">
            {mentions.map((mention) => (
              <li key={mention}>{mention}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <CreditNotesLinks notes={creditNotes} headingId="invoice-credit-notes-title" />
      {viewer !== 'admin' ? (
        <Link
          to={`/confirmation?orderId=${order.id}`}
          className="w-fit text-primary text-sm underline-offset-4 hover:underline"
        >
          Voir la commande
        </Link>
      ) : null}
    </section>
  );
}

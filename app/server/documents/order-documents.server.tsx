import { Document, Page, renderToBuffer, StyleSheet, Text, type TextProps, View } from '@react-pdf/renderer';
import { and, asc, eq } from 'drizzle-orm';
import { DELIVERY_LABELS, itemOptions, supportLabel } from '~/domain/account/order-details';
import { formatDateFr, frenchTypography } from '~/domain/format';
import {
  countedAt,
  parseReceptionCounts,
  quantityText,
  type ReceptionCount,
  undeclaredCounts,
} from '~/domain/orders/counted-quantities';
import type { OrderLine } from '~/domain/orders/order-line';
import { packingAdviceFor, WORKSHOP_ADDRESS_LINES } from '~/domain/orders/sending-instructions';
import { db } from '../db/client.server';
import { orderAddresses, orderItems, orders, receptions } from '../db/schema';
import { pdfText } from '../invoices/pdf.server';
import { loadOrderDetails } from '../orders/access.server';
import { BarcodePdf } from './barcode-pdf';

/*
 * The two paper documents of the originals' journey: the order slip the customer prints
 * and puts in the parcel (order number as text and barcode, what they declared, where to send it),
 * and the workshop's job sheet that travels with the originals through the stages (items and
 * options, express or standard, due date, reception remarks, how it goes back). Callers check
 * access: the slip is the customer's (access.server.ts), the job sheet the staff's.
 */

const INK = '#1d3557';
const MUTED = '#5b6770';
const RULE = '#d9d2c7';

const styles = StyleSheet.create({
  page: { padding: 40, fontFamily: 'Helvetica', fontSize: 10, color: '#1f2933' },
  header: { flexDirection: 'row', justifyContent: 'space-between', alignItems: 'flex-start', marginBottom: 20 },
  brand: { fontFamily: 'Helvetica-Bold', fontSize: 16, color: INK, marginBottom: 4 },
  title: { fontFamily: 'Helvetica-Bold', fontSize: 14, color: INK, marginBottom: 4 },
  number: { fontFamily: 'Helvetica-Bold', fontSize: 20, marginTop: 4, letterSpacing: 1 },
  section: { marginBottom: 14 },
  sectionTitle: {
    fontFamily: 'Helvetica-Bold',
    fontSize: 9,
    color: MUTED,
    textTransform: 'uppercase',
    marginBottom: 4,
  },
  row: { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: RULE, paddingVertical: 4 },
  colLabel: { width: '70%', paddingRight: 6 },
  colQty: { width: '30%', textAlign: 'right' },
  muted: { color: MUTED },
  bold: { fontFamily: 'Helvetica-Bold' },
  emphasis: { fontFamily: 'Helvetica-Bold', fontSize: 12, color: INK },
  box: { borderWidth: 1, borderColor: INK, padding: 10, marginBottom: 14 },
});

function T({ children, style }: { children: string; style?: TextProps['style'] }) {
  return <Text style={style}>{pdfText(frenchTypography(children))}</Text>;
}

interface DocumentOrder {
  id: string;
  number: string;
  createdAt: Date;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  /** The ordered lines, each with its counted quantity once the parcel is received (else null). */
  items: Array<OrderLine & { counted: number | null }>;
  /** Counted at reception but not ordered (a reel size that arrived undeclared). */
  undeclared: ReceptionCount[];
  deliveryMethod: string;
  returnOriginals: boolean;
  sendMethod: string;
  express: boolean;
  dueAt: Date | null;
  deliveryAddress: string[] | null;
  remarks: Array<{ group: string; text: string }>;
}

/** What both documents show of an order, or null when it does not exist. */
export async function loadDocumentOrder(orderId: string): Promise<DocumentOrder | null> {
  const details = await loadOrderDetails(orderId);
  if (!details) return null;
  const database = db();
  const [[row], [address], [reception], positions] = await Promise.all([
    database.select({ express: orders.express, dueAt: orders.dueAt }).from(orders).where(eq(orders.id, orderId)),
    database
      .select()
      .from(orderAddresses)
      .where(and(eq(orderAddresses.orderId, orderId), eq(orderAddresses.kind, 'delivery'))),
    database
      .select({ remarks: receptions.remarks, counts: receptions.counts })
      .from(receptions)
      .where(eq(receptions.orderId, orderId)),
    // The lines' positions, in the order loadOrderDetails reads them: the counts are keyed by position.
    database
      .select({ position: orderItems.position })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.position), asc(orderItems.id)),
  ]);
  const counts = parseReceptionCounts(reception?.counts);
  const linePositions = positions.map((line) => line.position);
  const customer = details.customer;
  return {
    id: details.id,
    number: details.number,
    createdAt: details.createdAt,
    customerName: `${customer.firstName} ${customer.lastName}`.trim(),
    customerEmail: customer.email ?? '',
    customerPhone: customer.phone ?? '',
    items: details.items.map((item, index) => {
      const position = linePositions[index];
      return { ...item, counted: position === undefined ? null : countedAt(counts, position) };
    }),
    undeclared: undeclaredCounts(counts, linePositions),
    deliveryMethod: details.deliveryMethod,
    returnOriginals: details.returnOriginals,
    sendMethod: details.sendMethod,
    express: row?.express ?? false,
    dueAt: row?.dueAt ?? null,
    deliveryAddress: address
      ? [
          `${address.firstName} ${address.lastName}`.trim(),
          address.company ?? '',
          address.line1,
          address.line2 ?? '',
          `${address.postalCode} ${address.city}`,
          address.country,
          address.phone ?? '',
        ].filter(Boolean)
      : null,
    remarks: remarksOf(reception?.remarks),
  };
}

function remarksOf(value: unknown): Array<{ group: string; text: string }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((remark) =>
    remark && typeof remark.text === 'string' && remark.text.trim()
      ? [{ group: typeof remark.group === 'string' ? remark.group : '', text: remark.text }]
      : [],
  );
}

function NumberBlock({ order, title }: { order: DocumentOrder; title: string }) {
  return (
    <View style={styles.header}>
      <View>
        <T style={styles.brand}>Soovenirs</T>
        <T style={styles.title}>{title}</T>
        <T style={styles.muted}>{`Commande passée le ${formatDateFr(order.createdAt)}`}</T>
      </View>
      <View style={{ alignItems: 'flex-end' }}>
        <BarcodePdf text={order.number} />
        <T style={styles.number}>{order.number}</T>
      </View>
    </View>
  );
}

/**
 * The lines: on the customer's slip as declared; on the job sheet (`counted`) as counted at
 * reception, with the declared quantity beside it when they differ, and what arrived undeclared.
 */
function ItemsTable({ order, counted }: { order: DocumentOrder; counted: boolean }) {
  const { items } = order;
  const withOptions = counted;
  return (
    <View style={styles.section}>
      <T style={styles.sectionTitle}>
        {counted && items.some((item) => item.counted !== null)
          ? 'Supports comptés à la réception'
          : 'Supports déclarés'}
      </T>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines in their stored order
        <View key={index} style={styles.row}>
          <View style={styles.colLabel}>
            <T style={styles.bold}>{supportLabel(item.type)}</T>
            {withOptions ? <T style={styles.muted}>{itemOptions(item)}</T> : null}
          </View>
          <T
            style={styles.colQty}
          >{`Quantité : ${counted ? quantityText(item.quantity, item.counted) : item.quantity}`}</T>
        </View>
      ))}
      {counted
        ? order.undeclared.map((line) => (
            <View key={line.key} style={styles.row}>
              <View style={styles.colLabel}>
                <T style={styles.bold}>{line.label}</T>
              </View>
              <T style={styles.colQty}>{`Quantité : ${quantityText(0, line.counted)}`}</T>
            </View>
          ))
        : null}
    </View>
  );
}

function returnLine(order: DocumentOrder): string {
  const delivery = DELIVERY_LABELS[order.deliveryMethod] ?? order.deliveryMethod;
  return order.returnOriginals ? `${delivery}, retour des originaux par colis` : `${delivery}, originaux non renvoyés`;
}

/** The order slip: in the parcel, so that the workshop knows whose originals these are. */
export function OrderSlipPdf({ order }: { order: DocumentOrder }) {
  return (
    <Document title={pdfText(`Bordereau ${order.number}`)} author="Soovenirs" language="fr">
      <Page size="A4" style={styles.page}>
        <NumberBlock order={order} title="Bordereau d’envoi des originaux" />
        <View style={styles.box}>
          <T style={styles.sectionTitle}>À envoyer à</T>
          {WORKSHOP_ADDRESS_LINES.map((line) => (
            <T key={line} style={styles.emphasis}>
              {line}
            </T>
          ))}
        </View>
        <View style={styles.section}>
          <T style={styles.sectionTitle}>Expéditeur</T>
          <T>{order.customerName || order.customerEmail}</T>
          {order.customerName && order.customerEmail ? <T style={styles.muted}>{order.customerEmail}</T> : null}
        </View>
        <ItemsTable order={order} counted={false} />
        <View style={styles.section}>
          <T style={styles.sectionTitle}>Avant de fermer le colis</T>
          <T>Glissez ce bordereau dans le colis, sur le dessus du contenu.</T>
          {packingAdviceFor(order.items.map((item) => item.type)).map((advice) => (
            <T key={advice.title} style={{ marginTop: 4 }}>{`${advice.title} : ${advice.advice}`}</T>
          ))}
        </View>
      </Page>
    </Document>
  );
}

/** The workshop's job sheet: what to do with the originals, by when, and how they go back. */
function JobSheetPage({ order }: { order: DocumentOrder }) {
  return (
    <Page size="A4" style={styles.page}>
      <NumberBlock order={order} title="Fiche atelier" />
      <View style={styles.box}>
        <T style={styles.emphasis}>{order.express ? 'EXPRESS' : 'Délai standard'}</T>
        <T>{order.dueAt ? `À terminer le ${formatDateFr(order.dueAt)}` : 'Date limite : après réception du colis'}</T>
      </View>
      <View style={styles.section}>
        <T style={styles.sectionTitle}>Client</T>
        <T>{order.customerName || 'Client invité'}</T>
        {order.customerEmail ? <T style={styles.muted}>{order.customerEmail}</T> : null}
        {order.customerPhone ? <T style={styles.muted}>{order.customerPhone}</T> : null}
      </View>
      <ItemsTable order={order} counted />
      <View style={styles.section}>
        <T style={styles.sectionTitle}>Remarques à la réception</T>
        {order.remarks.length === 0 ? (
          <T style={styles.muted}>Aucune remarque.</T>
        ) : (
          order.remarks.map((remark, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: remarks in their stored order
            <T key={index}>{remark.group ? `${supportLabel(remark.group)} : ${remark.text}` : remark.text}</T>
          ))
        )}
      </View>
      <View style={styles.section}>
        <T style={styles.sectionTitle}>Livraison et retour</T>
        <T>{returnLine(order)}</T>
        {order.deliveryAddress ? order.deliveryAddress.map((line) => <T key={line}>{line}</T>) : null}
      </View>
    </Page>
  );
}

/** One job sheet per order, one page each (the bulk action prints the selection at once). */
export function JobSheetPdf({ orders }: { orders: readonly DocumentOrder[] }) {
  const title = orders.length === 1 ? `Fiche atelier ${orders[0]?.number}` : `Fiches atelier (${orders.length})`;
  return (
    <Document title={pdfText(title)} author="Soovenirs" language="fr">
      {orders.map((order) => (
        <JobSheetPage key={order.id} order={order} />
      ))}
    </Document>
  );
}

export function renderOrderSlipPdf(order: DocumentOrder): Promise<Buffer> {
  return renderToBuffer(<OrderSlipPdf order={order} />);
}

export function renderJobSheetPdf(orders: readonly DocumentOrder[]): Promise<Buffer> {
  return renderToBuffer(<JobSheetPdf orders={orders} />);
}

/**
 * The download response of a PDF: personal data, never kept by a shared cache. `inline` opens in the
 * browser (slips, labels); `attachment` saves the file (invoices and credit notes).
 */
export function pdfResponse(pdf: Buffer, fileName: string, disposition: 'inline' | 'attachment' = 'inline'): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `${disposition}; filename="${fileName}"`,
      'Content-Length': String(pdf.length),
      'Cache-Control': 'private, no-store',
    },
  });
}

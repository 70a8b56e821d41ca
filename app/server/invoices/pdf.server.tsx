import { Document, Page, renderToBuffer, StyleSheet, Text, View } from '@react-pdf/renderer';
import {
  addressLines,
  documentHeading,
  formatDateFr,
  formatEurosFromCents,
  sellerLegalLine,
} from '~/domain/invoices/format';
import { businessBuyerLines, documentMentions, lineUnitPriceExcludingVat } from '~/domain/invoices/mentions';
import { DEMO_DOCUMENT_NOTICE, type DocumentSnapshot } from '~/domain/invoices/snapshot';
import { DOCUMENT_FONT, DOCUMENT_FONT_BOLD } from './document-fonts.server';

/*
 * The PDF of an invoice or credit note, drawn from its frozen snapshot only: the same content as
 * the /facture page, in embedded fonts (document-fonts.server.ts: a Factur-X is a PDF/A);
 * factur-x-pdf.server.ts makes it the file people download. pdfText keeps to WinAnsi because the
 * shop's other PDFs use the standard Helvetica.
 */

// WinAnsi (CP1252) beyond Latin-1.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACEMENTS: Record<string, string> = {
  '\u202F': '\u00A0',
  '\u2009': ' ',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  '≤': '<=',
  '≥': '>=',
  '→': '->',
};

/** Text the standard PDF fonts can show. */
export function pdfText(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) {
      out += char;
    } else if (REPLACEMENTS[char] !== undefined) {
      out += REPLACEMENTS[char];
    } else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      const first = base.codePointAt(0) ?? 0;
      out += base !== char && ((first >= 0x20 && first <= 0x7e) || (first >= 0xa0 && first <= 0xff)) ? base : '?';
    }
  }
  return out;
}

// The colours of the shop's documents (the gift card's too): headings and rules in ink, notes muted.
export const INK = '#1d3557';
export const MUTED = '#5b6770';
export const RULE = '#d9d2c7';

const styles = StyleSheet.create({
  page: {
    paddingTop: 40,
    paddingBottom: 70,
    paddingHorizontal: 44,
    fontFamily: DOCUMENT_FONT,
    fontSize: 9.5,
    color: '#1f2933',
  },
  header: { flexDirection: 'row', justifyContent: 'space-between', marginBottom: 26 },
  brand: { fontFamily: DOCUMENT_FONT_BOLD, fontSize: 18, color: INK, marginBottom: 4 },
  muted: { color: MUTED },
  titleBlock: { alignItems: 'flex-end' },
  title: { fontFamily: DOCUMENT_FONT_BOLD, fontSize: 16, color: INK, marginBottom: 6 },
  parties: { flexDirection: 'row', justifyContent: 'space-between', marginBottom: 22 },
  party: { width: '46%' },
  deliveryParty: { marginTop: 10 },
  partyLabel: {
    fontFamily: DOCUMENT_FONT_BOLD,
    fontSize: 8,
    color: MUTED,
    textTransform: 'uppercase',
    marginBottom: 4,
  },
  bold: { fontFamily: DOCUMENT_FONT_BOLD },
  table: { borderTopWidth: 1, borderTopColor: INK },
  row: { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: RULE, paddingVertical: 5 },
  headRow: { flexDirection: 'row', paddingVertical: 5, borderBottomWidth: 1, borderBottomColor: INK },
  headCell: { fontFamily: DOCUMENT_FONT_BOLD, fontSize: 8.5 },
  colLabel: { width: '37%', paddingRight: 6 },
  colQty: { width: '7%', textAlign: 'right' },
  colUnitHt: { width: '14%', textAlign: 'right' },
  colUnit: { width: '13%', textAlign: 'right' },
  colHt: { width: '14%', textAlign: 'right' },
  colTtc: { width: '15%', textAlign: 'right' },
  detail: { color: MUTED, fontSize: 8.5, marginTop: 1 },
  totals: { marginTop: 14, marginLeft: 'auto', width: '46%' },
  totalRow: { flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 3 },
  grandTotal: {
    flexDirection: 'row',
    justifyContent: 'space-between',
    paddingVertical: 5,
    marginTop: 2,
    borderTopWidth: 1,
    borderTopColor: INK,
    fontFamily: DOCUMENT_FONT_BOLD,
    fontSize: 11,
  },
  notes: { marginTop: 26, gap: 3 },
  footer: {
    position: 'absolute',
    bottom: 28,
    left: 44,
    right: 44,
    borderTopWidth: 0.5,
    borderTopColor: RULE,
    paddingTop: 6,
    fontSize: 7.5,
    color: MUTED,
    textAlign: 'center',
  },
  demo: { marginBottom: 12, padding: 6, backgroundColor: '#fdf3d7', color: '#7a5b00', textAlign: 'center' },
});

type TextStyle = (typeof styles)[keyof typeof styles];

function T({ children, style, fixed }: { children: string; style?: TextStyle | TextStyle[]; fixed?: boolean }) {
  return (
    <Text style={style} fixed={fixed}>
      {pdfText(children)}
    </Text>
  );
}

export function DocumentPdf({ snapshot }: { snapshot: DocumentSnapshot }) {
  const s = snapshot;
  const heading = documentHeading(s);
  return (
    <Document
      title={pdfText(heading)}
      author={pdfText(s.seller.name)}
      subject={pdfText(`Commande ${s.orderNumber}`)}
      language="fr"
    >
      <Page size="A4" style={styles.page}>
        {s.demo ? <T style={styles.demo}>{DEMO_DOCUMENT_NOTICE}</T> : null}
        <View style={styles.header}>
          <View>
            <T style={styles.brand}>{s.seller.name}</T>
            <T style={styles.muted}>{s.seller.street}</T>
            <T style={styles.muted}>{`${s.seller.postalCode} ${s.seller.city}, ${s.seller.country}`}</T>
            <T style={styles.muted}>{`${s.seller.email} · ${s.seller.phone}`}</T>
          </View>
          <View style={styles.titleBlock}>
            <T style={styles.title}>{heading}</T>
            <T>{`Date d’émission : ${formatDateFr(s.issuedAt)}`}</T>
            <T>{`Date de la vente : ${formatDateFr(`${s.serviceDate}T12:00:00Z`)}`}</T>
            <T>{`Commande : ${s.orderNumber}`}</T>
            {s.invoiceNumber ? <T>{`Facture d’origine : ${s.invoiceNumber}`}</T> : null}
          </View>
        </View>

        <View style={styles.parties}>
          <View style={styles.party}>
            <T style={styles.partyLabel}>Vendeur</T>
            <T style={styles.bold}>{s.seller.name}</T>
            <T>{`SIREN ${s.seller.siren} · ${s.seller.rcs}`}</T>
            <T>{`Capital social : ${s.seller.capital}`}</T>
            <T>{`N° TVA : ${s.seller.vatNumber}`}</T>
          </View>
          <View style={styles.party}>
            <T style={styles.partyLabel}>{s.kind === 'credit_note' ? 'Client' : 'Facturé à'}</T>
            {s.buyer ? (
              <>
                <T style={styles.bold}>{s.buyer.name}</T>
                {addressLines(s.buyer).map((line) => (
                  <T key={line}>{line}</T>
                ))}
                {s.buyer.email ? <T>{s.buyer.email}</T> : null}
              </>
            ) : (
              <T>Client</T>
            )}
            {s.business ? (
              <View style={styles.deliveryParty}>
                <T style={styles.partyLabel}>Client professionnel</T>
                {businessBuyerLines(s).map((line) => (
                  <T key={line}>{line}</T>
                ))}
              </View>
            ) : null}
            {s.deliveryAddress ? (
              <View style={styles.deliveryParty}>
                <T style={styles.partyLabel}>Adresse de livraison</T>
                <T style={styles.bold}>{s.deliveryAddress.name}</T>
                {addressLines(s.deliveryAddress).map((line) => (
                  <T key={line}>{line}</T>
                ))}
              </View>
            ) : null}
          </View>
        </View>

        <View style={styles.table}>
          <View style={styles.headRow} fixed>
            <T style={[styles.colLabel, styles.headCell]}>Désignation</T>
            <T style={[styles.colQty, styles.headCell]}>Qté</T>
            <T style={[styles.colUnitHt, styles.headCell]}>Prix unit. HT</T>
            <T style={[styles.colUnit, styles.headCell]}>Prix unit. TTC</T>
            <T style={[styles.colHt, styles.headCell]}>Montant HT</T>
            <T style={[styles.colTtc, styles.headCell]}>Montant TTC</T>
          </View>
          {s.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a frozen list, rendered once
            <View key={index} style={styles.row} wrap={false}>
              <View style={styles.colLabel}>
                <T>{line.label}</T>
                {line.detail ? <T style={styles.detail}>{line.detail}</T> : null}
              </View>
              <T style={styles.colQty}>{String(line.quantity)}</T>
              <T style={styles.colUnitHt}>{lineUnitPriceExcludingVat(line)}</T>
              <T style={styles.colUnit}>{formatEurosFromCents(line.unitPriceCents)}</T>
              <T style={styles.colHt}>{formatEurosFromCents(line.totalExcludingVatCents)}</T>
              <T style={styles.colTtc}>{formatEurosFromCents(line.totalCents)}</T>
            </View>
          ))}
        </View>

        <View style={styles.totals} wrap={false}>
          <View style={styles.totalRow}>
            <T>Total HT</T>
            <T>{formatEurosFromCents(s.totalExcludingVatCents)}</T>
          </View>
          <View style={styles.totalRow}>
            <T>{`TVA ${s.vatRatePercent} %`}</T>
            <T>{formatEurosFromCents(s.vatCents)}</T>
          </View>
          <View style={styles.grandTotal}>
            <T>{s.kind === 'credit_note' ? 'Total TTC à rembourser' : 'Total TTC'}</T>
            <T>{formatEurosFromCents(s.totalCents)}</T>
          </View>
        </View>

        <View style={styles.notes}>
          {documentMentions(s).map((mention) => (
            <T key={mention}>{mention}</T>
          ))}
          {s.notes.map((note) => (
            <T key={note} style={styles.muted}>
              {note}
            </T>
          ))}
        </View>

        <T style={styles.footer} fixed>
          {sellerLegalLine(s)}
        </T>
      </Page>
    </Document>
  );
}

/** The document as PDF bytes. */
export async function renderDocumentPdf(snapshot: DocumentSnapshot): Promise<Buffer> {
  return renderToBuffer(<DocumentPdf snapshot={snapshot} />);
}

/** "facture-FA-2026-000001.pdf" / "avoir-AV-2026-000001.pdf" */
export function documentFileName(snapshot: Pick<DocumentSnapshot, 'kind' | 'number'>): string {
  return `${snapshot.kind === 'credit_note' ? 'avoir' : 'facture'}-${snapshot.number}.pdf`;
}

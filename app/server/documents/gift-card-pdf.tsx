import { Document, Page, renderToBuffer, StyleSheet, Text, type TextProps, View } from '@react-pdf/renderer';
import { company } from '~/domain/company';
import { formatDateFr, formatEurosFromCents, frenchTypography } from '~/domain/format';
import { INK, MUTED, pdfText, RULE } from '../invoices/pdf.server';
import { QrCodePdf } from './qr-code-pdf';

/*
 * The printable gift card: one A4 page the buyer prints and gives, or the recipient keeps. The
 * card itself (amount, for whom, from whom, the buyer's message, the code, the QR code of the
 * redeem page, the last valid day), how to use it below, and the shop's identity at the foot.
 * Standard fonts, as the shop's other documents: pdfText writes what they lack (a narrow no-break
 * space becomes a no-break one).
 */

export interface GiftCardDocument {
  /** 'XXXX-XXXX-XXXX-XXXX': worth its amount to whoever reads it. */
  code: string;
  amountCents: number;
  recipientName: string;
  buyerName: string;
  /** The buyer's words, as typed (line breaks kept); null when they wrote none. */
  message: string | null;
  /** Printed as its date in Paris: « Valable jusqu’au 29/11/2027 ». */
  expiresAt: Date;
  /** The absolute address the QR code opens (the shop's page that takes the code). */
  redeemUrl: string;
}

const styles = StyleSheet.create({
  page: {
    paddingTop: 40,
    paddingBottom: 60,
    paddingHorizontal: 48,
    fontFamily: 'Helvetica',
    fontSize: 10.5,
    color: '#1f2933',
  },
  header: { flexDirection: 'row', justifyContent: 'space-between', alignItems: 'baseline', marginBottom: 22 },
  brand: { fontFamily: 'Helvetica-Bold', fontSize: 16, color: INK },
  muted: { color: MUTED },
  card: { borderWidth: 1.5, borderColor: INK, borderRadius: 12, paddingVertical: 26, paddingHorizontal: 32 },
  title: { fontFamily: 'Helvetica-Bold', fontSize: 22, color: INK },
  amount: { fontFamily: 'Helvetica-Bold', fontSize: 46, color: INK, marginTop: 8, marginBottom: 14 },
  recipient: { fontFamily: 'Helvetica-Bold', fontSize: 15, color: '#1f2933' },
  buyer: { fontSize: 12, color: MUTED, marginTop: 4 },
  message: {
    marginTop: 18,
    paddingVertical: 4,
    paddingLeft: 12,
    borderLeftWidth: 2,
    borderLeftColor: RULE,
    fontFamily: 'Helvetica-Oblique',
    lineHeight: 1.4,
    color: '#1f2933',
  },
  codeRow: {
    flexDirection: 'row',
    justifyContent: 'space-between',
    alignItems: 'center',
    marginTop: 20,
    paddingTop: 18,
    borderTopWidth: 0.75,
    borderTopColor: RULE,
  },
  label: { fontFamily: 'Helvetica-Bold', fontSize: 8.5, color: MUTED, textTransform: 'uppercase', marginBottom: 6 },
  code: { fontFamily: 'Courier-Bold', fontSize: 23, color: '#000000' },
  validity: { marginTop: 12, fontSize: 11.5 },
  // Aligned with the card's text (its padding and border).
  howTo: { marginTop: 22, paddingHorizontal: 33.5 },
  howToTitle: { fontFamily: 'Helvetica-Bold', fontSize: 11.5, color: INK, marginBottom: 4 },
  howToText: { fontSize: 10.5, lineHeight: 1.45 },
  footer: { position: 'absolute', bottom: 28, left: 48, right: 48, fontSize: 8, color: MUTED, textAlign: 'center' },
});

/** Our words: French typography, then what the standard fonts can show. */
function T({ children, style, fixed }: { children: string; style?: TextProps['style']; fixed?: boolean }) {
  return (
    <Text style={style} fixed={fixed}>
      {pdfText(frenchTypography(children))}
    </Text>
  );
}

/**
 * The message's size: smaller as it grows, so that the card stays on its page (a message of
 * 1,000 characters on a dozen lines still fits).
 */
function messageFontSize(message: string): number {
  const weight = message.length + 60 * (message.split('\n').length - 1);
  if (weight <= 400) return 12;
  if (weight <= 800) return 10.5;
  return 9;
}

/** The buyer's message as typed: line by line (pdfText would turn a line break into « ? »). */
function messageText(message: string): string {
  return message
    .split('\n')
    .map((line) => pdfText(line))
    .join('\n');
}

export function GiftCardPdf({ card }: { card: GiftCardDocument }) {
  const amount = formatEurosFromCents(card.amountCents);
  const message = card.message?.trim() ? card.message.trim().replace(/\r\n?/g, '\n') : null;
  return (
    <Document
      title={pdfText(`Carte cadeau Soovenirs de ${amount}`)}
      author={pdfText(company.legalName)}
      subject={pdfText(`Pour ${card.recipientName}, de la part de ${card.buyerName}`)}
      language="fr"
    >
      <Page size="A4" style={styles.page}>
        <View style={styles.header}>
          <T style={styles.brand}>{company.brand}</T>
          <T style={styles.muted}>{company.domain}</T>
        </View>

        <View style={styles.card} wrap={false}>
          <T style={styles.title}>Carte cadeau Soovenirs</T>
          <T style={styles.amount}>{amount}</T>
          <T style={styles.recipient}>{`Pour ${card.recipientName}`}</T>
          <T style={styles.buyer}>{`De la part de ${card.buyerName}`}</T>
          {message ? (
            <Text style={[styles.message, { fontSize: messageFontSize(message) }]}>{messageText(message)}</Text>
          ) : null}
          <View style={styles.codeRow}>
            <View>
              <T style={styles.label}>Code de la carte</T>
              <T style={styles.code}>{card.code}</T>
              <T style={styles.validity}>{`Valable jusqu’au ${formatDateFr(card.expiresAt)}`}</T>
            </View>
            <QrCodePdf text={card.redeemUrl} size={118} />
          </View>
        </View>

        <View style={styles.howTo} wrap={false}>
          <T style={styles.howToTitle}>Comment l’utiliser ?</T>
          <T style={styles.howToText}>
            {`Saisissez ce code au moment de payer votre commande sur ${company.domain}, ou scannez le QR code. Photos, diapositives, films et cassettes : choisissez ce que vous voulez faire numériser.`}
          </T>
        </View>

        <T style={styles.footer} fixed>
          {`${company.legalName} · ${company.street}, ${company.postalCode} ${company.city} · ${company.email} · SIREN ${company.siren}`}
        </T>
      </Page>
    </Document>
  );
}

/** The gift card as PDF bytes (the e-mail's attachment, the buyer's download). */
export function renderGiftCardPdf(card: GiftCardDocument): Promise<Buffer> {
  return renderToBuffer(<GiftCardPdf card={card} />);
}

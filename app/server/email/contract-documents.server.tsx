import { Document, Page, renderToBuffer, StyleSheet, Text, View } from '@react-pdf/renderer';
import type { ReactNode } from 'react';
import { company } from '~/domain/company';
import { htmlToText } from '~/domain/content/typography';
import { formatDateFr } from '~/domain/format';
import { termsVersionLabel } from '~/domain/terms';
import { loadSitePage } from '../content/source.server';
import { pdfText } from '../invoices/pdf.server';
import { log } from '../log.server';
import type { ContractFacts } from './templates/orders';
import type { EmailAttachment } from './templates/types';

/*
 * The documents of the contract, attached to the order confirmation (Code de la consommation,
 * L221-13: the confirmation on a durable medium): the terms of sale (the /cgv text, through the
 * content module, so the PDF says what the site says) and the model withdrawal form of the annex to
 * article R221-1, filled with the shop's identity and the order's reference.
 */

const INK = '#1d3557';
const MUTED = '#5b6770';

const styles = StyleSheet.create({
  page: {
    paddingTop: 40,
    paddingBottom: 60,
    paddingHorizontal: 48,
    fontFamily: 'Helvetica',
    fontSize: 10,
    color: '#1f2933',
  },
  brand: { fontFamily: 'Helvetica-Bold', fontSize: 16, color: INK, marginBottom: 14 },
  title: { fontFamily: 'Helvetica-Bold', fontSize: 15, color: INK, marginBottom: 4 },
  muted: { color: MUTED, marginBottom: 12 },
  h2: { fontFamily: 'Helvetica-Bold', fontSize: 11.5, color: INK, marginTop: 12, marginBottom: 4 },
  h3: { fontFamily: 'Helvetica-Bold', fontSize: 10.5, marginTop: 8, marginBottom: 3 },
  p: { lineHeight: 1.4, marginBottom: 6 },
  li: { lineHeight: 1.4, marginBottom: 4, paddingLeft: 12 },
  line: { lineHeight: 1.4, marginBottom: 14 },
  footer: { position: 'absolute', bottom: 28, left: 48, right: 48, fontSize: 8, color: MUTED, textAlign: 'center' },
});

type Block = { kind: 'h2' | 'h3' | 'p' | 'li'; text: string };

/** The text blocks of a content page's HTML, in order (headings, paragraphs, list items). */
export function htmlBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  for (const match of html.matchAll(/<(h2|h3|p|li)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = htmlToText((match[2] ?? '').replace(/<br\s*\/?>/g, ' '));
    if (text) blocks.push({ kind: match[1] as Block['kind'], text });
  }
  return blocks;
}

function shopLine(): string {
  return `${company.legalName} · ${company.street}, ${company.postalCode} ${company.city} · ${company.email} · SIREN ${company.siren}`;
}

function Pdf({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Document title={pdfText(title)} author={pdfText(company.legalName)} language="fr">
      <Page size="A4" style={styles.page}>
        <Text style={styles.brand}>{pdfText(company.brand)}</Text>
        {children}
        <Text style={styles.footer} fixed>
          {pdfText(shopLine())}
        </Text>
      </Page>
    </Document>
  );
}

async function termsPdf(facts: ContractFacts, orderNumber: string): Promise<Buffer> {
  const page = await loadSitePage('cgv');
  // Without its terms the confirmation is not sent: the back office shows it failed, to send again.
  if (!page) throw new Error('the terms of sale (/cgv) could not be read');
  if (page.modified.slice(0, 10) !== facts.termsVersion) {
    // The text changed between the order and this e-mail: the customer accepted the earlier one.
    log.warn(
      { orderNumber, accepted: facts.termsVersion, current: page.modified },
      'terms of sale changed since the order',
    );
  }
  const blocks = [...(page.intro ? [{ kind: 'p' as const, text: page.intro }] : []), ...htmlBlocks(page.html)];
  return renderToBuffer(
    <Pdf title={page.title}>
      <Text style={styles.title}>{pdfText(page.title)}</Text>
      <Text style={styles.muted}>
        {pdfText(
          `${termsVersionLabel(facts.termsVersion)}, acceptées le ${formatDateFr(facts.termsAcceptedAt)} pour la commande ${orderNumber}.`,
        )}
      </Text>
      {blocks.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static document, rendered once
        <Text key={index} style={styles[block.kind]}>
          {pdfText(block.kind === 'li' ? `•  ${block.text}` : block.text)}
        </Text>
      ))}
    </Pdf>,
  );
}

/** The model form of the annex to article R221-1 of the Code de la consommation. */
function withdrawalFormPdf(orderNumber: string, placedAt: string): Promise<Buffer> {
  const address = `${company.legalName}, ${company.street}, ${company.postalCode} ${company.city}, ${company.email}`;
  return renderToBuffer(
    <Pdf title="Formulaire de rétractation">
      <Text style={styles.title}>{pdfText('Formulaire de rétractation')}</Text>
      <Text style={styles.muted}>{pdfText('Annexe à l’article R221-1 du Code de la consommation')}</Text>
      <Text style={styles.p}>
        {pdfText(
          'Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.',
        )}
      </Text>
      <View style={{ marginTop: 10 }}>
        <Text style={styles.line}>{pdfText(`À l’attention de ${address} :`)}</Text>
        <Text style={styles.line}>
          {pdfText(
            'Je/nous (*) vous notifie/notifions (*) par la présente ma/notre (*) rétractation du contrat portant sur la prestation de services ci-dessous :',
          )}
        </Text>
        <Text style={styles.line}>{pdfText(`Commande n° ${orderNumber}`)}</Text>
        <Text style={styles.line}>{pdfText(`Commandé le (*) : ${formatDateFr(placedAt)}`)}</Text>
        <Text style={styles.line}>{pdfText('Nom du (des) consommateur(s) :')}</Text>
        <Text style={styles.line}>{pdfText('Adresse du (des) consommateur(s) :')}</Text>
        <Text style={styles.line}>
          {pdfText(
            'Signature du (des) consommateur(s) (uniquement en cas de notification du présent formulaire sur papier) :',
          )}
        </Text>
        <Text style={styles.line}>{pdfText('Date :')}</Text>
        <Text style={styles.muted}>{pdfText('(*) Rayez la mention inutile.')}</Text>
      </View>
    </Pdf>,
  );
}

/** The terms of sale and the withdrawal form, as PDF attachments of the order confirmation. */
export async function contractDocuments(orderNumber: string, facts: ContractFacts): Promise<EmailAttachment[]> {
  const [terms, form] = await Promise.all([
    termsPdf(facts, orderNumber),
    withdrawalFormPdf(orderNumber, facts.placedAt),
  ]);
  return [
    {
      filename: `conditions-generales-de-vente-${facts.termsVersion}.pdf`,
      contentType: 'application/pdf',
      content: terms,
    },
    { filename: `formulaire-de-retractation-${orderNumber}.pdf`, contentType: 'application/pdf', content: form },
  ];
}

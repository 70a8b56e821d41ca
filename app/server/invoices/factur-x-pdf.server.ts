import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { AFRelationship, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRef, PDFString } from 'pdf-lib';
import { buildFacturXml, FACTUR_X_FILE_NAME, type FacturXContext } from '~/domain/invoices/factur-x/cii';
import { facturXmp } from '~/domain/invoices/factur-x/xmp';
import { documentHeading } from '~/domain/invoices/format';
import type { DocumentSnapshot } from '~/domain/invoices/snapshot';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { invoices } from '../db/schema';
import { pdfResponse } from '../documents/order-documents.server';
import { documentFileName, renderDocumentPdf } from './pdf.server';

/*
 * The Factur-X PDF of an invoice or a credit note: the PDF customers and staff download, made a
 * PDF/A-3B with the document's CII XML attached (docs/factur-x.md). react-pdf draws the page with
 * embedded fonts (document-fonts.server.ts); pdf-lib then adds what PDF/A-3 and Factur-X ask for:
 * the XML as `factur-x.xml` (an associated file of the document, /AF), the XMP metadata with the
 * Factur-X extension schema, the same facts in the document information dictionary, an sRGB
 * output intent (the ICC profile pdfkit ships), and a document ID. The result depends on the
 * snapshot only (dates are the document's issue date), so the same document is the same file
 * every time it is downloaded or deposited.
 */

const require = createRequire(import.meta.url);
let srgbProfile: Buffer | null = null;

/** The sRGB IEC 61966-2.1 ICC profile (pdfkit's copy, MIT licence), read once. */
function srgb(): Buffer {
  // pdfkit exports no path to its data folder: it sits next to its CommonJS entry point.
  srgbProfile ??= readFileSync(path.join(path.dirname(require.resolve('pdfkit')), 'data', 'sRGB_IEC61966_2_1.icc'));
  return srgbProfile;
}

const PRODUCER = 'Soovenirs (react-pdf, pdf-lib)';

/** The 16-byte document ID, from the document's number: the same document, the same ID. */
function documentId(snapshot: DocumentSnapshot): string {
  return createHash('sha256').update(`${snapshot.kind}:${snapshot.number}`).digest('hex').slice(0, 32);
}

/**
 * The Factur-X PDF of a document. `context.referencedInvoiceIssuedAt`: for a credit note, when the
 * invoice it cancels was issued (the e-invoice states it; see creditedInvoiceIssuedAt).
 */
export async function renderFacturXPdf(snapshot: DocumentSnapshot, context: FacturXContext = {}): Promise<Buffer> {
  const xml = buildFacturXml(snapshot, context);
  const drawn = await renderDocumentPdf(snapshot);
  const pdf = await PDFDocument.load(drawn, { updateMetadata: false });
  const issued = new Date(snapshot.issuedAt);
  const title = documentHeading(snapshot);

  // The document information dictionary and the XMP must say the same (PDF/A). react-pdf's
  // entries (its render time among them) are dropped, so that the file depends on the snapshot only.
  const info = pdf.context.lookup(pdf.context.trailerInfo.Info);
  if (info instanceof PDFDict) {
    for (const [key, value] of info.entries()) {
      if (value instanceof PDFRef) pdf.context.delete(value);
      info.delete(key);
    }
  }
  pdf.setTitle(title);
  pdf.setAuthor(snapshot.seller.name);
  pdf.setSubject(`Commande ${snapshot.orderNumber}`);
  pdf.setCreator(PRODUCER);
  pdf.setProducer(PRODUCER);
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);

  await pdf.attach(Buffer.from(xml, 'utf8'), FACTUR_X_FILE_NAME, {
    mimeType: 'text/xml',
    description: 'Factur-X (EN 16931)',
    creationDate: issued,
    modificationDate: issued,
    // The XML is the same invoice as the page, in a form machines read.
    afRelationship: AFRelationship.Alternative,
  });

  const { context: objects, catalog } = pdf;
  const metadata = objects.stream(
    facturXmp({
      title,
      author: snapshot.seller.name,
      subject: `Commande ${snapshot.orderNumber}`,
      producer: PRODUCER,
      date: issued,
      documentType: 'INVOICE',
    }),
    { Type: 'Metadata', Subtype: 'XML' },
  );
  catalog.set(PDFName.of('Metadata'), objects.register(metadata));

  const profile = objects.register(objects.flateStream(srgb(), { N: 3 }));
  const outputIntent = objects.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: profile,
  });
  catalog.set(PDFName.of('OutputIntents'), objects.obj([objects.register(outputIntent)]));

  const id = PDFHexString.of(documentId(snapshot));
  objects.trailerInfo.ID = objects.obj([id, id]);

  // Classic cross-reference table: object streams would need a PDF 1.5 header.
  return Buffer.from(await pdf.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

/** What a credit note needs besides its snapshot: its invoice's issue date, among the order's documents. */
export function creditedInvoiceIssuedAt(
  snapshot: Pick<DocumentSnapshot, 'kind' | 'invoiceNumber'>,
  invoices: ReadonlyArray<{ number: string; issuedAt: Date | string } | null | undefined>,
): FacturXContext {
  if (snapshot.kind !== 'credit_note' || !snapshot.invoiceNumber) return {};
  const invoice = invoices.find((candidate) => candidate?.number === snapshot.invoiceNumber);
  return invoice ? { referencedInvoiceIssuedAt: invoice.issuedAt } : {};
}

/**
 * The Factur-X of an issued document, as every reader serves it (the PDF route, the plateforme
 * agréée's deposits, the Chorus Pro export): a credit note's e-invoice states when the invoice it
 * cancels was issued, read here by that invoice's number (numbers are unique), so that a credit
 * note of a replaced or supplement invoice names the right date too.
 */
export async function issuedDocumentFacturX(snapshot: DocumentSnapshot, executor: Executor = db()): Promise<Buffer> {
  if (snapshot.kind !== 'credit_note' || !snapshot.invoiceNumber) return renderFacturXPdf(snapshot);
  const [invoice] = await executor
    .select({ number: invoices.number, issuedAt: invoices.issuedAt })
    .from(invoices)
    .where(eq(invoices.number, snapshot.invoiceNumber))
    .limit(1);
  return renderFacturXPdf(snapshot, creditedInvoiceIssuedAt(snapshot, [invoice]));
}

/** The download of an issued document: its Factur-X, named like the document. */
export async function issuedDocumentDownload(snapshot: DocumentSnapshot): Promise<Response> {
  return pdfResponse(await issuedDocumentFacturX(snapshot), documentFileName(snapshot), 'attachment');
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFacturXml } from '~/domain/invoices/factur-x/cii';
import { MANIFEST_PATH, readManifest, SCHEMATRONS, sha256Of, XSLT_DIR } from '../../../tests/einvoice/schematrons';
import { expectValidFacturX, facturXmlProblems } from '../../../tests/support/factur-x';
import { representativeDocuments } from '../../../tests/support/factur-x-documents';
import { pdfText } from '../../../tests/support/pdf';
import { creditedInvoiceIssuedAt, renderFacturXPdf } from './factur-x-pdf.server';

/*
 * Every kind of document the shop issues, through the real PDF production, checked as a PA or the
 * tax administration would: XSD, EN 16931 and BR-FR schematrons, embedded fonts, PDF/A-3
 * metadata, the XML attached. One file validates them all, so the schematrons load once.
 */

describe('the compiled schematrons', () => {
  it('are compiled from the vendored XSLTs as they are now (else run tests/einvoice/compile-schematrons.ts)', () => {
    const manifest = readManifest();
    for (const schematron of SCHEMATRONS) {
      expect(manifest[schematron.xslt]?.sef, MANIFEST_PATH).toBe(schematron.sef);
      expect(manifest[schematron.xslt]?.xsltSha256, schematron.xslt).toBe(
        sha256Of(path.join(XSLT_DIR, schematron.xslt)),
      );
    }
  });

  it('catch an invalid document, with the rule’s message', () => {
    const [document] = representativeDocuments();
    if (!document) throw new Error('no document');
    // A credit note without the date of the invoice it cancels breaks a French rule only.
    const xml = buildFacturXml({ ...document.snapshot, kind: 'credit_note', invoiceNumber: 'FA-2026-000001' }, {});
    const problems = facturXmlProblems(xml);
    expect(problems).toContainEqual(expect.stringMatching(/^BR-FR: \[BR-FR-CO-05_BT-3\]/));
    // And one the XSD refuses.
    expect(
      facturXmlProblems(xml.replace('<ram:TypeCode>381</ram:TypeCode>', '<ram:Kind>381</ram:Kind>')),
    ).toContainEqual(expect.stringMatching(/^XSD: /));
  });
});

describe('the Factur-X PDF of an invoice or a credit note', () => {
  it('passes the XSD, EN 16931 and BR-FR, with its fonts embedded and its XML attached, for every kind of document', async () => {
    const timings: string[] = [];
    for (const { name, snapshot, context } of representativeDocuments()) {
      const started = performance.now();
      const pdf = await renderFacturXPdf(snapshot, context);
      const rendered = performance.now();
      const xml = expectValidFacturX(pdf, name);
      timings.push(
        `${name}: PDF ${Math.round(rendered - started)} ms, validation ${Math.round(performance.now() - rendered)} ms`,
      );
      // The page and the XML say the same document.
      expect(pdfText(pdf), name).toContain(`${snapshot.title} ${snapshot.number}`);
      expect(xml, name).toBe(buildFacturXml(snapshot, context));
    }
    expect(timings).toHaveLength(10);
  }, 240_000);

  it('is the same file each time it is produced', async () => {
    const [document] = representativeDocuments();
    if (!document) throw new Error('no document');
    const first = await renderFacturXPdf(document.snapshot);
    const second = await renderFacturXPdf(document.snapshot);
    expect(first.equals(second)).toBe(true);
  });

  it('finds the date of the invoice a credit note cancels among the order’s invoices', () => {
    const issuedAt = new Date('2026-11-20T09:05:01Z');
    const invoices = [null, { number: 'FA-2026-000007', issuedAt }];
    expect(creditedInvoiceIssuedAt({ kind: 'credit_note', invoiceNumber: 'FA-2026-000007' }, invoices)).toEqual({
      referencedInvoiceIssuedAt: issuedAt,
    });
    expect(creditedInvoiceIssuedAt({ kind: 'invoice' }, invoices)).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { isPdf, pdfText } from '../../../tests/support/pdf';
import { pool } from '../db/client.server';
import { seedDemo } from '../seed/demo.server';
import { renderDocumentPdf } from './pdf.server';

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = 'https://www.soovenirs.test';

describe('demo invoices and credit notes', () => {
  it('have the shape of real ones: the /facture page and the PDF read them alike', async () => {
    const result = await seedDemo({ orders: 300, seed: 'documents', now: Date.parse('2026-11-21T10:00:00Z') });
    expect(result.ok).toBe(true);
    const { rows } = await pool().query<{ number: string; snapshot: unknown; kind: string }>(
      `select number, snapshot, 'invoice' as kind from invoices
       union all select number, snapshot, 'credit_note' as kind from credit_notes`,
    );
    expect(rows.some((row) => row.kind === 'credit_note')).toBe(true);
    for (const row of rows) {
      const snapshot = parseDocumentSnapshot(row.snapshot);
      expect(snapshot, row.number).not.toBeNull();
      expect(snapshot).toMatchObject({ number: row.number, kind: row.kind, demo: true });
    }
    const credit = parseDocumentSnapshot(rows.find((row) => row.kind === 'credit_note')?.snapshot);
    if (!credit) throw new Error('no credit note');
    expect(credit.invoiceNumber).toMatch(/^FA-\d{4}-\d{6}$/);
    const pdf = await renderDocumentPdf(credit);
    expect(isPdf(pdf)).toBe(true);
    expect(pdfText(pdf)).toContain(`Avoir ${credit.number}`);
    expect(pdfText(pdf)).toContain('Document de démonstration');
  });
});

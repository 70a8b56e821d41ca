import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pageOf } from '~/domain/admin/paging';
import type { CreditNoteListRow, InvoiceListRow } from '~/domain/admin/views';
import { CreditNotesTable, InvoicesTable } from './invoices-table';

const ORDER = '0b6c2f4e-1111-4222-8333-444455556666';

function html(element: React.ReactElement): string {
  return renderToString(<MemoryRouter initialEntries={['/admin/comptabilite']}>{element}</MemoryRouter>).replace(
    /<!-- -->/g,
    '',
  );
}

describe('the Comptabilité tables', () => {
  it('give each credit note its own Voir and PDF, and mark demonstration documents', () => {
    const notes: CreditNoteListRow[] = [
      {
        id: 'c1',
        number: 'AV-2026-000004',
        orderId: ORDER,
        orderNumber: 'SV-2026-000042',
        invoiceNumber: 'FA-2026-000010',
        customer: 'Marie Curie',
        issuedAt: '2026-11-21T10:00:00.000Z',
        amountCents: 1250,
        reason: 'Geste commercial',
        isDemo: false,
      },
      {
        id: 'c2',
        number: 'TEST-AV-2026-000001',
        orderId: ORDER,
        orderNumber: 'SV-2026-000043',
        invoiceNumber: 'TEST-FA-2026-000001',
        customer: '',
        issuedAt: '2026-11-21T11:00:00.000Z',
        amountCents: 500,
        reason: null,
        isDemo: true,
      },
    ];
    const out = html(<CreditNotesTable page={pageOf(notes, 1, 2)} />);
    expect(out).toContain(`href="/facture/${ORDER}?avoir=AV-2026-000004"`);
    expect(out).toContain(`href="/facture/${ORDER}/pdf?avoir=AV-2026-000004"`);
    expect(out).toContain('Voir<span class="sr-only"> l’avoir AV-2026-000004</span>');
    expect(out).toContain('PDF<span class="sr-only"> de l’avoir AV-2026-000004</span>');
    expect(out).toContain('−12,50\u00A0€');
    expect(out.match(/Démonstration/g)).toHaveLength(1);
  });

  it('say when an invoice is credited in part, and mark a demonstration invoice', () => {
    const invoices: InvoiceListRow[] = [
      {
        id: 'i1',
        number: 'FA-2026-000010',
        orderId: ORDER,
        orderNumber: 'SV-2026-000042',
        customer: 'Marie Curie',
        issuedAt: '2026-11-20T10:00:00.000Z',
        amountCents: 8490,
        state: 'partially_credited',
        isDemo: false,
      },
      {
        id: 'i2',
        number: 'TEST-FA-2026-000001',
        orderId: ORDER,
        orderNumber: 'SV-2026-000043',
        customer: 'Jean Test',
        issuedAt: '2026-11-20T11:00:00.000Z',
        amountCents: 1000,
        state: 'paid',
        isDemo: true,
      },
    ];
    const out = html(<InvoicesTable page={pageOf(invoices, 1, 2)} q="" />);
    expect(out).toContain('Avoir partiel');
    expect(out.match(/Démonstration/g)).toHaveLength(1);
    expect(out).toContain(`href="/facture/${ORDER}/pdf"`);
  });
});

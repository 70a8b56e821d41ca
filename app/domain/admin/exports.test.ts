import { describe, expect, it } from 'vitest';
import {
  csvCell,
  csvField,
  csvHeader,
  csvLine,
  csvMoney,
  exportFileName,
  ORDER_EXPORT_COLUMNS,
  parseExportRequest,
} from './exports';

describe('exports', () => {
  it('writes amounts and dates as French spreadsheets read them', () => {
    expect(csvMoney(3500)).toBe('35,00');
    expect(csvMoney(5)).toBe('0,05');
    expect(csvMoney(-123456)).toBe('-1234,56');
    expect(csvCell('date', '2026-11-20T23:30:00Z')).toBe('21/11/2026');
    expect(csvCell('text', null)).toBe('');
  });

  it('quotes what must be quoted and defuses formulas', () => {
    expect(csvField('Dupont; Martin')).toBe('"Dupont; Martin"');
    expect(csvField('Il a dit "oui"')).toBe('"Il a dit ""oui"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvHeader(ORDER_EXPORT_COLUMNS).startsWith('N° commande;Date;Client;')).toBe(true);
  });

  it('writes an order as one line in the headers’ order', () => {
    const line = csvLine(ORDER_EXPORT_COLUMNS, {
      number: 'SV-2026-000042',
      createdAt: '2026-11-21T10:00:00Z',
      customer: 'Jeanne Martin',
      email: 'jeanne@example.fr',
      phone: null,
      city: 'Paris',
      status: 'shipped',
      paymentStatus: 'paid',
      paymentMethod: 'transfer',
      deliveryMethod: 'usb',
      items: '100 × Photos papier',
      totalCents: 3500,
      vatCents: 583,
      invoiceNumber: 'FA-2026-000001',
    });
    expect(line).toBe(
      'SV-2026-000042;21/11/2026;Jeanne Martin;jeanne@example.fr;;Paris;Expédié;Payée;Virement;Clé USB;100 × Photos papier;29,17;5,83;35,00;FA-2026-000001\r\n',
    );
  });

  it.each([
    ['commandes', 'format=xlsx&from=2026-01-01&to=2026-11-21', { ok: true }],
    ['ventes', 'format=xlsx&from=2026-01-01&to=2026-11-21', { ok: false, error: 'Export inconnu' }],
    ['factures', 'format=pdf&from=2026-01-01&to=2026-11-21', { ok: false }],
    ['factures', 'format=csv&from=2026-01-01', { ok: false, error: 'Indiquez une période (dates de début et de fin)' }],
    ['factures', 'format=csv&from=2026-11-21&to=2026-01-01', { ok: false }],
    ['factures', 'format=csv&from=2024-01-01&to=2026-01-01', { ok: false, error: 'La période est limitée à un an' }],
  ])('reads /admin/exports/%s?%s', (dataset, search, expected) => {
    expect(parseExportRequest(dataset, new URLSearchParams(search))).toMatchObject(expected);
  });

  it('names the file after the dataset and the period', () => {
    expect(exportFileName({ dataset: 'commandes', format: 'xlsx', from: '2026-01-01', to: '2026-11-21' })).toBe(
      'commandes_2026-01-01_2026-11-21.xlsx',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { partialCreditLines } from '../invoices/snapshot';
import { splitVat } from '../invoices/vat';
import { DEFAULT_ACCOUNTING_SETTINGS, parseAccountingSettings } from './accounts';
import { documentEntry } from './entries';
import {
  decodeLatin9,
  encodeLatin9,
  FEC_COLUMNS,
  fecAmount,
  fecDate,
  fecEntryLines,
  fecFileName,
  fecHeader,
} from './fec';

describe('the FEC’s format', () => {
  it('has the 18 fields of A47 A-1 in their order, separated by tabs', () => {
    expect(fecHeader()).toBe(
      'JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise\r\n',
    );
    expect(FEC_COLUMNS).toHaveLength(18);
  });

  it('writes dates AAAAMMJJ and amounts with a decimal comma, no thousands separator', () => {
    expect(fecDate('2026-11-30')).toBe('20261130');
    expect(fecAmount(0)).toBe('0,00');
    expect(fecAmount(5)).toBe('0,05');
    expect(fecAmount(123_456_78)).toBe('123456,78');
    expect(() => fecAmount(-1)).toThrow();
  });

  it('names the file <SIREN>FEC<closing day>.txt', () => {
    expect(fecFileName('912\u00a0345\u00a0678', '2026-11-30')).toBe('912345678FEC20261130.txt');
    expect(() => fecFileName('12', '2026-11-30')).toThrow();
  });

  it('writes one line per accounting line, 18 fields each, numbered by the entry', () => {
    const entry = documentEntry({
      kind: 'invoice',
      number: 'FA-2026-000007',
      day: '2026-11-14',
      customer: 'Zoé\tL’Hôte',
      giftCardSale: false,
      snapshot: {
        lines: [
          {
            label: 'x',
            detail: '',
            quantity: 1,
            unitPriceCents: 1200,
            totalCents: 1200,
            totalExcludingVatCents: 1000,
          },
        ],
        totalCents: 1200,
        vatCents: 200,
        totalExcludingVatCents: 1000,
      },
    });
    const text = fecEntryLines(entry, 42, DEFAULT_ACCOUNTING_SETTINGS);
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.split('\t')).toHaveLength(18);
    expect(lines[0]?.split('\t')).toEqual([
      'VE',
      'Journal des ventes',
      '42',
      '20261114',
      '411000',
      'Clients',
      '',
      '',
      'FA-2026-000007',
      '20261114',
      'Facture FA-2026-000007 Zoé L’Hôte',
      '12,00',
      '0,00',
      '',
      '',
      '20261114',
      '',
      '',
    ]);
  });

  it('books a partial credit note of an invoice of goods on the goods account (707), not services (706)', () => {
    const goodsInvoiceLines = [
      { label: 'Copie sur clé USB', detail: '', quantity: 2, unitPriceCents: 1800, totalCents: 3600 },
    ].map((line) => ({ ...line, totalExcludingVatCents: 3000, category: 'goods' as const }));
    const entry = documentEntry({
      kind: 'credit_note',
      number: 'AV-2026-000003',
      day: '2026-11-20',
      customer: 'Marie Curie',
      giftCardSale: false,
      snapshot: {
        lines: partialCreditLines('SV-2026-0042', 1200, 'Clé abîmée', goodsInvoiceLines),
        ...splitVat(1200),
      },
    });
    const accounts = fecEntryLines(entry, 7, DEFAULT_ACCOUNTING_SETTINGS)
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map((fields) => [fields[4], fields[11], fields[12]]);
    expect(accounts).toEqual([
      ['411000', '0,00', '12,00'],
      ['707000', '10,00', '0,00'],
      ['445710', '2,00', '0,00'],
    ]);
  });

  it('encodes in ISO 8859-15: French letters, € and œ kept, the rest transliterated', () => {
    const bytes = encodeLatin9('Hélène Œuvre 35,00 € — l’été… ă');
    expect([...bytes].every((byte) => byte < 0x100)).toBe(true);
    expect(bytes).toContain(0xa4); // €
    expect(bytes).toContain(0xbc); // Œ
    expect(bytes).toContain(0xe9); // é
    expect(decodeLatin9(bytes)).toBe("Hélène Œuvre 35,00 € - l'été... a");
  });
});

describe('the accounts’ setting', () => {
  it('takes digits only and journal codes, with French messages', () => {
    const ok = parseAccountingSettings({ ...DEFAULT_ACCOUNTING_SETTINGS, customers: '411 000', salesJournal: 've' });
    expect(ok).toMatchObject({ ok: true, settings: { customers: '411000', salesJournal: 'VE' } });
    const bad = parseAccountingSettings({ ...DEFAULT_ACCOUNTING_SETTINGS, services: '706A', bank: '0512' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.fieldErrors.services).toContain('chiffres seulement');
      expect(bad.fieldErrors.bank).toContain('chiffres seulement');
    }
    const same = parseAccountingSettings({ ...DEFAULT_ACCOUNTING_SETTINGS, receiptsJournal: 'VE' });
    expect(same.ok ? null : same.fieldErrors.receiptsJournal).toContain('deux journaux différents');
  });
});

import { describe, expect, it } from 'vitest';
import { parseAccountingExportRequest } from './export-request';
import { parseAccountingPeriod } from './period';

describe('the period of an accounting export', () => {
  it('reads a month, a year or two days, both included', () => {
    expect(parseAccountingPeriod({ month: '2026-02' })).toEqual({
      ok: true,
      period: { from: '2026-02-01', to: '2026-02-28' },
    });
    expect(parseAccountingPeriod({ month: '2028-02' })).toMatchObject({ period: { to: '2028-02-29' } });
    expect(parseAccountingPeriod({ year: '2026' })).toEqual({
      ok: true,
      period: { from: '2026-01-01', to: '2026-12-31' },
    });
    expect(parseAccountingPeriod({ from: '2026-04-01', to: '2027-03-31' })).toMatchObject({ ok: true });
  });

  it('refuses, in French, what is not a period', () => {
    expect(parseAccountingPeriod({})).toEqual({ ok: false, error: 'Choisissez un mois, une année ou deux dates.' });
    expect(parseAccountingPeriod({ month: '2026-13' })).toMatchObject({ ok: false });
    expect(parseAccountingPeriod({ from: '2026-02-30', to: '2026-03-01' })).toMatchObject({
      error: 'Une date s’écrit AAAA-MM-JJ (ex.\u00a0: 2026-11-30).',
    });
    expect(parseAccountingPeriod({ from: '2026-03-02', to: '2026-03-01' })).toMatchObject({
      error: 'La date de fin doit suivre la date de début.',
    });
    expect(parseAccountingPeriod({ from: '2024-01-01', to: '2026-01-01' })).toMatchObject({
      error: 'Une période couvre 24 mois au plus (un exercice).',
    });
  });

  it('reads the back office’s form: the file and the chosen kind of period', () => {
    const form = (fields: Record<string, string>) => parseAccountingExportRequest(new URLSearchParams(fields));
    expect(form({ fichier: 'fec', periode: 'mois', mois: '2026-11', annee: '2025' })).toEqual({
      ok: true,
      file: 'fec',
      period: { from: '2026-11-01', to: '2026-11-30' },
    });
    expect(form({ fichier: 'chorus', periode: 'annee', mois: '2026-11', annee: '2025' })).toMatchObject({
      period: { from: '2025-01-01', to: '2025-12-31' },
    });
    expect(form({ fichier: 'ecritures', periode: 'dates', du: '2026-11-02', au: '2026-11-03' })).toMatchObject({
      period: { from: '2026-11-02', to: '2026-11-03' },
    });
    expect(form({ fichier: 'autre', periode: 'mois', mois: '2026-11' })).toEqual({
      ok: false,
      error: 'Choisissez le fichier à télécharger.',
    });
  });
});

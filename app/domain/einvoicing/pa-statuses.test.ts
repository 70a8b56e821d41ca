import { describe, expect, it } from 'vitest';
import { buildFlowInfo, buildStatusMessage, flowFileName, readStatusMessage } from './flow-info';
import { depositBackoffMs, isAcceptedStatus, PA_STATUS_CODES, paStatusEffect, paStatusLabel } from './pa-statuses';

describe('PA statuses', () => {
  it('names the fourteen statuses of the reform in French, an unknown code by its number', () => {
    expect(PA_STATUS_CODES).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213]);
    expect(paStatusLabel(213)).toBe('Rejetée');
    expect(paStatusLabel(210)).toBe('Refusée');
    expect(paStatusLabel(212)).toBe('Encaissée');
    expect(paStatusLabel(999)).toBe('Statut 999');
  });

  it('maps a rejection and a refusal to their consequences, every other status to a record', () => {
    expect(paStatusEffect(213)).toBe('rejected');
    expect(paStatusEffect(210)).toBe('refused');
    expect(paStatusEffect(200)).toBe('record');
    expect(paStatusEffect(205)).toBe('record');
  });

  it('holds an invoice accepted from « Reçue » on, never when rejected or refused', () => {
    expect(isAcceptedStatus(200)).toBe(false);
    expect(isAcceptedStatus(201)).toBe(false);
    expect(isAcceptedStatus(202)).toBe(true);
    expect(isAcceptedStatus(205)).toBe(true);
    expect(isAcceptedStatus(210)).toBe(false);
    expect(isAcceptedStatus(213)).toBe(false);
    expect(isAcceptedStatus(null)).toBe(false);
  });

  it('backs off 30 s doubling, capped at 6 h', () => {
    expect(depositBackoffMs(1)).toBe(30_000);
    expect(depositBackoffMs(2)).toBe(60_000);
    expect(depositBackoffMs(5)).toBe(480_000);
    expect(depositBackoffMs(20)).toBe(6 * 3600_000);
    expect(depositBackoffMs(0)).toBe(30_000);
  });
});

describe('flowInfo', () => {
  it('carries the fields of the standard, the name cleaned, nothing empty', () => {
    expect(
      buildFlowInfo({
        trackingId: 'FA-2026-000001',
        name: 'facture FA-2026-000001 (été).pdf',
        syntax: 'Factur-X',
        profile: 'CIUS',
        processingRule: 'B2B',
        sha256: 'ab'.repeat(32),
      }),
    ).toEqual({
      trackingId: 'FA-2026-000001',
      name: 'facture_FA-2026-000001_ete_.pdf',
      flowSyntax: 'Factur-X',
      flowProfile: 'CIUS',
      processingRule: 'B2B',
      sha256: 'ab'.repeat(32),
    });
    expect(buildFlowInfo({ trackingId: 't', name: 'x.xml', syntax: 'CDAR' })).toEqual({
      trackingId: 't',
      name: 'x.xml',
      flowSyntax: 'CDAR',
    });
  });

  it('refuses an unknown syntax and a missing trackingId', () => {
    expect(() => buildFlowInfo({ trackingId: 't', name: 'x', syntax: 'PDF' as never })).toThrow(/flowSyntax/);
    expect(() => buildFlowInfo({ trackingId: ' ', name: 'x', syntax: 'CII' })).toThrow(/trackingId/);
    expect(flowFileName('../../etc/passwd')).toBe('etc_passwd');
  });
});

describe('CDAR status messages', () => {
  it('writes « Encaissée » with its amount and reads it back', () => {
    const xml = buildStatusMessage({
      id: 'FA-2026-000007-212',
      issuedAt: new Date('2026-12-01T10:00:00Z'),
      invoiceNumber: 'FA-2026-000007',
      invoiceIssuedAt: new Date('2026-11-30T09:00:00Z'),
      sellerSiren: '732829320',
      buyerSiren: '552100554',
      code: 212,
      amountCents: 12345,
      paidAt: new Date('2026-11-30T09:00:00Z'),
    });
    expect(xml).toContain('<ram:ValueAmount currencyID="EUR">123.45</ram:ValueAmount>');
    expect(readStatusMessage(xml)).toEqual([
      { invoiceNumber: 'FA-2026-000007', code: 212, reason: null, amountCents: 12345 },
    ]);
  });

  it('reads a rejection with its reason, escaped characters included, and skips what it does not know', () => {
    const xml = `<rsm:X xmlns:rsm="a" xmlns:ram="b"><ram:ReferenceReferencedDocument><ram:IssuerAssignedID>FA-1</ram:IssuerAssignedID>
      <ram:ProcessConditionCode>213</ram:ProcessConditionCode><ram:Reason>SIREN &amp; TVA incohérents</ram:Reason></ram:ReferenceReferencedDocument>
      <ram:ReferenceReferencedDocument><ram:IssuerAssignedID>FA-2</ram:IssuerAssignedID><ram:ProcessConditionCode>999</ram:ProcessConditionCode></ram:ReferenceReferencedDocument></rsm:X>`;
    expect(readStatusMessage(xml)).toEqual([
      { invoiceNumber: 'FA-1', code: 213, reason: 'SIREN & TVA incohérents', amountCents: null },
    ]);
  });
});

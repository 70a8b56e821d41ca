import { describe, expect, it } from 'vitest';
import { changedFields, flattenFields, SECRET_CHANGED } from './changes';
import { auditSubjectLabel, describeAuditChange, formatAuditDate } from './describe';
import { parseJournalFilters } from './journal-filters';
import { AUDIT_KINDS, TRANSITION_AUDIT_KINDS } from './kinds';
import { isAccountingKind, keepUntil } from './retention';

describe('audit retention', () => {
  it.each([
    ['order.refund', '2036-11-21'],
    ['payment.validate', '2036-11-21'],
    ['payment.reject', '2036-11-21'],
    ['price.change', '2036-11-21'],
    ['export', '2036-11-21'],
    ['order.cancel', '2036-11-21'],
    ['gift_card.refund', '2036-11-21'],
    ['gift_card.extend', '2036-11-21'],
    ['gift_card.resend', '2028-11-21'],
    ['order.status', '2028-11-21'],
    ['order.stage', '2028-11-21'],
    ['settings.email', '2028-11-21'],
    ['staff.role', '2028-11-21'],
    ['file.delete', '2028-11-21'],
    ['email.resend', '2028-11-21'],
  ] as const)('%s is kept until %s', (kind, until) => {
    expect(keepUntil(kind, new Date('2026-11-21T13:05:00Z'))).toBe(until);
  });

  it('keeps every order transition that moves money as an accounting record', () => {
    expect(isAccountingKind(TRANSITION_AUDIT_KINDS.refund)).toBe(true);
    expect(isAccountingKind(TRANSITION_AUDIT_KINDS.settle_payment)).toBe(true);
    expect(isAccountingKind(TRANSITION_AUDIT_KINDS.advance_stage)).toBe(false);
    expect(AUDIT_KINDS).toContain('order.note');
  });
});

describe('audit changes', () => {
  it('flattens nested documents to dotted paths', () => {
    expect(flattenFields({ supports: { photos: { basePrice: 35 } }, denoisePrice: 500 })).toEqual({
      'supports.photos.basePrice': 35,
      denoisePrice: 500,
    });
  });

  it('keeps only the changed fields, and never a secret', () => {
    const change = changedFields(
      { smtpHost: 'a.fr', smtpPassword: 'cipher-1', senderName: 'Soovenirs' },
      { smtpHost: 'b.fr', smtpPassword: 'cipher-2', senderName: 'Soovenirs' },
      { secrets: ['smtpPassword'] },
    );
    expect(change).toEqual({
      before: { smtpHost: 'a.fr' },
      after: { smtpHost: 'b.fr', smtpPassword: SECRET_CHANGED },
    });
    expect(JSON.stringify(change)).not.toContain('cipher');
  });

  it('says nothing changed when nothing did', () => {
    expect(
      changedFields({ a: 1, lastUpdated: 'x' }, { a: 1, lastUpdated: 'y' }, { ignore: ['lastUpdated'] }),
    ).toBeNull();
  });
});

describe('audit descriptions', () => {
  it('reads an order entry in French', () => {
    expect(
      describeAuditChange('order.status', { status: 'pending' }, { status: 'processing', stage: 'received' }),
    ).toEqual([
      { label: 'Statut', before: 'En attente', after: 'En traitement' },
      { label: 'Étape', before: null, after: 'Reçu' },
    ]);
  });

  it('reads a price change with euros', () => {
    expect(
      describeAuditChange('price.change', { 'supports.photos.basePrice': 35 }, { 'supports.photos.basePrice': 38 }),
    ).toEqual([{ label: 'Prix photos papier', before: '0,35\u00A0€', after: '0,38\u00A0€' }]);
  });

  it('shows a changed secret as « modifié », with nothing before', () => {
    expect(describeAuditChange('settings.email', null, { smtpPassword: SECRET_CHANGED })).toEqual([
      { label: 'Mot de passe SMTP', before: null, after: 'modifié' },
    ]);
  });

  it('reads a gift card’s entries in French: its state, its balance, its end of validity', () => {
    expect(
      describeAuditChange(
        'gift_card.refund',
        { cardState: 'active', balanceCents: 5000 },
        { card: '••••-••••-••••-6WAB', cardState: 'canceled', balanceCents: 0, refundCents: 5000 },
      ),
    ).toEqual([
      { label: 'Carte cadeau', before: null, after: '••••-••••-••••-6WAB' },
      { label: 'État de la carte', before: 'Active', after: 'Annulée' },
      { label: 'Solde', before: '50,00\u00A0€', after: '0,00\u00A0€' },
      { label: 'Montant remboursé', before: null, after: '50,00\u00A0€' },
    ]);
    expect(
      describeAuditChange(
        'gift_card.extend',
        { validUntil: '2027-11-29T10:00:00.000Z' },
        { validUntil: '2028-05-01T09:00:00.000Z' },
      ),
    ).toEqual([{ label: 'Valable jusqu’au', before: '29/11/2027', after: '01/05/2028' }]);
  });

  it('names an e-mail as the staff know it, never by its template code', () => {
    expect(
      describeAuditChange('email.resend', null, { template: 'order-ready', recipient: 'marie@example.fr' }),
    ).toEqual([
      { label: 'E-mail', before: null, after: 'Commande prête' },
      { label: 'Destinataire', before: null, after: 'marie@example.fr' },
    ]);
  });

  it('names a setting in French, and an order by its number', () => {
    expect(auditSubjectLabel('files_config', null)).toBe('Fichiers livrés');
    expect(auditSubjectLabel('4f0c…', 'SV-2026-000042')).toBe('SV-2026-000042');
  });

  it('dates entries as 21/11/2026 14:05, Paris time', () => {
    expect(formatAuditDate(new Date('2026-11-21T13:05:00Z'))).toBe('21/11/2026 14:05');
  });
});

describe('journal filters', () => {
  it('reads the GET form and ignores what it cannot read', () => {
    expect(
      parseJournalFilters(new URLSearchParams('personne=u1&action=price.change&du=2026-11-30&au=2026-11-01&page=2')),
    ).toEqual({
      person: 'u1',
      kind: 'price.change',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 2,
    });
    expect(parseJournalFilters(new URLSearchParams('action=drop&du=31/11/2026'))).toEqual({
      person: null,
      kind: null,
      from: null,
      to: null,
      page: 1,
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  actorName,
  describeOrderEvent,
  isCustomerVisibleKind,
  ORDER_EVENT_KINDS,
  ORDER_EVENTS,
  type OrderEventKind,
  orderEvent,
  orderHistory,
  UNKNOWN_EVENT_LABEL,
} from './events';

const S = '\u00A0'; // the no-break space before « : » and before « € »
const eur = (value: string) => `${value}${S}€`;

/** A code a person should never read: snake_case or a bare English word of the database. */
const RAW_CODE =
  /\b[a-z]+_[a-z_]+\b|\b(?:sandbox|system|customer|pending|paid|failed|refunded|gateway|transfer|cheque)\b/;

interface Case {
  kind: OrderEventKind;
  from?: string | null;
  to?: string | null;
  data: Record<string, unknown> | null;
  label: string;
  detail: string | null;
  /** What the customer reads, or null when the customer does not see it. */
  customer: string | null;
}

const CASES: Case[] = [
  {
    kind: 'created',
    to: 'pending',
    data: { totalCents: 3500, source: 'quote' },
    label: 'Commande enregistrée',
    detail: `Total${S}: ${eur('35,00')} · depuis un devis`,
    customer: 'Commande enregistrée',
  },
  {
    kind: 'status_changed',
    from: 'pending',
    to: 'processing',
    data: null,
    label: `Statut${S}: En attente → En traitement`,
    detail: null,
    customer: 'Votre commande est en traitement',
  },
  {
    kind: 'early_start_consent',
    data: { text: 'Je demande que le travail commence…', first: true },
    label: 'Accord du client pour commencer avant la fin du délai de rétractation',
    detail: null,
    customer: null,
  },
  {
    kind: 'payment_session_created',
    data: { provider: 'stripe', sessionId: 'cs_1', amountCents: 1250 },
    label: 'Session de paiement ouverte',
    detail: `Stripe · ${eur('12,50')}`,
    customer: null,
  },
  {
    kind: 'payment_paid',
    from: 'pending',
    to: 'paid',
    data: { provider: 'sandbox', amountCents: 1250 },
    label: 'Paiement reçu',
    detail: `${eur('12,50')} · Paiement de démonstration`,
    customer: 'Paiement reçu',
  },
  {
    kind: 'payment_validated',
    from: 'pending',
    to: 'paid',
    data: { amountCents: 1250, method: 'transfer', reference: 'VIR-42', provider: null },
    label: 'Paiement validé manuellement',
    detail: `${eur('12,50')} · Virement bancaire · Référence${S}: VIR-42`,
    customer: 'Paiement reçu',
  },
  {
    kind: 'payment_rejected',
    data: { reference: 'CHQ-7', provider: null },
    label: 'Paiement rejeté',
    detail: `Référence${S}: CHQ-7`,
    customer: 'Paiement non validé',
  },
  {
    kind: 'payment_failed',
    from: 'pending',
    to: 'failed',
    data: { provider: 'monetico', detail: 'Refus de la banque émettrice' },
    label: 'Échec du paiement',
    detail: `Motif${S}: Refus de la banque émettrice · Monetico`,
    customer: 'Échec du paiement',
  },
  {
    kind: 'payment_canceled',
    data: { provider: 'stripe' },
    label: 'Paiement abandonné par le client',
    detail: 'Stripe',
    customer: null,
  },
  {
    kind: 'payment_refunded',
    from: 'paid',
    to: 'refunded',
    data: { amountCents: 1250 },
    label: 'Paiement remboursé',
    detail: eur('12,50'),
    customer: `Remboursement de ${eur('12,50')}`,
  },
  {
    kind: 'payment_method_chosen',
    from: 'card',
    to: 'cheque',
    data: { method: 'cheque', amountCents: 1250 },
    label: `Moyen de paiement choisi${S}: Chèque`,
    detail: eur('12,50'),
    customer: null,
  },
  {
    kind: 'payment_status_changed',
    from: 'pending',
    to: 'paid',
    data: null,
    label: `Paiement${S}: En attente → Payée`,
    detail: null,
    customer: `Paiement${S}: Payée`,
  },
  {
    kind: 'payment_amount_mismatch',
    data: { provider: 'stripe', amountCents: 1000, expectedCents: 1250, currency: 'usd' },
    label: 'Montant payé différent du total',
    detail: `${eur('10,00')} (USD) reçus · ${eur('12,50')} attendus · Stripe`,
    customer: null,
  },
  {
    kind: 'payment_duplicate',
    data: { provider: 'stripe' },
    label: 'Paiement en double, à rembourser',
    detail: 'Stripe',
    customer: null,
  },
  {
    kind: 'invoice_issued',
    data: { number: 'FA-2026-0001', amountCents: 1250 },
    label: 'Facture émise',
    detail: `FA-2026-0001 · ${eur('12,50')}`,
    customer: 'Facture émise',
  },
  {
    kind: 'credit_note_issued',
    data: { number: 'AV-2026-0003', invoiceNumber: 'FA-2026-0001', amountCents: 1250 },
    label: 'Avoir émis',
    detail: `AV-2026-0003 · ${eur('12,50')} · sur la facture FA-2026-0001`,
    customer: 'Avoir émis',
  },
  {
    kind: 'einvoice_deposited',
    data: { number: 'FA-2026-0001', flowId: 'f-1', documentKind: 'invoice' },
    label: 'Facture déposée sur la plateforme agréée',
    detail: 'FA-2026-0001 · flux f-1',
    customer: null,
  },
  {
    kind: 'einvoice_status',
    data: { number: 'FA-2026-0001', code: 213, reason: 'SIREN inconnu' },
    label: 'Facture rejetée par la plateforme',
    detail: `FA-2026-0001 · statut 213 · motif${S}: SIREN inconnu`,
    customer: null,
  },
  {
    kind: 'einvoice_status_sent',
    data: { number: 'FA-2026-0002', code: 212, amountCents: 1250 },
    label: `Statut transmis à la plateforme${S}: Encaissée`,
    detail: `FA-2026-0002 · ${eur('12,50')}`,
    customer: null,
  },
  {
    kind: 'einvoice_deposit_failed',
    data: { number: 'FA-2026-0001', error: 'HTTP 422' },
    label: 'Dépôt sur la plateforme agréée abandonné',
    detail: 'FA-2026-0001 · HTTP 422',
    customer: null,
  },
  {
    kind: 'business_buyer_corrected',
    data: {
      changes: [
        { field: 'siren', before: '356000000', after: '552100554' },
        { field: 'vatNumber', before: null, after: 'FR96552100554' },
      ],
    },
    label: 'Acheteur professionnel corrigé',
    detail: `SIREN${S}: 356000000 → 552100554 · Numéro de TVA${S}: (vide) → FR96552100554`,
    customer: null,
  },
  {
    kind: 'einvoice_reissued',
    data: { rejectedNumber: 'FA-2026-0001', creditNoteNumber: 'AV-2026-0001', number: 'FA-2026-0002' },
    label: 'Facture rejetée corrigée et réémise',
    detail: 'FA-2026-0001 annulée · avoir AV-2026-0001 · remplacée par FA-2026-0002',
    customer: null,
  },
  {
    kind: 'withdrawal_requested',
    data: { requestedAt: '2026-11-21T10:00:00Z', statusAtRequest: 'pending' },
    label: 'Rétractation demandée',
    detail: `Statut à la demande${S}: En attente`,
    customer: 'Rétractation demandée',
  },
  {
    kind: 'email_queued',
    data: { to: 'jeanne@example.fr', template: 'order-status' },
    label: 'E-mail au client mis en file d’envoi',
    detail: 'Changement de statut · jeanne@example.fr',
    customer: null,
  },
  {
    kind: 'email_sent',
    data: { to: 'jeanne@example.fr', template: 'order-status' },
    label: 'E-mail envoyé au client',
    detail: 'Changement de statut · jeanne@example.fr',
    customer: null,
  },
  {
    kind: 'customer_message',
    data: { to: 'jeanne@example.fr', subject: 'Une cassette moisie', message: 'Voulez-vous la faire nettoyer ?' },
    label: 'Message envoyé au client',
    detail: 'Une cassette moisie — Voulez-vous la faire nettoyer ?',
    customer: null,
  },
  {
    kind: 'note',
    data: { text: 'Bobines reçues en bon état.' },
    label: 'Note interne',
    detail: 'Bobines reçues en bon état.',
    customer: null,
  },
  {
    kind: 'attached_to_account',
    data: { guestEmail: 'invite@example.fr', how: 'register' },
    label: 'Commande rattachée au compte',
    detail: `E-mail de la commande invité${S}: invite@example.fr`,
    customer: 'Commande rattachée à votre compte',
  },
  {
    kind: 'guest_info_updated',
    data: { fields: ['email', 'postalCode'] },
    label: 'Coordonnées du client mises à jour',
    detail: 'E-mail, code postal',
    customer: null,
  },
  {
    kind: 'placed',
    data: { method: 'transfer' },
    label: 'Commande confirmée',
    detail: `Paiement${S}: Virement bancaire`,
    customer: 'Commande confirmée',
  },
  {
    kind: 'payment_session_closed',
    data: { provider: 'stripe', sessionId: 'cs_1', reason: 'withdrawn' },
    label: 'Session de paiement fermée',
    detail: 'Stripe · Rétractation du client',
    customer: null,
  },
  {
    kind: 'payment_expired',
    data: { provider: 'monetico', amountCents: 1250 },
    label: 'Paiement par carte non abouti sous 24\u00A0h',
    detail: `${eur('12,50')} · Monetico`,
    customer: null,
  },
  {
    kind: 'payment_unapplied',
    data: { reason: 'already_paid', amountCents: 1250, provider: 'stripe' },
    label: 'Paiement reçu sans régler la commande',
    detail: `${eur('12,50')} reçus par Stripe · la commande était déjà payée`,
    customer: null,
  },
  {
    kind: 'refund_issued',
    data: {
      amountCents: 1250,
      method: 'gateway',
      provider: 'stripe',
      reason: 'Rétractation',
      creditNoteNumber: 'AV-2026-0004',
    },
    label: `Remboursement de ${eur('12,50')}`,
    detail: `Par le prestataire de paiement · Stripe · Avoir${S}: AV-2026-0004 · Rétractation`,
    customer: `Remboursement de ${eur('12,50')}`,
  },
  {
    kind: 'refund_failed',
    data: { amountCents: 1250, detail: 'charge_already_refunded' },
    label: `Échec du remboursement de ${eur('12,50')}`,
    detail: `Motif${S}: charge_already_refunded`,
    customer: null,
  },
  {
    kind: 'refund_due',
    data: { amountCents: 1250, provider: 'monetico', reason: 'Commande annulée' },
    label: `À rembourser${S}: ${eur('12,50')}`,
    detail: 'Commande annulée · Reçu par Monetico',
    customer: null,
  },
  {
    kind: 'withdrawal_settled',
    data: { keptCents: 1000, refundedCents: 2500 },
    label: 'Rétractation réglée',
    detail: `Conservé${S}: ${eur('10,00')} · Remboursé${S}: ${eur('25,00')}`,
    customer: 'Rétractation traitée',
  },
  {
    kind: 'order_canceled',
    data: { reason: 'Originaux jamais reçus' },
    label: 'Commande annulée',
    detail: 'Originaux jamais reçus',
    customer: 'Commande annulée',
  },
  {
    kind: 'address_recorded',
    data: { kinds: ['delivery', 'billing'] },
    label: 'Adresses de livraison et de facturation enregistrées',
    detail: null,
    customer: null,
  },
  {
    kind: 'label_created',
    data: { direction: 'inbound', parcelNumber: '6A12345678901' },
    label: 'Étiquette d’envoi prépayée créée',
    detail: `Colis${S}: 6A12345678901`,
    customer: 'Étiquette d’envoi prête à imprimer',
  },
  {
    kind: 'label_failed',
    data: { direction: 'outbound', detail: 'Service Colissimo indisponible' },
    label: 'Échec de la création de l’étiquette de retour',
    detail: 'Service Colissimo indisponible',
    customer: null,
  },
  {
    kind: 'parcel_posted',
    data: { direction: 'inbound', parcelNumber: '6A12345678901', code: 'PC1', scannedAt: '2026-11-03T16:20:00.000Z' },
    label: 'Colis des originaux pris en charge par La Poste',
    detail: `Colis${S}: 6A12345678901 · scanné le 03/11/2026`,
    customer: 'Votre colis a été pris en charge par La Poste',
  },
  {
    kind: 'parcel_received',
    from: 'awaiting_originals',
    to: 'received',
    data: { counted: 270, ordered: 250, receivedByName: 'Léa Martin' },
    label: 'Colis reçu à l’atelier',
    detail: '270 éléments comptés · 250 commandés · par Léa Martin',
    customer: 'Vos souvenirs sont arrivés à l’atelier',
  },
  {
    kind: 'stage_changed',
    from: 'quality_check',
    to: 'ready',
    data: null,
    label: `Étape${S}: Contrôle qualité → Prêt`,
    detail: null,
    customer: 'Vos fichiers sont prêts',
  },
  {
    kind: 'shipped',
    from: 'completed',
    to: 'shipped',
    data: { parcelNumber: '6A12345678901', carrier: 'colissimo' },
    label: 'Commande expédiée',
    detail: `Suivi${S}: 6A12345678901 · Colissimo`,
    customer: 'Votre commande est expédiée',
  },
  {
    kind: 'tracking_corrected',
    data: { from: 'ABC12345', to: '6A12345678901', carrier: 'colissimo' },
    label: 'Numéro de suivi corrigé',
    detail: 'ABC12345 → 6A12345678901',
    customer: 'Numéro de suivi corrigé',
  },
  {
    kind: 'supplement_requested',
    data: { amountCents: 700 },
    label: `Supplément de ${eur('7,00')} demandé au client`,
    detail: null,
    customer: `Supplément de ${eur('7,00')} à approuver`,
  },
  {
    kind: 'supplement_paid',
    data: { amountCents: 700, provider: 'stripe' },
    label: `Supplément de ${eur('7,00')} payé`,
    detail: 'Stripe',
    customer: 'Supplément payé',
  },
  {
    kind: 'reduction_recorded',
    to: 'to_approve',
    data: { amountCents: 350 },
    label: `Réduction de ${eur('3,50')} au comptage`,
    detail: 'À rembourser après approbation',
    customer: null,
  },
  {
    kind: 'supplement_declined',
    to: 'digitise_paid',
    data: { decision: 'digitise_paid' },
    label: 'Supplément refusé',
    detail: 'Seuls les éléments payés seront numérisés',
    customer: 'Supplément refusé',
  },
  {
    kind: 'files_published',
    from: 'quality_check',
    to: 'ready',
    data: { fileCount: 12, expiresAt: '2027-01-22T12:00:00.000Z' },
    label: 'Livraison des fichiers publiée',
    detail: '12 fichiers · conservés jusqu’au 22/01/2027',
    customer: 'Vos fichiers sont prêts',
  },
  {
    kind: 'file_rework_requested',
    data: { fileId: 'f-1', fileName: 'photo-0042.jpg', comment: 'Image floue, merci de la refaire' },
    label: `Fichier à refaire${S}: photo-0042.jpg`,
    detail: 'Image floue, merci de la refaire',
    customer: 'Vous avez demandé à refaire photo-0042.jpg',
  },
  {
    kind: 'file_rework_done',
    data: { fileId: 'f-1', fileName: 'photo-0042.jpg' },
    label: `Fichier refait${S}: photo-0042.jpg`,
    detail: null,
    customer: 'photo-0042.jpg a été refait',
  },
  {
    kind: 'files_retention_extended',
    data: { expiresAt: '2027-03-01T12:00:00.000Z' },
    label: 'Conservation des fichiers prolongée jusqu’au 01/03/2027',
    detail: null,
    customer: 'Vos fichiers sont conservés jusqu’au 01/03/2027',
  },
  {
    kind: 'iban_requested',
    data: { amountCents: 3500 },
    label: `IBAN demandé au client (remboursement de ${eur('35,00')})`,
    detail: null,
    customer: `Votre IBAN vous est demandé pour un remboursement de ${eur('35,00')}`,
  },
  {
    kind: 'iban_received',
    data: {},
    label: 'IBAN reçu du client',
    detail: null,
    customer: 'Vous nous avez indiqué votre IBAN',
  },
  {
    kind: 'iban_deleted',
    data: { reason: 'refunded' },
    label: 'IBAN du client effacé',
    detail: 'Remboursement fait',
    customer: 'Vos coordonnées bancaires ont été effacées',
  },
  {
    kind: 'review_opened',
    data: { fileCount: 50, endsAt: '2026-12-11T12:00:00.000Z' },
    label: 'Fichiers publiés pour la sélection du client',
    detail: '50 fichiers · jusqu’au 11/12/2026',
    customer: 'En attente de votre sélection',
  },
  {
    kind: 'review_closed',
    data: { droppedCount: 10 },
    label: 'Sélection validée par le client',
    detail: '10 fichiers retirés',
    customer: 'Sélection validée',
  },
  {
    kind: 'review_reminder',
    data: { endsAt: '2026-12-11T12:00:00.000Z' },
    label: `Rappel envoyé${S}: sélection à faire`,
    detail: 'Fin le 11/12/2026',
    customer: null,
  },
  {
    kind: 'files_expiry_reminder',
    data: { expiresAt: 'pas une date' },
    label: `Rappel envoyé${S}: fichiers bientôt supprimés`,
    detail: null,
    customer: null,
  },
  {
    kind: 'files_deleted',
    data: { fileCount: 1, reason: 'retention' },
    label: 'Fichiers supprimés (fin de la conservation)',
    detail: '1 fichier',
    customer: 'Vos fichiers ont été supprimés à la fin de leur conservation',
  },
];

describe('the registry of order history events', () => {
  it('has a test case for every kind', () => {
    expect(CASES.map((c) => c.kind).sort()).toEqual([...ORDER_EVENT_KINDS].sort());
  });

  it.each(ORDER_EVENT_KINDS)('%s has a French label even with no data at all', (kind) => {
    for (const data of [null, {}, 'garbage', { amountCents: 'douze' }]) {
      const description = describeOrderEvent({ kind, from: null, to: null, data });
      expect(description.label.trim()).not.toBe('');
      expect(description.label).not.toMatch(RAW_CODE);
      expect(description.detail ?? '').not.toMatch(RAW_CODE);
      expect(description.customerLabel ?? '').not.toMatch(RAW_CODE);
    }
  });

  it.each(CASES)('$kind: label, detail and customer wording', ({ kind, from = null, to = null, data, ...expected }) => {
    const description = describeOrderEvent({ kind, from, to, data });
    expect({ label: description.label, detail: description.detail, customer: description.customerLabel }).toEqual(
      expected,
    );
    expect(isCustomerVisibleKind(kind)).toBe(expected.customer !== null);
  });

  it('shows the gateway’s reason of a failed payment, written as data.detail', () => {
    const description = describeOrderEvent({
      kind: 'payment_failed',
      from: 'pending',
      to: 'failed',
      data: { paymentId: 'p1', provider: 'sandbox', detail: 'paiement différé refusé' },
    });
    expect(description.detail).toBe(`Motif${S}: paiement différé refusé · Paiement de démonstration`);
  });

  it('words a failure code it knows, and reads the older rows’ data.reason', () => {
    const description = describeOrderEvent({
      kind: 'payment_failed',
      from: null,
      to: null,
      data: { reason: 'card_declined' },
    });
    expect(description.detail).toBe(`Motif${S}: carte refusée`);
  });

  it('reads the method of a placed order from its `to`, as the lifecycle records it', () => {
    expect(describeOrderEvent({ kind: 'placed', from: null, to: 'cheque', data: null }).detail).toBe(
      `Paiement${S}: Chèque`,
    );
  });

  it('words each order status for the customer', () => {
    const wording = ['pending', 'processing', 'completed', 'shipped', 'canceled'].map(
      (to) => describeOrderEvent({ kind: 'status_changed', from: null, to, data: null }).customerLabel,
    );
    expect(wording).toEqual([
      'Votre commande est en attente',
      'Votre commande est en traitement',
      'Votre commande est traitée',
      'Votre commande est expédiée',
      'Votre commande est annulée',
    ]);
  });

  it('never shows the raw code of a kind it does not know', () => {
    const description = describeOrderEvent({ kind: 'loyalty_points_added', from: null, to: null, data: { points: 3 } });
    expect(description).toMatchObject({ label: UNKNOWN_EVENT_LABEL, detail: null, customerLabel: null, known: false });
    expect(UNKNOWN_EVENT_LABEL).toBe('Événement de la commande');
  });

  it('builds typed rows for the writers, and refuses unknown kinds or wrong data', () => {
    expect(orderEvent('payment_session_closed', { provider: 'stripe', sessionId: 'cs_1', reason: 'expired' })).toEqual({
      kind: 'payment_session_closed',
      from: null,
      to: null,
      data: { provider: 'stripe', sessionId: 'cs_1', reason: 'expired' },
    });
    expect(orderEvent('status_changed', {}, { from: 'pending', to: 'processing' })).toMatchObject({
      from: 'pending',
      to: 'processing',
    });
    // These lines are what the compiler refuses (npm run typecheck fails if it stops refusing them).
    // @ts-expect-error an unknown kind
    orderEvent('payment_teleported', {});
    // @ts-expect-error amounts are integers of cents, not text
    orderEvent('refund_issued', { amountCents: '12,50' });
    // @ts-expect-error a session closes for one of four reasons only
    orderEvent('payment_session_closed', { reason: 'bored' });
    // @ts-expect-error a placed order's method is card, transfer or cheque
    orderEvent('placed', { method: 'bitcoin' });
  });

  it('keeps every definition in the one registry', () => {
    expect(Object.keys(ORDER_EVENTS)).toEqual(ORDER_EVENT_KINDS);
  });
});

describe('actors, by name', () => {
  it.each([
    ['system', 'Système'],
    ['customer', 'Client'],
    ['guest', 'Client'],
    ['stripe', 'Stripe'],
    ['monetico', 'Monetico'],
    ['sandbox', 'Paiement de démonstration'],
    [null, 'Système'],
    ['some_robot', 'Système'],
    ['0b7e9a2c-1f3d-4c5e-9a8b-7c6d5e4f3a2b', 'Compte supprimé'],
  ])('%s reads « %s »', (actor, expected) => {
    expect(actorName(actor)).toBe(expected);
  });

  it('names a staff member, by e-mail when the name is empty, and the order’s own customer « Client »', () => {
    const id = '0b7e9a2c-1f3d-4c5e-9a8b-7c6d5e4f3a2b';
    expect(actorName(id, { name: 'Ada Admin', email: 'ada@soovenirs.fr' })).toBe('Ada Admin');
    expect(actorName(id, { name: '  ', email: 'ada@soovenirs.fr' })).toBe('ada@soovenirs.fr');
    expect(actorName(id, { name: 'Jeanne Martin', email: 'jeanne@example.fr', isOrderCustomer: true })).toBe('Client');
  });
});

describe('the history of an order', () => {
  const events = [
    { at: '2026-11-21T10:00:00Z', actor: 'staff-1', kind: 'note', from: null, to: null, data: { text: 'Rappeler' } },
    { at: '2026-11-20T10:00:00Z', actor: 'customer', kind: 'created', from: null, to: 'pending', data: null },
    { at: '2026-11-20T10:00:00Z', actor: 'customer', kind: 'placed', from: null, to: null, data: { method: 'card' } },
    {
      at: '2026-11-20T10:05:00Z',
      actor: 'sandbox',
      kind: 'payment_paid',
      from: 'pending',
      to: 'paid',
      data: { amountCents: 3500 },
    },
    { at: '2026-11-20T10:06:00Z', actor: 'system', kind: 'email_sent', from: null, to: null, data: { to: 'j@x.fr' } },
    {
      at: '2026-11-20T12:00:00Z',
      actor: 'staff-1',
      kind: 'status_changed',
      from: 'pending',
      to: 'shipped',
      data: null,
      account: { name: 'Ada Admin', email: 'ada@soovenirs.fr' },
    },
    { at: '2026-11-22T09:00:00Z', actor: 'system', kind: 'mystery_kind', from: null, to: null, data: null },
  ];

  it('reads every event for the staff, oldest first, with actors by name', () => {
    const history = orderHistory(events, 'staff');
    expect(history.map((e) => [e.label, e.actorName])).toEqual([
      ['Commande enregistrée', 'Client'],
      ['Commande confirmée', 'Client'],
      ['Paiement reçu', 'Paiement de démonstration'],
      ['E-mail envoyé au client', 'Système'],
      [`Statut${S}: En attente → Expédié`, 'Ada Admin'],
      ['Note interne', 'Système'],
      ['Événement de la commande', 'Système'],
    ]);
    expect(history[5]).toMatchObject({ isNote: true, detail: 'Rappeler' });
    expect(history[0]?.at).toBe('2026-11-20T10:00:00.000Z');
  });

  it('shows the customer only what concerns them, without details nor actors', () => {
    const history = orderHistory(events, 'customer');
    expect(history).toEqual([
      expect.objectContaining({ label: 'Commande enregistrée', detail: null, actorName: null }),
      expect.objectContaining({ label: 'Commande confirmée' }),
      expect.objectContaining({ label: 'Paiement reçu' }),
      expect.objectContaining({ label: 'Votre commande est expédiée' }),
    ]);
  });
});

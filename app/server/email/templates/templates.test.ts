import { describe, expect, it } from 'vitest';
import { EMAIL_TEMPLATE_LABELS } from '~/domain/email/template-labels';
import { TERMS_VERSION } from '~/domain/terms';
import { isPdf, popplerText } from '../../../../tests/support/pdf';
import { qrCodeOnFirstPage } from '../../../../tests/support/qr-code';
import { sealEmailData } from '../sealed-data.server';
import { TEST_BASE_URL } from '../testing/fixtures';
import { EMAIL_TEMPLATES, type EmailTemplateData, type EmailTemplateName, renderEmail } from './registry';

process.env.BASE_URL = TEST_BASE_URL;

const N = '\u202F'; // narrow no-break space
const B = '\u00A0'; // no-break space

const samples: { [K in EmailTemplateName]: EmailTemplateData<K> } = {
  welcome: { firstName: 'Ada' },
  'staff-invitation': { url: `${TEST_BASE_URL}/invitation/tok000`, roleLabel: 'Atelier', inviterName: 'Marie Curie' },
  'share-invitation': {
    sharerName: 'Marie C.',
    shareUrl: '/partage/tok321',
    expiresAt: '2026-12-27T10:00:00Z',
    allowDownloads: true,
    fileCount: 12,
    message: 'Regardez les photos de l’été 84 !',
    replyTo: 'marie.curie@exemple.fr',
  },
  'password-reset': { url: `${TEST_BASE_URL}/api/auth/reset-password/tok123?callbackURL=%2Flogin`, firstName: 'Ada' },
  'magic-link': { url: `${TEST_BASE_URL}/api/auth/magic-link/verify?token=tok456` },
  'email-verification': { url: `${TEST_BASE_URL}/api/auth/verify-email?token=tok789`, firstName: 'Ada' },
  'order-confirmation': {
    orderNumber: 'SV-2026-000042',
    createdAt: '2026-11-21T10:00:00Z',
    customerName: 'Marie Curie',
    items: [
      { label: 'Photos papier', quantity: 100, totalCents: 3500 },
      { label: 'Cassettes VHS', quantity: 2, totalCents: 3400 },
    ],
    extras: [{ label: 'Clé USB', totalCents: 1590 }],
    totalCents: 8490,
    orderUrl: '/confirmation?orderId=0b6c',
    contract: {
      termsVersion: TERMS_VERSION,
      termsAcceptedAt: '2026-11-21T10:00:00Z',
      placedAt: '2026-11-21T10:00:00Z',
      withdrawalEndsAt: '2026-12-06T23:00:00Z',
      earlyStartConsentAt: null,
    },
  },
  'payment-received': {
    orderNumber: 'SV-2026-000042',
    amountCents: 8490,
    paidAt: '2026-11-21T10:30:00Z',
    invoiceNumber: 'FA-2026-000007',
    invoiceUrl: '/facture/0b6c',
  },
  'order-message': {
    orderNumber: 'SV-2026-000042',
    subject: 'Une cassette moisie',
    message: 'La cassette n° 3 est moisie.\nVoulez-vous que nous la nettoyions ?',
    orderUrl: '/confirmation?orderId=0b6c',
    signature: 'Camille',
  },
  'payment-rejected': {
    orderNumber: 'SV-2026-000042',
    amountCents: 12900,
    paymentMethod: 'transfer',
    orderUrl: '/confirmation?orderId=0b6c',
  },
  'refund-iban-request': {
    orderNumber: 'SV-2026-000042',
    amountCents: 3500,
    ibanUrl: `${TEST_BASE_URL}/remboursement/0b6c?token=tok321`,
    reason: 'Écart au comptage à la réception',
    customerName: 'Marie',
  },
  'refund-issued': {
    orderNumber: 'SV-2026-000042',
    amountCents: 1250,
    method: 'gateway',
    creditNoteNumber: 'AV-2026-000003',
    creditNoteUrl: '/facture/0b6c?avoir=AV-2026-000003',
    partial: true,
    reason: 'Trois photos manquaient à la réception',
    customerName: 'Marie Curie',
  },
  'supplement-requested': {
    orderNumber: 'SV-2026-000042',
    amountCents: 700,
    counts: [{ label: 'Photos papier', ordered: 250, counted: 270 }],
    payUrl: '/supplement/0b6c?t=abc',
    customerName: 'Marie Curie',
  },
  'supplement-paid': {
    orderNumber: 'SV-2026-000042',
    amountCents: 700,
    invoiceNumber: 'FA-2026-000043',
    invoiceUrl: '/facture/0b6c?facture=FA-2026-000043',
  },
  'order-status': {
    orderNumber: 'SV-2026-000042',
    status: 'shipped',
    customerName: 'Marie Curie',
    orderUrl: '/profile',
  },
  'quote-saved': {
    quoteUrl: '/mes-devis',
    createdAt: '2026-11-21T10:00:00Z',
    totalCents: 123450,
    lines: [{ label: 'Diapositives', quantity: 300 }],
  },
  'contact-to-shop': {
    name: 'Jean Dupont',
    email: 'jean.dupont@exemple.fr',
    phone: '06 12 34 56 78',
    subject: 'Films Super 8',
    message: 'Bonjour,\nJ’ai 12 bobines <script>alert(1)</script> à numériser.',
    service: 'film',
    receivedAt: '2026-11-21T10:05:00Z',
  },
  'contact-acknowledgement': {},
  'withdrawal-acknowledgement': {
    orderNumber: 'SV-2026-000042',
    requestedAt: '2026-11-21T10:05:00Z',
    orderDate: '2026-11-18T09:00:00Z',
    customerName: 'Marie Curie',
  },
  'originals-received': {
    orderNumber: 'SV-2026-000042',
    customerName: 'Marie Curie',
    orderUrl: '/confirmation?orderId=0b6c',
    counts: [
      { label: 'Photos papier', ordered: 250, counted: 270 },
      { label: 'Cassettes VHS', ordered: 2, counted: 2 },
    ],
    remarks: [{ group: 'Cassettes VHS', text: 'Une cassette a sa bande cassée' }],
  },
  'order-ready': { orderNumber: 'SV-2026-000042', orderUrl: '/confirmation?orderId=0b6c', returnsByPost: true },
  'order-shipped': {
    orderNumber: 'SV-2026-000042',
    customerName: 'Marie Curie',
    orderUrl: '/confirmation?orderId=0b6c',
    parcelNumber: '6A12345678901',
    galleryUrl: '/commande/0b6c/fichiers?token=abc',
    fileCount: 12,
    totalBytes: 1_234_000_000,
    expiresAt: '2027-01-22T10:00:00Z',
  },
  'label-ready': {
    orderNumber: 'SV-2026-000042',
    customerName: 'Marie',
    parcelNumber: '6A12345678901',
    labelUrl: '/commande/0b6c/etiquette.pdf?token=abc',
  },
  'files-expiring': {
    orderNumber: 'SV-2026-000042',
    customerName: 'Marie',
    galleryUrl: '/commande/0b6c/fichiers?token=abc',
    expiresAt: '2027-01-22T10:00:00Z',
    fileCount: 250,
    totalBytes: 3_400_000_000,
  },
  'review-open': {
    orderNumber: 'SV-2026-000042',
    customerName: 'Marie',
    selectionUrl: '/commande/0b6c/selection?token=abc',
    endsAt: '2027-01-22T10:00:00Z',
    fileCount: 60,
    maxDropPercent: 20,
  },
  'review-reminder': {
    orderNumber: 'SV-2026-000042',
    selectionUrl: '/commande/0b6c/selection',
    endsAt: '2027-01-22T10:00:00Z',
    fileCount: 60,
    maxDropPercent: 20,
  },
  'gift-card': {
    code: '7KQM-4XRT-9BWN-AB12',
    amountCents: 5000,
    recipientName: 'Marie Curie',
    buyerName: 'Jean Dupont',
    message: 'Joyeux anniversaire !\nPour que les films de papa revivent.',
    expiresAt: '2027-11-29T10:00:00Z',
    redeemUrl: '/carte-cadeau?code=7KQM-4XRT-9BWN-AB12',
    printedByBuyer: false,
  },
  'gift-card-copy': {
    maskedCode: '••••-••••-••••-AB12',
    amountCents: 5000,
    recipientName: 'Marie Curie',
    recipientEmail: 'marie.curie@exemple.fr',
    buyerName: 'Jean Dupont',
    message: 'Joyeux anniversaire !\nPour que les films de papa revivent.',
    sentAt: '2026-12-24T07:00:00Z',
    expiresAt: '2027-11-29T10:00:00Z',
    accountUrl: '/profile/cartes-cadeaux',
  },
  'gift-card-expiring': {
    maskedCode: '••••-••••-••••-AB12',
    balanceCents: 3250,
    expiresAt: '2027-11-29T10:00:00Z',
    shopUrl: '/commander',
    recipientName: 'Marie',
  },
  'test-email': { sentAt: '2026-11-21T10:05:00Z', smtpHost: 'ssl0.ovh.net', smtpPort: 587 },
  custom: { subject: 'Un message', html: '<p>Bonjour</p>' },
};

/** Places where French typography wants a narrow no-break space and there is none (URLs aside). */
function typographyViolations(text: string): string[] {
  const prose = text.replace(/(https?:\/\/|mailto:)\S+/g, '');
  const found: string[] = [];
  for (const pattern of [
    /\S{0,12}[ \u00A0][;:!?]/gu,
    /[\p{L}\p{N}][;!?]/gu,
    /[\p{L}]:(?=\s)/gu,
    /«[^\u202F]|[^\u202F]»/gu,
  ]) {
    found.push(...(prose.match(pattern) ?? []));
  }
  return found;
}

describe('e-mail templates', () => {
  it('are each named in French for the staff (history, e-mail log)', () => {
    for (const name of Object.keys(EMAIL_TEMPLATES)) expect(EMAIL_TEMPLATE_LABELS[name], name).toBeTruthy();
  });

  it('cover every e-mail of the shop', () => {
    expect(Object.keys(EMAIL_TEMPLATES).sort()).toEqual(
      [
        'contact-acknowledgement',
        'contact-to-shop',
        'custom',
        'email-verification',
        'magic-link',
        'order-confirmation',
        'order-message',
        'order-status',
        'password-reset',
        'payment-received',
        'payment-rejected',
        'quote-saved',
        'refund-issued',
        'refund-iban-request',
        'supplement-paid',
        'supplement-requested',
        'test-email',
        'staff-invitation',
        'share-invitation',
        'gift-card',
        'gift-card-copy',
        'gift-card-expiring',
        'welcome',
        'withdrawal-acknowledgement',
        'originals-received',
        'order-ready',
        'order-shipped',
        'label-ready',
        'files-expiring',
        'review-open',
        'review-reminder',
      ].sort(),
    );
  });

  const names = (Object.keys(samples) as EmailTemplateName[]).filter((name) => name !== 'custom');

  it.each(names)('%s: French HTML and text, with the shop identity and French typography', async (name) => {
    const email = await renderEmail(name, samples[name] as never);
    expect(email.subject.length).toBeGreaterThan(5);
    expect(email.html).toMatch(/<html[^>]* lang="fr"/);
    for (const part of [email.html, email.text]) {
      expect(part).toContain('Soovenirs SAS');
      expect(part).toContain('12 rue des Archives, 75004 Paris');
      expect(part).toContain(`01${B}84${B}60${B}12${B}34`);
      expect(part).toContain('contact@soovenirs.fr');
      expect(part).toContain(`SIREN 912${B}345${B}678`);
    }
    // The quoted message of a visitor is theirs, shown as typed: left out of the check.
    const sample = samples[name] as { message?: string };
    const ours = sample.message ? email.text.replace(sample.message, '') : email.text;
    expect(typographyViolations(ours)).toEqual([]);
    expect(typographyViolations(email.subject)).toEqual([]);
    // Links are absolute, to the shop.
    for (const href of email.html.matchAll(/href="([^"]+)"/g)) {
      // La Poste's tracking page is the one link that leaves the shop.
      expect(href[1]).toMatch(
        /^(https:\/\/www\.soovenirs\.test\/|mailto:|https:\/\/www\.laposte\.fr\/outils\/suivre-vos-envois\?code=)/,
      );
    }
  });

  it('order confirmation: euros and dates in French format', async () => {
    const email = await renderEmail('order-confirmation', samples['order-confirmation']);
    expect(email.subject).toBe('Confirmation de votre commande SV-2026-000042');
    // By card, it leaves before the card is taken: no thanks for a payment that may be declined.
    expect(email.text).toContain('Votre commande est enregistrée');
    expect(email.text).not.toContain('Merci pour votre commande');
    expect(email.text).toContain('commande SV-2026-000042 du 21/11/2026');
    expect(email.text).toContain(`35,00${B}€`);
    expect(email.text).toContain(`15,90${B}€`);
    expect(email.text).toMatch(new RegExp(`Total TTC\\s+84,90${B}€`));
    expect(email.text).toContain(`quantité${N}: 100`);
    expect(email.text).toContain(`${TEST_BASE_URL}/confirmation?orderId=0b6c`);
  });

  it('payment received: amount, date and the invoice link', async () => {
    const email = await renderEmail('payment-received', samples['payment-received']);
    expect(email.subject).toBe('Paiement reçu pour la commande SV-2026-000042');
    expect(email.text).toContain(`Nous avons bien reçu votre paiement de 84,90${B}€ le 21/11/2026`);
    expect(email.text).toContain(`Votre facture FA-2026-000007 est disponible dans votre espace client${N}:`);
    expect(email.html).toContain(`href="${TEST_BASE_URL}/facture/0b6c"`);
    expect(email.attachments).toEqual([]);
  });

  it('payment received by a guest: the invoice is « ici », behind a link with its token, not in a customer area', async () => {
    const email = await renderEmail('payment-received', {
      ...samples['payment-received'],
      invoiceUrl: '/facture/0b6c?token=tok',
      customerArea: false,
    });
    expect(email.text).toContain(`Votre facture FA-2026-000007 est disponible ici${N}:`);
    expect(email.text).not.toContain('espace client');
    expect(email.html).toContain(`href="${TEST_BASE_URL}/facture/0b6c?token=tok"`);
  });

  it('order confirmation: the contract, with the terms of sale and the withdrawal form attached', async () => {
    const email = await renderEmail('order-confirmation', samples['order-confirmation']);
    expect(email.text).toContain(
      `Vous avez accepté le 21/11/2026 nos conditions générales de vente (CGV du 24/11/2026). Elles sont jointes à cet email, avec le formulaire de rétractation${N}: conservez-les.`,
    );
    expect(email.text).toContain('Vous disposez de 14 jours, jusqu’au 06/12/2026 inclus, pour vous rétracter');
    expect(email.text).toContain('nous commencerons les travaux à sa fin, à partir du 07/12/2026.');
    expect(email.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`conditions-generales-de-vente-${TERMS_VERSION}.pdf`, 'application/pdf'],
      ['formulaire-de-retractation-SV-2026-000042.pdf', 'application/pdf'],
    ]);
    for (const attachment of email.attachments) expect(attachment.content.subarray(0, 5).toString()).toBe('%PDF-');

    const early = await renderEmail('order-confirmation', {
      ...samples['order-confirmation'],
      contract: { ...samples['order-confirmation'].contract!, earlyStartConsentAt: '2026-11-21T09:59:00Z' },
    });
    expect(early.text).toContain(
      'Le 21/11/2026, vous avez demandé expressément que la numérisation commence avant la fin du délai de rétractation.',
    );
    expect(early.text).toContain(
      'une fois la prestation entièrement exécutée, vous perdez votre droit de rétractation.',
    );
    expect(early.text).not.toContain('nous commencerons les travaux à sa fin');

    // Confirmations queued before the contract was part of them still render, without attachments.
    const { contract: _contract, ...older } = samples['order-confirmation'];
    const before = await renderEmail('order-confirmation', older);
    expect(before.text).not.toContain('Votre contrat');
    expect(before.attachments).toEqual([]);
  });

  it('every message answers to the shop’s mailbox (Reply-To), the contact form’s to the visitor, a share’s to the customer', async () => {
    for (const name of names) {
      const email = await renderEmail(name, samples[name] as never);
      const own: Record<string, string> = {
        'contact-to-shop': 'jean.dupont@exemple.fr',
        // A family share's invitation answers to the customer who shares.
        'share-invitation': 'marie.curie@exemple.fr',
      };
      expect(email.replyTo, name).toBe(own[name] ?? 'contact@soovenirs.fr');
    }
  });

  it('payment rejected: the staff’s reason when they gave one, the usual explanation otherwise', async () => {
    const withReason = await renderEmail('payment-rejected', {
      ...samples['payment-rejected'],
      reason: 'Le virement reçu ne porte pas la référence de la commande.',
    });
    expect(withReason.subject).toBe('Paiement non validé pour la commande SV-2026-000042');
    expect(withReason.text).toContain(`Motif${N}: Le virement reçu ne porte pas la référence de la commande.`);
    expect(withReason.text).not.toContain('nous ne l’avons pas reçu');
    const without = await renderEmail('payment-rejected', samples['payment-rejected']);
    expect(without.text).toContain('nous ne l’avons pas reçu, ou il ne correspond pas à la commande');
    expect(without.text).not.toContain('Motif');
  });

  it('refund issued: the amount, how it comes back and the credit note’s link', async () => {
    const email = await renderEmail('refund-issued', samples['refund-issued']);
    expect(email.subject).toBe('Remboursement de votre commande SV-2026-000042');
    expect(email.text).toContain(`Nous vous remboursons 12,50${B}€ sur votre commande SV-2026-000042.`);
    expect(email.text).toContain('sur la carte utilisée, sous 5 à 10 jours ouvrés');
    expect(email.text).toContain(`Motif${N}: Trois photos manquaient à la réception`);
    expect(email.text).toContain('AV-2026-000003');
    expect(email.html).toContain(`href="${TEST_BASE_URL}/facture/0b6c?avoir=AV-2026-000003"`);

    const cheque = await renderEmail('refund-issued', {
      ...samples['refund-issued'],
      method: 'cheque',
      partial: false,
      amountCents: 8490,
    });
    expect(cheque.text).toContain(`Nous vous remboursons votre commande SV-2026-000042${N}: 84,90${B}€.`);
    expect(cheque.text).toContain('par chèque');
    expect(cheque.text).not.toContain('carte');
    const transfer = await renderEmail('refund-issued', { ...samples['refund-issued'], method: 'transfer' });
    expect(transfer.text).toContain('par virement bancaire');
    const demo = await renderEmail('refund-issued', { ...samples['refund-issued'], demo: true });
    expect(demo.text).toContain('aucun montant ne vous est versé');
    expect(demo.text).not.toContain('sur la carte utilisée');
    // A refund over the order's invoice and a supplement's names both credit notes.
    const split = await renderEmail('refund-issued', {
      ...samples['refund-issued'],
      otherCreditNotes: ['AV-2026-000004'],
    });
    expect(split.text).toContain(
      `Les avoirs AV-2026-000003 et AV-2026-000004 correspondants (un par facture remboursée) sont disponibles dans votre espace client${N}; le premier${N}:`,
    );
    await expect(renderEmail('refund-issued', { ...samples['refund-issued'], amountCents: 0 })).rejects.toThrow(
      /amountCents/,
    );
  });

  it('IBAN request: the amount, the secure page’s link, never an IBAN; the reminder says so', async () => {
    const email = await renderEmail('refund-iban-request', samples['refund-iban-request']);
    expect(email.subject).toBe(
      `Votre remboursement de 35,00${B}€ (commande SV-2026-000042)${N}: indiquez-nous votre IBAN`,
    );
    expect(email.text).toContain(`Indiquez-nous votre IBAN pour recevoir votre remboursement de 35,00${B}€`);
    expect(email.text).toContain(`Motif${N}: Écart au comptage à la réception`);
    expect(email.html).toContain(`href="${TEST_BASE_URL}/remboursement/0b6c?token=tok321"`);
    const reminder = await renderEmail('refund-iban-request', { ...samples['refund-iban-request'], reminder: true });
    expect(reminder.subject).toBe(`Rappel${N}: votre IBAN pour le remboursement de la commande SV-2026-000042`);
    expect(reminder.text).toContain('Nous n’avons pas encore reçu votre IBAN');
  });

  it('order status: its wording', async () => {
    const email = await renderEmail('order-status', samples['order-status']);
    expect(email.subject).toBe('Commande SV-2026-000042 expédiée');
    expect(email.text).toContain('Votre commande a été expédiée et est en route.');
    const generic = await renderEmail('order-status', {
      orderNumber: 'SV-1',
      status: 'pending',
      statusLabel: 'En attente',
    });
    expect(generic.subject).toBe('Mise à jour de votre commande SV-1');
    expect(generic.text).toContain(`Nouveau statut${N}: En attente`);
  });

  it('quote saved: thousands with a narrow no-break space', async () => {
    const email = await renderEmail('quote-saved', samples['quote-saved']);
    expect(email.subject).toBe('Votre devis Soovenirs du 21/11/2026');
    expect(email.text).toContain(`Montant estimé${N}: 1${N}234,50${B}€ TTC`);
  });

  it('password reset and magic link carry their link, and say how long it lasts', async () => {
    const reset = await renderEmail('password-reset', samples['password-reset']);
    expect(reset.text).toContain('tok123');
    expect(reset.text).toContain('valable 60 minutes');
    const magic = await renderEmail('magic-link', samples['magic-link']);
    expect(magic.html).toContain(`href="${TEST_BASE_URL}/api/auth/magic-link/verify?token=tok456"`);
    expect(magic.text).toContain('valable 15 minutes');
  });

  it('contact message: to the shop with Reply-To the visitor, their text escaped and kept as typed', async () => {
    const email = await renderEmail('contact-to-shop', samples['contact-to-shop']);
    expect(email.subject).toBe(`Nouveau message de contact${N}: Films Super 8`);
    expect(email.replyTo).toBe('jean.dupont@exemple.fr');
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;');
    expect(email.text).toContain('J’ai 12 bobines');
    expect(email.text).toContain('Prestation\u202F: Films');
    expect(email.text).toContain('21/11/2026 à 11:05');
  });

  it('withdrawal acknowledgement is dated', async () => {
    const email = await renderEmail('withdrawal-acknowledgement', samples['withdrawal-acknowledgement']);
    expect(email.subject).toBe('Accusé de réception de votre rétractation (commande SV-2026-000042)');
    expect(email.text).toContain('commande SV-2026-000042 du 18/11/2026, reçue le 21/11/2026 à 11:05');
  });

  it('gift card to its recipient: from whom, the message, the amount, the code, the last day, the card attached', async () => {
    const email = await renderEmail('gift-card', samples['gift-card']);
    expect(email.subject).toBe(`Jean Dupont vous offre une carte cadeau Soovenirs de 50,00${B}€`);
    expect(email.text).toContain('Bonjour Marie Curie,');
    expect(email.text).toContain(`Jean Dupont vous offre une carte cadeau Soovenirs de 50,00${B}€`);
    expect(email.text).toContain('Joyeux anniversaire !\nPour que les films de papa revivent.');
    expect(email.text).toContain('7KQM-4XRT-9BWN-AB12');
    expect(email.text).toContain(`Montant${N}: 50,00${B}€. Valable jusqu’au 29/11/2027.`);
    expect(email.text).toContain('au moment de payer votre commande sur soovenirs.fr');
    expect(email.html).toContain(`href="${TEST_BASE_URL}/carte-cadeau?code=7KQM-4XRT-9BWN-AB12"`);
    expect(email.html).toContain('Utiliser ma carte cadeau');

    expect(email.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['carte-cadeau-soovenirs.pdf', 'application/pdf'],
    ]);
    const pdf = email.attachments[0]!.content;
    expect(isPdf(pdf)).toBe(true);
    const card = popplerText(pdf).replace(/\s+/g, ' ');
    expect(card).toContain('Pour Marie Curie');
    expect(card).toContain('De la part de Jean Dupont');
    expect(card).toContain('7KQM-4XRT-9BWN-AB12');
    expect(card).toContain('Valable jusqu’au 29/11/2027');
    // The card's QR code opens the shop's page, not a bare path a phone cannot open.
    expect(await qrCodeOnFirstPage(pdf)).toBe(`${TEST_BASE_URL}/carte-cadeau?code=7KQM-4XRT-9BWN-AB12`);
  });

  it('gift card the buyer prints: to them, « Votre carte cadeau », the card attached to print', async () => {
    const email = await renderEmail('gift-card', { ...samples['gift-card'], printedByBuyer: true, message: null });
    expect(email.subject).toBe(`Votre carte cadeau Soovenirs de 50,00${B}€`);
    expect(email.text).toContain('Bonjour Jean Dupont,');
    expect(email.text).toContain(`Voici la carte cadeau Soovenirs de 50,00${B}€ que vous offrez à Marie Curie.`);
    expect(email.text).toContain(`imprimez-la et offrez-la`);
    expect(email.text).not.toContain('message');
    expect(email.text).toContain('7KQM-4XRT-9BWN-AB12');
    expect(email.attachments.map((a) => a.filename)).toEqual(['carte-cadeau-soovenirs.pdf']);
  });

  it('gift card: the code and the redeem link are sealed in the outbox; a malformed code is refused', async () => {
    const stored = JSON.stringify(sealEmailData('gift-card', samples['gift-card']));
    expect(stored).not.toContain('7KQM');
    expect(stored).toContain('Jean Dupont');
    await expect(renderEmail('gift-card', { ...samples['gift-card'], code: '7KQM4XRT' })).rejects.toThrow(/code/);
  });

  /** A whole code (four groups of four), which neither the copy nor the reminder may show. */
  const WHOLE_CODE = /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/i;

  it('gift card copy to the buyer: sent when and to whom, the message, the code masked, nothing attached', async () => {
    const email = await renderEmail('gift-card-copy', samples['gift-card-copy']);
    expect(email.subject).toBe('Votre carte cadeau pour Marie Curie est partie');
    expect(email.text).toContain(
      `Votre carte cadeau Soovenirs de 50,00${B}€ a été envoyée à Marie Curie le 24/12/2026, à l’adresse marie.curie@exemple.fr.`,
    );
    expect(email.text).toContain('Joyeux anniversaire !\nPour que les films de papa revivent.');
    expect(email.text).toContain('••••-••••-••••-AB12');
    expect(email.text).toContain('valable jusqu’au 29/11/2027');
    expect(email.html).toContain(`href="${TEST_BASE_URL}/profile/cartes-cadeaux"`);
    for (const part of [email.subject, email.html, email.text]) expect(part).not.toMatch(WHOLE_CODE);
    expect(email.attachments).toEqual([]);
    // A whole code passed by mistake is refused rather than sent to the buyer.
    await expect(
      renderEmail('gift-card-copy', { ...samples['gift-card-copy'], maskedCode: '7KQM-4XRT-9BWN-AB12' }),
    ).rejects.toThrow(/maskedCode/);
  });

  it('gift card expiring: the last day in the subject, the balance, the code masked, the shop’s button', async () => {
    const email = await renderEmail('gift-card-expiring', samples['gift-card-expiring']);
    expect(email.subject).toBe('Votre carte cadeau Soovenirs expire le 29/11/2027');
    expect(email.text).toContain('Bonjour Marie,');
    expect(email.text).toContain(`Il reste 32,50${B}€ sur votre carte cadeau Soovenirs.`);
    expect(email.text).toContain(`Elle est valable jusqu’au 29/11/2027${N}:`);
    expect(email.text).toContain('••••-••••-••••-AB12');
    expect(email.html).toContain(`href="${TEST_BASE_URL}/commander"`);
    expect(email.html).toContain('Commander sur Soovenirs');
    for (const part of [email.subject, email.html, email.text]) expect(part).not.toMatch(WHOLE_CODE);
    expect(email.attachments).toEqual([]);
  });

  it('custom: the administrator HTML as written, a one-line subject', async () => {
    const email = await renderEmail('custom', { subject: 'Ligne 1\r\nBcc: x@evil.example', html: '<p>Bonjour</p>' });
    expect(email.subject).toBe('Ligne 1 Bcc: x@evil.example');
    expect(email.html).toBe('<p>Bonjour</p>');
    expect(email.text).toBe('Bonjour');
  });
});

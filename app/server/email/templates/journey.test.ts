import { describe, expect, it } from 'vitest';
import { TEST_BASE_URL } from '../testing/fixtures';
import { renderEmail } from './registry';

process.env.BASE_URL = TEST_BASE_URL;

describe('journey e-mails', () => {
  it('originals received: what was counted against what was ordered, and the remarks', async () => {
    const email = await renderEmail('originals-received', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/confirmation?orderId=0b6c&token=abc',
      counts: [{ label: 'Photos papier', ordered: 250, counted: 270 }],
      remarks: [{ group: 'Photos papier', text: 'Traces de moisissure sur trois tirages' }],
    });
    expect(email.subject).toBe('Nous avons bien reçu vos souvenirs (commande SV-2026-000042)');
    expect(email.text).toMatch(/Photos papier\s+250\s+270/);
    expect(email.text).toContain('diffère de votre commande');
    expect(email.text).toContain('Photos papier\u202F: Traces de moisissure sur trois tirages');
    expect(email.html).toContain('https://www.soovenirs.test/confirmation?orderId=0b6c&amp;token=abc');
  });

  it('originals received with fewer items: the difference is deducted and refunded, not « nous revenons vers vous »', async () => {
    const email = await renderEmail('originals-received', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/confirmation?orderId=0b6c',
      counts: [{ label: 'Photos papier', ordered: 100, counted: 90 }],
    });
    expect(email.text).toContain('nous en avons reçu moins');
    expect(email.text).toContain('vous est remboursée');
    expect(email.text).not.toContain('revenons vers vous');
  });

  it('originals received with the counts as ordered says nothing of a difference', async () => {
    const email = await renderEmail('originals-received', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/confirmation?orderId=0b6c',
      counts: [{ label: 'Cassettes VHS', ordered: 2, counted: 2 }],
    });
    expect(email.text).not.toContain('diffère');
  });

  it('order ready and order shipped, the latter with the parcel number and La Poste’s tracking link', async () => {
    const ready = await renderEmail('order-ready', { orderNumber: 'SV-2026-000042', orderUrl: '/profile' });
    expect(ready.subject).toBe('Vos fichiers sont prêts (commande SV-2026-000042)');
    expect(ready.text).not.toContain('numéro de suivi');

    const shipped = await renderEmail('order-shipped', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/profile',
      parcelNumber: '6A12345678901',
    });
    expect(shipped.subject).toBe('Votre commande SV-2026-000042 est expédiée');
    expect(shipped.text).toContain('Numéro de suivi\u202F: 6A12345678901');
    expect(shipped.html).toContain('https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901');
  });
});

describe('order confirmation: sending instructions', () => {
  it('gives the workshop address, the slip, the prepaid label and the packing advice', async () => {
    const email = await renderEmail('order-confirmation', {
      orderNumber: 'SV-2026-000042',
      createdAt: '2026-11-21T10:00:00Z',
      items: [{ label: 'Cassettes VHS', quantity: 2, totalCents: 3400 }],
      totalCents: 3400,
      orderUrl: '/confirmation?orderId=0b6c',
      sending: {
        addressLines: ['Soovenirs – Atelier de numérisation', '12 rue des Archives', '75004 Paris', 'France'],
        packing: [{ title: 'Cassettes vidéo', advice: 'Laissez chaque cassette dans son boîtier.' }],
        slipUrl: '/commande/0b6c/bordereau.pdf',
        labelUrl: '/commande/0b6c/etiquette',
      },
    });
    expect(email.text).toContain('Envoyez-nous vos originaux');
    expect(email.text).toContain('Soovenirs – Atelier de numérisation');
    expect(email.text).toContain('Cassettes vidéo\u202F: Laissez chaque cassette dans son boîtier.');
    expect(email.html).toContain('https://www.soovenirs.test/commande/0b6c/bordereau.pdf');
    expect(email.html).toContain('https://www.soovenirs.test/commande/0b6c/etiquette');
    expect(email.text).toContain('Imprimer le bordereau');
  });
});

describe('the delivered files in e-mails (decision 011)', () => {
  const files = {
    galleryUrl: '/commande/0b6c/fichiers?token=abc',
    fileCount: 12,
    totalBytes: 1_234_000_000,
    expiresAt: '2027-01-22T10:00:00Z',
  };

  it('order ready with published files: the gallery button, the count and size, until when', async () => {
    const email = await renderEmail('order-ready', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/confirmation?orderId=0b6c&token=abc',
      ...files,
    });
    expect(email.subject).toBe('Vos fichiers sont prêts (commande SV-2026-000042)');
    expect(email.text).toContain('Vos fichiers sont prêts');
    expect(email.text).toContain('Vos fichiers en ligne\u202F: 12\u00a0fichiers · 1,2\u00a0Go.');
    expect(email.text).toContain('Ils restent disponibles jusqu’au 22/01/2027.');
    expect(email.text).toContain('Voir et télécharger mes fichiers');
    expect(email.html).toContain('href="https://www.soovenirs.test/commande/0b6c/fichiers?token=abc"');
    // The gallery replaces the order's button: one call to action.
    expect(email.text).not.toContain('Voir ma commande');
  });

  it('the status e-mails « Traité » and « Expédié » and the shipping e-mail gain the gallery link', async () => {
    for (const status of ['completed', 'shipped']) {
      const email = await renderEmail('order-status', { orderNumber: 'SV-2026-000042', status, ...files });
      expect(email.text).toContain('Mes fichiers en ligne');
      expect(email.text).toContain('Ils restent disponibles jusqu’au 22/01/2027.');
      expect(email.html).toContain('https://www.soovenirs.test/commande/0b6c/fichiers?token=abc');
    }
    const shipped = await renderEmail('order-shipped', {
      orderNumber: 'SV-2026-000042',
      orderUrl: '/profile',
      parcelNumber: '6A12345678901',
      galleryUrl: '/commande/0b6c/fichiers',
      expiresAt: files.expiresAt,
    });
    expect(shipped.html).toContain('href="https://www.soovenirs.test/commande/0b6c/fichiers"');
    const without = await renderEmail('order-status', { orderNumber: 'SV-2026-000042', status: 'completed' });
    expect(without.text).not.toContain('Mes fichiers en ligne');
  });

  it('the reminder: the deletion date, the link, « Tout télécharger »', async () => {
    const email = await renderEmail('files-expiring', {
      orderNumber: 'SV-2026-000042',
      customerName: 'Marie',
      galleryUrl: files.galleryUrl,
      expiresAt: files.expiresAt,
      fileCount: 1,
      totalBytes: 999,
    });
    expect(email.subject).toBe('Vos fichiers seront supprimés le 22/01/2027 (commande SV-2026-000042)');
    expect(email.text).toContain('Bonjour Marie,');
    expect(email.text).toContain('(1\u00a0fichier · 999\u00a0octets) restent disponibles jusqu’au 22/01/2027');
    expect(email.text).toContain('le bouton «\u202FTout télécharger\u202F»');
    expect(email.html).toContain('href="https://www.soovenirs.test/commande/0b6c/fichiers?token=abc"');
  });
});

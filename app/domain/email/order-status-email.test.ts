import { describe, expect, it } from 'vitest';
import { orderStatusEmailWording } from './order-status-email';

describe('order status e-mail wording', () => {
  it.each([
    [
      'processing',
      'Commande SV-2026-000042 en cours de traitement',
      'Votre commande est actuellement en cours de traitement par notre équipe.',
    ],
    ['completed', 'Commande SV-2026-000042 traitée', 'Votre commande a été traitée avec succès.'],
    ['shipped', 'Commande SV-2026-000042 expédiée', 'Votre commande a été expédiée et est en route.'],
    ['canceled', 'Commande SV-2026-000042 annulée', 'Votre commande a été annulée.'],
    ['pending', 'Mise à jour de votre commande SV-2026-000042', 'Le statut de votre commande a été mis à jour.'],
    ['unknown', 'Mise à jour de votre commande SV-2026-000042', 'Le statut de votre commande a été mis à jour.'],
    ['toString', 'Mise à jour de votre commande SV-2026-000042', 'Le statut de votre commande a été mis à jour.'],
  ])('%s', (status, subject, message) => {
    const wording = orderStatusEmailWording(status, 'SV-2026-000042');
    expect(wording.subject).toBe(subject);
    expect(wording.message).toBe(message);
    expect(wording.generic).toBe(!['processing', 'completed', 'shipped', 'canceled'].includes(status));
  });
});

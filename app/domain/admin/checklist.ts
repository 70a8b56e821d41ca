/*
 * The Tests tab: a production checklist of 8 items, each
 * complete, warning or incomplete; the percentage is complete items over all items, rounded; at 80 %
 * or more a "ready for production" banner appears. And the platform functionality test, whose
 * checks give success, warning, error or pending.
 */

export type ChecklistState = 'complete' | 'warning' | 'incomplete';

export const CHECKLIST_ITEMS = [
  'email',
  'access-control',
  'guest-checkout',
  'invoices',
  'payment-keys',
  'admin',
  'https',
  'carrier',
] as const;
export type ChecklistItemId = (typeof CHECKLIST_ITEMS)[number];

export const CHECKLIST_LABELS: Readonly<Record<ChecklistItemId, string>> = {
  email: 'Service email configuré',
  'access-control': 'Contrôle d’accès côté serveur',
  'guest-checkout': 'Commande sans compte (invités)',
  invoices: 'Génération des factures',
  'payment-keys': 'Clés de paiement en production',
  admin: 'Au moins un administrateur',
  https: 'Adresse publique en HTTPS',
  carrier: 'Identifiants Coliship vérifiés',
};

export interface ChecklistItem {
  id: ChecklistItemId;
  label: string;
  state: ChecklistState;
  detail: string;
}

export const READY_THRESHOLD = 80;

/** Complete items over all items, in percent, rounded (warnings do not count). */
export function checklistPercent(items: ReadonlyArray<Pick<ChecklistItem, 'state'>>): number {
  if (items.length === 0) return 0;
  return Math.round((items.filter((i) => i.state === 'complete').length / items.length) * 100);
}

export function isReadyForProduction(percent: number): boolean {
  return percent >= READY_THRESHOLD;
}

export type PlatformTestState = 'success' | 'warning' | 'error' | 'pending';

export const PLATFORM_TESTS = ['database', 'session', 'orders', 'payments', 'email'] as const;
export type PlatformTestId = (typeof PLATFORM_TESTS)[number];

export const PLATFORM_TEST_LABELS: Readonly<Record<PlatformTestId, string>> = {
  database: 'Base de données',
  session: 'Session',
  orders: 'Fonctions de commande',
  payments: 'Paiement en ligne',
  email: 'Service email',
};

export interface PlatformTestResult {
  id: PlatformTestId;
  label: string;
  state: PlatformTestState;
  message: string;
  /** How long the probe took, in milliseconds. */
  durationMs: number;
}

export const PLATFORM_TEST_STATE_LABELS: Readonly<Record<PlatformTestState, string>> = {
  success: 'Réussi',
  warning: 'Attention',
  error: 'Erreur',
  pending: 'En attente',
};

export const CHECKLIST_STATE_LABELS: Readonly<Record<ChecklistState, string>> = {
  complete: 'Terminé',
  warning: 'À vérifier',
  incomplete: 'À faire',
};

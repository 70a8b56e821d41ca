import { describe, expect, it } from 'vitest';
import { ORDER_DIALOG_INTENTS } from './access-rules';
import { CAPABILITIES, can, ROLE_CAPABILITIES } from './permissions';
import { refuseStaffChange, TEAM_MESSAGES } from './team-rules';

describe('the staff permission table', () => {
  it('gives the administrator everything', () => {
    for (const capability of CAPABILITIES) expect(can('admin', capability)).toBe(true);
  });

  it('gives customers, unknown roles and nobody nothing', () => {
    for (const capability of CAPABILITIES) {
      expect(can('customer', capability)).toBe(false);
      expect(can('superuser', capability)).toBe(false);
      expect(can(null, capability)).toBe(false);
    }
  });

  it('lets the workshop move orders but not touch money, prices or settings', () => {
    for (const capability of ['orders.read', 'orders.write', 'workshop', 'reception', 'files', 'shipping'] as const) {
      expect(can('atelier', capability)).toBe(true);
    }
    for (const capability of [
      'prices',
      'payments.validate',
      'refunds',
      'accounting',
      'exports',
      'settings',
      'team',
      'journal',
      'reports',
      'giftcards',
    ] as const) {
      expect(can('atelier', capability)).toBe(false);
    }
  });

  it('lets the accountant read orders and handle money, but not change orders, prices or settings', () => {
    for (const capability of [
      'orders.read',
      'payments.validate',
      'refunds',
      'accounting',
      'exports',
      'giftcards',
    ] as const) {
      expect(can('comptabilite', capability)).toBe(true);
    }
    for (const capability of [
      'orders.write',
      'workshop',
      'reception',
      'files',
      'prices',
      'settings',
      'team',
    ] as const) {
      expect(can('comptabilite', capability)).toBe(false);
    }
  });

  it('names only known capabilities', () => {
    for (const list of Object.values(ROLE_CAPABILITIES)) {
      for (const capability of list) expect(CAPABILITIES).toContain(capability);
    }
  });
});

describe('the last active administrator', () => {
  const admin = { id: 'a', role: 'admin', active: true } as const;

  it('cannot be demoted or deactivated', () => {
    expect(
      refuseStaffChange({ actorId: 'b', target: admin, change: { kind: 'role', role: 'atelier' }, activeAdmins: 1 }),
    ).toBe(TEAM_MESSAGES.lastAdminDemoted);
    expect(refuseStaffChange({ actorId: 'b', target: admin, change: { kind: 'deactivate' }, activeAdmins: 1 })).toBe(
      TEAM_MESSAGES.lastAdminDeactivated,
    );
  });

  it('can be when another administrator is active', () => {
    expect(
      refuseStaffChange({
        actorId: 'b',
        target: admin,
        change: { kind: 'role', role: 'comptabilite' },
        activeAdmins: 2,
      }),
    ).toBeNull();
    expect(
      refuseStaffChange({ actorId: 'b', target: admin, change: { kind: 'deactivate' }, activeAdmins: 2 }),
    ).toBeNull();
  });

  it('keeps the role it already has', () => {
    expect(
      refuseStaffChange({ actorId: 'a', target: admin, change: { kind: 'role', role: 'admin' }, activeAdmins: 1 }),
    ).toBeNull();
  });

  it('nobody deactivates themselves', () => {
    expect(refuseStaffChange({ actorId: 'a', target: admin, change: { kind: 'deactivate' }, activeAdmins: 3 })).toBe(
      TEAM_MESSAGES.selfDeactivated,
    );
  });

  it('other members are changed freely', () => {
    const operator = { id: 'o', role: 'atelier', active: true } as const;
    expect(
      refuseStaffChange({ actorId: 'a', target: operator, change: { kind: 'deactivate' }, activeAdmins: 1 }),
    ).toBeNull();
    expect(
      refuseStaffChange({ actorId: 'a', target: operator, change: { kind: 'role', role: 'admin' }, activeAdmins: 1 }),
    ).toBeNull();
  });
});

describe('the order dialog’s money intents', () => {
  it('approving a refund owed back needs the refund right', () => {
    const capability = ORDER_DIALOG_INTENTS['approve-refund'] ?? 'dashboard';
    expect(capability).toBe('refunds');
    expect(can('atelier', capability)).toBe(false);
    expect(can('comptabilite', capability)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  type AccessRule,
  AUTH_ENDPOINT_ACCESS,
  authEndpointAccess,
  decide,
  ORDER_DIALOG_INTENTS,
  type Requester,
  ROUTE_ACCESS,
  UPLOADS_ACCESS,
} from './access-rules';
import { CAPABILITIES, type Capability, STAFF_ROLES } from './permissions';

function capabilitiesOf(rule: AccessRule): Capability[] {
  if (rule.kind === 'staff') return [rule.capability];
  if (rule.kind === 'staff-intents') return Object.values(rule.intents);
  if (rule.kind === 'order-viewer') return [rule.staff];
  return [];
}

const ANONYMOUS: Requester = { kind: 'anonymous' };
const CUSTOMER: Requester = { kind: 'customer' };
const staff = (role: (typeof STAFF_ROLES)[number], heldForTwoFactor = false): Requester => ({
  kind: 'staff',
  role,
  heldForTwoFactor,
});

describe('the door’s table', () => {
  it('names only capabilities of the capability table', () => {
    const rules = [
      ...Object.values(ROUTE_ACCESS).flatMap((access) => [access.read, access.write]),
      UPLOADS_ACCESS.read,
      UPLOADS_ACCESS.write,
      ...Object.values(AUTH_ENDPOINT_ACCESS),
    ];
    const named = rules.flatMap(capabilitiesOf);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((capability) => !(CAPABILITIES as readonly string[]).includes(capability))).toEqual([]);
  });

  it('opens no back-office route to the public', () => {
    const open = Object.entries(ROUTE_ACCESS).filter(
      ([id, access]) =>
        id.startsWith('routes/admin/') && (access.read.kind === 'public' || access.write.kind === 'public'),
    );
    expect(open).toEqual([]);
  });

  it('closes Better Auth’s admin endpoints and an endpoint it does not list', () => {
    for (const path of ['/admin/create-user', '/admin/set-role', '/admin/impersonate-user', '/admin/ban-user'])
      expect(authEndpointAccess(path)).toEqual({ kind: 'closed' });
    expect(authEndpointAccess('/some-new-endpoint')).toEqual({ kind: 'closed' });
    expect(authEndpointAccess('/reset-password/abc123')).toEqual({ kind: 'public' });
    expect(authEndpointAccess('/sign-in/email')).toEqual({ kind: 'public' });
    expect(authEndpointAccess('/list-sessions')).toEqual({ kind: 'signed-in' });
    expect(authEndpointAccess('/get-session')).toEqual({ kind: 'public' });
  });
});

describe('the door’s decision', () => {
  const settings: AccessRule = { kind: 'staff', capability: 'settings' };

  it('answers each kind of requester of a staff line', () => {
    expect(decide(settings, ANONYMOUS)).toEqual({ allow: false, refusal: 'unauthenticated' });
    expect(decide(settings, CUSTOMER)).toEqual({ allow: false, refusal: 'forbidden' });
    expect(decide(settings, staff('atelier'))).toEqual({ allow: false, refusal: 'denied' });
    expect(decide(settings, staff('admin'))).toEqual({ allow: true, staffView: false });
    expect(decide(settings, staff('admin', true))).toEqual({ allow: false, refusal: 'two-factor' });
    expect(decide(settings, staff('admin', true), { whileHeldForTwoFactor: true }).allow).toBe(true);
  });

  it('holds the two-factor rule on every line a staff session reaches, not only pages', () => {
    const held = staff('admin', true);
    expect(decide({ kind: 'signed-in' }, held)).toEqual({ allow: false, refusal: 'two-factor' });
    expect(decide({ kind: 'order-viewer', staff: 'orders.read' }, held)).toEqual({
      allow: false,
      refusal: 'two-factor',
    });
    expect(decide(UPLOADS_ACCESS.write, held)).toEqual({ allow: false, refusal: 'two-factor' });
  });

  it('lets every staff role see any order’s documents through orders.read, customers only their own', () => {
    const rule: AccessRule = { kind: 'order-viewer', staff: 'orders.read' };
    for (const role of STAFF_ROLES) expect(decide(rule, staff(role))).toEqual({ allow: true, staffView: true });
    expect(decide(rule, CUSTOMER)).toEqual({ allow: true, staffView: false });
    expect(decide(rule, ANONYMOUS)).toEqual({ allow: true, staffView: false });
  });

  it('decides an intent by the intent alone, and refuses an intent it does not know', () => {
    const rule: AccessRule = { kind: 'staff-intents', intents: ORDER_DIALOG_INTENTS };
    expect(decide(rule, staff('comptabilite'), { intent: 'status' })).toEqual({ allow: false, refusal: 'denied' });
    expect(decide(rule, staff('comptabilite'), { intent: 'refund' }).allow).toBe(true);
    expect(decide(rule, staff('atelier'), { intent: 'refund' })).toEqual({ allow: false, refusal: 'denied' });
    expect(decide(rule, staff('atelier'), { intent: 'status' }).allow).toBe(true);
    expect(decide(rule, staff('admin'), { intent: 'drop-table' })).toEqual({ allow: false, refusal: 'denied' });
    expect(decide(rule, staff('admin'), { intent: '__proto__' })).toEqual({ allow: false, refusal: 'denied' });
    // Before the body is read: any intent's capability lets the member as far as the action.
    expect(decide(rule, staff('comptabilite')).allow).toBe(true);
  });

  it('lets the workshop upload files', () => {
    expect(decide(UPLOADS_ACCESS.write, staff('atelier')).allow).toBe(true);
    expect(decide(UPLOADS_ACCESS.write, staff('comptabilite'))).toEqual({ allow: false, refusal: 'denied' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  destinationAfterSignIn,
  destinationWhenSignedIn,
  LOGIN_SUBTITLES,
  loginOrigin,
  originPath,
  registerDestinationWhenSignedIn,
  withRedirectTo,
} from './redirects';

describe('originPath', () => {
  it.each<[unknown, string | null]>([
    ['/profile', '/profile'],
    ['/checkout?orderId=42', '/checkout?orderId=42'],
    ['/admin', '/admin'],
    ['https://evil.example/profile', null],
    ['//evil.example', null],
    ['/login', null],
    ['/login?redirectTo=/profile', null],
    ['/register', null],
    ['/logout', null],
    ['/setup-super-admin', null],
    ['/loginette', '/loginette'],
    ['', null],
    [undefined, null],
    [42, null],
  ])('%j -> %j', (input, expected) => {
    expect(originPath(input)).toBe(expected);
  });
});

describe('loginOrigin and its subtitle', () => {
  it.each<[unknown, string]>([
    ['/checkout?orderId=1', 'checkout'],
    ['/checkout', 'checkout'],
    ['/admin', 'admin'],
    ['/admin/commandes', 'admin'],
    ['/administration', 'account'],
    ['/profile', 'account'],
    [null, 'account'],
    ['https://evil.example/admin', 'account'],
  ])('%j is %s', (redirectTo, origin) => {
    expect(loginOrigin(redirectTo)).toBe(origin);
  });

  it('says what the sign-in pages say for each origin', () => {
    expect(LOGIN_SUBTITLES.checkout).toMatch(/finaliser votre commande/);
    expect(LOGIN_SUBTITLES.admin).toMatch(/administration/);
    expect(LOGIN_SUBTITLES.account).toMatch(/votre compte/);
  });
});

describe('destinations', () => {
  it.each<['customer' | 'admin', unknown, string]>([
    ['admin', null, '/admin'],
    ['customer', null, '/profile'],
    ['customer', '/checkout?orderId=7', '/checkout?orderId=7'],
    ['admin', '/checkout?orderId=7', '/checkout?orderId=7'],
    ['customer', '/profile?tab=factures', '/profile?tab=factures'],
    ['admin', '/admin', '/admin'],
    ['customer', 'https://evil.example', '/profile'],
    ['admin', '/login', '/admin'],
  ])('after signing in, %s from %j goes to %s', (role, redirectTo, expected) => {
    expect(destinationAfterSignIn(role, redirectTo)).toBe(expected);
  });

  it.each<['customer' | 'admin', unknown, string]>([
    ['admin', null, '/admin'],
    ['admin', '/checkout?orderId=1', '/admin'],
    ['customer', '/checkout?orderId=1', '/checkout?orderId=1'],
    ['customer', '/profile', '/'],
    ['customer', null, '/'],
  ])('on /login while signed in, %s from %j goes to %s', (role, redirectTo, expected) => {
    expect(destinationWhenSignedIn(role, redirectTo)).toBe(expected);
  });

  it.each<[unknown, string]>([
    ['/checkout?orderId=1', '/checkout?orderId=1'],
    ['/profile', '/'],
    [null, '/'],
  ])('on /register while signed in, from %j goes to %s', (redirectTo, expected) => {
    expect(registerDestinationWhenSignedIn(redirectTo)).toBe(expected);
  });
});

describe('withRedirectTo', () => {
  it('keeps a local origin and drops a foreign one', () => {
    expect(withRedirectTo('/register', '/checkout?orderId=1')).toBe('/register?redirectTo=%2Fcheckout%3ForderId%3D1');
    expect(withRedirectTo('/login', 'https://evil.example', { mode: 'forgot-password' })).toBe(
      '/login?mode=forgot-password',
    );
    expect(withRedirectTo('/login', null)).toBe('/login');
  });
});

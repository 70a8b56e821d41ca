import { describe, expect, it } from 'vitest';
import { consumeFlash, FLASH_COOKIE, flashCookie, readCookie, recoveryCookie } from './cookies.server';

process.env.BASE_URL = 'http://localhost:3000';

function requestWith(setCookie: string): Request {
  return new Request('http://localhost:3000/login', { headers: { cookie: setCookie.split(';')[0] ?? '' } });
}

describe('flash toasts', () => {
  it('is shown once, by the page it was meant for', () => {
    const cookie = flashCookie('signed-out', '/login');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=60/);

    const elsewhere = consumeFlash(requestWith(cookie), '/profile');
    expect(elsewhere).toEqual({ flash: null, setCookie: null });

    const here = consumeFlash(requestWith(cookie), '/login');
    expect(here.flash).toEqual({ key: 'signed-out', id: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(here.setCookie).toMatch(new RegExp(`^${FLASH_COOKIE}=; .*Max-Age=0`));
  });

  it('ignores and clears anything but a known key (no free text from a cookie)', () => {
    const forged = `${FLASH_COOKIE}=${encodeURIComponent(JSON.stringify({ key: 'Appelez le 08 99', path: '/login', id: 'x' }))}`;
    const result = consumeFlash(requestWith(forged), '/login');
    expect(result.flash).toBeNull();
    expect(result.setCookie).toMatch(/Max-Age=0/);
    expect(consumeFlash(requestWith(`${FLASH_COOKIE}=%E0%A4%A`), '/login').flash).toBeNull();
  });
});

describe('recovery cookie', () => {
  it('keeps the reset token out of the address, for half an hour at most', () => {
    const cookie = recoveryCookie('abc_DEF-123', 10_000);
    expect(cookie).toMatch(/^sv_recovery=abc_DEF-123; Path=\/; Max-Age=10000; HttpOnly; SameSite=Lax$/);
    expect(readCookie(requestWith(cookie), 'sv_recovery')).toBe('abc_DEF-123');
    expect(readCookie(requestWith(cookie), 'other')).toBeNull();
  });
});

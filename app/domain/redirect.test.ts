import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each([
    ['/', '/'],
    ['/profile', '/profile'],
    ['/checkout?orderId=42', '/checkout?orderId=42'],
    ['/admin#commandes', '/admin#commandes'],
    ['/services/photos?x=1&y=2', '/services/photos?x=1&y=2'],
    ['/a//b', '/a//b'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/javascript:alert(1)', '/javascript:alert(1)'],
  ])('keeps the local path %j', (to, expected) => {
    expect(safeRedirect(to, '/fallback')).toBe(expected);
  });

  it.each<[unknown, string]>([
    ['https://evil.example', 'absolute URL'],
    ['http://evil.example/profile', 'absolute http URL'],
    ['//evil.example', 'protocol-relative URL'],
    ['///evil.example', 'triple slash'],
    ['/\\evil.example', 'slash backslash'],
    ['\\\\evil.example', 'double backslash'],
    ['/\t/evil.example', 'tab between slashes'],
    ['/\n/evil.example', 'new line between slashes'],
    ['/profile\r\nSet-Cookie: x=1', 'header injection'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['data:text/html,<script>', 'data scheme'],
    ['profile', 'relative path without slash'],
    [' /profile', 'leading space'],
    ['', 'empty string'],
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'a number'],
    [['/profile'], 'an array'],
  ])('refuses %j (%s)', (to) => {
    expect(safeRedirect(to, '/fallback')).toBe('/fallback');
  });

  it('falls back to / by default', () => {
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
});

import { describe, expect, it } from 'vitest';
import { trackingUrl } from './tracking';

describe('trackingUrl', () => {
  it('links La Poste’s tracking page with the parcel number', () => {
    expect(trackingUrl(' 6A12345678901 ')).toBe('https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901');
  });

  it('encodes what a staff member typed', () => {
    expect(trackingUrl('AB 12/3')).toBe('https://www.laposte.fr/outils/suivre-vos-envois?code=AB%2012%2F3');
  });
});

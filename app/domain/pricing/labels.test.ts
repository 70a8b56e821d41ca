import { describe, expect, it } from 'vitest';
import { physicalDeliverySentence } from './labels';

describe('physicalDeliverySentence', () => {
  it('agrees with the medium: « Clé USB livrée », « DVD livré »', () => {
    expect(physicalDeliverySentence('usb')).toBe('Clé USB livrée sous 3 à 5 jours ouvrés après la numérisation.');
    expect(physicalDeliverySentence('disc')).toBe('DVD livré sous 3 à 5 jours ouvrés après la numérisation.');
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TERMS_VERSION, termsVersionLabel, termsVersionNotice } from './terms';

describe('TERMS_VERSION', () => {
  it('is the date of the /cgv text (content/pages/cgv.md, front matter `modified`): change both together', () => {
    const page = readFileSync(path.resolve('content/pages/cgv.md'), 'utf8');
    expect(page).toMatch(new RegExp(`^modified: ${TERMS_VERSION}$`, 'm'));
  });

  it('reads as a French date in the back office', () => {
    expect(termsVersionLabel('2026-11-21')).toBe('CGV du 21/11/2026');
    expect(termsVersionLabel('v2')).toBe('CGV v2');
  });

  it('reads as « Version du 21/11/2026 » where the terms are offered', () => {
    expect(termsVersionNotice('2026-11-21')).toBe('Version du 21/11/2026');
    expect(termsVersionNotice('2026-11-21T00:00:00.000Z')).toBe('Version du 21/11/2026');
    expect(termsVersionNotice()).toBe(termsVersionNotice(TERMS_VERSION));
  });
});

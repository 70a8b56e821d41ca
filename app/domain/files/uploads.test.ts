import { describe, expect, it } from 'vitest';
import {
  decodeUploadOutcome,
  describeUploadOutcome,
  describeUploadProgress,
  diskFullMessage,
  encodeUploadOutcome,
  type UploadOutcome,
  uploadPercent,
  uploadRefusalMessage,
} from './uploads';

const N = '\u00A0';
const SHA = 'a'.repeat(64);

describe('the outcome of an upload', () => {
  it.each<[UploadOutcome, string]>([
    [{ status: 'stored', name: 'Noël 1986.jpg', sha256: SHA, fileId: 'f1' }, 'Déposé'],
    [{ status: 'already_there', name: 'Noël 1986.jpg', sha256: SHA, fileId: 'f1' }, 'Déjà présent'],
    [
      { status: 'renamed', name: 'Noël 1986 (2).jpg', requestedName: 'Noël 1986.jpg', sha256: SHA, fileId: 'f2' },
      `Renommé en «${N}Noël 1986 (2).jpg${N}»`,
    ],
  ])('travels in an ASCII header and reads %j as « %s »', (outcome, words) => {
    const header = encodeUploadOutcome(outcome);
    expect(header).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeUploadOutcome(header)).toEqual(outcome);
    expect(describeUploadOutcome(decodeUploadOutcome(header))).toBe(words);
  });

  it.each([null, undefined, '', 'pas du json', encodeURIComponent('{"status":"perdu"}'), '%E0%A4%A'])(
    'ignores a header that is not ours (%j)',
    (header) => {
      expect(decodeUploadOutcome(header)).toBeNull();
    },
  );

  it('says « Déposé » when the answer carried no outcome (a cut during the last answer)', () => {
    expect(describeUploadOutcome(null)).toBe('Déposé');
  });
});

describe('progress', () => {
  it.each([
    [0, 0, 0],
    [0, 100, 0],
    [50, 100, 50],
    [999, 1000, 99],
    [1000, 1000, 100],
    [1200, 1000, 100],
  ])('%i of %i bytes is %i %%', (sent, total, percent) => {
    expect(uploadPercent(sent, total)).toBe(percent);
  });

  it('reads « 1,2 Go sur 3,4 Go »', () => {
    expect(describeUploadProgress(1_200_000_000, 3_400_000_000)).toBe(`1,2${N}Go sur 3,4${N}Go`);
  });
});

describe('refusals', () => {
  it.each([
    [401, 'Non authentifié'],
    [403, 'Accès non autorisé'],
    [404, 'Téléversement introuvable'],
    [410, 'Téléversement introuvable'],
    [409, 'reprise du téléversement'],
    [413, 'Fichier trop volumineux'],
    [400, 'Requête de téléversement invalide'],
    [500, 'veuillez réessayer'],
  ])('%i is explained in French', (status, words) => {
    expect(uploadRefusalMessage(status)).toContain(words);
  });
});

describe('the refusal of an upload that does not fit the disk', () => {
  it('says both sizes in French', () => {
    expect(diskFullMessage(300_000_000, 12_500_000)).toBe(
      `Espace disque insuffisant sur le serveur${N}: ce fichier fait 300${N}Mo et il reste 13${N}Mo de place pour les dépôts. Libérez de la place ou prévenez l’administrateur du site.`,
    );
    expect(diskFullMessage(300_000_000, 0)).toContain('il ne reste plus de place pour les dépôts');
  });
});

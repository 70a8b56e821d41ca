import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeMoneticoMac,
  encodeOrderContext,
  formatMoneticoAmount,
  formatMoneticoDate,
  isMoneticoKey,
  MONETICO_RECEIPT_ERROR,
  MONETICO_RECEIPT_OK,
  moneticoMacInput,
  moneticoOutcome,
  moneticoUsableKey,
  parseMoneticoAmount,
  verifyMoneticoMac,
} from './monetico';

const KEY = '0123456789ABCDEF0123456789ABCDEF01234567';

/** An independent reference: HMAC-SHA1 with the key's 20 bytes, over a string written by hand. */
function expectedMac(text: string, keyHex = KEY): string {
  return createHmac('sha1', Buffer.from(keyHex, 'hex')).update(text, 'utf8').digest('hex');
}

describe('Monetico 3.0 seal (MAC)', () => {
  const form = {
    version: '3.0',
    TPE: '1234567',
    date: '21/11/2026:14:30:05',
    montant: '94.90EUR',
    reference: 'K7P2M9QX4T8B',
    'texte-libre': '6f1c2d3e-0000-4000-8000-000000000001',
    lgue: 'FR',
    societe: 'soovenirs',
    mail: 'marie.curie@exemple.fr',
    url_retour_ok: 'https://www.soovenirs.fr/checkout?orderId=6f1c2d3e-0000-4000-8000-000000000001',
    url_retour_err: 'https://www.soovenirs.fr/checkout?orderId=6f1c2d3e-0000-4000-8000-000000000001&canceled=true',
    contexte_commande: 'eyJiaWxsaW5nIjp7ImNvdW50cnkiOiJGUiJ9fQ==',
  };
  // The fields sorted by name in byte order (upper case first), name=value joined by '*'.
  const handWritten =
    'TPE=1234567' +
    '*contexte_commande=eyJiaWxsaW5nIjp7ImNvdW50cnkiOiJGUiJ9fQ==' +
    '*date=21/11/2026:14:30:05' +
    '*lgue=FR' +
    '*mail=marie.curie@exemple.fr' +
    '*montant=94.90EUR' +
    '*reference=K7P2M9QX4T8B' +
    '*societe=soovenirs' +
    '*texte-libre=6f1c2d3e-0000-4000-8000-000000000001' +
    '*url_retour_err=https://www.soovenirs.fr/checkout?orderId=6f1c2d3e-0000-4000-8000-000000000001&canceled=true' +
    '*url_retour_ok=https://www.soovenirs.fr/checkout?orderId=6f1c2d3e-0000-4000-8000-000000000001' +
    '*version=3.0';

  it('seals the payment form: fields sorted, joined, HMAC-SHA1 with the hex key', () => {
    expect(moneticoMacInput(form)).toBe(handWritten);
    const mac = computeMoneticoMac(form, KEY);
    expect(mac).toBe(expectedMac(handWritten));
    expect(mac).toMatch(/^[0-9a-f]{40}$/);
  });

  it('leaves the MAC field itself out of the sealed text', () => {
    expect(computeMoneticoMac({ ...form, MAC: 'whatever' }, KEY)).toBe(expectedMac(handWritten));
  });

  const cgi2 = {
    TPE: '1234567',
    date: '21/11/2026_a_14:32:10',
    montant: '94.90EUR',
    reference: 'K7P2M9QX4T8B',
    'texte-libre': '6f1c2d3e-0000-4000-8000-000000000001',
    'code-retour': 'payetest',
    cvx: 'oui',
    vld: '1228',
    brand: 'VI',
    status3ds: '-1',
    numauto: '000000',
    originecb: 'FRA',
    bincb: '424242',
    hpancb: 'F6FBF44A7EC30941DA2E7AC4D8D5D5F3C4A3B6E8',
    ipclient: '192.0.2.10',
    originetr: 'FRA',
    modepaiement: 'CB',
    authentification: 'eyJzdGF0dXMiOiJhdXRoZW50aWNhdGVkIn0=',
    usage: 'credit',
    typecompte: 'particulier',
    ecard: 'non',
  };
  const cgi2Text =
    'TPE=1234567*authentification=eyJzdGF0dXMiOiJhdXRoZW50aWNhdGVkIn0=*bincb=424242*brand=VI*code-retour=payetest' +
    '*cvx=oui*date=21/11/2026_a_14:32:10*ecard=non*hpancb=F6FBF44A7EC30941DA2E7AC4D8D5D5F3C4A3B6E8' +
    '*ipclient=192.0.2.10*modepaiement=CB*montant=94.90EUR*numauto=000000*originecb=FRA*originetr=FRA' +
    '*reference=K7P2M9QX4T8B*status3ds=-1*texte-libre=6f1c2d3e-0000-4000-8000-000000000001' +
    '*typecompte=particulier*usage=credit*vld=1228';

  it('verifies the seal of a server-to-server return (CGI2), in either case', () => {
    const mac = expectedMac(cgi2Text);
    expect(verifyMoneticoMac({ ...cgi2, MAC: mac }, KEY)).toBe(true);
    expect(verifyMoneticoMac({ ...cgi2, MAC: mac.toUpperCase() }, KEY)).toBe(true);
  });

  it('refuses a return whose fields or seal were altered', () => {
    const mac = expectedMac(cgi2Text);
    expect(verifyMoneticoMac({ ...cgi2, montant: '0.01EUR', MAC: mac }, KEY)).toBe(false);
    expect(verifyMoneticoMac({ ...cgi2, 'code-retour': 'paiement', MAC: mac }, KEY)).toBe(false);
    expect(verifyMoneticoMac({ ...cgi2, MAC: expectedMac(cgi2Text, 'F'.repeat(40)) }, KEY)).toBe(false);
    expect(verifyMoneticoMac({ ...cgi2, MAC: 'not-hex' }, KEY)).toBe(false);
    expect(verifyMoneticoMac(cgi2, KEY)).toBe(false);
  });

  it('reads the legacy ending of older keys as Monetico’s kit does', () => {
    const head = '0123456789ABCDEF0123456789ABCDEF012345';
    expect(moneticoUsableKey(`${head}67`).toString('hex')).toBe(`${head}67`.toLowerCase());
    // A trailing "M" stands for 0; a letter from G stands for a digit (chr(code - 23)).
    expect(moneticoUsableKey(`${head}FM`).toString('hex')).toBe(`${head}F0`.toLowerCase());
    expect(moneticoUsableKey(`${head}G1`).toString('hex')).toBe(`${head}01`.toLowerCase());
    expect(isMoneticoKey(KEY)).toBe(true);
    expect(isMoneticoKey(`${head}FM`)).toBe(true);
    expect(isMoneticoKey('1234')).toBe(false);
    expect(isMoneticoKey(`${head.replace('A', 'Z')}67`)).toBe(false);
  });
});

describe('CGI2 receipts', () => {
  it('are exactly "version=2\\ncdr=0\\n" and "version=2\\ncdr=1\\n"', () => {
    expect(Buffer.from(MONETICO_RECEIPT_OK)).toEqual(
      Buffer.from([0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x3d, 0x32, 0x0a, 0x63, 0x64, 0x72, 0x3d, 0x30, 0x0a]),
    );
    expect(MONETICO_RECEIPT_ERROR).toBe('version=2\ncdr=1\n');
  });
});

describe('Monetico fields', () => {
  it.each([
    [9490, '94.90EUR'],
    [5, '0.05EUR'],
    [100, '1.00EUR'],
    [123456789, '1234567.89EUR'],
  ])('montant of %i cents is %s', (cents, expected) => {
    expect(formatMoneticoAmount(cents)).toBe(expected);
    expect(parseMoneticoAmount(expected)).toEqual({ cents, currency: 'EUR' });
  });

  it('reads the amounts Monetico writes in other ways', () => {
    expect(parseMoneticoAmount('94.9EUR')).toEqual({ cents: 9490, currency: 'EUR' });
    expect(parseMoneticoAmount('94EUR')).toEqual({ cents: 9400, currency: 'EUR' });
    expect(parseMoneticoAmount('94.90')).toBeNull();
    expect(parseMoneticoAmount('abc')).toBeNull();
  });

  it('dates the form in French time, winter and summer', () => {
    expect(formatMoneticoDate(new Date('2026-11-21T13:30:05Z'))).toBe('21/11/2026:14:30:05');
    expect(formatMoneticoDate(new Date('2026-07-14T08:05:00Z'))).toBe('14/07/2026:10:05:00');
    expect(formatMoneticoDate(new Date('2026-12-31T23:00:00Z'))).toBe('01/01/2027:00:00:00');
  });

  it.each([
    ['paiement', false, 'paid'],
    ['paiement', true, 'paid'],
    ['payetest', true, 'paid'],
    ['payetest', false, 'ignored'],
    ['Annulation', true, 'failed'],
    ['annulation', false, 'failed'],
    ['paiement_pf2', true, 'ignored'],
    ['', true, 'ignored'],
  ])('code-retour %s (test mode %s) -> %s', (code, testMode, expected) => {
    expect(moneticoOutcome(code, testMode)).toBe(expected);
  });

  it('encodes the order context as base64 JSON without empty fields', () => {
    const encoded = encodeOrderContext({
      addressLine1: '12 rue des Archives',
      city: 'Paris',
      postalCode: '',
      country: 'FR',
    });
    expect(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))).toEqual({
      billing: { addressLine1: '12 rue des Archives', city: 'Paris', country: 'FR' },
    });
  });
});

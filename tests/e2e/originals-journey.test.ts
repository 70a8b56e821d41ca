import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMessage } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, randomIp, type TestUser, uniqueEmail } from '../support/auth';
import { downloadedBytes, launchBrowser, openPage } from '../support/browser';
import { type FakeColissimo, saveColishipCredentials, startFakeColissimo } from '../support/fake-colissimo';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * The originals' whole journey in Chromium, with the local Colissimo peer and a real SMTP peer: a
 * guest orders 100 photos and 2 VHS tapes with the prepaid label and the return of the originals,
 * enters an address, pays and downloads the label (a real PDF from the peer); the staff receive the
 * parcel with 20 more photos than declared; the customer approves and pays the supplement; the
 * workshop moves the order through its stages and ships it with a Colissimo return label; the
 * customer receives each e-mail and sees the tracking link. The same journey with 10 photos fewer
 * ends in a partial refund and its credit note.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;
// 100 photos (35,00 €) + 2 VHS (34,00 €) + prepaid label (9,90 €) + return of the originals (12,90 €).
const ORDER =
  '/configurateur?support=photos&photos.quantity=100&support=vhs&vhs.quantity=2&send=label&returnOriginals=on';
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

let env: ServerWithSmtp;
let browser: Browser;
let fake: FakeColissimo;
let admin: TestUser;

beforeAll(async () => {
  fake = await startFakeColissimo();
  [env, browser] = await Promise.all([
    startServerWithSmtp({ PAYMENT_SANDBOX: 'on', COLISSIMO_API_URL: fake.url }),
    launchBrowser(),
  ]);
  admin = await createUser({
    url: env.server.url,
    databaseUrl: env.server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  await saveColishipCredentials(env.server.url, admin.cookie, fake);
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
  await fake?.close();
});

/** The message whose subject contains `about`, once the outbox worker has sent it. */
async function mail(to: string, about: string): Promise<ReceivedMessage> {
  const find = () => env.smtp.messages.find((m) => m.envelopeTo.includes(to) && m.subject.includes(about));
  await expect.poll(() => find() !== undefined, { timeout: 20_000 }).toBe(true);
  return find() as ReceivedMessage;
}

async function payByCard(page: Page, amount?: string) {
  await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
  await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: amount ? `Payer ${amount}` : /^Payer/ }).click();
}

/** The guest's part until the label is downloaded; returns the order's id, number and page. */
async function orderWithLabel(email: string): Promise<{ id: string; number: string; page: Page }> {
  const page = await openPage(browser, undefined, {
    ...DESKTOP,
    acceptDownloads: true,
    extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
  });
  await page.goto(`${env.server.url}${ORDER}`);
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get('orderId') as string;

  const guest = page.getByRole('region', { name: 'Vos coordonnées' });
  await guest.getByLabel('Adresse e-mail').fill(email);
  const delivery = page.getByRole('group', { name: 'Livraison' });
  await delivery.getByLabel('Prénom').fill('Marie');
  await delivery.getByLabel(/^Nom/).fill('Curie');
  await delivery.getByLabel('Numéro et rue').fill('11 rue Pierre et Marie Curie');
  await delivery.getByLabel('Code postal').fill('75005');
  await delivery.getByLabel('Ville').fill('Paris');
  await delivery.getByLabel('Téléphone').fill('06 12 34 56 78');
  await page.getByRole('checkbox', { name: CONSENT }).check();
  await page.getByRole('button', { name: /^Payer/ }).click();
  await page.waitForURL(/\/paiement\/sandbox\//);
  await payByCard(page);
  await page.waitForURL(`${env.server.url}/confirmation?orderId=${id}&paiement=retour`);
  await expect.poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 }).toBe(true);
  const number = (await mail(email, 'Paiement reçu')).subject.match(/SV-\d{4}-\d{6}/)?.[0] as string;

  // The label was made at payment by the Colissimo peer, from the address typed at checkout.
  await page.reload();
  const label = page.getByRole('region', { name: 'Étiquette d’envoi prépayée' });
  const download = label.getByRole('link', { name: 'Télécharger mon étiquette' });
  await download.waitFor();
  const parcel = fake.parcelNumbers.at(-1) as string;
  const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
  expect(sent.letter.sender).toMatchObject({ address: { lastName: 'Curie', zipCode: '75005', city: 'Paris' } });
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const pdf = await downloadedBytes(file);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.toString('latin1')).toContain(`Colis ${parcel}`);
  // How to send the parcel, and the order slip to put in it.
  const sending = page.getByRole('region', { name: 'Envoyez-nous vos originaux' });
  expect(await sending.getByRole('link', { name: 'Imprimer le bordereau' }).getAttribute('href')).toBe(
    `/commande/${id}/bordereau.pdf`,
  );
  return { id, number, page };
}

/** The staff's order dialog in the back office. */
async function staffDialog(orderId: string, number: string) {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, env.server.url, admin.cookie);
  await page.goto(`${env.server.url}/admin?commande=${orderId}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  const dialog = page.getByRole('dialog', { name: `Commande ${number}` });
  await dialog.waitFor();
  return { page, dialog };
}

async function receive(orderId: string, number: string, photos: number) {
  const staff = await staffDialog(orderId, number);
  const panel = staff.dialog.getByRole('region', { name: 'Réception des originaux' });
  await panel.getByRole('spinbutton', { name: /Photos papier/ }).fill(String(photos));
  await panel.getByRole('button', { name: 'Colis reçu' }).click();
  // Fewer than ordered: the refund is shown first, and made only once the administrator confirms it.
  if (photos < 100) await panel.getByRole('button', { name: /^Confirmer et rembourser/ }).click();
  await panel.getByText(/Reçu le \d{2}\/\d{2}\/\d{4} par Ada Admin/).waitFor({ timeout: 20_000 });
  return staff;
}

describe('the originals’ journey', () => {
  it('label, reception with 20 photos more, supplement paid, workshop stages, return label, every e-mail', async () => {
    const email = uniqueEmail('voyage');
    const customer = await orderWithLabel(email);
    const confirmation = await mail(email, 'Confirmation');
    expect(plain(confirmation.text)).toContain('bordereau');

    const staff = await receive(customer.id, customer.number, 120);
    const received = await mail(email, 'Nous avons bien reçu vos souvenirs');
    expect(plain(received.text)).toMatch(/Photos papier\s+100\s+120/);

    // The supplement: 20 photos at 0,35 €, approved and paid by the customer from the e-mail's link.
    const request = await mail(email, 'Supplément à valider');
    expect(plain(request.text)).toContain('7,00 €');
    const link = /href="([^"]*\/supplement\/[^"]+)"/.exec(request.html)?.[1]?.replace(/&amp;/g, '&') as string;
    await customer.page.goto(link);
    await customer.page.getByRole('button', { name: 'Payer le supplément' }).click();
    await payByCard(customer.page, '7,00\u00A0€');
    await customer.page.getByText('Supplément payé').waitFor({ timeout: 20_000 });
    await mail(email, 'Supplément payé');

    // The workshop: Numérisation, Contrôle qualité, Prêt, from the order dialog.
    await staff.page.reload();
    const workshop = staff.dialog.getByRole('region', { name: 'Atelier' });
    for (const stage of ['Numérisation', 'Contrôle qualité', 'Prêt']) {
      await workshop.getByRole('button', { name: `Passer à l’étape « ${stage} »` }).click();
      await workshop.getByText(stage, { exact: true }).waitFor({ timeout: 20_000 });
    }

    // Shipping with a Colissimo return label to the frozen address.
    const shipping = staff.dialog.getByRole('region', { name: 'Expédition' });
    await shipping.getByRole('button', { name: 'Expédier' }).click();
    const ship = staff.page.getByRole('dialog', { name: `Expédier la commande ${customer.number}` });
    await ship.getByRole('button', { name: 'Expédier' }).click();
    await shipping.getByRole('listitem').filter({ hasText: 'Retour' }).waitFor({ timeout: 20_000 });
    const returnParcel = fake.parcelNumbers.at(-1) as string;
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.addressee).toMatchObject({ address: { lastName: 'Curie', zipCode: '75005' } });

    const tracking = `https://www.laposte.fr/outils/suivre-vos-envois?code=${returnParcel}`;
    expect((await mail(email, 'est expédiée')).html).toContain(tracking);
    // « Prêt » e-mailed nothing: « Vos fichiers sont prêts » comes once, when the files are published.
    expect(env.smtp.messages.filter((m) => m.envelopeTo.includes(email) && m.subject.includes('prêts'))).toEqual([]);
    await customer.page.goto(`${env.server.url}/confirmation?orderId=${customer.id}`);
    const journey = customer.page.getByRole('region', { name: 'Le voyage de vos souvenirs' });
    expect(await journey.locator('[aria-current="step"]').innerText()).toContain('Expédié');
    expect(await journey.getByRole('link', { name: /suivre le colis/i }).getAttribute('href')).toBe(tracking);
    await staff.page.context().close();
    await customer.page.context().close();
  });

  it('with 10 photos fewer, ends in a partial refund and its credit note', async () => {
    const email = uniqueEmail('moins');
    const customer = await orderWithLabel(email);
    const staff = await receive(customer.id, customer.number, 90);
    await staff.dialog.getByText('Partiellement remboursée').first().waitFor({ timeout: 20_000 });
    const refunded = await mail(email, 'Remboursement');
    expect(plain(refunded.text)).toContain('3,50 €');
    const notes = await env.db.query('select amount from credit_notes where order_id = $1', [customer.id]);
    expect(notes.rows).toEqual([{ amount: 350 }]);
    await staff.page.context().close();
    await customer.page.context().close();
  });
});

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '~/domain/files/zip-manifest';
import { storeOrderFile } from '~/server/files/order-files.server';
import { publishOrderFiles } from '~/server/files/publish.server';
import { sendRetentionReminders } from '~/server/files/retention.server';
import { createS3Storage, type FileStorage } from '~/server/files/storage.server';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { type FakeS3, startFakeS3 } from '../support/fake-s3';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';
import { zipDigests } from '../support/unzip';

/*
 * Watching, not only downloading; memories owned, not rented (docs/decisions/027), in Chromium
 * against the production server with its files in an S3 bucket (s3rver): a guest's order holds a
 * photo whose EXIF gives a caption and a date, and an MPEG-2 Matroska file with chapters (a DVD's
 * titles ripped to MKV, which no browser plays); the server's previews worker makes its poster and
 * its H.264 rendition. The guest opens the « Vos fichiers sont prêts » link in a fresh browser: the
 * retention and what happens after are written, the photo shows its caption and date, the video
 * plays (the browser reports currentTime advancing) and jumps to a chapter. The reminder e-mail's
 * one-click ZIP, opened in another fresh browser, downloads an archive whose MANIFESTE.csv gives
 * the size and SHA-256 of every file it holds. The checkout states the retention before paying.
 */

const run = promisify(execFile);
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

let s3: FakeS3;
let env: ServerWithSmtp;
let browser: Browser;
let storage: FileStorage;
let order: TestOrder;
let work: string;
const delivered: Record<string, Buffer> = {};

/** The first message to the guest whose subject matches, waiting for it. */
async function received(subject: RegExp) {
  let found: (typeof env.smtp.messages)[number] | undefined;
  await expect
    .poll(() => {
      found = env.smtp.messages.find((message) => subject.test(message.subject));
      return found !== undefined;
    })
    .toBe(true);
  return found as (typeof env.smtp.messages)[number];
}

function linkOf(html: string, label: string): string {
  const match = new RegExp(`<a[^>]+href="([^"]+)"[^>]*>(?:(?!</a>).)*${label}`, 's').exec(html);
  if (!match?.[1]) throw new Error(`no link « ${label} » in the e-mail`);
  return match[1].replace(/&amp;/g, '&');
}

beforeAll(async () => {
  s3 = await startFakeS3();
  [env, browser] = await Promise.all([startServerWithSmtp(s3.env), launchBrowser()]);
  process.env.BASE_URL = env.server.url;
  storage = createS3Storage(s3.settings);
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-playback-e2e-'));

  const chapters = path.join(work, 'chapters.txt');
  await fs.writeFile(
    chapters,
    ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=4000\ntitle=La mairie\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=4000\nEND=8000\ntitle=Le bal\n',
  );
  // Eight seconds of MPEG-2 video and MP2 sound in Matroska, with chapters: a file browsers cannot play.
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-i', chapters, '-map', '0:v', '-map', '1:a', '-map_chapters', '2', '-t', '8'],
    ...['-c:v', 'mpeg2video', '-c:a', 'mp2', path.join(work, 'film.mkv')],
  ]);
  delivered['Mariage 1987.mkv'] = await fs.readFile(path.join(work, 'film.mkv'));
  delivered['Plage.jpg'] = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#c96' } })
    .withExif({
      IFD0: { ImageDescription: 'Mamie, plage de Carnac' },
      IFD2: { DateTimeOriginal: '1984:07:14 15:30:00' },
    })
    .jpeg()
    .toBuffer();

  order = await insertTestOrder(env.server.databaseUrl, {
    guestEmail: 'odile.famille@example.fr',
    guestFirstName: 'Odile',
    paymentStatus: 'paid',
    status: 'processing',
  });
  await env.db.query(`update orders set stage = 'digitising', paid_at = now() where id = $1`, [order.id]);
  for (const [name, support] of [
    ['Plage.jpg', 'photos'],
    ['Mariage 1987.mkv', 'vhs'],
  ] as const) {
    await storeOrderFile(
      { orderId: order.id, name, support, body: Readable.from([delivered[name] as Buffer]), uploadedBy: 'import' },
      { storage },
    );
  }
  // The server's own worker: the photo's previews and facts, the video's poster and rendition.
  const prepared = async () =>
    (
      await env.db.query<{ n: number }>(
        `select count(*)::int as n from order_files f join order_file_media m on m.file_id = f.id
         where f.order_id = $1 and ((f.kind = 'image' and m.caption is not null and f.preview_status = 'ready')
           or (f.kind = 'video' and m.playback = 'rendition' and f.preview_status = 'ready'))`,
        [order.id],
      )
    ).rows[0]?.n;
  const deadline = Date.now() + 90_000;
  while ((await prepared()) !== 2) {
    if (Date.now() > deadline) throw new Error('the server’s worker made no rendition in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const published = await publishOrderFiles(order.id, 'system');
  expect(published.ok).toBe(true);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
  await s3?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('watching the delivered files, and keeping them', () => {
  it('plays the video’s rendition with its chapters, shows the photo’s caption and date and the retention', async () => {
    const ready = await received(/Vos fichiers sont prêts/);
    const gallery = linkOf(ready.html, 'Voir et télécharger mes fichiers');
    const page = await openPage(browser, gallery, DESKTOP);
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    await page.locator('[data-hydrated="true"]').waitFor();
    const notice = plain(await page.getByTestId('retention-notice').innerText());
    expect(notice).toMatch(
      /^Conservés jusqu’au \d{2}\/\d{2}\/\d{4} ; ensuite, ils sont supprimés de nos serveurs : téléchargez-les d’ici là ou commandez une copie sur clé USB\.$/,
    );
    await expectNoSeriousA11yViolations(page);

    // The photo, with the caption and the date its EXIF gives.
    await page.getByRole('link', { name: /Plage\.jpg/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Plage.jpg' }).waitFor();
    expect(plain(await dialog.getByTestId('file-caption').innerText())).toBe(
      'Mamie, plage de Carnac · Photo du 14/07/1984',
    );
    await dialog.getByRole('img', { name: 'Mamie, plage de Carnac' }).waitFor();

    // The video: its rendition plays in the browser's own player, its poster the still frame.
    await dialog.getByRole('button', { name: 'Suivant' }).click();
    await dialog.getByRole('heading', { name: 'Mariage 1987.mkv' }).waitFor();
    const video = dialog.locator('video');
    await video.waitFor();
    expect(await video.getAttribute('poster')).toMatch(/\/apercu\.jpg$/);
    await expectNoSeriousA11yViolations(page);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await page.waitForFunction(
      () => ((document.querySelector('[role="dialog"] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.5,
      undefined,
      { timeout: 20_000 },
    );
    const played = await video.evaluate((element: HTMLVideoElement) => ({
      time: element.currentTime,
      duration: element.duration,
      error: element.error?.message ?? null,
    }));
    expect(played.error).toBeNull();
    expect(played.time).toBeGreaterThan(0.5);
    expect(Math.round(played.duration)).toBe(8);

    // Its chapters, as buttons that jump there, and as a WebVTT track.
    const chapters = dialog.getByRole('navigation', { name: 'Chapitres de la vidéo' });
    await chapters.getByRole('button', { name: '0:04 · Le bal' }).click();
    await page.waitForFunction(
      () => ((document.querySelector('[role="dialog"] video') as HTMLVideoElement | null)?.currentTime ?? 0) >= 4,
    );
    const cues = await video.evaluate(async (element: HTMLVideoElement) => {
      const track = element.textTracks[0];
      if (!track) return [];
      track.mode = 'hidden';
      for (let i = 0; i < 100 && !track.cues?.length; i++) await new Promise((r) => setTimeout(r, 50));
      return [...(track.cues ?? [])].map((cue) => [(cue as VTTCue).text, cue.startTime]);
    });
    expect(cues).toEqual([
      ['La mairie', 0],
      ['Le bal', 4],
    ]);
  });

  it('the reminder’s one-click ZIP carries a manifest that matches every file', async () => {
    // Seven days before the end: the reminder, with its « Tout télécharger (ZIP) » button.
    const [{ expires }] = (
      await env.db.query<{ expires: Date }>('select files_expire_at as expires from orders where id = $1', [order.id])
    ).rows as [{ expires: Date }];
    expect(await sendRetentionReminders(new Date(expires.getTime() - 6 * 24 * 3600 * 1000))).toBe(1);
    const reminder = await received(/Vos fichiers seront supprimés le/);
    const zipLink = linkOf(reminder.html, 'Tout télécharger \\(ZIP\\)');
    expect(zipLink).toMatch(new RegExp(`/commande/${order.id}/fichiers\\.zip\\?token=`));
    expect(plain(reminder.text)).toContain('MANIFESTE.csv');

    // Opened in a browser that never saw the shop: the archive downloads at once.
    const page = await openPage(browser, undefined, { ...DESKTOP, acceptDownloads: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.goto(zipLink).catch(() => undefined)]);
    const archive = path.join(work, 'tout.zip');
    await download.saveAs(archive);
    const digests = await zipDigests(archive);
    expect(Object.keys(digests)).toEqual([
      'Photos papier/Plage.jpg',
      'Cassettes VHS/Mariage 1987.mkv',
      'MANIFESTE.csv',
    ]);

    const unzipped = path.join(work, 'unzip');
    await run('python3', [
      '-c',
      'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      archive,
      unzipped,
    ]);
    const manifest = parseManifest(await fs.readFile(path.join(unzipped, 'MANIFESTE.csv'), 'utf8'));
    expect(manifest.map((line) => [line.name, line.item])).toEqual([
      ['Photos papier/Plage.jpg', 'Photos papier'],
      ['Cassettes VHS/Mariage 1987.mkv', 'Cassettes VHS'],
    ]);
    for (const line of manifest) {
      const bytes = delivered[line.name.split('/')[1] as string] as Buffer;
      // The master is what the archive holds (the rendition is only for watching).
      expect(line.sha256).toBe(sha256(bytes));
      expect(line.sha256).toBe(digests[line.name]);
      expect(line.size).toBe(bytes.length);
    }
    expect(manifest[0]?.date).toBe('1984-07-14');
  });

  it('the checkout says how long the files stay online and what happens after', async () => {
    const unpaid = await insertTestOrder(env.server.databaseUrl, { guestEmail: 'paul@example.fr' });
    const page = await openPage(browser, undefined, DESKTOP);
    await page.context().addCookies([
      {
        name: (unpaid.cookie as string).split('=')[0] as string,
        value: (unpaid.cookie as string).split('=').slice(1).join('='),
        url: env.server.url,
      },
    ]);
    await page.goto(`${env.server.url}/checkout?orderId=${unpaid.id}`);
    const promise = plain(await page.getByTestId('retention-promise').innerText());
    expect(promise).toBe(
      'Vos fichiers numériques restent disponibles en ligne pendant 60 jours après leur livraison, sans abonnement ; ensuite, ils sont supprimés de nos serveurs. Nous vous prévenons par e-mail une semaine avant : téléchargez-les ou commandez une copie sur clé USB.',
    );
    await expectNoSeriousA11yViolations(page);
  });
});

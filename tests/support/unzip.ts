import { createHash } from 'node:crypto';
import yauzl, { type Entry } from 'yauzl';

/*
 * What a customer's unzip tool finds in a ZIP, read by an independent reader (yauzl, which checks
 * the central directory, ZIP64 records and every entry's CRC-32 and size while reading): each
 * entry's name and the SHA-256 of its bytes. Streamed, so that archives of gigabytes can be checked.
 */
export async function zipDigests(file: string): Promise<Record<string, string>> {
  const zip = await yauzl.openPromise(file, {
    lazyEntries: true,
    autoClose: false,
    validateEntrySizes: true,
    strictFileNames: true,
  });
  const digests: Record<string, string> = {};
  try {
    const entries = new Promise<Entry[]>((resolve, reject) => {
      const all: Entry[] = [];
      zip.on('entry', (entry: Entry) => {
        all.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve(all));
      zip.on('error', reject);
    });
    zip.readEntry();
    for (const entry of await entries) {
      const hash = createHash('sha256');
      for await (const chunk of await zip.openReadStreamPromise(entry)) hash.update(chunk as Buffer);
      digests[entry.fileName] = hash.digest('hex');
    }
  } finally {
    zip.close();
  }
  return digests;
}

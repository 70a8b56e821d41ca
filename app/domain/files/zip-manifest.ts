/*
 * The manifest every ZIP of delivered files carries (decision 027):
 * `MANIFESTE.csv` at the archive's root, one line per file with its path in the archive, its size
 * in bytes, its SHA-256, the item it comes from (the support: « Cassettes VHS ») and its date, so
 * that a family can check years later that every file of the archive is whole (`sha256sum`,
 * `Get-FileHash` on Windows, `shasum -a 256` on a Mac).
 *
 * CSV as French spreadsheets open it: UTF-8 with a byte-order mark (else Excel reads the accents
 * as Latin-1), `;` between fields, CRLF line ends, fields quoted when they hold `;`, `"` or a line
 * break. Pure: the SHA-256 were computed when each file was stored, nothing is read here.
 */

export const MANIFEST_NAME = 'MANIFESTE.csv';

export interface ManifestFile {
  /** Path inside the archive (« Photos papier/IMG_0001.jpg »). */
  name: string;
  size: number;
  sha256: string;
  /** The item the file comes from: its support's label (« Photos papier »). */
  item: string;
  /** The photo's date when known, else when the file was delivered. */
  date: Date;
}

export const MANIFEST_HEADER = ['Fichier', 'Taille (octets)', 'SHA-256', 'Article', 'Date'] as const;

function csvField(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** `2026-11-21`: ISO in the manifest, which programs read back as easily as people. */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The manifest's text (with its byte-order mark). */
export function manifestCsv(files: readonly ManifestFile[]): string {
  const lines = [MANIFEST_HEADER.join(';')];
  for (const file of files) {
    lines.push([file.name, String(file.size), file.sha256, file.item, isoDay(file.date)].map(csvField).join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Reads a manifest back (tests, and a family's own check): path -> size and SHA-256. */
export function parseManifest(
  text: string,
): { name: string; size: number; sha256: string; item: string; date: string }[] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ';') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.slice(1).map(([name = '', size = '', sha256 = '', item = '', date = '']) => ({
    name,
    size: Number(size),
    sha256,
    item,
    date,
  }));
}

import { spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';

/*
 * Reads a PDF written by @react-pdf/renderer (pdfkit) back into text, for tests: its compressed
 * content streams are inflated and the strings of their TJ operators joined, one line per text run.
 * The standard fonts encode text in WinAnsi (CP1252): Latin-1 but for 0x80-0x9F (€ is 0x80).
 */

const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(bytes: Buffer): string {
  return [...bytes].map((b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join('');
}

export function isPdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-' && bytes.subarray(-8).toString('latin1').includes('%%EOF');
}

export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/\/Length (\d+)\s*\/Filter \/FlateDecode\s*>>\s*stream\r?\n/g)) {
    const start = (match.index as number) + match[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    } catch {
      continue;
    }
    for (const array of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      for (const hex of (array[1] as string).matchAll(/<([0-9a-fA-F]*)>/g)) {
        text += decodeWinAnsi(Buffer.from(hex[1] as string, 'hex'));
      }
      text += '\n';
    }
  }
  return text;
}

/**
 * The text of a PDF as poppler's pdftotext reads it (what a person copying from a viewer gets);
 * `layout` keeps the page's arrangement, blank lines included. A no-break space comes out as a
 * plain one (WinAnsi names both « space »): pdfText above tells them apart.
 */
export function popplerText(pdf: Buffer, { layout = false } = {}): string {
  const args = [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', '-', '-'];
  const result = spawnSync('pdftotext', args, { input: pdf, maxBuffer: 16 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr.toString()}`);
  return result.stdout.toString('utf8');
}

/** The first page of a PDF as a PNG, rasterised by poppler's pdftoppm at `dpi`. */
export function pdfPagePng(pdf: Buffer, dpi = 150): Buffer {
  const result = spawnSync('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', '-'], {
    input: pdf,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`pdftoppm failed: ${result.stderr.toString()}`);
  return result.stdout;
}

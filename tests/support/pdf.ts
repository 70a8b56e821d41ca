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
  if (raw.includes('/Identity-H')) return embeddedFontText(pdf);
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

/** UTF-16BE hex ("00A0", "D83DDE00") as a string. */
function utf16Hex(hex: string): string {
  const units: number[] = [];
  for (let i = 0; i + 4 <= hex.length; i += 4) units.push(Number.parseInt(hex.slice(i, i + 4), 16));
  return String.fromCharCode(...units);
}

/** A ToUnicode CMap (bfchar and bfrange, as pdfkit writes them): glyph code → text. */
function parseToUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const pair of (block[1] as string).matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(Number.parseInt(pair[1] as string, 16), utf16Hex(pair[2] as string));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const range of (block[1] as string).matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g,
    )) {
      const start = Number.parseInt(range[1] as string, 16);
      const end = Number.parseInt(range[2] as string, 16);
      const target = range[3] as string;
      if (target.startsWith('[')) {
        // A ligature maps to several characters: <0066 0069> is « fi ».
        [...target.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach((item, i) => {
          map.set(start + i, utf16Hex((item[1] as string).replace(/\s/g, '')));
        });
      } else {
        const first = Number.parseInt(target.slice(1, -1), 16);
        for (let code = start; code <= end; code++) map.set(code, String.fromCharCode(first + code - start));
      }
    }
  }
  return map;
}

/**
 * The text of a PDF whose fonts are embedded TrueType (invoices and credit notes, PDF/A): their
 * strings are glyph numbers, read back through each font's ToUnicode map; one line per text run,
 * like the standard fonts' reading above, no-break spaces kept.
 */
function embeddedFontText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const dictionaries = new Map<string, string>();
  const streams = new Map<string, string>();
  for (const match of raw.matchAll(/(\d+) 0 obj\s*(<<[\s\S]*?>>)\s*(stream\r?\n|endobj)/g)) {
    const id = match[1] as string;
    const dictionary = match[2] as string;
    dictionaries.set(id, dictionary);
    if (!(match[3] as string).startsWith('stream')) continue;
    const length = /\/Length (\d+)/.exec(dictionary)?.[1];
    if (!length) continue;
    const start = (match.index as number) + match[0].length;
    const bytes = pdf.subarray(start, start + Number(length));
    try {
      streams.set(id, (dictionary.includes('/FlateDecode') ? inflateSync(bytes) : bytes).toString('latin1'));
    } catch {}
  }
  const fontMaps = new Map<string, Map<number, string>>();
  for (const dictionary of dictionaries.values()) {
    for (const fonts of dictionary.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const entry of (fonts[1] as string).matchAll(/\/([^\s/]+)\s+(\d+) 0 R/g)) {
        const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(dictionaries.get(entry[2] as string) ?? '')?.[1];
        const cmap = toUnicode ? streams.get(toUnicode) : undefined;
        if (cmap) fontMaps.set(entry[1] as string, parseToUnicode(cmap));
      }
    }
  }
  let text = '';
  for (const content of streams.values()) {
    if (!content.includes('Tf')) continue;
    let font: Map<number, string> | undefined;
    for (const op of content.matchAll(/\/([^\s/]+)\s+[\d.]+\s+Tf|\[(.*?)\]\s*TJ/g)) {
      if (op[1]) {
        font = fontMaps.get(op[1]);
        continue;
      }
      for (const hex of (op[2] as string).matchAll(/<([0-9a-fA-F]*)>/g)) {
        const bytes = Buffer.from(hex[1] as string, 'hex');
        if (!font) {
          text += decodeWinAnsi(bytes);
          continue;
        }
        for (let i = 0; i + 1 < bytes.length; i += 2) text += font.get(bytes.readUInt16BE(i)) ?? '';
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

/*
 * Code 128, code set B (ISO/IEC 15417): the order number on the order slip and the job sheet, so
 * that the workshop's hand scanner reads it off the parcel's paper. Pure: it turns a text into the
 * widths of its bars and spaces (in modules, 1 to 4), which any renderer (PDF, SVG) draws.
 * Set B covers the printable ASCII characters (space to « ~ »), enough for order numbers.
 */

/** Widths of each symbol value 0–106: bar, space, bar, space, bar, space (the stop has a final bar). */
const PATTERNS = [
  '212222',
  '222122',
  '222221',
  '121223',
  '121322',
  '131222',
  '122213',
  '122312',
  '132212',
  '221213',
  '221312',
  '231212',
  '112232',
  '122132',
  '122231',
  '113222',
  '123122',
  '123221',
  '223211',
  '221132',
  '221231',
  '213212',
  '223112',
  '312131',
  '311222',
  '321122',
  '321221',
  '312212',
  '322112',
  '322211',
  '212123',
  '212321',
  '232121',
  '111323',
  '131123',
  '131321',
  '112313',
  '132113',
  '132311',
  '211313',
  '231113',
  '231311',
  '112133',
  '112331',
  '132131',
  '113123',
  '113321',
  '133121',
  '313121',
  '211331',
  '231131',
  '213113',
  '213311',
  '213131',
  '311123',
  '311321',
  '331121',
  '312113',
  '312311',
  '332111',
  '314111',
  '221411',
  '431111',
  '111224',
  '111422',
  '121124',
  '121421',
  '141122',
  '141221',
  '112214',
  '112412',
  '122114',
  '122411',
  '142112',
  '142211',
  '241211',
  '221114',
  '413111',
  '241112',
  '134111',
  '111242',
  '121142',
  '121241',
  '114212',
  '124112',
  '124211',
  '411212',
  '421112',
  '421211',
  '212141',
  '214121',
  '412121',
  '111143',
  '111341',
  '131141',
  '114113',
  '114311',
  '411113',
  '411311',
  '113141',
  '114131',
  '311141',
  '411131',
  '211412',
  '211214',
  '211232',
  '2331112',
] as const;

export const START_B = 104;
export const STOP = 106;
/** Quiet zone each side, in modules (the standard asks for at least 10). */
export const QUIET_ZONE_MODULES = 10;

export class Code128Error extends Error {}

/** Whether set B can encode the text (printable ASCII, at least one character). */
export function isCode128BText(text: string): boolean {
  return text.length > 0 && /^[\x20-\x7e]+$/.test(text);
}

/** The symbol values of the text: start B, one per character, the checksum, stop. */
export function code128BValues(text: string): number[] {
  if (!isCode128BText(text)) throw new Code128Error('Code 128 B encodes printable ASCII characters only');
  const data = [...text].map((char) => (char.codePointAt(0) as number) - 32);
  // Checksum: the start value plus each value weighted by its position, modulo 103.
  const checksum = data.reduce((sum, value, index) => sum + value * (index + 1), START_B) % 103;
  return [START_B, ...data, checksum, STOP];
}

/** Bar and space widths in modules, starting with a bar (quiet zones not included). */
export function code128BWidths(text: string): number[] {
  return code128BValues(text).flatMap((value) => [...(PATTERNS[value] as string)].map(Number));
}

export interface Bar {
  /** Offset from the symbol's left edge, in modules (after the quiet zone). */
  x: number;
  width: number;
}

/** The dark bars only, with their positions, and the total width with both quiet zones. */
export function code128BBars(text: string): { bars: Bar[]; totalModules: number } {
  const bars: Bar[] = [];
  let x = QUIET_ZONE_MODULES;
  code128BWidths(text).forEach((width, index) => {
    if (index % 2 === 0) bars.push({ x, width });
    x += width;
  });
  return { bars, totalModules: x + QUIET_ZONE_MODULES };
}

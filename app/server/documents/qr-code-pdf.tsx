import { Rect, Svg } from '@react-pdf/renderer';
import QRCode from 'qrcode';

/**
 * A QR code in a react-pdf document, drawn as vector boxes (no image): a white square that includes
 * the quiet zone of 4 modules a reader needs, and one black box per run of dark modules in a row.
 * Error correction M (15 %) survives a crease or a smudge on a printed page. `size` in points, quiet
 * zone included: 120 pt is about 4 cm, each module over 0.8 mm for a URL of some 60 characters.
 */
export function QrCodePdf({ text, size = 120 }: { text: string; size?: number }) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const side = modules.size + 2 * quiet;
  const runs: Array<{ x: number; y: number; width: number }> = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < modules.size && modules.get(row, end)) end++;
      runs.push({ x: quiet + col, y: quiet + row, width: end - col });
      col = end;
    }
  }
  return (
    <Svg width={size} height={size} viewBox={`0 0 ${side} ${side}`}>
      <Rect x={0} y={0} width={side} height={side} fill="#ffffff" />
      {runs.map((run) => (
        <Rect key={`${run.y}-${run.x}`} x={run.x} y={run.y} width={run.width} height={1} fill="#000000" />
      ))}
    </Svg>
  );
}

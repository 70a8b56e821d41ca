import jsQR from 'jsqr';
import sharp from 'sharp';
import { pdfPagePng } from './pdf';

/**
 * What a phone reads from the QR code on the first page of a printed PDF: the page rasterised at
 * `dpi` (pdftoppm), then decoded by jsQR; null when no QR code is found.
 */
export async function qrCodeOnFirstPage(pdf: Buffer, dpi = 150): Promise<string | null> {
  const { data, info } = await sharp(pdfPagePng(pdf, dpi)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return found?.data ?? null;
}

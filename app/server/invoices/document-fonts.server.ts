import { createRequire } from 'node:module';
import { Font } from '@react-pdf/renderer';

/*
 * The fonts of invoices and credit notes. A PDF/A file (Factur-X is PDF/A-3) must embed every font
 * it uses, so the documents cannot use the PDF's standard Helvetica, which viewers supply: they use
 * DejaVu Sans (npm's dejavu-fonts-ttf, free licence in its package), TrueType, which react-pdf
 * embeds as a subset of the glyphs used. DejaVu covers every Latin letter, so names outside
 * WinAnsi print as they are spelled.
 */

const require = createRequire(import.meta.url);

export const DOCUMENT_FONT = 'Document Sans';
export const DOCUMENT_FONT_BOLD = 'Document Sans Bold';

Font.register({ family: DOCUMENT_FONT, src: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf') });
Font.register({ family: DOCUMENT_FONT_BOLD, src: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') });

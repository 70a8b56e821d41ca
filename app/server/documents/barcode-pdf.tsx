import { View } from '@react-pdf/renderer';
import { code128BBars } from '~/domain/barcode/code128';

/**
 * A Code 128 B barcode in a react-pdf document: one black box per bar, placed on a white strip
 * that includes the quiet zones (a scanner needs them). `moduleWidth` in points; 1 pt ≈ 0.35 mm,
 * comfortably above the 0.25 mm minimum of common hand scanners.
 */
export function BarcodePdf({
  text,
  moduleWidth = 1,
  height = 46,
}: {
  text: string;
  moduleWidth?: number;
  height?: number;
}) {
  const { bars, totalModules } = code128BBars(text);
  return (
    <View style={{ position: 'relative', width: totalModules * moduleWidth, height, backgroundColor: '#ffffff' }}>
      {bars.map((bar) => (
        <View
          key={bar.x}
          style={{
            position: 'absolute',
            left: bar.x * moduleWidth,
            top: 0,
            width: bar.width * moduleWidth,
            height,
            backgroundColor: '#000000',
          }}
        />
      ))}
    </View>
  );
}

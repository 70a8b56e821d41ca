import { useEffect, useRef } from 'react';
import {
  animateFigures,
  COUNTER_DURATION_MS,
  COUNTER_VISIBILITY,
  FIGURES_ATTRIBUTE,
} from '~/components/site/page-enhancements';

export interface Figure {
  value: number;
  /** Written after the number: " %", " h"... */
  suffix?: string;
  label: string;
}

const numberFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

function formatFigure(figure: Figure): string {
  return `${numberFormat.format(figure.value)}${figure.suffix ?? ''}`;
}

/**
 * The hero's figures. The real values are in the server's HTML (and stay the only ones read by
 * screen readers); the count from zero is page-enhancements.ts's animateFigures, run by the page's
 * inline script when it loads no framework, by this effect when React renders it. Digits are
 * tabular, so the count never moves the layout.
 */
export function AnimatedFigures({ figures, className }: { figures: readonly Figure[]; className?: string }) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (ref.current) return animateFigures(ref.current, COUNTER_DURATION_MS, COUNTER_VISIBILITY);
  }, []);
  return (
    <ul ref={ref} className={className} {...{ [FIGURES_ATTRIBUTE]: 'false' }}>
      {figures.map((figure) => (
        <li key={figure.label} className="flex flex-col">
          <span className="font-heading font-semibold text-2xl text-primary tabular-nums sm:text-3xl">
            {/* The final value, invisible, holds the place; the digits counting over it are laid out
                and painted on their own (contain: strict), so that a step of the count redoes neither
                the hero's layout nor its paint. */}
            <span className="relative inline-block">
              <span className="invisible whitespace-nowrap">{formatFigure(figure)}</span>
              <span
                aria-hidden="true"
                data-value={figure.value}
                data-suffix={figure.suffix}
                className="absolute inset-0 whitespace-nowrap [contain:strict]"
              >
                {formatFigure(figure)}
              </span>
            </span>
            <span className="sr-only">{formatFigure(figure)}</span>
          </span>
          <span className="text-muted-foreground text-sm">{figure.label}</span>
        </li>
      ))}
    </ul>
  );
}

import { useEffect, useRef, useState } from 'react';

/** Specification, section 9: the counters run for 2000 ms once half of them is visible. */
export const COUNTER_DURATION_MS = 2000;
export const COUNTER_VISIBILITY = 0.5;

export interface Figure {
  value: number;
  /** Written after the number: " %", " h"... */
  suffix?: string;
  label: string;
}

const numberFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

function easeOutCubic(t: number): number {
  return 1 - (1 - t) ** 3;
}

export function formatFigure(figure: Figure, progress = 1): string {
  return `${numberFormat.format(Math.round(figure.value * easeOutCubic(progress)))}${figure.suffix ?? ''}`;
}

/**
 * The hero's figures. The real values are in the server's HTML (and stay the only ones read by
 * screen readers); once the list is half visible, the digits count up from zero in 2 s, unless the
 * visitor asked for reduced motion. Digits are tabular, so the count never moves the layout.
 */
export function AnimatedFigures({ figures, className }: { figures: readonly Figure[]; className?: string }) {
  const ref = useRef<HTMLUListElement>(null);
  // null: the final values, as rendered on the server.
  const [progress, setProgress] = useState<number | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    let frame = 0;
    let start = 0;
    const tick = (time: number) => {
      start ||= time;
      const p = Math.min(1, (time - start) / COUNTER_DURATION_MS);
      setProgress(p >= 1 ? null : p);
      if (p < 1) frame = window.requestAnimationFrame(tick);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setProgress(0);
        frame = window.requestAnimationFrame(tick);
      },
      { threshold: COUNTER_VISIBILITY },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      window.cancelAnimationFrame(frame);
    };
  }, []);

  return (
    <ul ref={ref} className={className} data-counting={progress === null ? 'false' : 'true'}>
      {figures.map((figure) => (
        <li key={figure.label} className="flex flex-col">
          <span className="font-heading font-semibold text-2xl text-primary tabular-nums sm:text-3xl">
            <span aria-hidden="true">{formatFigure(figure, progress ?? 1)}</span>
            <span className="sr-only">{formatFigure(figure)}</span>
          </span>
          <span className="text-muted-foreground text-sm">{figure.label}</span>
        </li>
      ))}
    </ul>
  );
}

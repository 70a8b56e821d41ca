import { useEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router';

type Phase = 'idle' | 'loading' | 'done';

/** Below this duration a navigation shows no bar at all, so that fast pages do not flicker. */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar at the top of the window while React Router loads the next page or submits a form.
 * A CSS animation creeps towards 90 %; when the navigation ends the bar fills and fades out.
 */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<Phase>('idle');
  const startedAt = useRef(0);

  useEffect(() => {
    if (busy) {
      startedAt.current = performance.now();
      setPhase('loading');
      return;
    }
    const wasVisible = performance.now() - startedAt.current > SHOW_AFTER_MS;
    setPhase((current) => (current === 'loading' && wasVisible ? 'done' : 'idle'));
    const timer = window.setTimeout(() => setPhase('idle'), 300);
    return () => window.clearTimeout(timer);
  }, [busy]);

  if (phase === 'idle') return null;
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-[3px]">
      {phase === 'loading' ? (
        <div className="h-full origin-left animate-progress bg-accent [animation-delay:150ms] [animation-fill-mode:both]" />
      ) : (
        <div className="h-full bg-accent opacity-0 transition-opacity duration-300 starting:opacity-100" />
      )}
    </div>
  );
}

import { useEffect, useState } from 'react';

/**
 * False during server rendering and the first browser render, true once React runs the page: the
 * pages set `data-hydrated` with it, which end-to-end tests wait for before using enhanced controls.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

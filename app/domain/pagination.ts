// Pure helpers of the one pagination bar (app/components/ui/pagination.tsx), any list, any area.

/**
 * The page numbers a pagination bar shows: the first, the last, and two either side of the
 * current one, with null for a gap (`1 … 4 5 6 7 8 … 20`).
 */
export function pageWindow(page: number, pages: number): Array<number | null> {
  const shown = new Set([1, pages]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const result: Array<number | null> = [];
  for (const [i, p] of sorted.entries()) {
    const previous = sorted[i - 1];
    // A gap of one page shows that page rather than an ellipsis taking the same room.
    if (previous !== undefined && p - previous === 2) result.push(previous + 1);
    else if (previous !== undefined && p - previous > 2) result.push(null);
    result.push(p);
  }
  return result;
}

import { DEFAULT_PAGES, lighthouseVersion, runLighthouse, table } from '../lighthouse';

/*
 * Lighthouse's mobile figures for the bench report, through scripts/lighthouse.ts (the same
 * measure as `npm run lighthouse`): performance, LCP, TBT, CLS and the JavaScript each page loads.
 */

export async function benchLighthouse(url: string, runs: number): Promise<string> {
  const results = await runLighthouse({
    url,
    runs,
    onPage: (r) =>
      console.log(
        `  ${r.path}: performance ${r.scores.performance}, LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, CLS ${r.cls.toFixed(3)}`,
      ),
  });
  return `Lighthouse ${lighthouseVersion()}, Debian's Chromium, default mobile emulation (simulated slow 4G,
4× CPU slowdown), ${runs === 1 ? 'one run per page' : `median of ${runs} runs per page (by performance score)`}, pages
${DEFAULT_PAGES.map((p) => `\`${p}\``).join(', ')} served by the bench's server (HTML cache on; Lighthouse's
first load of each page may be the one that fills it). "JS transféré" is the JavaScript transferred
(compressed: Brotli copies made at build time) for the page; tests/e2e/page-weight.test.ts holds
each public page under its ceiling. The performance score moves by several points with the machine's load;
docs/lighthouse.md explains what holds the first paint back.

${table(results)}`;
}

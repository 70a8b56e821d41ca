// Prints the plain closing line any CI reader understands: "Tests: N passed, N failed, N skipped".
import fs from 'node:fs';

const file = process.argv[2] ?? '.ci/results.json';
// The resilience files that run alone, after the rest (vitest.config.ts).
const TIMED = JSON.parse(fs.readFileSync(new URL('../tests/resilience/timed.json', import.meta.url), 'utf8'));
if (!fs.existsSync(file)) {
  console.log('Tests: 0 passed, 1 failed');
  process.exit(0);
}
const r = JSON.parse(fs.readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
// Per project: files, tests, the sum of its files' durations and its span (first start to last end).
const projects = new Map();
for (const file of r.testResults ?? []) {
  const name = projectOf(file.name);
  const p = projects.get(name) ?? { files: 0, tests: 0, busy: 0, start: Infinity, end: 0 };
  p.files += 1;
  p.tests += file.assertionResults.length;
  p.busy += file.endTime - file.startTime;
  p.start = Math.min(p.start, file.startTime);
  p.end = Math.max(p.end, file.endTime);
  projects.set(name, p);
}
for (const [name, p] of projects) {
  console.log(
    `${name.padEnd(11)} ${String(p.files).padStart(3)} files ${String(p.tests).padStart(5)} tests, ` +
      `files' time ${Math.round(p.busy / 1000)} s, span ${Math.round((p.end - p.start) / 1000)} s`,
  );
}
console.log(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);

function projectOf(path) {
  if (path.includes('/tests/e2e/')) return 'e2e';
  if (TIMED.some((file) => path.endsWith(`/${file}`))) return 'resilience-timed';
  if (path.includes('/tests/resilience/')) return 'resilience';
  if (path.includes('/app/domain/') || path.includes('/app/components/')) return 'unit';
  return 'integration';
}

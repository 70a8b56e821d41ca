// Writes tests/durations.json from a run's JSON report: each test file's seconds, for the order the
// workers take them in (tests/support/sequencer.ts). Run after a whole, quiet run:
//   node .ci/durations.mjs .ci/results.json
import fs from 'node:fs';
import path from 'node:path';

const report = JSON.parse(fs.readFileSync(process.argv[2] ?? '.ci/results.json', 'utf8'));
const root = path.resolve(import.meta.dirname, '..');
const durations = {};
for (const file of report.testResults ?? []) {
  const name = path.relative(root, file.name).split(path.sep).join('/');
  // Relative to the clone the report came from: keep the path from its test folder on.
  const at = name.search(/(^|\/)(tests|app|server|scripts)\//);
  const key = at < 0 ? name : name.slice(at === 0 ? 0 : at + 1);
  durations[key] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
fs.writeFileSync(path.join(root, 'tests/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);

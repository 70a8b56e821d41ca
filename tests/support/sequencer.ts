import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * The order the two workers take the test files in (docs/testing.md, « Scheduling »).
 *
 * Vitest's own order puts the longest files first only when it has a previous run's durations in
 * its cache, which a clean clone (CI) does not have; it then takes the largest files first, a poor
 * guess (a 40 kB file of HTTP checks takes 10 s, a 10 kB browser walk 3 minutes). The durations of
 * a whole run are committed in tests/durations.json (`node .ci/durations.mjs .ci/results.json`), and
 * each project's files run longest first: the last minutes are then short files on both workers,
 * not one long file on one while the other waits. Projects stay together (a worker that runs
 * several files of one project keeps its loaded modules, `isolate: false`), the group order first,
 * then the project whose longest file is longest. A file missing from the table (a new one) runs
 * first in its project: it may be long.
 */
const table: Record<string, number> = readDurations();

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) =>
      table[path.relative(root, file.moduleId).split(path.sep).join('/')] ?? Number.POSITIVE_INFINITY;
    // A project's rank: its longest known file (a new file, not in the table yet, does not move
    // its whole project to the front).
    const longest = new Map<string, number>();
    for (const file of files) {
      const known = Number.isFinite(seconds(file)) ? seconds(file) : 0;
      longest.set(file.project.name, Math.max(longest.get(file.project.name) ?? 0, known));
    }
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) {
        const first = (longest.get(b.project.name) ?? 0) - (longest.get(a.project.name) ?? 0);
        return first || (a.project.name < b.project.name ? -1 : 1);
      }
      return seconds(b) - seconds(a) || (a.moduleId < b.moduleId ? -1 : 1);
    });
  }
}

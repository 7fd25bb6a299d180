/**
 * @module cli/run-dir
 * Default run directories: `reports/<date-time>-<kind>/`, sortable and safe in every file system.
 * Two runs started in the same second (a script, a CI step running two) get `-2`, `-3`, ... rather
 * than the second one refusing a directory that already holds a run.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function defaultRunDir(kind: string, now: Date = new Date(), cwd?: string): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replaceAll(':', '-');
  const dir = join('reports', `${stamp}-${kind}`);
  if (cwd === undefined || !existsSync(resolve(cwd, dir))) return dir;
  for (let n = 2; n < 1000; n++) {
    if (!existsSync(resolve(cwd, `${dir}-${n}`))) return `${dir}-${n}`;
  }
  return dir;
}

/**
 * @module cli/run-dir
 * Default run directories: `reports/<date-time>-<kind>/`, sortable and safe in every file system.
 */
import { join } from 'node:path';

export function defaultRunDir(kind: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, '').replaceAll(':', '-');
  return join('reports', `${stamp}-${kind}`);
}

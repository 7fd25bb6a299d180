/**
 * @module bench/load/plain-module
 * A benchmark's own TypeScript module loaded as plain JavaScript, for a tool whose CPU is measured.
 * Under tsx every named closure is wrapped in a `__name(fn, "name")` call as it is made (esbuild's
 * keepNames): a defineProperty on each function, per request for a closure made per request, which
 * no user's process pays (the CLI runs tsc's output, dist/). esbuild bundles the module without it
 * into node_modules/.cache (where its package imports still resolve) and the bundle is imported.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Imports `entry` (a .ts file of this checkout) bundled without keepNames; packages stay imports. */
export async function importPlain<T>(root: string, entry: string): Promise<T> {
  const dir = join(root, 'node_modules', '.cache', 'chatbench-bench', String(process.pid));
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: false,
    logLevel: 'error',
  });
  try {
    return (await import(pathToFileURL(outfile).href)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

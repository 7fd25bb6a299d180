/**
 * @module app/store/fresh-run-dir
 * A run directory holds one run: a new run (eval, load) claims a directory without a results.jsonl
 * and creates it; an existing results.jsonl is never appended to or overwritten.
 */
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';

/** Creates `outDir`, refusing one that already holds a run; `alternative` ends the message (e.g. how to resume it). */
export async function ensureFreshRunDir(outDir: string, alternative?: string): Promise<void> {
  const exists = await access(join(outDir, 'results.jsonl')).then(
    () => true,
    () => false,
  );
  if (exists)
    throw new UsageError(
      `--out ${outDir} already holds a run (results.jsonl); choose another directory${alternative === undefined ? '' : `, or ${alternative}`}`,
    );
  await mkdir(outDir, { recursive: true });
}

/**
 * @module app/store/verdict-file
 * A run directory's verdict.json: the verdict layer's object (verdict/verdict), as it is, for the
 * viewer, for scripts and for the GitHub Action's report (ci/github/report-run), which prints it and
 * decides nothing. Written by eval (app/eval/render-reports), load (app/load/run-load) and compare
 * (app/eval/compare-runs).
 */
import { join } from 'node:path';
import type { Verdict } from '../../verdict/index.js';
import { writeFileAtomic } from './output-files.js';

export const VERDICT_FILE = 'verdict.json';

/** Writes `dir/verdict.json`; returns its path. */
export async function writeVerdictFile(dir: string, verdict: Verdict): Promise<string> {
  const path = join(dir, VERDICT_FILE);
  await writeFileAtomic(path, `${JSON.stringify(verdict, null, 2)}\n`);
  return path;
}

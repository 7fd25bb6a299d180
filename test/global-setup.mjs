// vitest's global setup: tests that spawn bin/chatbench.js run dist/, so dist/ is brought up to date
// with src/ first (nothing is compiled when its recorded digest matches the sources: a few ms).
// Then the run's temporary directory: every test's own (mkdtemp under os.tmpdir()) is made inside it,
// the forks and the CLIs they spawn inheriting TMPDIR, and it is removed when the run ends. Tests
// leave theirs behind on a failure, and many never removed them: a run left ~130 directories in
// /tmp, and a machine that ran the suite for weeks held over 12,000 (session 42).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../scripts/build-cli.mjs';

export default function setup() {
  buildCli();
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-test-run-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

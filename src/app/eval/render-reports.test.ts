import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../../metrics/test-records.js';
import { renderReports } from './render-reports.js';

const root = mkdtempSync(join(tmpdir(), 'chatbench-render-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A run directory of `n` records and a stand-in viewer bundle. */
function run(name: string, n: number): { dir: string; bundle: string } {
  const dir = join(root, name);
  const bundle = join(root, `${name}-bundle`);
  mkdirSync(dir);
  mkdirSync(bundle);
  writeFileSync(join(bundle, 'viewer.js'), 'void 0;');
  writeFileSync(join(bundle, 'viewer.css'), '');
  const records = Array.from({ length: n }, (_, i) =>
    makeRecord({ key: `q${i}|default|stream|0`, question_id: `q${i}` }),
  );
  writeFileSync(join(dir, 'results.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return { dir, bundle };
}

describe('renderReports and viewer.html', () => {
  it('embeds a run up to the record limit', async () => {
    const { dir, bundle } = run('small', 3);
    const { skipped } = await renderReports(dir, { version: 'test', viewerBundleDir: bundle, viewerMaxRecords: 3 });
    expect(skipped).toEqual([]);
    expect(existsSync(join(dir, 'viewer.html'))).toBe(true);
  });

  it('past it writes every other report, no viewer.html, and says why', async () => {
    const { dir, bundle } = run('large', 4);
    const { skipped, summary, files } = await renderReports(dir, {
      version: 'test',
      viewerBundleDir: bundle,
      viewerMaxRecords: 3,
    });
    expect(skipped).toEqual([
      'viewer.html: the run has more than 3 records, too many to embed in one file; open it with `chatbench view DIR`',
    ]);
    expect(existsSync(join(dir, 'viewer.html'))).toBe(false);
    expect(summary.run.requests).toBe(4);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'results.jsonl',
      'results.csv',
      'summary.json',
      'report.md',
      'junit.xml',
      'report.html',
    ]);
  });
});

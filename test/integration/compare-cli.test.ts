/**
 * chatbench compare and baseline save, in-process through main() over generated fixture runs.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { BASELINE_MISSES, DEGRADED_MISSES, makeRun, writeRun } from '../fixtures/runs/make-runs.js';

const root = mkdtempSync(join(tmpdir(), 'chatbench-compare-'));
const _runs = {
  base: writeRun(join(root, 'base'), makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'] })),
  same: writeRun(join(root, 'same'), makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'] })),
  degraded: writeRun(join(root, 'degraded'), makeRun({ misses: DEGRADED_MISSES, sets: ['accurate', 'fast'] })),
  slower: writeRun(join(root, 'slower'), makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'], slower: 1.6 })),
};
const FAST = ['--resamples', '500'];

async function run(argv: string[], env: Record<string, string> = {}) {
  const fake = createFakeIo({ cwd: root, env });
  const code = await main(argv, fake.io);
  return { code, out: fake.stdout(), err: fake.stderr() };
}

describe('chatbench compare', () => {
  it('identical runs → exit 0, no significant change, compare.md/json/html written', async () => {
    const r = await run([
      'compare',
      'base',
      'same',
      '--out',
      'out/same',
      '--gate',
      'citation_recall delta >= -0.02 significant',
      '--gate',
      'ttfp_ms.p95 ratio <= 1.2',
      ...FAST,
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /No significant change among \d+ tests \(false discovery rate held at 5% by Benjamini–Hochberg\)\./,
    );
    expect(r.out).toContain('Gates: all 4 passed.');
    expect(readdirSync(join(root, 'out/same')).sort()).toEqual([
      'compare.html',
      'compare.json',
      'compare.md',
      'verdict.json',
    ]);
    const comparison = ComparisonSchema.parse(JSON.parse(readFileSync(join(root, 'out/same/compare.json'), 'utf8')));
    expect(comparison.significant).toEqual({ better: 0, worse: 0 });
    expect(comparison.groups.flatMap((g) => g.figures).some((f) => f.significant)).toBe(false);
  });

  it('a degraded run fails the citation gate with exit 1 and names the questions that broke', async () => {
    const r = await run([
      'compare',
      'base',
      'degraded',
      '--out',
      'out/degraded',
      '--gate',
      'citation_recall delta >= -0.02 significant',
      ...FAST,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /Gates: 2 of 2 failed:\n {2}FAIL citation_recall delta >= -0\.02 significant failed for set accurate\/stream: -0\.3 \[-0\.\d+, -0\.\d+\] significant \(0\.9 → 0\.6\); dropped most: q2, q6, q9, q11, q14/,
    );
    expect(r.out).toContain('broken: q2 (pass→fail, hit@5→miss); q6 (pass→fail, hit@5→miss)');
    expect(readFileSync(join(root, 'out/degraded/compare.md'), 'utf8')).toContain('### Broken (9)');
  });

  it('a slower run fails the latency ratio gate', async () => {
    const r = await run([
      'compare',
      'base',
      'slower',
      '--out',
      'out/slower',
      '--gate',
      'set:fast ttfp_ms.p95 ratio <= 1.2',
      '--gate',
      'citation_recall >= 0.8',
      ...FAST,
    ]);
    expect(r.code).toBe(1);
    // A p95 from 30 samples a side crosses the threshold, so the gate (without `significant`) fails,
    // but it is never called significant: a p95 needs 200 samples.
    expect(r.out).toMatch(
      /Gates: 1 of 3 failed:\n {2}FAIL ttfp_ms\.p95 ratio <= 1\.2 failed for set fast\/stream: ×1\.60 \[×1\.\d+, ×\d\.\d+\] not tested \(too few: n = 30 \/ 30, a p95 needs 200 on each side\)/,
    );
    // With `significant`, a gate on a figure it cannot test does not fail; on the p50 (20 needed) it does.
    const p95 = await run([
      'compare',
      'base',
      'slower',
      '--out',
      'out/slower-sig',
      '--gate',
      'set:fast ttfp_ms.p95 ratio <= 1.2 significant',
      ...FAST,
    ]);
    expect(p95.code).toBe(0);
    const p50 = await run([
      'compare',
      'base',
      'slower',
      '--out',
      'out/slower-p50',
      '--gate',
      'set:fast ttfp_ms.p50 ratio <= 1.2 significant',
      ...FAST,
    ]);
    expect(p50.code).toBe(1);
    expect(p50.out).toMatch(
      /FAIL ttfp_ms\.p50 ratio <= 1\.2 significant failed for set fast\/stream: ×1\.60 \[×1\.\d+, ×\d\.\d+\] significant/,
    );
  });

  it('appends the Markdown summary to $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(root, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await run(
      ['compare', 'base', 'degraded', '--out', 'out/step', '--gate', 'pass_rate delta >= 0', ...FAST],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(r.code).toBe(1);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# earlier step\n## chatbench\n')).toBe(true);
    expect(text).toContain('## Gates: 2 of 2 failed');
    expect(text).toContain('| **citation_recall** | 0.900 | 0.600 |');
    expect(text).toContain('Broken: q2 (pass→fail, hit@5→miss)');
  });

  it('takes gates from a file and renamed sets from --map', async () => {
    writeFileSync(
      join(root, 'gates.json'),
      JSON.stringify({
        gates: [
          'set:quick pass_rate delta >= 0',
          { figure: 'ttfp_ms', stat: 'p95', against: 'ratio', op: '<=', value: 1.2 },
        ],
      }),
    );
    writeRun(join(root, 'renamed'), makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'quick'] }));
    const r = await run([
      'compare',
      'base',
      'renamed',
      '--map',
      'fast=quick',
      '--gates-file',
      'gates.json',
      '--out',
      'out/renamed',
      ...FAST,
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('fast→quick (stream): 30 questions paired');
  });

  it('writes into reports/<date-time>-compare by default', async () => {
    const before = existsSync(join(root, 'reports')) ? readdirSync(join(root, 'reports')) : [];
    const r = await run(['compare', 'base', 'same', ...FAST]);
    expect(r.code).toBe(0);
    const added = readdirSync(join(root, 'reports')).filter((d) => !before.includes(d));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-compare$/);
  });

  it.each([
    {
      name: 'a bad gate',
      argv: ['compare', 'base', 'same', '--gate', 'citation_recal >= 0.8'],
      err: 'chatbench: --gate "citation_recal >= 0.8": unknown figure "citation_recal" (did you mean citation_recall?)\n',
    },
    { name: 'a missing run', argv: ['compare', 'base', 'nope'], err: 'chatbench: nope: no such file\n' },
    {
      name: 'a scope naming no set',
      argv: ['compare', 'base', 'same', '--gate', 'set:nope pass_rate >= 0'],
      err: 'chatbench: gate "set:nope pass_rate >= 0": set:nope names no set of the run (its sets: accurate, fast)\n',
    },
    {
      name: 'a bad --map',
      argv: ['compare', 'base', 'same', '--map', 'x=fast'],
      err: 'chatbench: --map x=fast: the baseline has no set "x" (its sets: accurate, fast)\n',
    },
    {
      name: 'a missing gates file',
      argv: ['compare', 'base', 'same', '--gates-file', 'none.json'],
      err: 'chatbench: none.json: no such file\n',
    },
  ])('$name → exit 2, one clear line', async ({ argv, err }) => {
    const r = await run([...argv, '--out', 'out/bad', ...FAST]);
    expect(r.code).toBe(2);
    expect(r.err.startsWith(err)).toBe(true);
    expect(r.out).toBe('');
  });

  it('--help shows the examples', async () => {
    const r = await run(['compare', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('ttft_ms.p95 ratio <= 1.2');
    expect(r.out).toContain('Exit codes: 0 every gate passed (or none was set), 1 a gate failed, 2 bad input');
  });
});

describe('chatbench baseline save', () => {
  it('writes a small sorted baseline that compare accepts as a side, the same bytes every time', async () => {
    const long = makeRun({ misses: BASELINE_MISSES })
      .reverse()
      .map((r) => ({ ...r, answer: 'x'.repeat(5000), answer_gaps_ms: [1, 2, 3], first_packet_ms: { a: 1 } }));
    writeRun(join(root, 'long'), long);
    const first = await run(['baseline', 'save', 'long', 'baselines/main']);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(
      'Saved 30 records: baselines/main/results.jsonl, baselines/main/summary.json, baselines/main/README.md',
    );
    const jsonl = readFileSync(join(root, 'baselines/main/results.jsonl'), 'utf8');
    const records = jsonl
      .trim()
      .split('\n')
      .map((l) => RequestRecordSchema.parse(JSON.parse(l)));
    expect(records.map((r) => r.question_id).slice(0, 3)).toEqual(['q1', 'q2', 'q3']);
    expect(
      records.every(
        (r) =>
          r.answer!.length === 2000 && r.answer_gaps_ms.length === 0 && Object.keys(r.first_packet_ms).length === 0,
      ),
    ).toBe(true);
    expect(readFileSync(join(root, 'baselines/main/README.md'), 'utf8')).toContain('from `long/results.jsonl`');
    await run(['baseline', 'save', 'long', 'baselines/main']);
    expect(readFileSync(join(root, 'baselines/main/results.jsonl'), 'utf8')).toBe(jsonl);
    const r = await run([
      'compare',
      'baselines/main',
      'long',
      '--out',
      'out/from-baseline',
      '--gate',
      'pass_rate delta >= 0',
      ...FAST,
    ]);
    expect(r.code).toBe(0);
  });

  it('a missing run → exit 2', async () => {
    const r = await run(['baseline', 'save', 'nope', 'baselines/x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('nope: no such file');
  });
});

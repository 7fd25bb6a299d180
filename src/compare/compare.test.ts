import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../errors.js';
import type { RequestRecord } from '../records/record.js';
import { BASELINE_MISSES, DEGRADED_MISSES, makeRun } from '../../test/fixtures/runs/make-runs.js';
import { compareRuns, parseSetMap } from './compare.js';
import { renderCompareHtml } from './render-html.js';
import { renderCompareJson, renderCompareMd, renderStepSummary } from './render-md.js';
import { createRunCollector, type RunData } from './run-data.js';
import { ComparisonSchema } from './schema.js';

const runOf = (records: RequestRecord[], source = 'run'): RunData => {
  const collector = createRunCollector();
  for (const r of records) collector.add(r);
  return collector.finish(source);
};
const R = 400;
const baseline = runOf(makeRun({ misses: BASELINE_MISSES }), 'base');

describe('compareRuns', () => {
  it('identical runs: every delta 0, nothing significant, nothing broken', () => {
    const c = compareRuns(baseline, runOf(makeRun({ misses: BASELINE_MISSES }), 'cur'), { resamples: R });
    expect(ComparisonSchema.parse(c)).toEqual(c);
    expect(c.significant).toEqual({ better: 0, worse: 0 });
    const [g] = c.groups;
    expect(g!.figures.every((f) => !f.significant && (f.delta === null || f.delta === 0))).toBe(true);
    expect(g!.broken).toEqual([]);
    expect(g!.pass_changes).toEqual({ worse: 0, better: 0, unchanged: 30, p_value: 1 });
  });

  it('a degraded run: significant drops, the sign test, and what broke with both answers', () => {
    const c = compareRuns(baseline, runOf(makeRun({ misses: DEGRADED_MISSES })), { resamples: R });
    const g = c.groups[0]!;
    const recall = g.figures.find((f) => f.figure === 'citation_recall')!;
    expect(recall).toMatchObject({
      baseline: 0.9,
      current: 0.6,
      n_paired: 30,
      significant: true,
      direction: 'worse',
      headline: true,
    });
    expect(recall.delta).toBeCloseTo(-0.3, 12);
    expect(recall.relative).toBeCloseTo(-1 / 3, 12);
    expect(g.pass_changes.worse).toBe(9);
    expect(g.pass_changes.p_value).toBeCloseTo(2 / 2 ** 9, 12);
    expect(g.broken.map((b) => b.question_id)).toEqual(['q2', 'q6', 'q9', 'q11', 'q14', 'q20', 'q22', 'q25', 'q27']);
    expect(g.broken[0]).toMatchObject({
      changes: ['pass→fail', 'hit@5→miss'],
      baseline: { cited_document_ids: ['doc-2'], pass: 1, answer: 'The answer to q2 [[1]](https://d.example/2).' },
      current: { cited_document_ids: [], pass: 0, answer: 'I could not find that (q2).' },
    });
    expect(g.fixed).toEqual([]);
    // The reverse comparison sees the same questions fixed.
    const back = compareRuns(runOf(makeRun({ misses: DEGRADED_MISSES })), baseline, { resamples: R });
    expect(back.groups[0]!.fixed.map((f) => f.changes)).toContainEqual(['fail→pass', 'miss→hit@5']);
    expect(back.groups[0]!.figures.find((f) => f.figure === 'citation_recall')!.direction).toBe('better');
  });

  it('new failures are listed as broken, and latency figures compare samples of ok requests', () => {
    const c = compareRuns(baseline, runOf(makeRun({ misses: BASELINE_MISSES, timeouts: new Set([5, 6]) })), {
      resamples: R,
    });
    const g = c.groups[0]!;
    expect(g.broken.map((b) => [b.question_id, b.changes])).toEqual([
      ['q5', ['pass→fail', 'new timeout']],
      ['q6', ['pass→fail', 'new timeout']],
    ]);
    const ttfp = g.figures.find((f) => f.figure === 'ttfp_ms.p95')!;
    expect([ttfp.n_baseline, ttfp.n_current, ttfp.n_paired]).toEqual([30, 28, null]);
    expect(g.figures.find((f) => f.figure === 'error_rate')!.direction).toBe('worse');
  });

  it('is deterministic under its seed', () => {
    const current = runOf(makeRun({ misses: DEGRADED_MISSES, slower: 1.3, seed: 2 }));
    const a = renderCompareJson(compareRuns(baseline, current, { resamples: R, seed: 7 }));
    expect(renderCompareJson(compareRuns(baseline, current, { resamples: R, seed: 7 }))).toBe(a);
    expect(renderCompareJson(compareRuns(baseline, current, { resamples: R, seed: 8 }))).not.toBe(a);
  });

  it('matches renamed sets with --map and lists groups on one side only', () => {
    const old = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['fast', 'gone'] }));
    const cur = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['fast-v2', 'added'] }));
    // Nothing in common: not "no significant change" but exit 2, naming both sides' groups.
    const nothing = (() => {
      try {
        compareRuns(old, cur, { resamples: R });
      } catch (error) {
        return error;
      }
    })();
    expect(nothing).toBeInstanceOf(InputError);
    expect((nothing as InputError).message).toBe(
      'nothing to compare: the runs have no set × mode in common (baseline run: fast (stream), gone (stream); current run: fast-v2 (stream), added (stream))',
    );
    expect((nothing as InputError).exitCode).toBe(2);
    expect((nothing as InputError).hint).toBe('if a set was renamed, match it with --map OLD=NEW');
    const c = compareRuns(old, cur, { resamples: R, setMap: parseSetMap(['fast=fast-v2']) });
    expect(c.groups.map((g) => [g.label, g.set, g.baseline_set])).toEqual([
      ['fast→fast-v2 (stream)', 'fast-v2', 'fast'],
    ]);
    expect(c.unmatched.baseline.map((g) => g.set)).toEqual(['gone']);
    expect(c.unmatched.current.map((g) => g.set)).toEqual(['added']);
    expect(() => compareRuns(old, cur, { setMap: { nope: 'added' } })).toThrow(
      new UsageError('--map nope=added: the baseline has no set "nope" (its sets: fast, gone)'),
    );
    expect(() => compareRuns(old, cur, { setMap: { fast: 'nope' } })).toThrow(
      new UsageError('--map fast=nope: the current run has no set "nope" (its sets: fast-v2, added)'),
    );
  });

  it('lists questions present on one side only', () => {
    const fewer = runOf(makeRun({ misses: BASELINE_MISSES }).filter((r) => r.question_id !== 'q3'));
    const extra = makeRun({ misses: BASELINE_MISSES }).map((r) =>
      r.question_id === 'q30' ? { ...r, question_id: 'q31', key: 'q31|accurate|stream|0' } : r,
    );
    const c = compareRuns(fewer, runOf(extra), { resamples: R });
    expect(c.groups[0]!.questions).toEqual({ paired: 28, baseline_only: ['q30'], current_only: ['q3', 'q31'] });
    expect(c.groups[0]!.figures.find((f) => f.figure === 'citation_recall')!.n_paired).toBe(28);
  });

  it('compares each model of a multi-model set on its own', () => {
    const c = compareRuns(
      runOf(makeRun({ misses: new Set(), multiModel: true, sets: [] })),
      runOf(makeRun({ misses: DEGRADED_MISSES, multiModel: true, sets: [] })),
      { resamples: R },
    );
    expect(c.groups.map((g) => g.label)).toEqual(['duo (stream)', 'duo · model-0 (stream)', 'duo · model-1 (stream)']);
    const recall = (i: number) => c.groups[i]!.figures.find((f) => f.figure === 'citation_recall')!;
    expect(recall(1).delta).toBe(0);
    expect(recall(2).delta).toBeCloseTo(-12 / 30, 12);
    expect(recall(2).significant).toBe(true);
  });

  it.each([
    { flags: ['a'], message: '--map "a": expected OLD=NEW (the baseline\'s set name = the current run\'s)' },
    { flags: ['a=b', 'a=c'], message: '--map "a=c": set "a" is already mapped to "b"' },
    { flags: ['a=c', 'b=c'], message: '--map "b=c": two baseline sets are mapped onto "c"' },
  ])('parseSetMap $flags', ({ flags, message }) => {
    expect(() => parseSetMap(flags)).toThrow(new UsageError(message));
  });
});

describe('renderers', () => {
  const c = compareRuns(baseline, runOf(makeRun({ misses: DEGRADED_MISSES, slower: 1.5, seed: 3 })), { resamples: R });

  it('compare.md: a table with intervals and arrows, significant rows marked, the broken list', () => {
    const md = renderCompareMd(c);
    expect(md).toContain('| **citation_recall** | 0.900 | 0.600 | -0.300 | -33.3% | [-0.');
    expect(md).toMatch(/\| \*\*citation_recall\*\* .*\| ↓ worse ✱ \|/);
    expect(md).toMatch(/\| \*\*ttfp_ms\.p50\*\* .*×1\.\d\d \[\d\.\d\d, \d\.\d\d\] \| ↑ worse ✱ \|/);
    // 30 samples a side: a p95 is shown greyed with its n, never tested, never starred.
    expect(md).toMatch(
      /\| _ttfp_ms\.p95_ \| _\d+ ms_ \| _\d+ ms_ \| .* \| too few: n = 30 \/ 30, a p95 needs 200 on each side \| ↑ worse \|/,
    );
    expect(md).toMatch(
      /\*\*Significant changes: \d+ worse, 0 better, of \d+ tests \(false discovery rate held at 5% by Benjamini–Hochberg\)\.\*\*/,
    );
    expect(md).toContain('### Broken (9)');
    expect(md).toContain(
      '| **q2** What about topic 2? | pass→fail, hit@5→miss | ok · cited doc-2 · “The answer to q2 [[1]](https://d.example/2).” | ok · cited nothing · “I could not find that (q2).” |',
    );
    expect(renderStepSummary(c, [])).toContain('Broken: q2 (pass→fail, hit@5→miss); q6');
  });

  it('compare.html: self-contained, with a forest plot per group', () => {
    const html = renderCompareHtml(c);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!d\.example)/);
    expect((html.match(/<figure class="forest">/g) ?? []).length).toBe(2);
    expect(html).toContain('<svg viewBox=');
    expect(html).toContain('fill="#D55E00"'); // a significant worse change
    expect(html).toContain('<h3>Broken (9)</h3>');
    // Answers wrap, left-aligned, in a scrolling box; no width cap on the page.
    expect(html).toContain('<div class="table-wrap"><table class="answers">');
    expect(html).toMatch(/\.answers th,\.answers td\{white-space:normal;text-align:left;overflow-wrap:anywhere/);
    expect(html).not.toMatch(/max-width:\s*\d+px/);
  });

  it('marks gates with drawn ticks, not emoji', () => {
    const html = renderCompareHtml(compareRuns(baseline, baseline, { resamples: R }), [
      {
        passed: true,
        reason: 'ok one',
        value: 0.9,
        gate: { text: 'pass_rate >= 0.5', figure: 'pass_rate', stat: null, against: 'value', op: '>=', threshold: 0.5 },
      },
      {
        passed: false,
        reason: 'bad one',
        value: 0.4,
        gate: { text: 'pass_rate >= 0.5', figure: 'pass_rate', stat: null, against: 'value', op: '>=', threshold: 0.5 },
      },
    ] as unknown as Parameters<typeof renderCompareHtml>[1]);
    expect(html).not.toMatch(/[\u2705\u274c]/u);
    expect(html).toContain('<svg class="mark pass"');
    expect(html).toContain('<svg class="mark fail"');
  });
});

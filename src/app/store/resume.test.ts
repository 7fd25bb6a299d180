import { describe, expect, it } from 'vitest';
import type { Manifest } from './manifest.js';
import { planDigest, resumeMismatches } from './resume.js';
import { DatasetRowSchema } from '../../dataset/index.js';
import { buildPlan, createEvalPlan } from '../../plan/build-plan.js';
import { selectShard } from '../../plan/shard.js';
import type { SetDefinition } from '../../sets/index.js';

const manifest = (quality: Manifest['quality']): Manifest => ({
  manifest_version: 1,
  chatbench_version: '0',
  command: 'eval',
  started_at: '',
  base_url: 'http://h/api',
  target: 'service',
  plan_version: 1,
  planned_requests: 1,
  planned_total: 1,
  shard: null,
  plan_sha256: 'p',
  whole_plan_sha256: 'p',
  dataset: { path: 'q.csv', sha256: 'd', questions: 1 },
  models: null,
  sets: [],
  defaults: {},
  options: { mode: 'stream', repeat: 1 },
  quality,
});
const judge = {
  url: 'http://127.0.0.1:1',
  model: 'm',
  prompt_version: 'v1',
  figures: ['correctness'],
  repeat: 1,
  fetch_cited: false,
};
const quality = { pass: [], judge, checks: { path: 'c.mjs', sha256: 'c1', names: ['x'] }, labels: null };

describe('resume and answer quality', () => {
  it("continues with the same rule, judge and checks, whatever the judge's URL or the labels", () => {
    expect(
      resumeMismatches(
        manifest(quality),
        manifest({
          ...quality,
          judge: { ...judge, url: 'http://127.0.0.1:2' },
          labels: { path: 'l.csv', sha256: 'l', labels: 3 },
        }),
      ),
    ).toEqual([]);
    expect(resumeMismatches(manifest(null), manifest({ pass: [], judge: null, checks: null, labels: null }))).toEqual(
      [],
    );
  });
  it('refuses another pass rule, judge, prompt version, repeat or checks file', () => {
    const then = manifest(quality);
    expect(resumeMismatches(then, manifest({ ...quality, pass: ['correctness >= 0.7'] }))).toEqual([
      'the pass rule was the default, now "correctness >= 0.7"',
    ]);
    expect(resumeMismatches(then, manifest({ ...quality, judge: { ...judge, model: 'other', repeat: 3 } }))).toEqual([
      'the run was judged by m (prompts v1, correctness, ×1), now other (prompts v1, correctness, ×3)',
    ]);
    expect(resumeMismatches(then, manifest({ ...quality, judge: null }))).toEqual([
      'the run was judged by m (prompts v1, correctness, ×1), now no judge',
    ]);
    expect(
      resumeMismatches(then, manifest({ ...quality, checks: { path: 'c.mjs', sha256: 'c2', names: ['x'] } })),
    ).toEqual(["the checks differ from the run's (c.mjs now, c.mjs then)"]);
  });
});

describe('planDigest', () => {
  it('is the same for the lazy plan as for the array it used to be built as (manifests and --resume agree)', () => {
    const rows = ['q1', 'q2', 'q3'].map((id, i) =>
      DatasetRowSchema.parse({ line: i + 2, id, question: `question ${id}?` }),
    );
    const sets: SetDefinition[] = [
      { name: 'a', llm_override: { model_version: 'm1' }, llm_overrides: null, multi: false },
      { name: 'b', llm_override: null, llm_overrides: null, multi: false },
    ];
    const input = { rows, sets, defaults: { mcp_headers: { secret: 'x' } }, mode: 'both' as const, repeat: 4 };
    for (const shard of [null, { index: 2, count: 3 }]) {
      const array = selectShard(buildPlan(input), shard);
      expect(planDigest(createEvalPlan(input, shard))).toBe(planDigest(array));
    }
    // Pinned to the digest the array-built plan gave before the plan was lazy: older runs still resume.
    expect(planDigest(createEvalPlan(input))).toBe('471c13642362be645d1e3c4fa765988afbe71d2478306edb94b819099617a0eb');
  });
});

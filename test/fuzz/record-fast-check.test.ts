import { describe, expect, it } from 'vitest';
import { fixtureRecords, makeRecord } from '../fixtures/reports/fixture.js';
import {
  AttemptSchema,
  ModelFiguresSchema,
  RateLimitSchema,
  RequestRecordSchema,
  type RequestRecord,
} from '../../src/records/record.js';
import { ScoresSchema } from '../../src/records/scores.js';
import {
  ATTEMPT_SHAPE,
  MODEL_FIGURES_SHAPE,
  RATE_LIMIT_SHAPE,
  RECORD_SHAPE,
  SCORES_SHAPE,
  surelyValidRecord,
  surelyValidRecordByLoop,
} from '../../src/records/record-fast-check.js';
import { toValidRecord } from '../../src/records/valid-record.js';
import { boundRecord } from '../../src/records/bounds.js';

const sorted = (o: object) => Object.keys(o).sort();

/** Records as runs write them: the report fixtures, plus a streamed answer with packets timed, gaps, tools and a rate limit. */
function samples(): RequestRecord[] {
  const streamed = makeRecord({ question_id: 'q7', set: 'fast', ttfp_ms: 12.5, total_ms: 800 });
  return [
    ...fixtureRecords(),
    {
      ...streamed,
      first_packet_ms: { message_start: 3.2, message_delta: 12.5 },
      answer_gaps_ms: [1.5, 0, 22.25],
      tools_used: ['internal_search'],
      rate_limit: { retry_after_s: 2, scope: 'user', reset_at: null },
      unknown_part_kinds: { shiny_new_part: 2 },
      conversation: 'c1',
      turn: 2,
      session: 'continued',
      top_documents: [],
      judge: null,
      checks: {},
      model_asked: ['openai:gpt-4o'],
      model_answered: null,
    },
  ];
}

/** A small seeded generator (mulberry32): the fuzz is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY: readonly unknown[] = [
  undefined,
  null,
  -1,
  -0.5,
  0,
  1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -1e308,
  2 ** 53,
  true,
  false,
  '',
  'x',
  'ok',
  'stream',
  'new',
  'x'.repeat(513),
  'x'.repeat(2_001),
  'x'.repeat(65_537),
  [],
  [1],
  ['a'],
  [null],
  {},
  { a: 1 },
  { a: 'b' },
  { a: -1 },
  new Date(0),
  new Map(),
  Array.from({ length: 501 }, () => 'd'),
  Object.fromEntries(Array.from({ length: 201 }, (_, k) => [`k${k}`, 'v'])),
];

/** `record` with one value somewhere in it (any depth) replaced by a nasty one, or deleted. */
function mutate(record: RequestRecord, next: () => number): unknown {
  const copy = structuredClone(record) as unknown as Record<string, unknown>;
  let holder: Record<string, unknown> | unknown[] = copy;
  for (let depth = 0; depth < 4; depth++) {
    const keys = Object.keys(holder);
    if (keys.length === 0) break;
    const key = keys[Math.floor(next() * keys.length)]!;
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null && next() < 0.5) {
      holder = value as Record<string, unknown>;
      continue;
    }
    if (next() < 0.1 && !Array.isArray(holder)) delete holder[key];
    else (holder as Record<string, unknown>)[key] = NASTY[Math.floor(next() * NASTY.length)];
    return copy;
  }
  return copy;
}

describe('surelyValidRecord', () => {
  it("lists the schemas' fields, key for key", () => {
    expect(sorted(RECORD_SHAPE)).toEqual(sorted(RequestRecordSchema.shape));
    expect(sorted(SCORES_SHAPE)).toEqual(sorted(ScoresSchema.shape));
    expect(sorted(MODEL_FIGURES_SHAPE)).toEqual(sorted(ModelFiguresSchema.shape));
    expect(sorted(ATTEMPT_SHAPE)).toEqual(sorted(AttemptSchema.shape));
    expect(sorted(RATE_LIMIT_SHAPE)).toEqual(sorted(RateLimitSchema.shape));
  });

  it('passes the records runs write, which zod passes too', () => {
    for (const record of samples()) {
      expect(RequestRecordSchema.safeParse(record).success).toBe(true);
      expect(surelyValidRecord(record), record.key).toBe(true);
    }
  });

  it('leaves to zod what a judge or the checks filled', () => {
    const [record] = samples();
    expect(
      surelyValidRecord({ ...record, checks: { polite: { pass: true, score: 1, reason: 'ok', error: null } } }),
    ).toBe(false);
    expect(surelyValidRecord({ ...record, human_verdict: 'pass' })).toBe(false);
  });

  it('never says yes where zod says no (fuzzed records)', () => {
    const next = random(24);
    const bases = samples();
    let fast = 0;
    let zodOnly = 0;
    for (let i = 0; i < 4_000; i++) {
      const mutated = mutate(bases[i % bases.length]!, next);
      const zod = RequestRecordSchema.safeParse(mutated).success;
      const sure = surelyValidRecord(mutated);
      expect(surelyValidRecordByLoop(mutated)).toBe(sure); // the check written per shape and the loop agree
      if (sure && !zod)
        expect.fail(
          `fast check passed a record zod refuses: ${JSON.stringify(RequestRecordSchema.safeParse(mutated).error?.issues.slice(0, 2))}`,
        );
      if (sure) fast += 1;
      else if (zod) zodOnly += 1;
    }
    // Both sides of the fuzz are exercised: mutations that stay valid, and ones zod refuses.
    expect(fast).toBeGreaterThan(500);
    expect(4_000 - fast - zodOnly).toBeGreaterThan(500);
  });

  it('never says yes where the bounds would cut (fuzzed records, unlisted keys)', () => {
    const next = random(35);
    const bases = samples();
    const long = 'p'.repeat(600);
    let fast = 0;
    let cut = 0;
    for (let i = 0; i < 4_000; i++) {
      const mutated = mutate(bases[i % bases.length]!, next) as Record<string, unknown>;
      // Values the schema takes and the bounds cut, and keys the schema does not list, at some depth.
      const pick = next();
      if (pick < 0.1) mutated['metadata'] = { [long]: 'v' };
      else if (pick < 0.2 && mutated['scores'] !== null && typeof mutated['scores'] === 'object')
        (mutated['scores'] as Record<string, unknown>)['missing_phrases'] = [long];
      else if (pick < 0.3) mutated['model_asked'] = [long];
      else if (pick < 0.4) mutated[`extra_${long}`] = long;
      else if (pick < 0.5 && Array.isArray(mutated['citations'])) {
        const first: unknown = mutated['citations'][0];
        if (typeof first === 'object' && first !== null) (first as Record<string, unknown>)['note'] = long;
      }
      const sure = surelyValidRecord(mutated);
      expect(surelyValidRecordByLoop(mutated)).toBe(sure);
      const same = boundRecord(mutated) === mutated;
      if (sure && !same)
        expect.fail(`fast check passed a record the bounds cut: ${JSON.stringify(mutated).slice(0, 300)}`);
      if (sure) fast += 1;
      if (!same) cut += 1;
    }
    // Both sides are exercised: records passed (each checked against the bounds) and records cut.
    expect(fast).toBeGreaterThan(200);
    expect(cut).toBeGreaterThan(500);
  });

  it("leaves toValidRecord's answer as zod's: a repaired record is still repaired", () => {
    const [record] = samples();
    const bad = { ...record!, ttfp_ms: -1 };
    expect(surelyValidRecord(bad)).toBe(false);
    expect(toValidRecord(bad).outcome).toBe('invalid_response');
    expect(toValidRecord(record!)).toBe(record);
  });
});

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
  CheckResultSchema,
  DocumentTextSchema,
  JudgementSchema,
  JudgeVerdictSchema,
} from '../../src/records/quality.js';
import {
  ATTEMPT_SHAPE,
  CHECK_RESULT_SHAPE,
  DOCUMENT_SHAPE,
  JUDGEMENT_SHAPE,
  MODEL_FIGURES_SHAPE,
  RATE_LIMIT_SHAPE,
  RECORD_SHAPE,
  SCORES_SHAPE,
  VERDICT_SHAPE,
  surelyCompleteRecord,
  surelyValidRecord,
  surelyValidRecordByLoop,
} from '../../src/records/record-fast-check.js';
import { isDeepStrictEqual } from 'node:util';
import { toValidRecord } from '../../src/records/valid-record.js';
import { boundRecord } from '../../src/records/bounds.js';

const sorted = (o: object) => Object.keys(o).sort();

/**
 * Records as runs write them: the report fixtures, a streamed answer with packets timed, gaps, tools
 * and a rate limit, and an eval's answer with its documents, a judge's verdicts, checks and a human verdict.
 */
function samples(): RequestRecord[] {
  const streamed = makeRecord({ question_id: 'q7', set: 'fast', ttfp_ms: 12.5, total_ms: 800 });
  const judged = makeRecord({ question_id: 'q8', set: 'fast', ttfp_ms: 10, total_ms: 900 });
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
    {
      ...judged,
      top_documents: [
        {
          document_id: 'hr-pto',
          title: 'PTO policy',
          link: 'https://hr.example/pto',
          blurb: 'Days off',
          highlights: ['25 days'],
        },
        { document_id: 'hr-faq', title: null, link: null, blurb: '', highlights: [] },
      ],
      judge: {
        model: 'gpt-4o-mini',
        prompt_version: '3',
        verdicts: {
          correctness: { status: 'ok', score: 0.75, reason: 'mostly right', error: null, asks: [1, 0.5], cached: 1 },
          groundedness: { status: 'judge_error', score: null, reason: null, error: 'timeout', asks: [null], cached: 0 },
        },
      },
      checks: {
        cites_policy: { score: 1, reason: null, error: null },
        polite: { score: null, reason: null, error: 'threw' },
      },
      human_verdict: 'pass',
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
    expect(sorted(DOCUMENT_SHAPE)).toEqual(sorted(DocumentTextSchema.shape));
    expect(sorted(VERDICT_SHAPE)).toEqual(sorted(JudgeVerdictSchema.shape));
    expect(sorted(JUDGEMENT_SHAPE)).toEqual(sorted(JudgementSchema.shape));
    expect(sorted(CHECK_RESULT_SHAPE)).toEqual(sorted(CheckResultSchema.shape));
  });

  it('passes the records runs write, which zod passes too', () => {
    for (const record of samples()) {
      expect(RequestRecordSchema.safeParse(record).success).toBe(true);
      expect(surelyValidRecord(record), record.key).toBe(true);
    }
  });

  it("checks an eval's documents, verdicts and checks itself; leaves to zod a key their schemas do not list", () => {
    const judged = samples().at(-1)!;
    expect(surelyValidRecord(judged)).toBe(true);
    const withKey = (path: 'check' | 'verdict' | 'document') => {
      const copy = structuredClone(judged) as RequestRecord & Record<string, unknown>;
      if (path === 'check') Object.assign(copy.checks['cites_policy']!, { pass: true });
      if (path === 'verdict') Object.assign(copy.judge!.verdicts.correctness!, { note: 'x' });
      if (path === 'document') Object.assign(copy.top_documents[0]!, { score: 0.9 });
      return copy;
    };
    for (const path of ['check', 'verdict', 'document'] as const)
      expect(surelyValidRecord(withKey(path)), path).toBe(false);
    // Values zod refuses there: a verdict's score over 1, a figure the judge has not, a status it does not know.
    const verdicts = (v: object) => ({ ...judged, judge: { ...judged.judge!, verdicts: v } });
    expect(surelyValidRecord(verdicts({ correctness: { ...judged.judge!.verdicts.correctness!, score: 1.5 } }))).toBe(
      false,
    );
    expect(surelyValidRecord(verdicts({ wit: judged.judge!.verdicts.correctness }))).toBe(false);
    expect(
      surelyValidRecord(verdicts({ correctness: { ...judged.judge!.verdicts.correctness!, status: 'maybe' } })),
    ).toBe(false);
    expect(surelyValidRecord({ ...judged, human_verdict: 'good' })).toBe(false);
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

describe('surelyCompleteRecord', () => {
  /** Records as a run writes them: zod's output, every defaulted key there. */
  const written = () => samples().map((r) => RequestRecordSchema.parse(r));

  it("passes the records runs write, and zod's output for each is the record itself", () => {
    for (const record of written()) {
      expect(surelyCompleteRecord(record), record.key).toBe(true);
      expect(isDeepStrictEqual(RequestRecordSchema.parse(record), record)).toBe(true);
    }
  });

  it('leaves to zod a record missing a key zod defaults, at any depth: zod fills it', () => {
    const [record] = written();
    const { tools_used: _tools, ...noTools } = record!;
    expect(surelyValidRecord(noTools)).toBe(true);
    expect(surelyCompleteRecord(noTools)).toBe(false);
    const { answer_f1: _f1, ...scores } = record!.scores!;
    expect(surelyCompleteRecord({ ...record, scores })).toBe(false);
    expect(surelyCompleteRecord({ ...record, extra: 1 })).toBe(false);
  });

  it("never says yes where zod's output would differ from the value (fuzzed records)", () => {
    const next = random(47);
    const bases = written();
    let complete = 0;
    let notComplete = 0;
    for (let i = 0; i < 4_000; i++) {
      const mutated = mutate(bases[i % bases.length]!, next);
      const sure = surelyCompleteRecord(mutated);
      if (sure) {
        const parsed = RequestRecordSchema.safeParse(mutated);
        if (!parsed.success || !isDeepStrictEqual(parsed.data, mutated))
          expect.fail(`passed a record zod changes or refuses: ${JSON.stringify(mutated).slice(0, 300)}`);
        complete += 1;
      } else notComplete += 1;
      // Whatever it passes, the writer's check passes too.
      if (sure) expect(surelyValidRecord(mutated)).toBe(true);
    }
    expect(complete).toBeGreaterThan(500);
    expect(notComplete).toBeGreaterThan(500);
  });
});

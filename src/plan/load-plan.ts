/**
 * @module plan/load-plan
 * Which request each arrival of a load run sends. Chat: the dataset's questions, in order (cycling)
 * or drawn at random, under one override set and one mode; each question's body is built once
 * (autocannon's requestIterator) and every arrival reuses it. With conversations, an arrival plays a
 * whole conversation (its turns' bodies built once too; a later turn's session is the runner's). Open-urls: one URL per request, from a
 * list. The choice depends only on the arrival's global number and the seed, so every shard of a
 * run, on any machine, agrees on what arrival n asks. Pure.
 */
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import { rowsInMemory, type DatasetRow, type RowSource } from '../dataset/index.js';
import { InputError } from '../errors.js';
import { requestKey, type Mode } from '../records/record.js';
import type { SetDefinition, SetsDefaults } from '../sets/index.js';
import {
  areaOf,
  arrivals,
  constantProfile,
  seededUniform,
  shardUsers,
  stagesProfile,
  userSteps,
  type ArrivalOptions,
  type UserStep,
} from './arrivals.js';
import { BYTES_PER_PLANNED_REQUEST, formatBytes, formatCount, LIMITS } from '../util/limits.js';
import { buildBody, modelName } from './build-plan.js';
import type { PlannedRequest } from './planned-request.js';
import type { ToolIds } from './tools.js';
import type { Shard } from './shard.js';
import { stagesDurationMs } from './stages.js';
import { LoadSpecShapeSchema, type QuestionOrder } from '../records/load-spec.js';

export { QUESTION_ORDERS, type QuestionOrder } from '../records/load-spec.js';

/** What a load run does (the seam with the load reports, re-exported by app/load/run-load); recorded as `load` in manifest.json. Every rule between fields is checked here. */
export const LoadSpecSchema = LoadSpecShapeSchema.superRefine((spec, ctx) => {
  const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (spec.model === 'open' && spec.concurrency !== undefined)
    problem('the open model takes a rate, not a concurrency');
  if (spec.model === 'closed' && spec.rate !== undefined) problem('the closed model takes a concurrency, not a rate');
  if (spec.stages === null && spec.model === 'open' && spec.rate === undefined)
    problem('the open model needs a rate or stages');
  if (spec.stages === null && spec.model === 'closed' && spec.concurrency === undefined)
    problem('the closed model needs a concurrency or stages');
  if (spec.stages !== null && (spec.rate !== undefined || spec.concurrency !== undefined))
    problem('stages set the rate or users themselves');
  if (spec.stages !== null && spec.duration_ms !== null) problem('stages set the duration themselves');
  if (spec.stages === null && spec.duration_ms === null && spec.requests === null)
    problem('give a duration, a request count or stages');
  if (spec.token_weights !== null && spec.token_weights.length !== spec.tokens) problem('one weight per token');
  const length = spec.stages ? stagesDurationMs(spec.stages) : spec.duration_ms;
  if (length !== null && spec.warmup_ms + spec.cooldown_ms >= length) {
    ctx.addIssue({
      code: 'custom',
      message: 'warm-up and cool-down take the whole schedule',
      path: [spec.warmup_ms > 0 ? 'warmup_ms' : 'cooldown_ms'],
    });
  }
  if (spec.think_time !== null && !spec.conversations)
    ctx.addIssue({
      code: 'custom',
      message: 'it is the wait between the turns of a conversation: give --conversations too',
      path: ['think_time'],
    });
  if (spec.conversations && spec.operation !== 'chat')
    ctx.addIssue({
      code: 'custom',
      message: "plays the chat operation's conversations: not with --operation open-urls",
      path: ['conversations'],
    });
});
export type LoadSpec = z.output<typeof LoadSpecSchema>;

/** The set name open-urls records carry. */
export const OPEN_URLS_SET = 'open-urls';

/** One arrival's request: the planned chat request (for open-urls, its identity only) and the URLs to open, if any. */
export interface LoadRequest {
  readonly planned: PlannedRequest;
  /** Chat only: `planned.body` serialised once, so the send path does not serialise it again. */
  readonly payload: string | null;
  /** Open-urls only: the URLs of the request; null for chat. */
  readonly urls: readonly string[] | null;
}

export interface LoadPlan {
  /** Distinct questions (or URLs; with conversations, conversations) the plan draws from. */
  readonly size: number;
  /** The request of arrival `index` (global, from 0). */
  requestFor(index: number): LoadRequest;
  /**
   * With conversations: the turns arrival `index` plays, in order (a question on its own is one
   * turn). Every turn carries the arrival's index as its `index` and `repeat` (its key stays unique);
   * a later turn follows the one before it of the same arrival. Without: [requestFor(index)].
   */
  conversationFor(index: number): LoadRequest[];
}

export type LoadPlanInput =
  | {
      readonly operation: 'chat';
      /** The dataset's rows: by offset in its file (dataset/row-source indexDataset), or held (tests). */
      readonly rows: RowSource | readonly DatasetRow[];
      readonly set: SetDefinition;
      readonly defaults: SetsDefaults;
      readonly mode: Mode;
      readonly order: QuestionOrder;
      readonly seed: number;
      /** An arrival plays a whole conversation (dataset/conversations.ts units) instead of one row. */
      readonly conversations?: boolean;
      /** The service's tools, to send a row's forced_tool name as its id (plan/tools.ts). */
      readonly toolIds?: ToolIds | null;
    }
  | {
      readonly operation: 'open-urls';
      /** `id` names the URL in records (a dataset id, or its line number). */
      readonly urls: ReadonlyArray<{ readonly id: string; readonly url: string }>;
      readonly order: QuestionOrder;
      readonly seed: number;
    };

/** A uniform draw in [0, 1) for (seed, n) without state, so any shard computes any arrival's draw. */
export function uniformAt(seed: number, n: number): number {
  return seededUniform(
    (Math.imul(seed >>> 0, 0x85ebca6b) ^ Math.imul(n >>> 0, 0x9e3779b1) ^ Math.floor(n / 2 ** 32)) >>> 0,
  )();
}

/**
 * How many units' templates a plan keeps built: all of a dataset up to this size (each body built
 * once, as before the rows were read by offset), the most recently drawn ones beyond it, so that a
 * million-row dataset's plan holds a few thousand bodies, not a million.
 */
export const TEMPLATE_CACHE_UNITS = 4096;

/** Refuses an empty source (the caller checks inputs before this); builds each unit's templates when an arrival first draws it. */
export function createLoadPlan(input: LoadPlanInput): LoadPlan {
  const units = input.operation === 'chat' ? chatUnits(input) : urlUnits(input);
  if (units.count === 0) throw new RangeError('a load plan needs at least one question or URL');
  // Seeded draws of a unit's index: the same unit for arrival n however the rows are held.
  const pick = (index: number) =>
    input.order === 'sequential' ? index % units.count : Math.floor(uniformAt(input.seed, index) * units.count);
  const built = new Map<number, LoadRequest[]>();
  const templates = (unit: number): LoadRequest[] => {
    let found = built.get(unit);
    if (found === undefined) {
      if (built.size >= TEMPLATE_CACHE_UNITS) built.delete(built.keys().next().value!);
      built.set(unit, (found = units.build(unit)));
    }
    return found;
  };
  // The template has every key an arrival's request has (`unit` too, chatTemplate): the copy takes
  // its shape and these keys are set in place. A key the template lacked was added to every copy
  // through a transition of its shape: 3-5 µs a request, against 0.1-0.15 (docs/benchmarks-log.md, session 37).
  const at = (template: LoadRequest, index: number): LoadRequest => {
    const { planned } = template;
    const step = planned.conversation ?? null;
    return {
      urls: template.urls,
      payload: template.payload,
      planned: {
        ...planned,
        index,
        unit: index,
        repeat: index,
        key: requestKey(planned.question_id, planned.set, planned.mode, index),
        ...(step === null ? {} : { conversation: { ...step, follows: step.turn === 1 ? null : index } }),
      },
    };
  };
  return {
    size: units.count,
    requestFor: (index) => at(templates(pick(index))[0]!, index),
    conversationFor: (index) => templates(pick(index)).map((template) => at(template, index)),
  };
}

/** The units a plan draws from: how many, and the templates of one (its rows read then). */
interface Units {
  readonly count: number;
  build(unit: number): LoadRequest[];
}

function chatUnits(input: Extract<LoadPlanInput, { operation: 'chat' }>): Units {
  const rows: RowSource = isRowSource(input.rows) ? input.rows : rowsInMemory(input.rows);
  const conversations = input.conversations === true;
  return {
    count: conversations ? rows.unitCount : rows.length,
    build: (unit) => {
      const members = (conversations ? rows.unit(unit) : [unit]).map((at) => rows.row(at));
      return members.map((row) => chatTemplate(input, row, members.length));
    },
  };
}

const isRowSource = (rows: RowSource | readonly DatasetRow[]): rows is RowSource => !Array.isArray(rows);

function urlUnits(input: Extract<LoadPlanInput, { operation: 'open-urls' }>): Units {
  const templates = urlTemplates(input);
  return { count: templates.length, build: (unit) => [templates[unit]!] };
}

function chatTemplate(
  input: Extract<LoadPlanInput, { operation: 'chat' }>,
  row: DatasetRow,
  turns: number,
): LoadRequest {
  const { set, mode, defaults } = input;
  const body = buildBody(row, set, mode === 'stream', defaults, input.toolIds ?? null);
  return {
    urls: null,
    payload: JSON.stringify(body),
    planned: {
      index: 0,
      key: '',
      repeat: 0,
      question_id: row.id,
      question: row.question,
      category: row.category,
      metadata: row.metadata,
      expected_document_ids: row.expectations.expected_document_ids,
      set: set.name,
      mode,
      model_names: set.llm_overrides?.map(modelName) ?? null,
      body,
      expectations: row.expectations,
      conversation:
        input.conversations === true && row.conversation !== null
          ? { id: row.conversation, turn: row.turn ?? 1, turns, follows: null, continue_with: set.continue_with ?? 0 }
          : null,
      unit: 0, // set per arrival (createLoadPlan's `at`), last as an arrival's request has it
    },
  };
}

function urlTemplates(input: Extract<LoadPlanInput, { operation: 'open-urls' }>): LoadRequest[] {
  return input.urls.map(({ id, url }) => ({
    urls: [url],
    payload: null,
    planned: {
      index: 0,
      key: '',
      repeat: 0,
      question_id: id,
      question: url,
      category: null,
      metadata: { url },
      expected_document_ids: [],
      set: OPEN_URLS_SET,
      mode: 'full',
      model_names: null,
      body: { message: url, stream: false },
      expectations: { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: false },
      unit: 0, // set per arrival (createLoadPlan's `at`)
    },
  }));
}

/** A URL to open and the id its records carry. */
export type UrlEntry = Extract<LoadPlanInput, { operation: 'open-urls' }>['urls'][number];

function checkUrl(url: string, where: string, problems: string[]): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      problems.push(`${where}: "${url}" is not an http(s) URL`);
  } catch {
    problems.push(`${where}: "${url}" is not a URL`);
  }
}

/** `--urls-file`: one URL per line; blank lines and `#` comments skipped; the id is the line number. */
export function parseUrlList(text: string, file: string): UrlEntry[] {
  const urls: UrlEntry[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const url = raw.trim();
    if (url === '' || url.startsWith('#')) return;
    checkUrl(url, `${file}:${i + 1}`, problems);
    urls.push({ id: String(i + 1), url });
  });
  if (urls.length === 0 && problems.length === 0) problems.push(`${file}: no URLs (one per line)`);
  if (problems.length > 0) throw new InputError(problems);
  return urls;
}

/** A CSV dataset's `url` column (the id from an `id` column, else the row number). */
export function parseUrlCsv(text: string, file: string): UrlEntry[] {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
    });
  } catch (error) {
    throw new InputError([`${file}: ${(error as Error).message}`], { cause: error });
  }
  if (rows.length === 0) throw new InputError([`${file}: no rows`]);
  if (!('url' in rows[0]!))
    throw new InputError([`${file}: no "url" column; --operation open-urls reads URLs from it`]);
  const problems: string[] = [];
  const urls = rows.map((row, i) => {
    const url = (row.url ?? '').trim();
    if (url === '') problems.push(`${file}: row ${i + 1}: url is empty`);
    else checkUrl(url, `${file}: row ${i + 1}`, problems);
    return { id: row.id?.trim() || String(i + 1), url };
  });
  if (problems.length > 0) throw new InputError(problems);
  return urls;
}

/** The schedule of a spec, computed before the run. */
export interface LoadSchedule {
  /** Planned length, ms; null when only a request count bounds the run. */
  readonly lengthMs: number | null;
  /** The open model's arrivals of one shard (null: all of them). */
  arrivalOptions(shard: Shard | null): ArrivalOptions;
  /** The closed model's user count over time for one shard. */
  userSteps(shard: Shard | null): UserStep[];
  /** Arrivals (open) or the request bound (closed) of one shard; null when unknown before the run. */
  planned(shard: Shard | null): number | null;
  /**
   * planned(), counted no further than `cap` (a long run's arrivals are not all drawn for it); `cap`
   * when the run is bounded by its duration alone (the closed model without --requests).
   */
  plannedUpTo(shard: Shard | null, cap: number): number;
  /** Sockets a shard needs at most. */
  connections(shard: Shard | null): number;
  /**
   * Connections worth opening before the first send: the users of the closed model; for the open
   * model the arrivals due in the first second, at most `connections` and FIRST_WAVE_CAP.
   */
  firstWave(shard: Shard | null): number;
}

/** The most connections a load run opens ahead of its first send. */
export const FIRST_WAVE_CAP = 256;

export function loadSchedule(spec: LoadSpec): LoadSchedule {
  const lengthMs = spec.stages ? stagesDurationMs(spec.stages) : spec.duration_ms;
  const arrivalOptions = (shard: Shard | null): ArrivalOptions => ({
    profile: spec.stages ? stagesProfile(spec.stages) : constantProfile(spec.rate ?? 0, lengthMs ?? Infinity),
    shape: spec.arrival,
    seed: spec.seed,
    maxArrivals: spec.requests,
    shard,
  });
  const open = spec.model === 'open';
  /** A shard's arrivals, drawn no further than `cap`. */
  const countArrivals = (shard: Shard | null, cap: number): number => {
    let n = 0;
    for (const _ of arrivals(arrivalOptions(shard))) if (++n >= cap) break;
    return n;
  };
  const users = spec.stages ? Math.max(...spec.stages.map((s) => s.target)) : (spec.concurrency ?? 1);
  return {
    lengthMs,
    arrivalOptions,
    userSteps: (shard) => userSteps(spec.stages ? { stages: spec.stages } : { users: spec.concurrency ?? 1 }, shard),
    planned(shard) {
      if (!open) return spec.requests === null ? null : shardUsers(spec.requests, shard);
      return countArrivals(shard, Infinity);
    },
    plannedUpTo(shard, cap) {
      if (!open) return Math.min(cap, this.planned(shard) ?? cap);
      return countArrivals(shard, cap);
    },
    connections: (shard) =>
      open ? (spec.connections ?? spec.max_in_flight) : Math.max(1, shardUsers(Math.ceil(users), shard)),
    firstWave(shard) {
      const cap = Math.min(FIRST_WAVE_CAP, this.connections(shard));
      if (!open)
        return Math.min(
          cap,
          Math.max(1, shardUsers(Math.ceil(spec.stages ? (spec.stages[0]?.target ?? 1) : users), shard)),
        );
      let n = 0;
      for (const arrival of arrivals(arrivalOptions(shard))) {
        if (arrival.offset_ms >= 1000 || n >= cap) break;
        n++;
      }
      return Math.max(1, n);
    },
  };
}

/**
 * Arrivals a spec plans, every shard together, from its rate profile's integral (the schedule is
 * not walked: a rate of 1e9/s must be refused, not counted). Poisson schedules land near it. Null
 * for the closed model without --requests: how many requests users send depends on the service.
 */
export function expectedArrivals(spec: LoadSpec): number | null {
  if (spec.model === 'closed') return spec.requests;
  const profile = spec.stages
    ? stagesProfile(spec.stages)
    : constantProfile(spec.rate ?? 0, spec.duration_ms ?? Infinity);
  const area = profile.reduce((sum, segment) => sum + areaOf(segment), 0);
  return Math.min(spec.requests ?? Infinity, Math.ceil(area));
}

/**
 * Why the schedule of `spec` is too large to run, or undefined: more arrivals than LIMITS.loadRequests,
 * or more records than half of `heapBytes` can hold for the load figures (computed in memory).
 */
export function scheduleTooLarge(spec: LoadSpec, heapBytes: number): string | undefined {
  const total = expectedArrivals(spec);
  if (total === null) return undefined;
  const how =
    spec.requests !== null && total === spec.requests
      ? '--requests'
      : spec.stages
        ? 'the area under --stages'
        : 'rate × duration';
  if (total > LIMITS.loadRequests)
    return `the schedule plans about ${formatCount(total)} requests (${how}), over the limit of ${formatCount(LIMITS.loadRequests)}: lower the rate or the duration`;
  const mine = spec.shard ? Math.ceil(total / spec.shard.count) : total;
  const needed = mine * BYTES_PER_PLANNED_REQUEST;
  if (needed > heapBytes / 2) {
    return `the schedule plans about ${formatCount(mine)} requests${spec.shard ? ' for this shard' : ''} (${how}), whose records would need about ${formatBytes(needed)} of memory for the load figures, more than the ${formatBytes(heapBytes / 2)} this process may use (half its heap): split it with --shard`;
  }
  return undefined;
}

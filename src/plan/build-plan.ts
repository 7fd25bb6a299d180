/**
 * @module plan/build-plan
 * The evaluation plan: questions × sets × modes × repeats, decided before the first request (style.md
 * rule 2) but built lazily, request by request, so that memory does not grow with its size. Pure.
 */
import type { LLMOverride, SendMessageRequest } from '../api/index.js';
import { rowsInMemory, type DatasetRow, type RowSource } from '../dataset/index.js';
import { requestKey, type Mode } from '../records/record.js';
import type { ModeOption, SetDefinition, SetsDefaults } from '../sets/index.js';
import { plannedModes } from '../sets/index.js';
import type { PlannedRequest } from './planned-request.js';
import { inShard, type Shard } from './shard.js';
import { forcedToolId, type ToolIds } from './tools.js';

export interface PlanInput {
  /** The dataset's rows: held (tests, small plans), or a RowSource that reads them as the plan reaches them. */
  readonly rows: readonly DatasetRow[] | RowSource;
  readonly sets: readonly SetDefinition[];
  readonly defaults: SetsDefaults;
  readonly mode: ModeOption;
  /** How many times each question × set × mode is asked; at least 1. */
  readonly repeat: number;
  /** The service's tools by name (plan/tools.ts), to send a row's `forced_tool` name as its id. */
  readonly toolIds?: ToolIds | null | undefined;
}

/**
 * Orders the plan repeat by repeat, and within a repeat question by question with every set and
 * mode of a question side by side, so that a drift of the service over the run (a cache warming,
 * a deploy) touches every set alike instead of favouring the set that ran first. A conversation
 * stands where its first row stands, its turns in order under each set and mode: each is one
 * `unit` (dataset/conversations.ts), every later turn `follows` the one before it.
 *
 * Lazy: each request (and its body) is built when it is reached, so a plan of a million requests
 * takes no more memory than one of ten; iterate it as many times as needed, it is the same each time.
 */
export function* planRequests(input: PlanInput, shard?: Shard | null): Generator<PlannedRequest> {
  const layout = planLayout(input);
  let index = 0;
  let unit = 0;
  for (let repeat = 0; repeat < input.repeat; repeat += 1) {
    let question = 0;
    for (const rows of layout.units) {
      const mine = inShard(question++, shard);
      for (const { set, mode, modelNames } of layout.pairs) {
        if (!mine) {
          index += rows.length;
          unit += 1;
          continue;
        }
        let previous: number | null = null;
        for (const at of rows) {
          const row = layout.source.row(at);
          yield {
            index,
            unit,
            conversation:
              row.conversation === null
                ? null
                : {
                    id: row.conversation,
                    turn: row.turn ?? 1,
                    turns: rows.length,
                    follows: previous,
                    continue_with: set.continue_with ?? 0,
                  },
            key: requestKey(row.id, set.name, mode, repeat),
            question_id: row.id,
            question: row.question,
            category: row.category,
            metadata: row.metadata,
            expected_document_ids: row.expectations.expected_document_ids,
            set: set.name,
            mode,
            repeat,
            model_names: modelNames,
            body: buildBody(row, set, mode === 'stream', input.defaults, input.toolIds),
            expectations: row.expectations,
          };
          previous = index;
          index += 1;
        }
        unit += 1;
      }
    }
  }
}

/** The whole plan as an array (small plans and tests; a run iterates createEvalPlan instead). */
export function buildPlan(input: PlanInput): PlannedRequest[] {
  return [...planRequests(input)];
}

/** The rows of a plan's input as a RowSource (held rows wrapped once per array). */
const sources = new WeakMap<readonly DatasetRow[], RowSource>();
function sourceOf(rows: PlanInput['rows']): RowSource {
  if (!Array.isArray(rows)) return rows as RowSource;
  const held = rows as readonly DatasetRow[];
  let source = sources.get(held);
  if (source === undefined) sources.set(held, (source = rowsInMemory(held)));
  return source;
}

/** The units of a source as row index lists, lazily. */
function* unitsOf(source: RowSource): Generator<readonly number[]> {
  for (let unit = 0; unit < source.unitCount; unit += 1) yield source.unit(unit);
}

/** The shape of a plan without its requests: its units (row indexes) and the set and mode pairs each is asked under. */
function planLayout(input: Omit<PlanInput, 'defaults'>) {
  const source = sourceOf(input.rows);
  const pairs = input.sets.flatMap((set) => {
    const modelNames = set.llm_overrides?.map(modelName) ?? null;
    return plannedModes(set, input.mode).map((mode) => ({ set, mode, modelNames }));
  });
  return {
    source,
    units: { [Symbol.iterator]: () => unitsOf(source), length: source.unitCount },
    pairs,
    perRepeat: source.length * pairs.length,
  };
}

/**
 * A plan (or one shard of it) to iterate lazily: requests are built as the run reaches them.
 * `length` counts this shard's requests; `keyIndex` finds where a recorded key stands in the
 * whole plan (resume reads keys into a bitset by it), null when the key is not in this shard.
 */
export interface EvalPlan extends Iterable<PlannedRequest> {
  /** Requests in this shard (the whole plan without a shard). */
  readonly length: number;
  /** Requests of the whole plan, before sharding. */
  readonly total: number;
  /** Modes and conversation turn numbers the plan asks (for messages and gates). */
  readonly modes: readonly Mode[];
  readonly turns: readonly number[];
  /** Plan index of `key` when it is one of this shard's requests; null otherwise. */
  keyIndex(key: string): number | null;
}

/** The plan of `input` (one shard of it with `shard`), lazily: see planRequests. */
export function createEvalPlan(input: PlanInput, shard?: Shard | null): EvalPlan {
  const layout = planLayout(input);
  let perRepeat = 0;
  let question = 0;
  for (const rows of layout.units) if (inShard(question++, shard)) perRepeat += rows.length * layout.pairs.length;
  const length = perRepeat * input.repeat;
  // `question|set|mode` → [position within a repeat, the question's unit of the dataset]; built on the first lookup.
  let positions: Map<string, readonly [number, number]> | undefined;
  const keyIndex = (key: string): number | null => {
    if (positions === undefined) {
      positions = new Map();
      let position = 0;
      let question = 0;
      for (const rows of layout.units) {
        for (const { set, mode } of layout.pairs) {
          for (const at of rows)
            positions.set(requestKey(layout.source.id(at), set.name, mode, 0).slice(0, -2), [position++, question]);
        }
        question += 1;
      }
    }
    const bar = key.lastIndexOf('|');
    const repeatText = key.slice(bar + 1);
    const repeat = Number(repeatText);
    if (bar < 0 || !/^(0|[1-9]\d*)$/.test(repeatText) || repeat >= input.repeat) return null;
    const at = positions.get(key.slice(0, bar));
    if (at === undefined || !inShard(at[1], shard)) return null;
    return repeat * layout.perRepeat + at[0];
  };
  const turns = layout.source.turns;
  return {
    length,
    total: input.repeat * layout.perRepeat,
    modes: [...new Set(layout.pairs.map((p) => p.mode))],
    turns,
    keyIndex,
    [Symbol.iterator]: () => planRequests(input, shard),
  };
}

/** How many requests buildPlan would make, and how (for messages), without building them. */
export function planSize(input: Omit<PlanInput, 'defaults'>): { requests: number; how: string } {
  const perQuestion = planLayout({ ...input, rows: [] }).pairs.length;
  const requests = input.rows.length * perQuestion * input.repeat;
  return {
    requests,
    how: `${input.rows.length} questions × ${perQuestion} set and mode pairs × ${input.repeat} repeats`,
  };
}

/** The display name of one model of a multi-model set: display_name, else model_version, else its slot. */
export function modelName(override: LLMOverride, index: number): string {
  return override.display_name ?? override.model_version ?? `model ${index}`;
}

/**
 * One request body. Each request creates its own chat session (no chat_session_id), so answers
 * never depend on an earlier question; persona and project come from the row, else the defaults.
 * A later turn of a conversation is sent in its first turn's session instead: the runner swaps
 * `chat_session_info` for the session (plan/conversation.ts). Fields left out take the service's
 * defaults; the row's `forced_tool` wins over the defaults' `forced_tool_id`.
 */
export function buildBody(
  row: DatasetRow,
  set: SetDefinition,
  stream: boolean,
  defaults: SetsDefaults,
  toolIds?: ToolIds | null,
): SendMessageRequest {
  const body: SendMessageRequest = {
    message: row.question,
    stream,
    chat_session_info: {
      persona_id: row.persona_id ?? defaults.persona_id ?? 0,
      ...(projectId(row, defaults) === undefined ? {} : { project_id: projectId(row, defaults) }),
    },
  };
  if (set.llm_override) body.llm_override = set.llm_override;
  if (set.llm_overrides) body.llm_overrides = set.llm_overrides;
  if (row.filters) body.internal_search_filters = row.filters;
  const additional = row.additional_context ?? defaults.additional_context;
  if (additional !== undefined) body.additional_context = additional;
  if (defaults.include_citations !== undefined) body.include_citations = defaults.include_citations;
  if (defaults.allowed_tool_ids) body.allowed_tool_ids = defaults.allowed_tool_ids;
  const forced = forcedToolId(row.forced_tool, toolIds ?? null) ?? defaults.forced_tool_id;
  if (forced !== undefined) body.forced_tool_id = forced;
  if (defaults.origin) body.origin = defaults.origin;
  if (defaults.mcp_headers) body.mcp_headers = defaults.mcp_headers;
  if (deepResearch(row, set, defaults)) body.deep_research = true;
  return body;
}

/** Deep research for this row under this set: the row's column, else the set's field, else the defaults'. */
export function deepResearch(
  row: Pick<DatasetRow, 'deep_research'>,
  set: Pick<SetDefinition, 'deep_research'>,
  defaults: Pick<SetsDefaults, 'deep_research'>,
): boolean {
  return row.deep_research ?? set.deep_research ?? defaults.deep_research ?? false;
}

const projectId = (row: DatasetRow, defaults: SetsDefaults): number | undefined =>
  row.project_id ?? defaults.project?.id;

/**
 * The rows that ask for deep research under a multi-model set: the service refuses that pair
 * (VALIDATION_ERROR), so it is refused before anything is sent. One problem per row and set. (A
 * set or the defaults asking for it with a multi-model set is a problem of the sets file.)
 */
export function deepResearchProblems(
  rows: readonly Pick<DatasetRow, 'line' | 'deep_research'>[],
  sets: readonly SetDefinition[],
  datasetName: string,
): string[] {
  return rows.flatMap((row) =>
    sets
      .filter((set) => set.multi && row.deep_research === true)
      .map(
        (set) =>
          `${datasetName}:${row.line}: deep_research: true, but set ${JSON.stringify(set.name)} is multi-model: the service refuses deep research in multi-model mode`,
      ),
  );
}

/**
 * @module app/load/prepare-load
 * A load run's inputs, read and checked before anything is sent: the questions and the one set
 * sent (chat), or the URLs (open-urls). Every problem of every input is listed in one InputError.
 * What a run and its worker threads build their plans from (load-record.ts `planInput`).
 */
import { resolve } from 'node:path';
import { indexDataset, type RowSource } from '../../dataset/index.js';
import { withTightHeap } from '../shared/heap.js';
import { readUtf8File } from '../../dataset/read-text.js';
import { InputError, UsageError } from '../../errors.js';
import { parseUrlCsv, parseUrlList, type LoadSpec, type UrlEntry } from '../../plan/load-plan.js';
import { toolIdsOf, type ToolIds } from '../../plan/tools.js';
import type { Mode } from '../../records/record.js';
import { checkSetsForMode, resolveSets, type SetDefinition, type SetsDefaults } from '../../sets/index.js';
import { createProblemCollector } from '../shared/collect-problems.js';
import { sha256File, type Manifest } from '../store/manifest.js';

export interface LoadInputs {
  readonly operation: LoadSpec['operation'];
  readonly mode: Mode;
  /** Chat: the questions; open-urls: a CSV with a `url` column (or use urlsFile). */
  readonly datasetPath?: string | undefined;
  readonly urlsFile?: string | undefined;
  readonly modelsPath?: string | undefined;
  readonly setFlags: readonly string[];
  /** Which set of the sets file; needed when it has more than one. */
  readonly setName?: string | undefined;
  readonly cwd: string;
  /** The target's tools when known (the embedded simulator's), name → id; the sets file's defaults.tool_ids wins. */
  readonly toolIds?: ToolIds | null | undefined;
}

/** Checked inputs: what the plan draws from, and what the manifest says about it. */
export interface PreparedLoad {
  readonly source:
    | {
        operation: 'chat';
        /** The rows by byte offset (dataset/row-source): a worker thread opens them again from `file`. */
        rows: RowSource;
        /** The dataset's absolute path. */
        file: string;
        set: SetDefinition;
        defaults: SetsDefaults;
        toolIds: ToolIds | null;
      }
    | { operation: 'open-urls'; urls: UrlEntry[] };
  readonly dataset: Manifest['dataset'];
  readonly models: Manifest['models'];
  readonly sets: Manifest['sets'];
  readonly defaults: SetsDefaults;
}

/** Reads and checks every input; lists the problems of all of them in one InputError. */
export async function prepareLoad(inputs: LoadInputs): Promise<PreparedLoad> {
  if (inputs.operation === 'open-urls') return prepareUrls(inputs);
  if (inputs.datasetPath === undefined) throw new UsageError('--dataset is required for the chat operation');
  const setsRead = createProblemCollector();
  const set = await setsRead.collect(async () => {
    const resolved = await resolveSets({ modelsPath: inputs.modelsPath, setFlags: inputs.setFlags, cwd: inputs.cwd });
    const chosen = chooseSet(resolved.sets, inputs.setName);
    checkSetsForMode([chosen], inputs.mode);
    return { chosen, resolved };
  });
  const toolIds = set?.resolved.defaults.tool_ids
    ? toolIdsOf(Object.entries(set.resolved.defaults.tool_ids))
    : (inputs.toolIds ?? null);
  const datasetRead = createProblemCollector();
  const file = resolve(inputs.cwd, inputs.datasetPath);
  // The pass's garbage (every row parsed and validated) is held to withTightHeap's growth, as the reports' is.
  const dataset = await datasetRead.collect(() => withTightHeap(() => indexDataset({ path: file }, { toolIds })));
  // The dataset's problems first, then the sets' (the order every input problem is listed in).
  const problems = [...datasetRead.problems, ...setsRead.problems];
  if (problems.length > 0 || !dataset || !set) throw new InputError(problems);
  const { chosen, resolved } = set;
  return {
    source: { operation: 'chat', rows: dataset.rows, file, set: chosen, defaults: resolved.defaults, toolIds },
    dataset: { path: inputs.datasetPath, sha256: await sha256File(file), questions: dataset.rows.length },
    models: resolved.modelsPath
      ? { path: resolved.modelsPath, sha256: await sha256File(resolve(inputs.cwd, resolved.modelsPath)) }
      : null,
    sets: [
      {
        name: chosen.name,
        multi: chosen.multi,
        ...(chosen.encoding === undefined ? {} : { encoding: chosen.encoding }),
        models: (chosen.llm_overrides ?? (chosen.llm_override ? [chosen.llm_override] : [])).map(
          (o) => o.display_name ?? o.model_version ?? 'configured model',
        ),
      },
    ],
    defaults: resolved.defaults,
  };
}

/** A load run sends one set: the only one, or the one named. */
function chooseSet(sets: readonly SetDefinition[], name: string | undefined): SetDefinition {
  if (name !== undefined) {
    const found = sets.find((s) => s.name === name);
    if (!found)
      throw new InputError([`--set-name ${name}: no such set; the sets are ${sets.map((s) => s.name).join(', ')}`]);
    return found;
  }
  if (sets.length > 1)
    throw new InputError([
      `a load run sends one set, and ${sets.length} are defined (${sets.map((s) => s.name).join(', ')}): pick one with --set-name`,
    ]);
  return sets[0]!;
}

async function prepareUrls(inputs: LoadInputs): Promise<PreparedLoad> {
  const path = inputs.urlsFile ?? inputs.datasetPath;
  if (path === undefined)
    throw new UsageError('--operation open-urls needs --urls-file (one URL per line) or --dataset with a url column');
  const full = resolve(inputs.cwd, path);
  const text = await readUtf8File({ path, cwd: inputs.cwd });
  const urls = inputs.urlsFile !== undefined ? parseUrlList(text, path) : parseUrlCsv(text, path);
  return {
    source: { operation: 'open-urls', urls },
    dataset: { path, sha256: await sha256File(full), questions: urls.length },
    models: null,
    sets: [{ name: 'open-urls', multi: false, models: [] }],
    defaults: {},
  };
}

/** What a worker thread is sent of a PreparedLoad (structured clone): the chat rows' path, not the rows. */
export type SentLoad = Omit<PreparedLoad, 'source'> & {
  readonly source:
    | Omit<Extract<PreparedLoad['source'], { operation: 'chat' }>, 'rows'>
    | Extract<PreparedLoad['source'], { operation: 'open-urls' }>;
};

export function sendableLoad(prepared: PreparedLoad): SentLoad {
  if (prepared.source.operation !== 'chat') return prepared;
  const { rows: _rows, ...source } = prepared.source;
  return { ...prepared, source };
}

/**
 * A worker thread's PreparedLoad: the dataset indexed again from its path (validated once more, in
 * bounded memory), refused if it is no longer the file the parent checked (its row count differs;
 * a later change is refused when a row is read, dataset/row-file).
 */
export async function reopenLoad(sent: SentLoad): Promise<PreparedLoad> {
  if (sent.source.operation !== 'chat') return sent as PreparedLoad;
  const { source } = sent;
  const dataset = await indexDataset({ path: source.file }, { toolIds: source.toolIds });
  if (dataset.rows.length !== sent.dataset.questions)
    throw new InputError([
      `${sent.dataset.path}: the file changed during the run (${dataset.rows.length} rows, ${sent.dataset.questions} checked)`,
    ]);
  return { ...sent, source: { ...source, rows: dataset.rows } };
}

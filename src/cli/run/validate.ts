/**
 * @module cli/run/validate
 * `chatbench validate`: reads the dataset and the model sets exactly as `eval` would, sends
 * nothing, and prints either a short summary of what would run or every problem at once (exit 2).
 * The run; its flags and help are cli/commands/validate.ts.
 */
import type { LLMOverride } from '../../api/index.js';
import { metadataColumns, scanDataset, type DatasetShape } from '../../dataset/index.js';
import { addRow, emptySummary, type DatasetSummary } from '../../dataset/summary.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExitCode, InputError, UsageError } from '../../errors.js';
import { datasetWarnings } from '../../dataset/warnings.js';
import { parseJsonText } from '../../util/parse-json.js';
import { z } from 'zod';
import { outputOf } from '../output/output.js';
import {
  checkSetsForMode,
  plannedModes,
  resolveSets,
  type ModeOption,
  type ResolvedSets,
  type SetDefinition,
  type SetsDefaults,
} from '../../sets/index.js';
import { deepResearchProblems } from '../../plan/build-plan.js';
import { toolIdsOf } from '../../plan/tools.js';
import { simulatorToolIds } from '../../app/shared/target.js';
import type { CommandRun } from '../commands/define.js';
import type { ValidateArgs } from '../commands/validate.js';

/** A corpus as far as validate reads it: the documents' ids (the simulator's file, or any with this shape). */
const CorpusIdsSchema = z.looseObject({ documents: z.array(z.looseObject({ document_id: z.string().min(1) })) });

/** The corpus the expected ids are checked against: --corpus FILE, the simulator's with --sim, else none. */
async function corpusIds(args: ValidateArgs, cwd: string): Promise<{ name: string; ids: Set<string> } | null> {
  if (args.corpus === undefined && args.sim !== true) return null;
  const { DEFAULT_CORPUS_URL } = await import('../../sim/corpus/index.js');
  const path = args.corpus === undefined ? fileURLToPath(DEFAULT_CORPUS_URL) : resolve(cwd, args.corpus);
  const name = args.corpus ?? "datasets/corpus.json (the simulator's)";
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError([
      `${name}: cannot read the corpus (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  const corpus = parseJsonText(text, name, CorpusIdsSchema, {
    hint: 'a corpus is {"documents": [{"document_id": "...", ...}, ...]}, as datasets/corpus.json',
  });
  return { name, ids: new Set(corpus.documents.map((d) => d.document_id)) };
}

/** What `--json` prints: the same facts as the text, and the warnings. */
export function validationJson(
  dataset: ValidatedDataset,
  resolved: ResolvedSets,
  mode: ModeOption,
  warnings: readonly string[],
) {
  const requests = Object.fromEntries(
    (['stream', 'full'] as const).map((m) => [
      m,
      dataset.summary.questions * resolved.sets.filter((set) => plannedModes(set, mode).includes(m)).length,
    ]),
  );
  return {
    command: 'validate',
    exit_code: ExitCode.Ok,
    verdict: 'OK: nothing was sent',
    dataset: { path: dataset.path, questions: dataset.summary.questions, metadata_columns: metadataColumns(dataset) },
    sets: resolved.sets.map((set) => ({ name: set.name, multi: set.multi, models: describeSet(set) })),
    plan: { mode, requests, total: requests.stream! + requests.full! },
    warnings,
  };
}

/** The dataset as validate keeps it: its shape, its counts and its warnings, never its rows. */
export interface ValidatedDataset extends DatasetShape {
  readonly summary: DatasetSummary;
  readonly warnings: string[];
}

type Corpus = Awaited<ReturnType<typeof corpusIds>>;

/**
 * Reads both inputs, so the problems of the dataset and of the sets show in one go. The dataset is
 * streamed: each row is counted, warned about and checked against the sets as it passes, and not
 * kept (a dataset of a million rows costs its counts).
 */
async function readInputs(
  args: ValidateArgs,
  cwd: string,
  corpus: Corpus,
): Promise<{ dataset: ValidatedDataset; resolved: ResolvedSets }> {
  const [resolved] = await Promise.allSettled([
    resolveSets({ modelsPath: args['sets-file'], setFlags: args.set ?? [], cwd }),
  ]);
  // Tool names are checked against the sets file's tool_ids, else (--sim) the simulator's catalogue.
  const named = resolved.status === 'fulfilled' ? resolved.value.defaults.tool_ids : undefined;
  const toolIds = named ? toolIdsOf(Object.entries(named)) : args.sim ? await simulatorToolIds() : null;
  const summary = emptySummary();
  const warnings: string[] = [];
  const deepResearch: string[] = [];
  const [dataset] = await Promise.allSettled([
    scanDataset(
      { path: args.dataset, cwd },
      {
        toolIds,
        onRow: (row) => {
          addRow(summary, row);
          warnings.push(...datasetWarnings({ path: args.dataset, rows: [row] }, corpus));
          if (resolved.status === 'fulfilled')
            deepResearch.push(...deepResearchProblems([row], resolved.value.sets, args.dataset));
        },
      },
    ),
  ]);
  const problems = [dataset, resolved].flatMap((result) => {
    if (result.status === 'fulfilled') return [];
    if (result.reason instanceof InputError) return result.reason.problems;
    throw result.reason;
  });
  if (resolved.status === 'fulfilled') {
    try {
      checkSetsForMode(resolved.value.sets, args.mode);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
    if (dataset.status === 'fulfilled') problems.push(...deepResearch);
  }
  if (problems.length > 0 || dataset.status !== 'fulfilled' || resolved.status !== 'fulfilled')
    throw new InputError(problems);
  return { dataset: { ...dataset.value, summary, warnings }, resolved: resolved.value };
}

/** `openai gpt-4o-mini, temperature 0`; an empty override is the configured model. */
export function describeOverride(override: LLMOverride): string {
  const parts = [
    [override.model_provider, override.model_version].filter(Boolean).join(' '),
    override.model_configuration_id == null ? '' : `configuration ${override.model_configuration_id}`,
    override.display_name == null ? '' : `shown as ${JSON.stringify(override.display_name)}`,
    override.temperature == null ? '' : `temperature ${override.temperature}`,
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(', ') : "the service's configured model";
}

function describeSet(set: SetDefinition): string {
  const deep = set.deep_research === undefined ? '' : `, deep research ${set.deep_research ? 'on' : 'off'}`;
  if (set.llm_overrides !== null)
    return `multi-model (stream only): ${set.llm_overrides.map(describeOverride).join(' | ')}${deep}`;
  if (set.llm_override !== null) return `${describeOverride(set.llm_override)}${deep}`;
  return `the service's configured model${deep}`;
}

/** mcp_headers values are secrets: only their names are shown. */
function describeDefaults(defaults: SetsDefaults): string {
  const parts = Object.entries(defaults).map(([key, value]) => {
    if (key === 'mcp_headers')
      return `mcp_headers={${Object.keys(value as object)
        .map((name) => `${name}: <redacted>`)
        .join(', ')}}`;
    if (key === 'project') {
      const project = value as NonNullable<SetsDefaults['project']>;
      return `project=${project.id} (instructions, ${project.instructions.length} characters)`;
    }
    return `${key}=${JSON.stringify(value)}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function categoryCounts(summary: DatasetSummary): string {
  return [...summary.categories].map(([name, count]) => `${name} ${count}`).join(', ');
}

/** `conversations  4 (12 turns, 2 to 4 each)` and the tool columns, when the dataset has them. */
function conversationLines(summary: DatasetSummary): string[] {
  const lines: string[] = [];
  if (summary.conversations.size > 0) {
    let turns = 0;
    let least = Number.POSITIVE_INFINITY;
    let most = 0;
    for (const size of summary.conversations.values()) {
      turns += size;
      least = Math.min(least, size);
      most = Math.max(most, size);
    }
    lines.push(`  conversations ${summary.conversations.size} (${turns} turns, ${least} to ${most} each)`);
  }
  const { withExpectedTools: tools, forcingTool: forced } = summary;
  if (tools + forced > 0) lines.push(`  tools         ${tools} with expected tools, ${forced} forcing a tool`);
  return lines;
}

/** The printed summary: what `eval` with the same inputs would send. Pure. */
export function renderValidation(dataset: ValidatedDataset, resolved: ResolvedSets, mode: ModeOption): string {
  const sum = dataset.summary;
  const questions = sum.questions;
  const metadata = metadataColumns(dataset);
  const width = Math.max(8, ...resolved.sets.map((set) => set.name.length));
  const lines = [
    `Dataset ${dataset.path}`,
    `  questions     ${questions}`,
    `  categories    ${categoryCounts(sum)}`,
    `  metadata      ${metadata.length > 0 ? metadata.join(', ') : 'none'}`,
    `  expectations  ${sum.withExpectedDocuments} with expected documents, ` +
      `${sum.withPhraseChecks} with phrase checks, ` +
      `${sum.expectingNoAnswer} expecting no answer, ${sum.withFilters} with filters` +
      `${sum.settingDeepResearch > 0 ? `, ${sum.askingDeepResearch} asking for deep research` : ''}`,
    ...conversationLines(sum),
    `Sets ${resolved.modelsPath === null ? '(no --sets-file)' : `(${resolved.modelsPath})`}`,
    ...resolved.sets.map((set) => `  ${set.name.padEnd(width)}  ${describeSet(set)}`),
    `  ${'defaults'.padEnd(width)}  ${describeDefaults(resolved.defaults)}`,
    `Plan (--mode ${mode}, per repeat)`,
  ];
  let total = 0;
  for (const planned of ['stream', 'full'] as const) {
    const sets = resolved.sets.filter((set) => plannedModes(set, mode).includes(planned));
    if (sets.length === 0) continue;
    const skipped = resolved.sets.length - sets.length;
    total += questions * sets.length;
    const note = skipped > 0 ? `; ${skipped} multi-model set${skipped > 1 ? 's run' : ' runs'} streamed only` : '';
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    lines.push(
      `  ${planned.padEnd(6)}  ${plural(questions * sets.length, 'request')} (${plural(questions, 'question')} × ${plural(sets.length, 'set')}${note})`,
    );
  }
  lines.push(`  ${'total'.padEnd(6)}  ${total} request${total === 1 ? '' : 's'}`, 'OK: nothing was sent.');
  return `${lines.join('\n')}\n`;
}

/** Checks a dataset and model sets without sending anything. */

/** `chatbench validate`'s run, with the arguments its flags (commands/validate.ts) parsed. */
export const run: CommandRun<ValidateArgs> = async (a, io) => {
  if (a.sim === true && a.corpus !== undefined)
    throw new UsageError(
      "--sim and --corpus conflict: --sim checks against the simulator's corpus, --corpus against another",
    );
  const { dataset, resolved } = await readInputs(a, io.cwd, await corpusIds(a, io.cwd));
  const output = outputOf(io);
  const warnings = dataset.warnings;
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  const text = renderValidation(dataset, resolved, a.mode);
  io.stdout.write(text.slice(0, text.lastIndexOf('OK: nothing was sent.')));
  output.verdict(
    `${output.paint.good('OK')}: nothing was sent.${warnings.length > 0 ? ` ${output.paint.warn(`${warnings.length} warning${warnings.length === 1 ? '' : 's'}`)} (stderr).` : ''}`,
  );
  output.result(validationJson(dataset, resolved, a.mode, warnings));
  return ExitCode.Ok;
};

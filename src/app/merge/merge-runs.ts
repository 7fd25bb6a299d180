/**
 * @module app/merge/merge-runs
 * `chatbench merge`: joins the run directories of the shards of one plan into one run directory,
 * as if one machine had run the whole plan. Nothing is averaged: the raw records are copied byte
 * for byte into one results.jsonl, sorted by key (so the same shards always give the same file),
 * and every report is recomputed from it — a percentile of the merge is the percentile of all the
 * records. Runs that are not the shards of one plan (merge-checks.ts), and request keys found in
 * two shards, are refused before anything is written. Gates are evaluated on the merged whole.
 *
 * Memory stays small whatever the run size: the records are indexed (key, file, byte span), the
 * index sorted, and each line then read back by its span.
 */
import { createReadStream } from 'node:fs';
import { access, mkdir, open, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decide, type Verdict } from '../../verdict/index.js';
import type { ExitCode } from '../../errors.js';
import { InputError, UsageError } from '../../errors.js';
import type { Gate } from '../../figures/index.js';
import { evaluateGates, gateJunitCases, type GateVerdict } from '../../gates/index.js';
import type { LoadSummary } from '../../records/load-summary.js';
import type { Summary } from '../../records/summary.js';
import type { GeneratorHealth } from '../../records/generator-health.js';
import { loadGates, loadRun } from '../eval/compare-runs.js';
import { finishLoadMerge, parseLoadChecks, readGeneratorHealth } from '../load/merge-load.js';
import { shardOfRecord } from '../../plan/record-owner.js';
import {
  capped,
  mergeProblems,
  planOutline,
  readRunManifest,
  type MergedFrom,
  type RunManifest,
  type ShardRun,
} from '../store/merge-checks.js';
import { readRecords } from '../store/read-records.js';
import { junitQuestionsOf, renderReports } from '../eval/render-reports.js';
import { writeFileAtomic, writeFileAtomicWith } from '../store/output-files.js';

export { MergedFromSchema, RunManifestSchema, type MergedFrom, type RunManifest } from '../store/merge-checks.js';

export interface MergeOptions {
  /** The shards' run directories, as the user gave them (relative to `cwd`). */
  readonly dirs: readonly string[];
  /** The merged run directory; created; must not hold a run already. */
  readonly outDir: string;
  readonly cwd: string;
  /** Of the chatbench doing the merge, printed in the reports. */
  readonly version: string;
  /** `--gate` texts, checked on the merged run. */
  readonly gates?: readonly string[];
  /** `--gates-file` (eval runs). */
  readonly gatesFile?: string | undefined;
  /** `--slo` texts (load runs): checked on the merged measured window; they define goodput. */
  readonly slos?: readonly string[];
}

export interface MergeResult {
  /** Resolved path of the merged run directory. */
  readonly outDir: string;
  /** `eval` or `load`: the shards' command. */
  readonly command: string;
  /** Records in the merged results.jsonl. */
  readonly records: number;
  /** The shards, in shard order, as the merged manifest lists them. */
  readonly mergedFrom: readonly MergedFrom[];
  /** Not refusals: interrupted shards, torn last lines, shards that did not start together. */
  readonly warnings: readonly string[];
  /** The merged summary of eval runs; null for load runs. */
  readonly summary: Summary | null;
  /** The merged load summary of load runs; null for eval runs. */
  readonly loadSummary: LoadSummary | null;
  /** Files written, results.jsonl first. */
  readonly files: readonly string[];
  readonly gateResults: readonly GateVerdict[];
  /** The merged run's verdict (verdict/verdict): a failed gate or a broken SLO fails it. */
  readonly verdict: Verdict;
  /** The verdict's exit code. */
  readonly exitCode: ExitCode;
}

/** One record's place: which shard file, where in it. */
interface Entry {
  readonly key: string;
  readonly run: number;
  readonly offset: number;
  readonly length: number;
}

interface IndexedRun {
  readonly run: ShardRun;
  readonly file: string;
  readonly entries: Entry[];
  readonly tornLines: number;
}

/**
 * Compares request keys piece by piece, runs of digits as numbers (`q2|…` before `q10|…`, repeat
 * 2 before 10), everything else by UTF-16 code unit: no locale, so the same order on every machine.
 * Ties (`q01` vs `q1`) fall back to plain code-unit order, so the order is total.
 */
export function compareKeys(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i += 1) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    if (i % 2 === 1) {
      const nx = x.replace(/^0+(?=\d)/, '');
      const ny = y.replace(/^0+(?=\d)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Byte spans of the non-blank lines of a file, in order, a final line without a newline included;
 * a trailing `\r` is left out. "Blank" is read-records' rule (only whitespace after decoding), so
 * the spans pair one to one with the records it yields plus a torn last line.
 */
async function lineSpans(full: string): Promise<Array<{ offset: number; length: number }>> {
  const spans: Array<{ offset: number; length: number }> = [];
  let position = 0;
  let lineStart = 0;
  let parts: Buffer[] = [];
  const endLine = () => {
    const bytes = Buffer.concat(parts);
    parts = [];
    const blank = bytes[0] !== 0x7b && bytes.toString('utf8').trim() === ''; // a record starts with `{`
    const length = bytes.at(-1) === 0x0d ? bytes.length - 1 : bytes.length;
    if (!blank) spans.push({ offset: lineStart, length });
  };
  for await (const chunk of createReadStream(full) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      parts.push(chunk.subarray(from, newline));
      endLine();
      from = newline + 1;
      lineStart = position + from;
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
    position += chunk.length;
  }
  if (position > lineStart) endLine();
  return spans;
}

/**
 * Validates a shard's records (read-records: the record schema) and pairs each with its byte span.
 * Every record must belong to this shard's part of the plan (plan/record-owner): a key in no
 * shard's plan, or a record moved from another shard's file, is refused with the others found.
 */
async function indexRun(run: ShardRun, at: number, cwd: string): Promise<IndexedRun> {
  const records = readRecords(run.label, { cwd });
  const keys: string[] = [];
  const outline = planOutline(run.manifest);
  const shard = run.manifest.shard;
  const misplaced: string[] = [];
  for await (const record of records) {
    keys.push(record.key);
    if (outline === null || shard === null) continue;
    const owner = shardOfRecord(outline, record);
    if (typeof owner !== 'number')
      misplaced.push(`${records.file}: record ${record.key} is in no shard's plan: ${owner.reason}`);
    else if (owner !== shard.index)
      misplaced.push(
        `${records.file}: record ${record.key} belongs to shard ${owner}/${shard.count}, not ${shard.index}/${shard.count}: moved between shards?`,
      );
  }
  if (misplaced.length > 0)
    throw new InputError(capped(misplaced, 'misplaced records'), {
      hint: 'a shard holds only the records its own part of the plan made',
    });
  const file = join(run.path, 'results.jsonl');
  const spans = await lineSpans(file);
  if (spans.length !== keys.length + records.tornLines) {
    throw new InputError([
      `${records.file}: ${spans.length} lines but ${keys.length} records; was the file changed while merging?`,
    ]);
  }
  return { run, file, tornLines: records.tornLines, entries: keys.map((key, i) => ({ key, run: at, ...spans[i]! })) };
}

/** Every record of every shard, sorted by key; InputError listing the keys found twice. */
function mergeIndex(indexed: readonly IndexedRun[]): Entry[] {
  const all = indexed.flatMap((r) => r.entries).sort((a, b) => compareKeys(a.key, b.key) || a.run - b.run);
  const problems: string[] = [];
  for (let i = 1; i < all.length; i += 1) {
    const [prev, entry] = [all[i - 1]!, all[i]!];
    if (prev.key !== entry.key) continue;
    const [a, b] = [indexed[prev.run]!.run.label, indexed[entry.run]!.run.label];
    problems.push(
      a === b ? `request key ${entry.key} is twice in ${a}` : `request key ${entry.key} is in both ${a} and ${b}`,
    );
  }
  if (problems.length > 0) {
    throw new InputError(capped(problems, 'keys found twice'), {
      hint: 'each request of a plan belongs to exactly one shard: were two runs given the same --shard, or a shard run twice into one directory?',
    });
  }
  return all;
}

/** Copies each record's line, in `entries` order, into a new results.jsonl (temp file + rename: never half a file). */
async function writeRecords(path: string, indexed: readonly IndexedRun[], entries: readonly Entry[]): Promise<void> {
  const handles: FileHandle[] = [];
  try {
    for (const r of indexed) handles.push(await open(r.file, 'r'));
    await writeFileAtomicWith(path, async (out) => {
      let batch: Buffer[] = [];
      let size = 0;
      for (const entry of entries) {
        const line = Buffer.allocUnsafe(entry.length + 1);
        const { bytesRead } = await handles[entry.run]!.read(line, 0, entry.length, entry.offset);
        if (bytesRead !== entry.length)
          throw new InputError([`${indexed[entry.run]!.run.label}results.jsonl: changed while merging`]);
        line[entry.length] = 0x0a;
        batch.push(line);
        size += line.length;
        if (size >= 1 << 20) {
          await out.write(Buffer.concat(batch));
          [batch, size] = [[], 0];
        }
      }
      if (batch.length > 0) await out.write(Buffer.concat(batch));
    });
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }
}

/** The merged manifest: the first shard's, with the whole plan's size, no shard (nor a shard's plan digest), and where it came from. */
function mergedManifest(indexed: readonly IndexedRun[], mergedFrom: readonly MergedFrom[]): RunManifest {
  const first = indexed[0]!.run.manifest;
  const startedAt = mergedFrom.map((m) => m.started_at).sort()[0] ?? first.started_at;
  return {
    ...first,
    // The merged run is the whole plan: a shard's own digest would misdescribe it.
    plan_sha256: first.whole_plan_sha256 ?? null,
    started_at: startedAt,
    planned_requests: mergedFrom.reduce((sum, m) => sum + m.planned_requests, 0),
    shard: null,
    ...(first.load === undefined ? {} : { load: { ...first.load, shard: null } }),
    merged_from: [...mergedFrom],
  };
}

/** Fails before anything is read when the output directory already holds a run (or is one of the inputs). */
async function checkOut(outDir: string, label: string): Promise<void> {
  const exists = await access(join(outDir, 'results.jsonl')).then(
    () => true,
    () => false,
  );
  if (exists) throw new UsageError(`--out ${label} already holds a run (results.jsonl); choose another directory`);
}

/** The shards as the merged manifest lists them. */
const describeShards = (indexed: readonly IndexedRun[]): MergedFrom[] =>
  indexed.map(({ run, entries, tornLines }) => ({
    dir: run.label,
    shard: run.manifest.shard!,
    chatbench_version: run.manifest.chatbench_version,
    started_at: run.manifest.started_at,
    planned_requests: run.manifest.planned_requests,
    records: entries.length,
    torn_lines: tornLines,
  }));

/** Interrupted shards (eval: fewer records than planned; load: its generator says so) and torn lines. */
function shardWarnings(mergedFrom: readonly MergedFrom[], generators: readonly GeneratorHealth[]): string[] {
  return mergedFrom.flatMap((m, i) => {
    const which = `${m.dir} (shard ${m.shard.index}/${m.shard.count})`;
    const generator = generators[i];
    const interrupted =
      generator === undefined
        ? m.records < m.planned_requests
          ? [
              `${which} recorded ${m.records} of its ${m.planned_requests} planned requests: it was interrupted, so the merged run is incomplete`,
            ]
          : []
        : generator.interrupted
          ? [
              `${which} was interrupted after ${generator.sent} of its ${generator.planned_arrivals} planned arrivals, so the merged run is incomplete`,
            ]
          : [];
    return [...interrupted, ...(m.torn_lines > 0 ? [`${m.dir}results.jsonl: a torn last line was skipped`] : [])];
  });
}

/**
 * Checks that `dirs` are the complete shards of one plan (InputError, exit 2, listing every
 * problem otherwise) and parses the gates, all before any record is read; then writes the merged
 * run directory: results.jsonl, manifest.json and every report recomputed from the records (for a
 * load run, generator.json and the load reports). Gates are evaluated on the whole: eval gates per
 * set × mode as `chatbench eval` does, load gates (and `--slo`s) on the measured window. A shard
 * that was interrupted is merged with a warning, not refused: the reports say what was sent.
 */
export async function mergeRuns(options: MergeOptions): Promise<MergeResult> {
  const { cwd } = options;
  const outDir = resolve(cwd, options.outDir);
  await checkOut(outDir, options.outDir);
  const runs = await Promise.all(options.dirs.map((dir) => readRunManifest(dir, cwd)));
  const problems = mergeProblems(runs);
  if (problems.length > 0)
    throw new InputError(problems, {
      hint: 'merge takes every shard of one plan once: the run directories of --shard 1/N … N/N',
    });
  const command = runs[0]!.manifest.command;
  if (command !== 'eval' && command !== 'load')
    throw new UsageError(`merge joins eval and load runs, not ${command} runs`);
  const gateTexts = { gates: options.gates ?? [], gatesFile: options.gatesFile, slos: options.slos ?? [] };
  if (command === 'eval' && gateTexts.slos.length > 0)
    throw new UsageError('--slo applies to load runs; these are eval runs');
  const load = command === 'load' ? parseLoadChecks(gateTexts) : null;
  const evalGates = load === null ? await loadGates({ ...gateTexts, cwd }) : [];
  runs.sort((a, b) => a.manifest.shard!.index - b.manifest.shard!.index);
  const generators = load === null ? [] : await Promise.all(runs.map((run) => readGeneratorHealth(run)));

  const indexed: IndexedRun[] = [];
  for (const [i, run] of runs.entries()) indexed.push(await indexRun(run, i, cwd));
  const entries = mergeIndex(indexed);
  const mergedFrom = describeShards(indexed);
  const warnings = shardWarnings(mergedFrom, generators);
  await mkdir(outDir, { recursive: true });
  const [recordsFile, manifestFile] = [join(outDir, 'results.jsonl'), join(outDir, 'manifest.json')];
  await writeRecords(recordsFile, indexed, entries);
  await writeFileAtomic(manifestFile, `${JSON.stringify(mergedManifest(indexed, mergedFrom), null, 2)}\n`);

  const base = { outDir, command, records: entries.length, mergedFrom };
  const detail = `${entries.length} records of ${mergedFrom.length} shards`;
  if (load !== null) {
    const merged = await finishLoadMerge(outDir, runs, generators, { version: options.version, ...load });
    const files = [recordsFile, manifestFile, ...merged.files];
    const verdict = decide({
      slos: merged.summary.slos,
      gates: merged.gateResults,
      banners: merged.summary.banner,
      detail,
    });
    return {
      ...base,
      warnings: [...warnings, ...merged.warnings],
      summary: null,
      loadSummary: merged.summary,
      files,
      gateResults: merged.gateResults,
      verdict,
      exitCode: verdict.exit_code,
    };
  }
  const { summary, files, gateResults } = await renderEval(outDir, options.version, evalGates);
  const verdict = decide({ gates: gateResults, detail });
  return {
    ...base,
    warnings,
    summary,
    loadSummary: null,
    files: [...files, manifestFile],
    gateResults,
    verdict,
    exitCode: verdict.exit_code,
  };
}

/** Every eval report from the merged records; gates on the whole, as a `gates` suite in junit.xml. */
async function renderEval(
  outDir: string,
  version: string,
  gates: readonly Gate[],
): Promise<{ summary: Summary; files: readonly string[]; gateResults: GateVerdict[] }> {
  let gateResults: GateVerdict[] = [];
  let gateError: unknown;
  if (gates.length > 0) {
    try {
      gateResults = evaluateGates(gates, await loadRun(outDir));
    } catch (error) {
      gateError = error; // a gate naming no set of the run: the reports are still written
    }
  }
  const junit = {
    gates: gateResults.length > 0 ? gateJunitCases(gateResults) : null,
    questions: await junitQuestionsOf(outDir),
  };
  const reports = await renderReports(outDir, { version, junit });
  if (gateError !== undefined) throw gateError;
  return { summary: reports.summary, files: reports.files, gateResults };
}

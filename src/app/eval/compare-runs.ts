/**
 * @module app/eval/compare-runs
 * Compare a run with a baseline and gate it, in one call: what `chatbench compare` does, and what
 * `chatbench eval --baseline DIR --gate ...` calls after its run. Reads both runs as streams,
 * writes compare.md/json/html, appends the step summary for GitHub Actions.
 */
import { compareVerdict, type CompareVerdictOptions } from '../../compare/verdict.js';
import type { Verdict } from '../../verdict/index.js';
import { appendFile, mkdir } from 'node:fs/promises';
import { readManifestPart, setEncodings } from '../store/manifest.js';
import { z } from 'zod';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readUtf8File } from '../../dataset/read-text.js';
import type { ExitCode } from '../../errors.js';
import {
  compareRuns,
  createRunCollector,
  parseSetMap,
  renderCompareHtml,
  renderCompareJson,
  renderCompareMd,
  renderStepSummary,
  type Comparison,
  type RunData,
} from '../../compare/index.js';
import { checkFigures, parseGate, type Gate } from '../../figures/index.js';
import { evaluateGates, parseGatesFile, type GateVerdict } from '../../gates/index.js';
import { readRecords } from '../store/read-records.js';
import { createTokenCounting } from '../../tokens/count-records.js';
import { collectGarbageEvery, collectGarbageIfGrown } from '../shared/heap.js';
import { readReviews } from '../store/reviews.js';
import { generatorLoopDelay } from './render-reports.js';
import { outputError, writeFileAtomic } from '../store/output-files.js';
import { VERDICT_FILE, writeVerdictFile } from '../store/verdict-file.js';

/** Reads a run directory (or a results.jsonl) and its reviews.jsonl into what comparisons and gates need. */
export async function loadRun(pathOrDir: string, options: { cwd?: string } = {}): Promise<RunData> {
  // A pass over a whole results.jsonl: it starts from what is live, not from the last pass's garbage
  // (when that is large enough to be worth a full collection).
  collectGarbageIfGrown();
  const { verdicts } = await readReviews(pathOrDir, options);
  const collector = createRunCollector({ verdicts });
  const records = readRecords(pathOrDir, options);
  // A results.jsonl given alone has no generator.json beside it: its timing uncertainty is unknown.
  const full = isAbsolute(pathOrDir) || options.cwd === undefined ? pathOrDir : resolve(options.cwd, pathOrDir);
  const dir = full.endsWith('.jsonl') ? dirname(full) : full;
  // Token figures are counted here as for the reports (results.jsonl holds none), each set in its encoding.
  const countTokens = createTokenCounting(await setEncodings(dir));
  const tick = collectGarbageEvery();
  for await (const record of records) {
    tick();
    collector.add(await countTokens(record));
  }
  return collector.finish(pathOrDir, records.tornLines, await generatorLoopDelay(dir));
}

/**
 * Parses `--gate` texts and a `--gates-file` file (flags first). `checkNames` are the run's user checks
 * (`--checks`), figures a gate may name besides the catalogue's. UsageError / InputError (exit 2)
 * on any mistake.
 */
export async function loadGates(options: {
  gates?: readonly string[];
  gatesFile?: string | undefined;
  cwd?: string;
  checkNames?: readonly string[];
}): Promise<Gate[]> {
  const extra = checkFigures(options.checkNames ?? []);
  const gates = (options.gates ?? []).map((text) => parseGate(text, undefined, extra));
  if (options.gatesFile !== undefined) {
    const text = await readUtf8File({
      path: options.gatesFile,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    gates.push(...parseGatesFile(text, options.gatesFile, extra));
  }
  return gates;
}

/** The user checks a run directory's manifest names (`quality.checks.names`); [] without a manifest or checks. */
async function manifestCheckNames(dir: string): Promise<string[]> {
  const part = await readManifestPart(
    dir,
    z.object({ quality: z.object({ checks: z.object({ names: z.array(z.string()) }).nullable() }).nullish() }),
  );
  return part?.quality?.checks?.names ?? [];
}

export interface CompareAndGateOptions {
  /** The baseline run or saved baseline; without one only absolute gates can be checked. */
  baselineDir?: string | undefined;
  currentDir: string;
  /** The current run's data when the caller has read it already (eval's and report's reports pass). */
  current?: RunData | undefined;
  /** `--gate` texts. */
  gates?: readonly string[];
  /** `--gates-file`. */
  gatesFile?: string | undefined;
  /** `--map old=new` flags. */
  map?: readonly string[];
  /** Where compare.md/json/html go (created if needed); omitted → nothing is written. */
  outDir?: string | undefined;
  seed?: number | undefined;
  resamples?: number | undefined;
  /** Relative paths resolve against it. */
  cwd?: string;
  /** `$GITHUB_STEP_SUMMARY`: the Markdown summary is appended to it when given. */
  stepSummaryPath?: string | undefined;
  /** Write verdict.json beside compare.md (`chatbench compare`; eval writes its own, app/eval/render-reports). */
  writeVerdict?: boolean;
  /** What the verdict says besides the gates (eval: the interrupt, the run's counts, its pairs of sets). */
  verdict?: CompareVerdictOptions;
}

export interface CompareAndGateResult {
  /** null without a baseline. */
  comparison: Comparison | null;
  gateResults: GateVerdict[];
  /** The one decision (compare/verdict): every output written here opens with it. */
  verdict: Verdict;
  /** The verdict's exit code: Ok when every gate passed (or there were none), GateFailed otherwise. */
  exitCode: ExitCode;
  /** Files written, in order. */
  files: string[];
}

const COMPARE_FILES = ['compare.md', 'compare.json', 'compare.html'] as const;

/**
 * Parses the gates first (a bad gate fails before any run is read), reads both runs, compares
 * them, evaluates the gates, writes the reports and appends the step summary. Bad input (missing
 * run, bad gate, bad --map, a scope naming no group) throws a ToolkitError with exit code 2.
 */
export async function compareAndGate(options: CompareAndGateOptions): Promise<CompareAndGateResult> {
  const cwd = options.cwd;
  const at = (p: string) => (isAbsolute(p) || cwd === undefined ? p : resolve(cwd, p));
  // A gate may name one of the current run's checks: its manifest names them, before any record is read.
  const checkNames = await manifestCheckNames(at(options.currentDir));
  const gates = await loadGates({
    gates: options.gates ?? [],
    gatesFile: options.gatesFile,
    checkNames,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const setMap = parseSetMap(options.map ?? []);
  const readOptions = cwd === undefined ? {} : { cwd };
  const [baseline, current] = await Promise.all([
    options.baselineDir === undefined ? Promise.resolve(undefined) : loadRun(options.baselineDir, readOptions),
    options.current ?? loadRun(options.currentDir, readOptions),
  ]);
  const comparison =
    baseline === undefined
      ? null
      : compareRuns(baseline, current, { seed: options.seed ?? 1, resamples: options.resamples, setMap });
  const gateResults = evaluateGates(gates, current, baseline && comparison ? { baseline, comparison } : undefined);
  const verdict = compareVerdict(comparison, gateResults, options.verdict);
  const files: string[] = [];
  if (comparison !== null && options.outDir !== undefined) {
    const dir = at(options.outDir);
    await mkdir(dir, { recursive: true });
    const texts = {
      'compare.md': renderCompareMd(comparison, gateResults, verdict),
      'compare.json': renderCompareJson(comparison),
      'compare.html': renderCompareHtml(comparison, gateResults, verdict),
    };
    for (const name of COMPARE_FILES) {
      await writeFileAtomic(join(dir, name), texts[name]);
      files.push(join(options.outDir, name));
    }
    if (options.writeVerdict === true) {
      await writeVerdictFile(dir, verdict);
      files.push(join(options.outDir, VERDICT_FILE));
    }
  }
  if (options.stepSummaryPath !== undefined && options.stepSummaryPath !== '') {
    const summaryPath = at(options.stepSummaryPath);
    await appendFile(summaryPath, renderStepSummary(comparison, gateResults, verdict)).catch((error: unknown) => {
      throw outputError(summaryPath, error);
    });
  }
  return { comparison, gateResults, verdict, exitCode: verdict.exit_code, files };
}

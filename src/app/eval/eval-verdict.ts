/**
 * @module app/eval/eval-verdict
 * The verdict of an eval run, decided once (`chatbench eval` after its run, `chatbench report DIR`
 * again) from what the reports read (render-reports `decide`): the pairs of its sets
 * (compare/pairwise), then the gates and the baseline (compare-runs). The reports are written once,
 * after it, opening with it; the terminal, `--json` and the exit code read the same object.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { bestMarks, compareSets, pairLines, pairOrder, type SetPair } from '../../compare/pairwise.js';
import type { Gate } from '../../figures/index.js';
import type { Mode } from '../../records/record.js';
import { hasModelNotes, modelNotes } from '../../metrics/model-notes.js';
import { compareVerdict } from '../../compare/verdict.js';
import type { RunData } from '../../compare/run-data.js';
import { InputError, UsageError } from '../../errors.js';
import { checkGates, gateJunitCases } from '../../gates/index.js';
import { DEFAULT_JUNIT_QUESTIONS, type JunitOptions, type JunitQuestions } from '../../reports/junit-xml.js';
import type { ExitCode } from '../../errors.js';
import type { ReportInput } from '../../reports/index.js';
import type { Verdict } from '../../verdict/index.js';
import { compareAndGate, loadGates, loadRun, type CompareAndGateResult } from './compare-runs.js';

/** What the caller asks of the decision: the gates, the baseline and where compare files go. */
export interface EvalVerdictRequest {
  readonly gates: readonly string[];
  readonly gatesFile?: string | undefined;
  readonly baselineDir?: string | undefined;
  readonly map?: readonly string[];
  /** The set the others are compared with (`--reference`); default the run's first. */
  readonly reference?: string | undefined;
  /** How questions appear in junit.xml (`--junit-questions`). */
  readonly junitQuestions?: JunitQuestions;
  /** Where compare.md/json/html go (with a baseline); omitted → not written. */
  readonly compareOutDir?: string | undefined;
  readonly stepSummaryPath?: string | undefined;
}

export interface EvalVerdictOptions extends EvalVerdictRequest {
  readonly dir: string;
  readonly cwd: string;
  /** The report input the reports were read into (app/eval/render-reports). */
  readonly input: ReportInput;
  /** The run's data, collected in the reports' pass over results.jsonl (else read here again). */
  readonly current?: RunData;
  readonly interrupted: boolean;
  /** The interrupt's exit code (129 SIGHUP, 130 SIGINT, 143 SIGTERM). */
  readonly interruptedExit?: ExitCode;
  /** `75 requests, 75 ok`. */
  readonly detail: string;
}

export interface EvalVerdict {
  readonly verdict: Verdict;
  readonly gated: CompareAndGateResult | undefined;
  readonly pairs: readonly SetPair[];
  /** Gates not checked, and why (an interrupted run may lack a group a gate names). */
  readonly notChecked: string | undefined;
  /** Files written: the compare files (with a baseline). */
  readonly files: readonly string[];
  /** What junit.xml holds: the gates' suite (when any was checked) and the questions'. */
  readonly junit: JunitOptions;
}

/** Decides; the caller's reports open with the verdict (render-reports `decide`). */
export async function decideEval(o: EvalVerdictOptions): Promise<EvalVerdict> {
  let pairs: SetPair[] = [];
  let comparisons: string[] = [];
  if (o.input.summary.run.sets.length >= 2 || o.reference !== undefined) {
    try {
      pairs = compareSets(o.current ?? (await loadRun(o.dir, { cwd: o.cwd })), {
        reference: o.reference,
        sets: o.input.summary.run.sets,
      });
      comparisons = pairLines(pairs);
    } catch (error) {
      // A set without a record (an interrupted run) has nothing to pair: said, not thrown.
      if (!(error instanceof InputError) || !o.interrupted) throw error;
      comparisons = [`sets not compared: ${error.message}`];
    }
  }
  // The tables' "best" marks come from the same tests as the pair lines, decided here once.
  const notes = modelNotes(o.input.summary.models ?? []);
  const options = {
    interrupted: o.interrupted,
    interruptedExit: o.interruptedExit,
    detail: o.detail,
    comparisons,
    best: bestMarks(pairs),
    models: hasModelNotes(notes) ? notes : undefined,
  };
  let gated: CompareAndGateResult | undefined;
  let notChecked: string | undefined;
  try {
    gated =
      o.baselineDir !== undefined || o.gates.length > 0 || o.gatesFile !== undefined
        ? await compareAndGate({
            baselineDir: o.baselineDir,
            currentDir: o.dir,
            current: o.current,
            gates: o.gates,
            gatesFile: o.gatesFile,
            map: o.map ?? [],
            outDir: o.compareOutDir,
            cwd: o.cwd,
            stepSummaryPath: o.stepSummaryPath,
            verdict: options,
          })
        : undefined;
  } catch (error) {
    // An interrupted run may lack whole groups a gate names: it exits 130 for the interrupt, not 2 for the gate.
    if (!(o.interrupted && error instanceof UsageError)) throw error;
    notChecked = error.message;
  }
  const verdict = gated?.verdict ?? compareVerdict(null, [], options);
  const junit = {
    gates: gated && gated.gateResults.length > 0 ? gateJunitCases(gated.gateResults) : null,
    questions: o.junitQuestions ?? DEFAULT_JUNIT_QUESTIONS,
  };
  return { verdict, gated, pairs, notChecked, files: [...(gated?.files ?? [])], junit };
}

/** The baseline read whole (records validated) before anything is sent; each problem names the flag (exit 2). */
export async function checkBaseline(baseline: string, cwd: string): Promise<void> {
  if (!(await stat(resolve(cwd, baseline)).catch(() => undefined)))
    throw new InputError([`--baseline ${baseline}: no such run or baseline directory`]);
  try {
    await loadRun(baseline, { cwd });
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(
        error.problems.map((p) => `--baseline ${baseline}: ${p}`),
        { hint: error.hint ?? 'give the directory of a run, or of a baseline saved with chatbench baseline save' },
      );
    throw error;
  }
}

/**
 * The gates and the reference checked against the planned run before anything is sent (exit 2): every
 * gate parses, names a set, mode and turn of the plan (a delta gate needs a baseline), and
 * `--reference` names a set. Returns the gates.
 */
export async function checkVerdictRequest(
  request: Pick<EvalVerdictRequest, 'gates' | 'gatesFile' | 'baselineDir' | 'reference'>,
  run: {
    readonly cwd: string;
    readonly sets: readonly string[];
    readonly modes: readonly Mode[];
    readonly turns: readonly number[];
    readonly checkNames: readonly string[];
  },
): Promise<Gate[]> {
  const gates = await loadGates({
    gates: request.gates,
    gatesFile: request.gatesFile,
    cwd: run.cwd,
    checkNames: run.checkNames,
  });
  pairOrder(run.sets, request.reference);
  checkGates(gates, {
    sets: run.sets,
    modes: run.modes,
    hasBaseline: request.baselineDir !== undefined,
    turns: run.turns,
  });
  return gates;
}

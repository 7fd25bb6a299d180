/**
 * @module cli/run/eval
 * `chatbench eval`'s run: a dataset against the override sets, the reports, the verdict. Its flags
 * are cli/commands/eval.ts.
 */
import { bodyCapsOf } from '../body-cap-flags.js';
import { checkBaseline, checkVerdictRequest } from '../../app/eval/eval-verdict.js';
import { DEFAULT_JUNIT_QUESTIONS } from '../../reports/junit-xml.js';
import { displayUrl } from '../../app/store/manifest.js';
import { openSimulatedJudge, openTarget, simulatorToolIds } from '../../app/shared/target.js';
import type { JudgeStats } from '../../judge/pipeline.js';
import type { Summary } from '../../records/summary.js';
import { modelNotes } from '../../metrics/model-notes.js';
import { checksLimits, judgeChoice, judgeKey, judgeSettings } from '../quality-flags.js';
import { relative, resolve } from 'node:path';
import {
  describeService,
  prepareEval,
  runEval,
  serviceWarnings,
  type EvalInputs,
  type EvalResult,
  type PreparedEval,
} from '../../app/eval/run-eval.js';
import type { Gate } from '../../figures/index.js';
import { LIMITS } from '../../util/limits.js';
import { UsageError, type ExitCode } from '../../errors.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import { resolveBaseUrl, resolveToken } from '../connection.js';
import { claimDir } from '../claim.js';
import { parseDuration, positiveDuration } from '../duration.js';
import { parseBytes } from '../bytes.js';
import { resolveShard, wholeNumber } from '../flags.js';
import type { Io } from '../io.js';
import { watchInterrupts } from '../interrupt.js';
import { resumeCommand } from '../resume-command.js';
import { createProgressView } from '../progress.js';
import { liveOutput } from '../terminal-safe.js';
import { defaultRunDir } from '../run-dir.js';
import { resolveBaselineRef } from '../baseline-ref.js';
import { VERSION } from '../version.js';
import { reportsList } from '../commands/reports-list.js';
import type { CommandRun } from '../commands/define.js';
import { DEFAULT_MAX_ERROR_RATE, DEFAULT_MAX_JUDGE_ERROR_RATE, type EvalArgs } from '../commands/eval.js';
import { invocationOf } from '../options/invocation.js';
import { outputOf } from '../output/output.js';
import { simTimeScale } from '../options/speedup.js';
import { requestLine } from '../output/request-line.js';
import { comparisonOpenings, verdictLine, type Verdict } from '../../verdict/index.js';
import { outputWidth, wrapLines } from '../../reports/fit-width.js';

/** `chatbench eval`'s run, with the arguments its flags (commands/eval.ts) parsed. */
export const run: CommandRun<EvalArgs> = async (a, io) =>
  evalHandler({ ...a, baseline: await resolveBaselineRef(a.baseline, '--baseline', io, a) }, io);

/**
 * The gates `--max-error-rate R` stands for: the failed share (error_rate: neither ok nor
 * rate-limited) and the rate-limited share, each at most R in every set × mode. None at R = 1.
 */
export function maxErrorRateGates(max: number | undefined): string[] {
  const r = max ?? DEFAULT_MAX_ERROR_RATE;
  return r >= 1 ? [] : [`error_rate <= ${r}`, `rate_limited_rate <= ${r}`];
}

/** The gate `--max-judge-error-rate R` stands for, when a judge is asked: judge_error_rate at most R in every set × mode. None at R = 1. */
export function maxJudgeErrorRateGates(max: number | undefined, judged: boolean): string[] {
  const r = max ?? DEFAULT_MAX_JUDGE_ERROR_RATE;
  return !judged || r >= 1 ? [] : [`judge_error_rate <= ${r}`];
}

/** A share flag's value, checked: undefined or within [0, 1]; UsageError naming the flag otherwise. */
function checkShare(value: number | undefined, flag: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1))
    throw new UsageError(`--${flag} must be a share between 0 and 1 (e.g. 0.1 for 10%), got ${value}`);
}

export async function evalHandler(a: EvalArgs, io: Io): Promise<ExitCode> {
  // Here rather than in a yargs check: `demo` calls this handler with its own flags.
  const problem =
    wholeNumber(a.concurrency, 'concurrency', 1, LIMITS.inFlight) ??
    wholeNumber(a.repeat, 'repeat', 1, LIMITS.repeat) ??
    wholeNumber(a.retries, 'retries', 0, LIMITS.retries);
  if (problem) throw new UsageError(problem);
  checkShare(a['max-error-rate'], 'max-error-rate');
  checkShare(a['max-judge-error-rate'], 'max-judge-error-rate');
  const timeoutMs = a.timeout === undefined ? undefined : positiveDuration(a.timeout, 'timeout');
  const maxDurationMs =
    a['max-duration'] === undefined ? undefined : positiveDuration(a['max-duration'], 'max-duration');
  const maxAnswerBytes = parseBytes(a['max-answer-bytes'] ?? '1MiB', 'max-answer-bytes', LIMITS.answerBytes);
  const { maxBodyBytes, maxLineBytes, maxErrorBodyBytes } = bodyCapsOf(a);
  const maxVersionBytes = parseBytes(a['max-version-bytes'] ?? '64KiB', 'max-version-bytes');
  const versionTimeoutMs = positiveDuration(a['version-timeout'] ?? '5s', 'version-timeout');
  const graceMs = parseDuration(a.grace, 'grace');
  const baseUrl = resolveBaseUrl(a, io);
  const token = resolveToken(a, io);
  if (a.sim && a['base-url'] !== undefined)
    throw new UsageError('--sim and --base-url conflict: --sim runs against the embedded simulated service');
  if (!a.sim && baseUrl === undefined) {
    throw new UsageError(
      'no target: give --base-url (or CHATBENCH_BASE_URL), or --sim for a dry run against the embedded simulated service',
    );
  }
  if (a.resume !== undefined && a.out !== undefined && a.out !== a.resume)
    throw new UsageError('--out and --resume conflict: --resume DIR writes into DIR');
  const judge = judgeChoice(a, a.sim);
  // The judge's key is read now, so that a bad one is refused before anything is sent.
  if (judge.kind === 'url') judgeKey(a, io);
  const checksLimit = checksLimits(a);
  const quality = {
    checksPath: a.checks,
    checksTimeoutMs: checksLimit.timeoutMs,
    checksTotalMs: checksLimit.totalMs,
    checksHeapMb: checksLimit.heapMb,
    pass: a.pass ?? [],
    labelsPath: a.labels,
    judged: judge.kind !== 'off',
    env: io.env,
  };
  const inputs = {
    datasetPath: a.dataset,
    modelsPath: a['sets-file'],
    setFlags: a.set,
    mode: a.mode,
    repeat: a.repeat,
    cwd: io.cwd,
    shard: resolveShard(a, io),
    quality,
    toolIds: a.sim ? await simulatorToolIds() : null,
  };
  // Every input is checked before a simulator starts or a byte is sent: the gates too (after the
  // checks are loaded, since a gate may name one), and the baseline read whole (a missing or
  // corrupt one must not be found after every request was sent).
  const gateTexts = [
    ...(a.gate ?? []),
    ...maxErrorRateGates(a['max-error-rate']),
    ...maxJudgeErrorRateGates(a['max-judge-error-rate'], judge.kind !== 'off'),
  ];
  if (a.baseline !== undefined) await checkBaseline(a.baseline, io.cwd);
  const prepared = await prepareEval(inputs);
  const outDir = a.resume ?? a.out ?? defaultRunDir('eval', new Date(), io.cwd);
  let claim;
  try {
    const gates = await checkVerdictRequest(
      { gates: gateTexts, gatesFile: a['gates-file'], baselineDir: a.baseline, reference: a.reference },
      {
        cwd: io.cwd,
        sets: prepared.sets.sets.map((s) => s.name),
        modes: prepared.plan.modes,
        turns: prepared.plan.turns,
        checkNames: prepared.checks?.names ?? [],
      },
    );
    claim = await claimDir(io, outDir, {
      label: a.resume !== undefined ? `--resume ${a.resume}` : `--out ${outDir}`,
      command: a.resume !== undefined ? 'eval --resume' : 'eval',
    });
    return await runClaimed(a, io, {
      inputs,
      prepared,
      gates,
      gateTexts,
      judge,
      baseUrl,
      token,
      timeoutMs,
      maxDurationMs,
      maxAnswerBytes,
      maxBodyBytes,
      maxLineBytes,
      maxErrorBodyBytes,
      maxVersionBytes,
      versionTimeoutMs,
      graceMs,
      outDir,
    });
  } catch (error) {
    await prepared.checks?.close(); // the checks' worker, when the run never started (runEval closes it otherwise)
    throw error;
  } finally {
    await claim?.release();
  }
}

/** What evalHandler checked before claiming the run directory. */
interface Checked {
  inputs: EvalInputs;
  prepared: PreparedEval;
  gates: readonly Gate[];
  /** `--gate`s, `--max-error-rate`'s and `--max-judge-error-rate`'s, as texts for the comparison after the run. */
  gateTexts: readonly string[];
  judge: ReturnType<typeof judgeChoice>;
  baseUrl: string | undefined;
  token: string | undefined;
  /** Undefined: the silence limit's default (180 s, 300 s with deep research). */
  timeoutMs: number | undefined;
  maxDurationMs: number | undefined;
  maxAnswerBytes: number;
  maxBodyBytes: number;
  maxLineBytes: number;
  maxErrorBodyBytes: number;
  maxVersionBytes: number;
  versionTimeoutMs: number;
  graceMs: number;
  outDir: string;
}

/** Runs the checked evaluation in its claimed directory, then compares and gates. */
async function runClaimed(a: EvalArgs, io: Io, c: Checked): Promise<ExitCode> {
  const { inputs, prepared, gates, gateTexts, judge } = c;
  const target = await openTarget({
    sim: a.sim,
    seed: a.seed,
    baseUrl: c.baseUrl,
    token: c.token,
    timeScale: simTimeScale(io.env),
  });
  const judgeSim = judge.kind === 'sim' && target.judgeUrl === undefined ? await openSimulatedJudge(a.seed) : undefined;
  const judgeUrl =
    judge.kind === 'url' ? judge.url : judge.kind === 'sim' ? (target.judgeUrl ?? judgeSim?.url) : undefined;
  const output = outputOf(io);
  const progress = createProgressView(liveOutput(io.stderr));
  const stopping = watchInterrupts(io, a.grace);
  let result: EvalResult;
  try {
    result = await runEval(
      {
        ...inputs,
        baseUrl: target.baseUrl,
        token: target.token,
        target: target.kind,
        concurrency: a.concurrency,
        timeoutMs: c.timeoutMs,
        maxDurationMs: c.maxDurationMs,
        maxAnswerBytes: c.maxAnswerBytes,
        maxBodyBytes: c.maxBodyBytes,
        maxLineBytes: c.maxLineBytes,
        maxErrorBodyBytes: c.maxErrorBodyBytes,
        maxVersionBytes: c.maxVersionBytes,
        versionTimeoutMs: c.versionTimeoutMs,
        retries: a.retries,
        retry429: a['retry-429'],
        outDir: c.outDir,
        graceMs: c.graceMs,
        signal: io.signal,
        version: VERSION,
        junitQuestions: a['junit-questions'],
        // One decision (app/eval/eval-verdict), made before the reports are written once, opening with it:
        // the pairs of sets, the gates, the baseline; the terminal, --json and the exit code read it too.
        verdict: {
          gates: gateTexts,
          gatesFile: a['gates-file'],
          baselineDir: a.baseline,
          map: a.map ?? [],
          reference: a.reference,
          junitQuestions: a['junit-questions'] ?? DEFAULT_JUNIT_QUESTIONS,
          compareOutDir: a.baseline !== undefined ? resolve(io.cwd, c.outDir) : undefined,
          stepSummaryPath: io.env.GITHUB_STEP_SUMMARY,
        },
        restoreProject: a['restore-project'] === true,
        onProjectRestoreFailed: (message) =>
          output.alert(
            `the project's instructions were not put back: ${message} (the previous text is in manifest.json, project.previous_instructions)`,
          ),
        resume: a.resume !== undefined,
        cancelNow: stopping.cancelNow,
        gates: gates.filter((g) => g.against === 'value').map((g) => g.text),
        reference: a.reference,
        invocation: invocationOf(a),
        onRecord: output.mode === 'verbose' ? (record) => output.detail(requestLine(record)) : undefined,
        judge: judgeUrl === undefined ? null : judgeSettings(a, io, judgeUrl, judge.kind === 'sim'),
        onDrain: (waiting) => {
          progress.stop();
          io.stderr.write(
            `chatbench eval: requests done; ${waiting} record${waiting === 1 ? '' : 's'} waiting for the judge or the checks\n`,
          );
        },
        onTarget: (service) => io.stderr.write(`chatbench eval: target ${describeService(service)}\n`),
        onStart: ({ outDir, planned, alreadyDone, truncatedBytes, service, project }) => {
          for (const warning of serviceWarnings(service, prepared.sets.sets))
            io.stderr.write(`chatbench eval: warning: ${warning}\n`);
          if (a.resume !== undefined)
            io.stderr.write(
              `chatbench eval: resuming ${outDir}: ${alreadyDone} requests recorded${truncatedBytes > 0 ? ` (a torn last line of ${truncatedBytes} bytes was cut)` : ''}, ${planned} to go\n`,
            );
          if (project !== null) io.stderr.write(fitted(io, `chatbench eval: ${project}\n`));
          io.stderr.write(
            fitted(
              io,
              `chatbench eval: ${planned} requests${inputs.shard ? ` (shard ${inputs.shard.index}/${inputs.shard.count} of ${prepared.plannedTotal})` : ''}, ${a.concurrency} in flight, against ${target.kind === 'simulator' ? 'the embedded simulated service' : displayUrl(target.baseUrl)} → ${outDir}\n`,
            ),
          );
        },
        onProgress: (tick) => progress.update(tick),
      },
      prepared,
    );
  } finally {
    stopping.dispose();
    progress.stop();
    await judgeSim?.close();
    await target.close();
  }
  // The end of the run fits the terminal (or $COLUMNS): notes wrap, the table keeps its headline figures.
  const width = outputWidth(io.stdout, io.env);
  const fitErr = (text: string) => fitted(io, text);
  if (result.quality.judge !== null)
    io.stderr.write(fitErr(judgeLine(result.quality.judge, result.quality.pages_fetched, result.reports.summary.run)));
  // A model other than the one asked is a warning; the service's silence on single-model answers, one plain line.
  const models = modelNotes(result.reports.summary.models);
  for (const warning of models.warnings) io.stderr.write(`chatbench eval: warning: ${warning}\n`);
  if (models.note !== null) io.stderr.write(fitErr(`chatbench eval: model: ${models.note}\n`));
  const interrupted = result.run.interrupted || io.signal.aborted;
  if (interrupted) {
    const unsent = result.run.recorded - result.run.sent;
    io.stderr.write(
      `chatbench eval: interrupted; ${result.run.sent} of ${result.run.planned} requests were sent and recorded${unsent > 0 ? ` (and ${unsent} conversation turns recorded skipped)` : ''}\n`,
    );
    if (result.run.recorded < result.run.planned) {
      const { command, note } = resumeCommand(relative(io.cwd, result.outDir) || '.', a, invocationOf(a));
      io.stderr.write(`chatbench eval: to continue the run: ${command}${note === null ? '' : ` (${note})`}\n`);
    }
  }
  const decided = result.decision!;
  const { verdict, gated } = decided;
  // The table after the decision: its best marks are the verdict's (significant by the pairs of sets).
  const fullReport = result.reports.files.find((f) => f.endsWith('report.md'));
  const table = renderTerminalTable(result.reports.summary, verdict.best, {
    width,
    fullReport: fullReport === undefined ? undefined : relative(io.cwd, fullReport),
  });
  io.stdout.write(
    `\n${table}\n${reportsList(result.reports.files, result.reports.skipped, relative(io.cwd, result.outDir) || '.')}`,
  );
  for (const line of gated?.comparison?.model_changes ?? []) output.alert(line);
  if (decided.notChecked !== undefined) io.stderr.write(`chatbench eval: gates not checked: ${decided.notChecked}\n`);
  if (verdict.comparisons.length > 0)
    io.stdout.write(setsCompared(verdict, decided.pairs[0]?.comparison.fdr.tests ?? 0, width));
  // Files the decision added (compare.md/json/html with a baseline); the reports are listed already.
  const added = decided.files.filter((f) => !result.reports.files.includes(f));
  for (const file of added.filter((f) => f.startsWith(result.outDir))) io.stdout.write(`  ${file}\n`);
  const gateResults = gated?.gateResults ?? [];
  const failed = gateResults.filter((g) => !g.passed);
  for (const gate of failed) output.alert(`gate failed: ${gate.reason}`);
  if (gateResults.length > 0)
    io.stderr.write(`${gateResults.length - failed.length} of ${gateResults.length} gates passed\n`);
  const exitCode = verdict.exit_code;
  output.verdict(verdictLine(verdict, output.paint));
  output.result({
    command: 'eval',
    exit_code: exitCode,
    verdict: verdict.headline,
    decision: verdict,
    run_dir: result.outDir,
    baseline_run: a.baseline ?? null,
    files: [...result.reports.files, ...added],
    skipped: result.reports.skipped,
    run: result.run,
    gates: gateResults,
    summary: result.reports.summary,
  });
  return exitCode;
}

/** A note for stderr wrapped to the terminal's width (or $COLUMNS); whole on a pipe. */
function fitted(io: Io, text: string): string {
  const width = outputWidth(io.stderr, io.env);
  return width === undefined ? text : wrapLines(text, width);
}

/**
 * The pairs of sets: each pair line whole when they fit the width (or there is none), else one
 * opening line per comparison (its call, verdict/render comparisonOpenings) under a shorter heading.
 */
function setsCompared(verdict: Verdict, tests: number, width: number | undefined): string {
  const heading = `sets compared (paired by question; significant = 95% interval excludes 0 and holds after Benjamini–Hochberg over all ${tests} tests)`;
  const fits = width === undefined || verdict.comparisons.every((l) => [...l].length + 2 <= width);
  if (fits) return `\n${heading}:\n${verdict.comparisons.map((l) => `  ${l}`).join('\n')}\n`;
  const lines = comparisonOpenings(verdict)
    .map((l) => `  ${l}`)
    .join('\n');
  return wrapLines(
    `\nsets compared (paired by question; figures and intervals in verdict.json and report.md):\n${lines}\n`,
    width,
  );
}

/** One line on what the judge did: asks from the cache, calls made, the run's judge_error_rate, failures (with the first one's text). */
function judgeLine(
  stats: JudgeStats,
  pagesFetched: number,
  run: Pick<Summary['run'], 'judge_asks' | 'judge_failed_asks' | 'judge_error_rate'>,
): string {
  const pages = pagesFetched > 0 ? `, ${pagesFetched} cited page${pagesFetched === 1 ? '' : 's'} fetched` : '';
  const rate =
    run.judge_error_rate === null
      ? ''
      : `; judge_error_rate ${formatShare(run.judge_error_rate)} (${run.judge_failed_asks} of ${run.judge_asks} asks without a verdict)`;
  const failed =
    stats.failed > 0
      ? `; ${stats.failed} ask${stats.failed === 1 ? '' : 's'} failed (judge_error), the first: ${stats.first_error}`
      : '';
  return `chatbench eval: judge: ${stats.calls} call${stats.calls === 1 ? '' : 's'}, ${stats.cached} verdict${stats.cached === 1 ? '' : 's'} from the cache${pages}${rate}${failed}\n`;
}

/** 0.25 → "25%", 0.004 → "0.4%": enough digits to tell a few failed asks from none. */
const formatShare = (share: number): string => `${Number((share * 100).toPrecision(share >= 0.1 ? 3 : 2))}%`;

/**
 * @module app/eval/run-eval
 * The evaluation use-case: read and check the inputs (nothing is sent if any is wrong), plan, apply
 * the project instructions, run, score each record and append it to results.jsonl as it completes,
 * then write every report from results.jsonl.
 *
 * Resume (`resume: true`): the run directory's manifest must describe the same inputs; the keys
 * already recorded are skipped and the others appended (resume.ts). Stopping: `signal` stops
 * scheduling and gives in-flight requests `graceMs`; `cancelNow` (a second Ctrl-C) cancels them at
 * once. Either way every record that exists is on disk before the reports are written.
 *
 * Timing: before the first send the hot path is warmed and the connections are opened
 * (runner/warm-up); from the first send to the last byte the event loop is watched, and its delay
 * (the timing uncertainty) goes to generator.json, which the summary and every report state.
 * Verdict: when the run could not be carried out (the early stop, or every request failed the same
 * way: runner/verdict) the reports are written all the same, then the RunError (exit 3) is thrown.
 *
 * Answer quality (assess-record): each record is judged and checked after its request completed,
 * while the run goes on, and written once its verdicts are in; a stop gives the judge `graceMs`
 * more (a second Ctrl-C none), then its open asks end as judge_error.
 */
import { createProblemCollector } from '../shared/collect-problems.js';
import { loadChecks, type CheckRunner } from '../../checks/runner.js';
import { readLabels } from '../../dataset/index.js';
import { SCORE_NAMES, FIGURE_NAMES } from '../../figures/catalogue.js';
import { judgedFiguresOf, parsePassRule, type PassRule } from '../../metrics/pass-rule.js';
import { LABELS_FILE, type Label } from '../../records/labels.js';
import type { JudgeStats } from '../../judge/pipeline.js';
import { PROMPT_VERSION } from '../../judge/prompts.js';
import { createAssessor, type JudgeSettings } from './assess-record.js';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createChatClient, type ChatClient } from '../../client/chat-client.js';
import { joinSignals } from '../../client/join-signals.js';
import type { Exchange } from '../../client/exchange.js';
import { describeService, probeVersion, type ServiceVersion } from '../../client/version-client.js';
import { runSecrets } from '../../client/redact.js';
import { releaseAtLeast } from '../../api/index.js';

export { describeService };
import { applyProject, describeProject, readPrevious, restoreProject } from './project-instructions.js';
import { indexDataset, type IndexedDataset, type RowSource } from '../../dataset/index.js';
import { InputError, interruptedExitCode, RunError, UsageError } from '../../errors.js';
import { createEvalPlan, deepResearchProblems, planRequests, planSize, type EvalPlan } from '../../plan/build-plan.js';
import { LIMITS, planTooLarge } from '../../util/limits.js';
import { collectGarbageIfGrown, heapLimitBytes, withTightHeap } from '../shared/heap.js';
import type { PlannedRequest } from '../../plan/planned-request.js';
import type { Shard } from '../../plan/shard.js';
import { runPlan, type PreviousTurn, type RunProgress, type RunResult } from '../../runner/index.js';
import { toolIdsOf, type ToolIds } from '../../plan/tools.js';
import {
  checkSetsForMode,
  resolveSets,
  type ModeOption,
  type ResolvedSets,
  type SetDefinition,
} from '../../sets/index.js';
import {
  displayUrl,
  PLAN_VERSION,
  redactDefaults,
  sha256File,
  type Invocation,
  type Manifest,
  type ProjectManifest,
} from '../store/manifest.js';
import type { EvalGenerator, LoopDelay } from '../../records/generator-health.js';
import { watchLoopDelayFromStart, worseLoopDelay } from '../../runner/loop-delay.js';
import { createRecordQueue } from '../../runner/record-queue.js';
import { warmValidRecord } from '../../records/valid-record.js';
import { warmUp, type WarmUpResult } from '../../runner/warm-up.js';
import { writeFileAtomic } from '../store/output-files.js';
import { ensureFreshRunDir } from '../store/fresh-run-dir.js';
import { generatorLoopDelay, readRunLabels, renderReports, type RenderedReports } from './render-reports.js';
import { decideEval, type EvalVerdict, type EvalVerdictRequest } from './eval-verdict.js';
import type { RunData } from '../../compare/run-data.js';
import type { ReportInput } from '../../reports/index.js';
import { readReviews } from '../store/reviews.js';
import type { RequestRecord } from '../../records/record.js';
import { openResultsFile } from '../store/results-file.js';
import { NOTHING_DONE, planDigest, prepareResume, withResume, type ResumeState } from '../store/resume.js';
import { scoreRecord } from '../shared/score-record.js';
import { DEFAULT_JUNIT_QUESTIONS, type JunitQuestions } from '../../reports/junit-xml.js';

export interface EvalInputs {
  readonly datasetPath: string;
  readonly modelsPath?: string | undefined;
  readonly setFlags: readonly string[];
  readonly mode: ModeOption;
  readonly repeat: number;
  readonly cwd: string;
  /** Only this shard of the plan (every shard of a plan together is the whole plan). */
  readonly shard?: Shard | null | undefined;
  /**
   * The target's tools when chatbench knows them (the embedded simulator's catalogue), name → id;
   * the sets file's `defaults.tool_ids` wins. Unknown (null): tool names are taken as written.
   */
  readonly toolIds?: ToolIds | null | undefined;
  /** Answer-quality inputs, checked with the others before anything is sent. */
  readonly quality?: QualityInputs | undefined;
  /** The memory the plan may take half of; default this process's heap limit. */
  readonly heapBytes?: number | undefined;
}

export interface QualityInputs {
  /** `--checks FILE.mjs`. */
  readonly checksPath?: string | undefined;
  /** The time one check may take on one answer (default 2 s). */
  readonly checksTimeoutMs?: number | undefined;
  /** The time the checks of one answer may take together (default checks/runner CHECKS_TOTAL_MS). */
  readonly checksTotalMs?: number | undefined;
  /** The checks' worker heap, MiB (default checks/runner CHECKS_HEAP_MB). */
  readonly checksHeapMb?: number | undefined;
  /** The process's environment: the checks' worker gets its harmless variables only (checks/runner). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** `--pass` conditions ([] = the default rule). */
  readonly pass?: readonly string[] | undefined;
  /** `--labels FILE`: human verdicts for the judge's agreement. */
  readonly labelsPath?: string | undefined;
  /** A judge will be asked (a --pass condition on a judged figure needs one). */
  readonly judged: boolean;
}

export interface PreparedEval {
  /** Validated, its rows indexed by byte offset and read again as the run reaches them (dataset/row-source). */
  readonly dataset: IndexedDataset;
  readonly sets: ResolvedSets;
  /** The requests this run sends: the whole plan, or one shard of it, built lazily as the run reaches them. */
  readonly plan: EvalPlan;
  /** Size of the whole plan, before sharding. */
  readonly plannedTotal: number;
  /** Digest of the whole plan: shards of one plan share it. */
  readonly wholePlanSha256: string;
  /** The user's checks, loaded (a worker thread waits for them); null without --checks. */
  readonly checks: CheckRunner | null;
  readonly passRule: PassRule;
  /** The labels file's verdicts; null without --labels. */
  readonly labels: Label[] | null;
}

const DEFAULT_CHECKS_TIMEOUT_MS = 2000;
/** A `--fetch-cited` call of open-urls without --timeout: its whole call, body included (docs/limits.md). */
export const FETCH_CITED_TIMEOUT_MS = 60_000;

/** Reads and checks every input, listing the problems of all of them at once; builds the plan. */
export async function prepareEval(inputs: EvalInputs): Promise<PreparedEval> {
  const setsRead = createProblemCollector();
  const sets = await setsRead.collect(async () => {
    const resolved = await resolveSets({ modelsPath: inputs.modelsPath, setFlags: inputs.setFlags, cwd: inputs.cwd });
    checkSetsForMode(resolved.sets, inputs.mode);
    return resolved;
  });
  // The tools known: the sets file's names, else the target's (the simulator's catalogue), else none.
  const toolIds = sets?.defaults.tool_ids
    ? toolIdsOf(Object.entries(sets.defaults.tool_ids))
    : (inputs.toolIds ?? null);
  const { problems, collect } = createProblemCollector();
  // Named as the user gave it, so that every message reads `their/path.csv:12: column: ...`.
  // The pass's garbage (every row parsed and validated) is held to withTightHeap's growth, as the reports' is.
  const dataset = await collect(() =>
    withTightHeap(() => indexDataset({ path: inputs.datasetPath, cwd: inputs.cwd }, { toolIds })),
  );
  // The dataset's problems first, then the sets' (the order every input problem is listed in).
  problems.push(...setsRead.problems);
  if (dataset && sets) problems.push(...deepResearchProblems(dataset.rows.deepResearch, sets.sets, inputs.datasetPath));
  const quality = inputs.quality;
  const checks =
    quality?.checksPath === undefined
      ? null
      : await collect(() =>
          loadChecks({
            path: quality.checksPath!,
            cwd: inputs.cwd,
            timeoutMs: quality.checksTimeoutMs ?? DEFAULT_CHECKS_TIMEOUT_MS,
            ...(quality.env === undefined ? {} : { env: quality.env }),
            ...(quality.checksTotalMs === undefined ? {} : { totalMs: quality.checksTotalMs }),
            ...(quality.checksHeapMb === undefined ? {} : { heapMb: quality.checksHeapMb }),
            reserved: new Set([...FIGURE_NAMES, ...SCORE_NAMES, 'pass']),
          }),
        );
  const passRule = await collect(async () => {
    const rule = parsePassRule(quality?.pass ?? [], checks?.names ?? []);
    const judged = judgedFiguresOf(rule);
    if (judged.length > 0 && !quality?.judged)
      throw new UsageError(
        `--pass names ${judged.join(', ')}, which a judge scores: give --judge URL (or run with --sim)`,
      );
    return rule;
  });
  const labels =
    quality?.labelsPath === undefined || !dataset || !sets
      ? null
      : await collect(() =>
          readLabels(
            { path: quality.labelsPath!, cwd: inputs.cwd },
            { questionIds: new Set(idsOf(dataset.rows)), sets: sets.sets.map((s) => s.name) },
          ),
        );
  if (
    problems.length > 0 ||
    !dataset ||
    !sets ||
    !passRule ||
    (quality?.checksPath !== undefined && !checks) ||
    (quality?.labelsPath !== undefined && !labels)
  ) {
    await checks?.close();
    throw new InputError(problems);
  }
  // Counted before it is built: --repeat 1e12 must be refused with its size, not exhaust the heap.
  const size = planSize({ rows: dataset.rows, sets: sets.sets, mode: inputs.mode, repeat: inputs.repeat });
  const tooLarge = planTooLarge(
    size.requests,
    LIMITS.evalPlan,
    inputs.heapBytes ?? heapLimitBytes(),
    'the plan',
    size.how,
  );
  if (tooLarge) {
    await checks?.close();
    throw new UsageError(`${tooLarge}: lower --repeat or ask fewer questions`);
  }
  const planInput = {
    rows: dataset.rows,
    sets: sets.sets,
    defaults: sets.defaults,
    mode: inputs.mode,
    repeat: inputs.repeat,
    toolIds,
  };
  const plan = createEvalPlan(planInput, inputs.shard);
  if (plan.total === 0) throw new InputError([`${inputs.datasetPath}: the dataset has no questions`]);
  if (plan.length === 0)
    throw new InputError([
      `shard ${inputs.shard?.index}/${inputs.shard?.count} has no requests: the plan has only ${plan.total}`,
    ]);
  // Digested as it is built, request by request: the whole plan is never held (nor its rows: each is read again as it is reached).
  const wholePlanSha256 = planDigest(planRequests(planInput));
  // The walk read every row again: its blocks' Buffers (~120 MB of external memory at a million
  // rows) are garbage that V8 frees only at a full collection, which would otherwise come well
  // into the run, on top of its own memory. A small dataset's walk leaves too little to be worth one.
  collectGarbageIfGrown();
  return {
    dataset,
    sets,
    plan,
    plannedTotal: plan.total,
    wholePlanSha256,
    checks: checks ?? null,
    passRule,
    labels: labels ?? null,
  };
}

export interface EvalOptions extends EvalInputs {
  readonly baseUrl: string;
  readonly token?: string | undefined;
  readonly target: 'service' | 'simulator';
  readonly concurrency: number;
  /** Longest silence between two parts; undefined: 180 s, 300 s for deep research. */
  readonly timeoutMs?: number | undefined;
  /** Longest whole request; undefined: 15 min, 60 min for deep research. */
  readonly maxDurationMs?: number | undefined;
  /** Bytes one response body may carry; undefined: 64 MiB (client/chat-client DEFAULT_MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number | undefined;
  /** Bytes of one stream line; undefined: 16 MiB (client/wire DEFAULT_MAX_LINE_BYTES). */
  readonly maxLineBytes?: number | undefined;
  /** --max-error-body-bytes. */
  readonly maxErrorBodyBytes?: number | undefined;
  /** --max-version-bytes and --version-timeout: the `GET /version` probe's caps (defaults in client/version-client). */
  readonly maxVersionBytes?: number | undefined;
  readonly versionTimeoutMs?: number | undefined;
  /** Answer text kept per answer (UTF-8 bytes); undefined: 1 MiB. */
  readonly maxAnswerBytes?: number | undefined;
  readonly retries: number;
  readonly retry429: boolean;
  readonly outDir: string;
  readonly graceMs: number;
  readonly signal: AbortSignal;
  readonly version: string;
  readonly onProgress?: (progress: RunProgress) => void;
  /** Called once the run directory exists and the plan is known, before the first request. */
  readonly onStart?: (info: {
    outDir: string;
    planned: number;
    alreadyDone: number;
    truncatedBytes: number;
    service: ServiceVersion;
    project: string | null;
  }) => void;
  /** `--restore-project`: put the project's previous instructions back when the run ends (app/project-instructions). */
  readonly restoreProject?: boolean | undefined;
  /** A restore that failed: the run's reports are still written. */
  readonly onProjectRestoreFailed?: ((message: string) => void) | undefined;
  /** Called once what the target is has been learned: when the first stream came back (its framing), or after the run when none did. */
  readonly onTarget?: (service: ServiceDescription) => void;
  /** Continue the run in `outDir` (its manifest must match) instead of starting a fresh one. */
  readonly resume?: boolean;
  /** Aborting cancels the requests in flight at once, without waiting for the grace (a second Ctrl-C). */
  readonly cancelNow?: AbortSignal;
  /**
   * The gates that need no baseline (--gate, --gates-file, --max-error-rate), as written: kept in the
   * manifest so that `chatbench report DIR` puts them in junit.xml again.
   */
  readonly gates?: readonly string[];
  /** How questions appear in junit.xml (`--junit-questions`; kept in the manifest for `chatbench report DIR`). */
  readonly junitQuestions?: JunitQuestions | undefined;
  /** The set the others are compared with (`--reference`; kept in the manifest for `chatbench report DIR`); default the first. */
  readonly reference?: string | undefined;
  /**
   * The verdict to decide after the run (eval-verdict: the gates, the baseline, the pairs of sets),
   * before the reports are written once, opening with it. A run that could not be carried out
   * (exit 3) gets its reports without one. Omitted: no verdict, the reports without one.
   */
  readonly verdict?: EvalVerdictRequest | undefined;
  /** The judge; null or absent: nothing is judged. */
  readonly judge?: JudgeSettings | null;
  /** Called when the requests are done and records still wait for the judge or the checks. */
  readonly onDrain?: (waiting: number) => void;
  /** The options as they took effect and where each came from (the manifest records it). */
  readonly invocation?: Invocation | undefined;
  /** Each record as it is written (`--verbose` prints a line of it); off the request path. */
  readonly onRecord?: ((record: RequestRecord) => void) | undefined;
}

/** What a run learned of its target: the release it says it runs, and the framing of its streams. */
export interface ServiceDescription extends ServiceVersion {
  framing: 'ndjson' | 'sse' | null;
}

/** What the run should know of its target before it starts: a release before v3.2 answers multi-model sets with one model. */
export function serviceWarnings(service: ServiceVersion, sets: readonly SetDefinition[]): string[] {
  const multi = sets.filter((s) => s.multi).map((s) => s.name);
  if (service.release === null || releaseAtLeast(service.release, '3.2') || multi.length === 0) return [];
  return [
    `${service.backend_version ?? `release ${service.release}`} predates multi-model answers (v3.2): it ignores llm_overrides and answers set${multi.length === 1 ? '' : 's'} ${multi.join(', ')} with one model; those requests are recorded invalid_response, not scored`,
  ];
}

export interface EvalResult {
  readonly outDir: string;
  readonly service: ServiceDescription;
  readonly run: RunResult;
  readonly reports: RenderedReports;
  /** The run's verdict, decided before its reports were written (when `verdict` was asked). */
  readonly decision: EvalVerdict | undefined;
  /** What the judge did (null without one), and the pages --fetch-cited fetched. */
  readonly quality: { judge: JudgeStats | null; pages_fetched: number };
}

export async function runEval(options: EvalOptions, prepared?: PreparedEval): Promise<EvalResult> {
  const ready = prepared ?? (await prepareEval(options));
  const { dataset, sets, plan, plannedTotal, wholePlanSha256 } = ready;
  const outDir = resolve(options.cwd, options.outDir);
  // The run directory's reviews and labels feed the reports written after the run: a bad one is
  // refused now, before anything (even GET /version) is sent, not once the requests are done.
  await readReviews(outDir);
  if (ready.labels === null) await readRunLabels(outDir);
  // Every secret of the run, taken out of whatever the service or the judge says (client/redact.ts).
  const secrets = runSecrets({
    tokens: [options.token],
    mcpHeaders: sets.defaults.mcp_headers,
    judgeToken: options.judge?.token,
  });
  const version = await probeVersion(
    {
      baseUrl: options.baseUrl,
      ...(options.maxVersionBytes === undefined ? {} : { maxBodyBytes: options.maxVersionBytes }),
      ...(options.versionTimeoutMs === undefined ? {} : { timeoutMs: options.versionTimeoutMs }),
    },
    options.signal,
    secrets,
  );
  const service: ServiceDescription = { ...version, framing: null };
  const projectEndpoint = {
    baseUrl: options.baseUrl,
    token: options.token,
    secrets,
    maxBodyBytes: options.maxBodyBytes,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const project = sets.defaults.project;
  // Read before the run replaces them; a resume keeps what the run first read (withResume keeps the run's manifest).
  const before = project ? await readPrevious(projectEndpoint, project) : null;
  // Written, then let go: at a million rows its question ids are some 30 MB that the run has no use for.
  const openManifest = async () => {
    const manifest = {
      ...(await buildManifest(options, dataset, sets, plan, plannedTotal, wholePlanSha256, service)),
      quality: await qualityManifest(options, ready),
      ...(before ? { project: before } : {}),
    };
    if (!options.resume) {
      await ensureFreshRunDir(outDir, `continue that run with --resume ${outDir}`);
      await writeFileAtomic(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      return { done: NOTHING_DONE, truncatedBytes: 0, turns: new Map<string, PreviousTurn>(), firstRead: before };
    }
    const resumed = await prepareResume(outDir, options.outDir, manifest, plan);
    await writeFileAtomic(
      join(outDir, 'manifest.json'),
      `${JSON.stringify(withResume(resumed.manifest, manifest), null, 2)}\n`,
    );
    const { done, truncatedBytes, turns } = resumed; // (not its manifest: the run's question ids again)
    return { done, truncatedBytes, turns, firstRead: resumed.manifest.project ?? before };
  };
  const { done, truncatedBytes, turns, firstRead } = await openManifest();
  if (ready.labels !== null)
    await writeFileAtomic(join(outDir, LABELS_FILE), ready.labels.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const todo = notDone(plan, done, turns);

  const client = createChatClient({
    baseUrl: options.baseUrl,
    token: options.token,
    connections: options.concurrency,
    timeoutMs: options.timeoutMs,
    maxDurationMs: options.maxDurationMs,
    ...(options.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: options.maxAnswerBytes }),
    maxBodyBytes: options.maxBodyBytes,
    maxLineBytes: options.maxLineBytes,
    maxErrorBodyBytes: options.maxErrorBodyBytes,
    secrets,
  });
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    options.onTarget?.(service);
  };
  const watched: Pick<ChatClient, 'send' | 'baseUrl'> = {
    baseUrl: client.baseUrl,
    send: async (body, signal, payload) => {
      const exchange: Exchange = await client.send(body, signal, payload);
      if (service.framing === null && exchange.framing !== null) {
        service.framing = exchange.framing;
        tell();
      }
      return exchange;
    },
  };
  const sink = openResultsFile(join(outDir, 'results.jsonl'), {
    append: options.resume === true,
    secrets,
    hint: `every record written so far is intact: make room, then continue the run with the same command and --resume ${options.outDir}`,
  });
  const assessor = await createAssessor(
    { judge: options.judge ?? null, checks: ready.checks, passRule: ready.passRule },
    {
      baseUrl: options.baseUrl,
      token: options.token,
      timeoutMs: options.timeoutMs ?? FETCH_CITED_TIMEOUT_MS,
      maxBodyBytes: options.maxBodyBytes,
      secrets,
    },
  );
  // Records wait here for their verdicts; each is written the moment it has them.
  const waiting = new Set<Promise<void>>();
  let failure: unknown;
  // A write that failed (disk full) stops the run here, synchronously in the runner's callback; the
  // records still waiting for verdicts are then dropped, and sink.close() reports the failure.
  const write = (record: RequestRecord) => {
    try {
      sink.write(record);
    } catch {
      // the OutputError: close() rethrows it
    }
  };
  // Assessing (scoring, checks, the judge's call) and writing run after the I/O callbacks of the
  // loop's turn (runner/record-queue.ts), never between a socket's data and its timestamp.
  const assessing = createRecordQueue(
    ([unscored, planned]: [Parameters<typeof assessor.assess>[0], PlannedRequest]) => {
      const { expectations } = planned;
      const written = assessor.assess(unscored, expectations).then(
        (record) => {
          write(record);
          options.onRecord?.(record);
        },
        (error: unknown) => {
          // A bug in assessing: keep the record's line (scored, unjudged) and report the bug after the run.
          failure ??= error;
          write(scoreRecord(unscored, expectations));
        },
      );
      waiting.add(written);
      void written.finally(() => waiting.delete(written));
    },
  );
  const onRecord = (unscored: Parameters<typeof assessor.assess>[0], planned: PlannedRequest) => {
    sink.assertWritable();
    assessing.push([unscored, planned]);
  };
  const abortJudge = () => assessor.abort();
  options.cancelNow?.addEventListener('abort', abortJudge, { once: true });
  // A stop gives the judge the grace once the requests are done (or at once, if they already are).
  let graceTimer: NodeJS.Timeout | undefined;
  let draining = false;
  const onStop = () => {
    if (draining) graceTimer ??= setTimeout(abortJudge, options.graceMs);
  };
  options.signal.addEventListener('abort', onStop);
  const previous = options.resume ? await generatorLoopDelay(outDir) : null;
  let run: RunResult | undefined;
  let stopped: RunError | undefined;
  let loopDelay: LoopDelay | null = null;
  let warm: WarmUpResult = { connections_opened: 0, warm_up_ms: 0 };
  try {
    if (project) await applyProject(projectEndpoint, project);
    const projectLine =
      project && firstRead ? describeProject(project, firstRead, options.restoreProject === true) : null;
    options.onStart?.({
      outDir,
      planned: todo.length,
      alreadyDone: done.size,
      truncatedBytes,
      service: version,
      project: projectLine,
    });
    // The first wave must be timed like the rest: hot path warmed, connections open, before the first send.
    const sample = first(todo);
    warm = await warmUp({
      preconnect: (n) => client.preconnect(n),
      connections: Math.min(options.concurrency, todo.length),
      sample,
      // A record's whole path, so zod compiles the record's validator before the first request, not on it.
      score: (record) => void JSON.stringify(warmValidRecord(scoreRecord(record, sample!.expectations))),
    });
    // From the first send to the last byte, as load's (app/load/run-load.ts): runPlan's setup times nothing.
    const loop = watchLoopDelayFromStart();
    try {
      run = await runPlan(todo, {
        onFirstSend: loop.start,
        client: withCancelNow(watched, options.cancelNow),
        concurrency: options.concurrency,
        retries: options.retries,
        retry429: options.retry429,
        signal: options.signal,
        graceMs: options.graceMs,
        onProgress: options.onProgress,
        onRecord,
        earlierTurn: (index) => todo.earlierTurn(index),
      });
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      stopped = error; // the early stop: every record is out, the reports still get written
    } finally {
      loopDelay = loop.stop();
      assessing.flush(); // its handler never throws: an assessing bug is `failure`, a failed write close()'s
    }
    if (waiting.size > 0) options.onDrain?.(waiting.size);
  } finally {
    draining = true;
    if (options.signal.aborted) onStop();
    assessing.flush();
    while (waiting.size > 0) await Promise.all([...waiting]);
    clearTimeout(graceTimer);
    options.signal.removeEventListener('abort', onStop);
    options.cancelNow?.removeEventListener('abort', abortJudge);
    await ready.checks?.close();
    try {
      await sink.close(); // rejects with the OutputError of a failed write
    } finally {
      await client.close();
      tell();
      // Every request is out: the reports need none of the rows' index (~40 MB at a million rows),
      // which `prepared` and the plan would otherwise keep for as long as this call lasts.
      dataset.release();
    }
  }
  let restored: ProjectManifest | null = null;
  if (options.restoreProject === true && firstRead) {
    restored = await restoreProject(projectEndpoint, firstRead, new Date()).catch((error: unknown) => {
      options.onProjectRestoreFailed?.(error instanceof Error ? error.message : String(error));
      return null;
    });
  }
  // The framing is known only once a stream came back: the manifest says it for the reports. A
  // resumed run keeps the run's own manifest and only learns what the target said.
  if (service.framing !== null || restored !== null) {
    const file = join(outDir, 'manifest.json');
    const current: unknown = JSON.parse(await readFile(file, 'utf8'));
    await writeFileAtomic(
      file,
      `${JSON.stringify({ ...(current as object), ...(service.framing === null ? {} : { service }), ...(restored ? { project: restored } : {}) }, null, 2)}\n`,
    );
  }
  if (failure !== undefined) throw failure;
  const generator: EvalGenerator = { loop_delay_ms: worseLoopDelay(previous, loopDelay), ...warm };
  await writeFileAtomic(join(outDir, 'generator.json'), `${JSON.stringify(generator, null, 2)}\n`);
  // A run that could not be carried out leaves its reports (each opening with what failed), then exits 3.
  const runFailed = stopped ?? run?.run_failed;
  const junitQuestions = options.junitQuestions ?? DEFAULT_JUNIT_QUESTIONS;
  let decision: EvalVerdict | undefined;
  const asked = options.verdict;
  const decide =
    asked === undefined || runFailed !== undefined || run === undefined
      ? undefined
      : async ({ input, run: current }: { input: ReportInput; run: RunData }) => {
          const interrupted = run.interrupted || options.signal.aborted;
          decision = await decideEval({
            ...asked,
            dir: outDir,
            cwd: options.cwd,
            input,
            current,
            interrupted,
            interruptedExit: interruptedExitCode(options.signal),
            junitQuestions: asked.junitQuestions ?? junitQuestions,
            detail: `${run.sent} requests, ${run.outcomes.ok} ok`,
          });
          return decision;
        };
  const reports = await renderReports(outDir, {
    version: options.version,
    junit: { gates: null, questions: junitQuestions },
    decide,
  });
  if (runFailed !== undefined || run === undefined) throw runFailed ?? new RunError('the run ended without a result');
  return { outDir, run, reports, decision, service, quality: assessor.stats() };
}
/** Every row's id, in file order, without reading the rows. */
function idsOf(rows: RowSource): string[] {
  return Array.from({ length: rows.length }, (_, at) => rows.id(at));
}

/** The first request of a plan, without building the rest. */
function first(plan: Iterable<PlannedRequest>): PlannedRequest | undefined {
  for (const planned of plan) return planned;
  return undefined;
}

/**
 * The requests of `plan` not yet recorded, lazily, in plan order; `earlierTurn` gives the recorded
 * turn at a plan index that a conversation continues from (a resumed run's, held by key in `turns`).
 */
function notDone(plan: EvalPlan, done: ResumeState['done'], turns: ReadonlyMap<string, PreviousTurn>) {
  // Recorded turns that an unrecorded turn follows, by plan index, until the runner asks: a few at most.
  const earlier = new Map<number, PreviousTurn>();
  return {
    length: plan.length - done.size,
    earlierTurn: (index: number): PreviousTurn | undefined => {
      const turn = earlier.get(index);
      earlier.delete(index);
      return turn;
    },
    *[Symbol.iterator](): Generator<PlannedRequest> {
      if (done.size === 0) return yield* plan;
      let last: { index: number; turn: PreviousTurn } | undefined; // the recorded turn just passed
      for (const planned of plan) {
        if (done.has(planned.index)) {
          const turn = planned.conversation ? turns.get(planned.key) : undefined;
          last = turn === undefined ? undefined : { index: planned.index, turn };
          continue;
        }
        if (last !== undefined && planned.conversation?.follows === last.index) earlier.set(last.index, last.turn);
        last = undefined;
        yield planned;
      }
    },
  };
}

/** manifest.json's `quality`: the pass rule, the judge (URL without credentials), the checks and labels by hash. */
async function qualityManifest(options: EvalOptions, prepared: PreparedEval): Promise<Manifest['quality']> {
  const judge = options.judge ?? null;
  const checksPath = options.quality?.checksPath;
  const labelsPath = options.quality?.labelsPath;
  return {
    pass: [...prepared.passRule.texts],
    judge:
      judge === null
        ? null
        : {
            url: displayUrl(judge.url),
            model: judge.model,
            prompt_version: PROMPT_VERSION,
            figures: [...judge.figures],
            repeat: judge.repeat,
            fetch_cited: judge.fetchCited,
          },
    checks:
      prepared.checks === null || checksPath === undefined
        ? null
        : {
            path: checksPath,
            sha256: await sha256File(resolve(options.cwd, checksPath)),
            names: [...prepared.checks.names],
          },
    labels:
      prepared.labels === null || labelsPath === undefined
        ? null
        : {
            path: labelsPath,
            sha256: await sha256File(resolve(options.cwd, labelsPath)),
            labels: prepared.labels.length,
          },
  };
}

/** The run's manifest: what was run, against what, with which inputs by hash (and the plan's digest). */
async function buildManifest(
  options: EvalOptions,
  dataset: IndexedDataset,
  sets: ResolvedSets,
  plan: EvalPlan,
  plannedTotal: number,
  wholePlanSha256: string,
  service: ServiceDescription,
): Promise<Manifest> {
  return {
    manifest_version: 1,
    chatbench_version: options.version,
    command: 'eval',
    started_at: new Date().toISOString(),
    base_url: displayUrl(options.baseUrl),
    target: options.target,
    plan_version: PLAN_VERSION,
    planned_requests: plan.length,
    planned_total: plannedTotal,
    shard: options.shard ?? null,
    dataset: {
      path: options.datasetPath,
      sha256: await sha256File(resolve(options.cwd, dataset.path)),
      questions: dataset.rows.length,
    },
    question_ids: idsOf(dataset.rows),
    ...(dataset.rows.hasConversations
      ? {
          conversation_units: Array.from({ length: dataset.rows.unitCount }, (_, u) =>
            dataset.rows.unit(u).map((at) => dataset.rows.id(at)),
          ),
        }
      : {}),
    models: sets.modelsPath
      ? { path: sets.modelsPath, sha256: await sha256File(resolve(options.cwd, sets.modelsPath)) }
      : null,
    sets: sets.sets.map((s) => ({
      name: s.name,
      multi: s.multi,
      ...(s.encoding === undefined ? {} : { encoding: s.encoding }),
      models: (s.llm_overrides ?? (s.llm_override ? [s.llm_override] : [])).map(
        (o) => o.display_name ?? o.model_version ?? 'configured model',
      ),
    })),
    defaults: redactDefaults(sets.defaults),
    // Unsharded, the plan is the whole plan: its digest is known (a second pass would read every row again).
    plan_sha256: (options.shard ?? null) === null && plan.length === plannedTotal ? wholePlanSha256 : planDigest(plan),
    whole_plan_sha256: wholePlanSha256,
    options: {
      mode: options.mode,
      repeat: options.repeat,
      concurrency: options.concurrency,
      timeout_ms: options.timeoutMs ?? null,
      max_duration_ms: options.maxDurationMs ?? null,
      max_answer_bytes: options.maxAnswerBytes ?? null,
      retries: options.retries,
      retry_429: options.retry429,
      gates: [...(options.gates ?? [])],
      junit_questions: options.junitQuestions ?? DEFAULT_JUNIT_QUESTIONS,
      reference: options.reference ?? null,
    },
    service: { ...service },
    ...(options.invocation ? { invocation: options.invocation } : {}),
  };
}

/**
 * The client as the runner sees it, with `cancelNow` joined to every request's own signal. The
 * runner's stop already keeps new requests from starting; this only ends the ones in flight early.
 */
function withCancelNow(
  client: Pick<ChatClient, 'send' | 'baseUrl'>,
  cancelNow: AbortSignal | undefined,
): Pick<ChatClient, 'send' | 'baseUrl'> {
  if (cancelNow === undefined) return client;
  return {
    baseUrl: client.baseUrl,
    send: async (body, signal) => {
      if (signal === undefined) return client.send(body, cancelNow);
      // Not AbortSignal.any: the run-wide signals would keep a reference per request (client/join-signals.ts).
      const joined = joinSignals([signal, cancelNow]);
      try {
        return await client.send(body, joined.signal);
      } finally {
        joined.release();
      }
    },
  };
}

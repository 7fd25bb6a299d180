/**
 * @module app/run-eval
 * The evaluation use-case: read and check the inputs (nothing is sent if any is wrong), plan, apply
 * the project instructions, run, score each record and append it to results.jsonl as it completes,
 * then write every report from results.jsonl.
 *
 * Resume (`resume: true`): the run directory's manifest must describe the same inputs; the keys
 * already recorded are skipped and the others appended (resume.ts). Stopping: `signal` stops
 * scheduling and gives in-flight requests `graceMs`; `cancelNow` (a second Ctrl-C) cancels them at
 * once. Either way every record that exists is on disk before the reports are written.
 */
import { createProblemCollector } from './collect-problems.js';
import { createWriteStream } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createChatClient, type ChatClient } from '../client/chat-client.js';
import { getProjectInstructions, putProjectInstructions } from '../client/project-client.js';
import { readDataset, type Dataset } from '../dataset/index.js';
import { InputError, RunError, UsageError } from '../errors.js';
import { buildPlan, deepResearchProblems } from '../plan/build-plan.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { selectShard, type Shard } from '../plan/shard.js';
import { createJsonlSink } from '../reports/index.js';
import { runPlan, type RunProgress, type RunResult } from '../runner/index.js';
import { checkSetsForMode, resolveSets, type ModeOption, type ResolvedSets } from '../sets/index.js';
import { displayUrl, PLAN_VERSION, redactDefaults, sha256File, type Manifest } from './manifest.js';
import { renderReports, type RenderedReports } from './render-reports.js';
import { planDigest, prepareResume } from './resume.js';
import { scoreRecord } from './score-record.js';

export interface EvalInputs {
  readonly datasetPath: string;
  readonly modelsPath?: string | undefined;
  readonly setFlags: readonly string[];
  readonly mode: ModeOption;
  readonly repeat: number;
  readonly cwd: string;
  /** Only this shard of the plan (every shard of a plan together is the whole plan). */
  readonly shard?: Shard | null | undefined;
}

export interface PreparedEval {
  readonly dataset: Dataset;
  readonly sets: ResolvedSets;
  /** The requests this run sends: the whole plan, or one shard of it. */
  readonly plan: PlannedRequest[];
  /** Size of the whole plan, before sharding. */
  readonly plannedTotal: number;
  /** Digest of the whole plan: shards of one plan share it. */
  readonly wholePlanSha256: string;
}

/** Reads and checks every input, listing the problems of all of them at once; builds the plan. */
export async function prepareEval(inputs: EvalInputs): Promise<PreparedEval> {
  const { problems, collect } = createProblemCollector();
  // Named as the user gave it, so that every message reads `their/path.csv:12: column: ...`.
  const dataset = await collect(() => readDataset({ path: inputs.datasetPath, cwd: inputs.cwd }));
  const sets = await collect(async () => {
    const resolved = await resolveSets({ modelsPath: inputs.modelsPath, setFlags: inputs.setFlags, cwd: inputs.cwd });
    checkSetsForMode(resolved.sets, inputs.mode);
    return resolved;
  });
  if (dataset && sets) problems.push(...deepResearchProblems(dataset.rows, sets.sets, inputs.datasetPath));
  if (problems.length > 0 || !dataset || !sets) throw new InputError(problems);
  const whole = buildPlan({ rows: dataset.rows, sets: sets.sets, defaults: sets.defaults, mode: inputs.mode, repeat: inputs.repeat });
  if (whole.length === 0) throw new InputError([`${inputs.datasetPath}: the dataset has no questions`]);
  const plan = selectShard(whole, inputs.shard);
  if (plan.length === 0) throw new InputError([`shard ${inputs.shard?.index}/${inputs.shard?.count} has no requests: the plan has only ${whole.length}`]);
  return { dataset, sets, plan, plannedTotal: whole.length, wholePlanSha256: planDigest(whole) };
}

export interface EvalOptions extends EvalInputs {
  readonly baseUrl: string;
  readonly token?: string | undefined;
  readonly target: 'service' | 'simulator';
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retry429: boolean;
  readonly outDir: string;
  readonly graceMs: number;
  readonly signal: AbortSignal;
  readonly version: string;
  readonly onProgress?: (progress: RunProgress) => void;
  /** Called once the run directory exists and the plan is known, before the first request. */
  readonly onStart?: (info: { outDir: string; planned: number; alreadyDone: number; truncatedBytes: number }) => void;
  /** Continue the run in `outDir` (its manifest must match) instead of starting a fresh one. */
  readonly resume?: boolean;
  /** Aborting cancels the requests in flight at once, without waiting for the grace (a second Ctrl-C). */
  readonly cancelNow?: AbortSignal;
}

export interface EvalResult {
  readonly outDir: string;
  readonly run: RunResult;
  readonly reports: RenderedReports;
}

export async function runEval(options: EvalOptions, prepared?: PreparedEval): Promise<EvalResult> {
  const { dataset, sets, plan, plannedTotal, wholePlanSha256 } = prepared ?? (await prepareEval(options));
  const outDir = resolve(options.cwd, options.outDir);
  const manifest = await buildManifest(options, dataset, sets, plan, plannedTotal, wholePlanSha256);
  let done: ReadonlySet<string> = new Set();
  let truncatedBytes = 0;
  if (options.resume) {
    ({ done, truncatedBytes } = await prepareResume(outDir, options.outDir, manifest, plan));
  } else {
    await ensureFreshRunDir(outDir);
    await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const todo = plan.filter((p) => !done.has(p.key));

  const client = createChatClient({ baseUrl: options.baseUrl, token: options.token, connections: options.concurrency, timeoutMs: options.timeoutMs });
  const jsonlOut = createWriteStream(join(outDir, 'results.jsonl'), { flags: options.resume ? 'a' : 'w' });
  const sink = createJsonlSink(jsonlOut);
  const expectations = new Map(plan.map((p) => [p.key, p.expectations]));
  let run: RunResult;
  try {
    if (sets.defaults.project) await applyProject(options, sets.defaults.project);
    options.onStart?.({ outDir, planned: todo.length, alreadyDone: done.size, truncatedBytes });
    run = await runPlan(todo, {
      client: withCancelNow(client, options.cancelNow),
      concurrency: options.concurrency,
      retries: options.retries,
      retry429: options.retry429,
      signal: options.signal,
      graceMs: options.graceMs,
      onProgress: options.onProgress,
      onRecord: (record) => sink.write(scoreRecord(record, expectations.get(record.key)!)),
    });
  } finally {
    await sink.close();
    await client.close();
  }
  const reports = await renderReports(outDir, { version: options.version });
  return { outDir, run, reports };
}

/** A run directory holds one run: an existing results.jsonl is never appended to or overwritten. */
async function ensureFreshRunDir(outDir: string): Promise<void> {
  const exists = await access(join(outDir, 'results.jsonl')).then(() => true, () => false);
  if (exists) throw new UsageError(`--out ${outDir} already holds a run (results.jsonl); choose another directory, or continue that run with --resume ${outDir}`);
  await mkdir(outDir, { recursive: true });
}

/** The run's manifest: what was run, against what, with which inputs by hash (and the plan's digest). */
async function buildManifest(options: EvalOptions, dataset: Dataset, sets: ResolvedSets, plan: readonly PlannedRequest[], plannedTotal: number, wholePlanSha256: string): Promise<Manifest> {
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
    dataset: { path: options.datasetPath, sha256: await sha256File(resolve(options.cwd, dataset.path)), questions: dataset.rows.length },
    models: sets.modelsPath ? { path: sets.modelsPath, sha256: await sha256File(resolve(options.cwd, sets.modelsPath)) } : null,
    sets: sets.sets.map((s) => ({
      name: s.name,
      multi: s.multi,
      models: (s.llm_overrides ?? (s.llm_override ? [s.llm_override] : [])).map((o) => o.display_name ?? o.model_version ?? 'configured model'),
    })),
    defaults: redactDefaults(sets.defaults),
    plan_sha256: planDigest(plan),
    whole_plan_sha256: wholePlanSha256,
    options: { mode: options.mode, repeat: options.repeat, concurrency: options.concurrency, timeout_ms: options.timeoutMs, retries: options.retries, retry_429: options.retry429 },
  };
}

/**
 * The client as the runner sees it, with `cancelNow` joined to every request's own signal. The
 * runner's stop already keeps new requests from starting; this only ends the ones in flight early.
 */
function withCancelNow(client: ChatClient, cancelNow: AbortSignal | undefined): Pick<ChatClient, 'send' | 'baseUrl'> {
  if (cancelNow === undefined) return client;
  return {
    baseUrl: client.baseUrl,
    send: (body, signal) => client.send(body, signal === undefined ? cancelNow : AbortSignal.any([signal, cancelNow])),
  };
}

/** Sets the project's instructions before the first request and reads them back to be sure. */
async function applyProject(options: EvalOptions, project: { id: number; instructions: string }): Promise<void> {
  const endpoint = { baseUrl: options.baseUrl, token: options.token, timeoutMs: options.timeoutMs };
  await putProjectInstructions(endpoint, project.id, project.instructions);
  const saved = await getProjectInstructions(endpoint, project.id);
  if (saved.instructions !== project.instructions) {
    throw new RunError(`project ${project.id}: the service saved other instructions than those sent`);
  }
}

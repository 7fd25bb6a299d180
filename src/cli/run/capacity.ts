/**
 * @module cli/run/capacity
 * `chatbench capacity`'s run. Its flags and help are cli/commands/capacity.ts.
 */
import { prepareLoad, type LoadSpec } from '../../app/load/run-load.js';
import { runCapacity } from '../../app/load/run-capacity.js';
import { openTarget } from '../../app/shared/target.js';
import { interruptedExitCode, UsageError, type ExitCode } from '../../errors.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { heapLimitBytes } from '../../app/shared/heap.js';
import { DEFAULT_SATURATION } from '../../plan/capacity.js';
import { BYTES_PER_PLANNED_REQUEST, LIMITS } from '../../util/limits.js';
import { resolveBaseUrl } from '../connection.js';
import { claimDir } from '../claim.js';
import { parseDuration, positiveDuration } from '../duration.js';
import { rateNumber, wholeNumber } from '../flags.js';
import type { Io } from '../io.js';
import { defaultRunDir } from '../run-dir.js';
import { VERSION } from '../version.js';
import type { CommandRun } from '../commands/define.js';
import { invocationOf } from '../options/invocation.js';
import { outputOf } from '../output/output.js';
import { simTimeScale } from '../options/speedup.js';
import { requestLine } from '../output/request-line.js';
import { capacityRunVerdict, renderCapacitySummary } from '../../reports/load/terminal-summary.js';
import { verdictLine, withInterruptExit } from '../../verdict/index.js';
import { loadSpecOf, resolveTokens, workersOption } from './load.js';
import { healthProbeOf } from '../health-flags.js';
import { telemetryFlagsOf } from '../telemetry-flags.js';
import { startRunTelemetry } from '../run-telemetry.js';
import { resolveWorkers, type WorkerChoice } from '../../app/load/workers/split.js';
import { availableParallelism } from 'node:os';
import type { CapacityArgs } from '../commands/capacity.js';

/** `chatbench capacity`'s run, with the arguments its flags (commands/capacity.ts) parsed. */
export const run: CommandRun<CapacityArgs> = capacityHandler;

async function capacityHandler(a: CapacityArgs, io: Io): Promise<ExitCode> {
  const problem =
    wholeNumber(a['max-steps'], 'max-steps', 1, LIMITS.capacitySteps) ??
    (a.users
      ? wholeNumber(a['start-users'], 'start-users', 1, LIMITS.inFlight)
      : rateNumber(a['start-rate'], 'start-rate', LIMITS.rate));
  if (problem) throw new UsageError(problem);
  if (!(a.factor > 1) || !Number.isFinite(a.factor)) throw new UsageError(`--factor must be above 1, got ${a.factor}`);
  if (!(a.precision > 0 && a.precision < 1))
    throw new UsageError(`--precision must be between 0 and 1 (e.g. 0.1 for 10%), got ${a.precision}`);
  if (!(a['max-ttfp-rise'] > 0)) throw new UsageError(`--max-ttfp-rise must be above 0, got ${a['max-ttfp-rise']}`);
  if (a.sim && a['base-url'] !== undefined)
    throw new UsageError('--sim and --base-url conflict: --sim runs against the embedded simulated service');
  const baseUrl = resolveBaseUrl({ 'base-url': a['base-url'] }, io);
  if (!a.sim && baseUrl === undefined)
    throw new UsageError('no target: give --base-url (or CHATBENCH_BASE_URL), or --sim');
  const slos = a.slo.map((text) => parseSlo(text));
  const start = a.users ? a['start-users'] : a['start-rate'];
  const stepMs = parseDuration(a['step-duration'], 'step-duration', { positive: true, maxMs: LIMITS.runMs });
  const maxDurationMs = parseDuration(a['max-duration'], 'max-duration', { positive: true, maxMs: LIMITS.runMs });
  const timeoutMs = a.timeout === undefined ? undefined : positiveDuration(a.timeout, 'timeout');
  const graceMs = parseDuration(a.grace, 'grace');
  const healthProbe = healthProbeOf({
    'health-probe': a['health-probe'],
    'health-interval': a['health-interval'] ?? '1s',
  });
  const telemetry = telemetryFlagsOf(a);
  const stepWarmupMs = parseDuration(a['step-warmup'], 'step-warmup', { maxMs: LIMITS.runMs });
  const { tokens, weights } = resolveTokens(a, io);
  const workers = resolveWorkers(workersOption(a.workers), {
    url: a.sim ? null : (baseUrl ?? null),
    cores: availableParallelism(),
  });
  // The first step's spec, checked with load's own rules (conflicts, warm-up within the step, limits),
  // its messages naming capacity's flags.
  const spec = loadSpecOf(
    {
      ...a,
      rate: a.users ? undefined : start,
      concurrency: a.users ? start : undefined,
      duration: a['step-duration'],
      warmup: a['step-warmup'],
      cooldown: '0s',
      conversations: false,
    },
    io,
    { count: Math.max(1, tokens.length), weights },
    { rate: 'start-rate', concurrency: 'start-users', duration: 'step-duration', warmup: 'step-warmup' },
  );
  const prepared = await prepareLoad({
    operation: spec.operation,
    mode: spec.mode,
    datasetPath: a.dataset,
    urlsFile: a['urls-file'],
    modelsPath: a['sets-file'],
    setFlags: a.set,
    setName: a['set-name'],
    cwd: io.cwd,
  });
  const outDir = a.out ?? defaultRunDir('capacity', new Date(), io.cwd);
  const claim = await claimDir(io, outDir, { label: `--out ${outDir}`, command: 'capacity' });
  try {
    return await searchClaimed(a, io, {
      spec,
      prepared,
      baseUrl,
      tokens,
      slos,
      start,
      stepMs,
      maxDurationMs,
      timeoutMs,
      graceMs,
      stepWarmupMs,
      outDir,
      workers,
      healthProbe,
      telemetry,
    });
  } finally {
    await claim.release();
  }
}

interface CheckedCapacity {
  spec: LoadSpec;
  prepared: Awaited<ReturnType<typeof prepareLoad>>;
  baseUrl: string | undefined;
  tokens: string[];
  slos: ReturnType<typeof parseSlo>[];
  start: number;
  stepMs: number;
  maxDurationMs: number;
  /** Undefined: the silence limit's default. */
  timeoutMs: number | undefined;
  graceMs: number;
  stepWarmupMs: number;
  outDir: string;
  workers: WorkerChoice;
  healthProbe: ReturnType<typeof healthProbeOf>;
  telemetry: ReturnType<typeof telemetryFlagsOf>;
}

/** Runs the checked search in its claimed directory. */
async function searchClaimed(a: CapacityArgs, io: Io, c: CheckedCapacity): Promise<ExitCode> {
  const {
    spec,
    prepared,
    baseUrl,
    tokens,
    slos,
    start,
    stepMs,
    maxDurationMs,
    timeoutMs,
    graceMs,
    stepWarmupMs,
    outDir,
  } = c;
  const output = outputOf(io);
  const target = await openTarget({
    sim: a.sim,
    seed: a.seed,
    baseUrl,
    token: tokens[0],
    timeScale: simTimeScale(io.env),
  });
  io.stderr.write(
    `chatbench capacity: ${a.users ? 'users' : 'rate'} from ${start}, ×${a.factor} then bisect to ${a.precision * 100}%, ${a['step-duration']} per step, at most ${a['max-steps']} steps / ${a['max-duration']}, ${c.workers.count} worker${c.workers.count === 1 ? '' : 's'} (${c.workers.reason}) → ${outDir}\n`,
  );
  const live = await startRunTelemetry(io, c.telemetry, {
    tokens,
    prepared,
    mode: spec.mode,
    steps: true,
    conditions: slos.map((x) => ({ kind: 'slo' as const, text: x.gate.text })),
  }).catch(async (error: unknown) => {
    // Nothing was sent (a dashboard port taken, its bundle missing): the target must not hold the process.
    await target.close();
    throw error;
  });
  let run;
  try {
    run = await runCapacity({
      load: {
        baseUrl: target.baseUrl,
        tokens: tokens.length > 0 ? tokens : [target.token ?? ''],
        prepared,
        target: target.kind,
        cwd: io.cwd,
        signal: io.signal,
        graceMs,
        timeoutMs,
        retries: a.retries,
        retry429: a['retry-429'],
        version: VERSION,
        cpuUsage: () => process.cpuUsage(),
        invocation: invocationOf(a),
        workers: c.workers.count,
        healthProbe: c.healthProbe,
        onRecord: live.onRecord(output.mode === 'verbose' ? (record) => output.detail(requestLine(record)) : undefined),
        onTick: live.onTick(undefined),
      },
      spec: { ...spec, set: prepared.sets[0]?.name ?? spec.set },
      users: a.users,
      search: {
        start,
        factor: a.factor,
        precision: a.precision,
        maxSteps: a['max-steps'],
        integer: a.users,
        max: maxStepTarget(a.users, stepMs, heapLimitBytes()),
      },
      saturation: { ...DEFAULT_SATURATION, maxTtfpRise: a['max-ttfp-rise'] },
      stepDurationMs: stepMs,
      stepWarmupMs,
      maxDurationMs,
      slos,
      outDir,
      onStepStart: ({ index, target: t, phase }) => {
        live.setStep(index);
        io.stderr.write(
          `step ${index + 1} (${phase}): ${t} ${a.users ? 'users' : 'req/s'} for ${a['step-duration']}…\n`,
        );
      },
      onStep: (s) => {
        live.onStep(s);
        io.stderr.write(
          `  ${s.good ? 'good' : 'bad'}: accepted ${s.ok_rate_per_s?.toFixed(1) ?? '–'}/s of ${s.offered_rate?.toFixed(1) ?? '–'}/s offered${s.reasons.length > 0 ? ` (${s.reasons.join('; ')})` : ''}\n`,
        );
      },
    });
  } finally {
    await live.close();
    await target.close();
  }
  const verdict = withInterruptExit(capacityRunVerdict(run.result), interruptedExitCode(io.signal));
  const exitCode = verdict.exit_code;
  live.finish(verdict);
  io.stdout.write(
    `\n${renderCapacitySummary(run.result, output.paint)}\nreports:\n${run.files.map((f) => `  ${f}`).join('\n')}\n`,
  );
  output.verdict(verdictLine(verdict, output.paint));
  output.result({
    command: 'capacity',
    exit_code: exitCode,
    verdict: verdict.headline,
    decision: verdict,
    run_dir: outDir,
    files: run.files,
    capacity: run.result,
  });
  await live.linger();
  return exitCode;
}

/**
 * The highest target a step may take: users up to the in-flight limit; a rate up to the rate limit
 * and to what one step's records (rate × step duration) may hold (the request limit, half the heap).
 */
export function maxStepTarget(users: boolean, stepMs: number, heapBytes: number): number {
  if (users) return LIMITS.inFlight;
  const stepS = stepMs / 1000;
  const byRecords = Math.min(LIMITS.loadRequests, heapBytes / 2 / BYTES_PER_PLANNED_REQUEST) / stepS;
  return Math.max(Number.MIN_VALUE, Math.min(LIMITS.rate, Number(byRecords.toPrecision(4))));
}

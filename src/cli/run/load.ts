/**
 * @module cli/run/load
 * `chatbench load`'s run. Its flags and help are cli/commands/load.ts.
 */
import { bodyCapsOf } from '../body-cap-flags.js';
import { parseLoadGateFlag } from '../../gates/load.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { z } from 'zod';
import { prepareLoad, runLoad, type LoadResult, type LoadSpec, type PreparedLoad } from '../../app/load/run-load.js';
import { openTarget, simulatorToolIds } from '../../app/shared/target.js';
import { UsageError, type ExitCode } from '../../errors.js';
import { heapLimitBytes } from '../../app/shared/heap.js';
import { formatDuration, LIMITS } from '../../util/limits.js';
import { LoadSpecSchema, scheduleTooLarge } from '../../plan/load-plan.js';
import { shardUsers } from '../../plan/arrivals.js';
import { parseStages, stagesDurationMs } from '../../plan/stages.js';
import { describeThinkTime, parseThinkTime } from '../../plan/think-time.js';
import { parseAbandon } from '../../plan/abandon.js';
import { parseTokenFile } from '../../runner/token-pool.js';
import { checkToken, readTokenFile, resolveBaseUrl } from '../connection.js';
import { claimDir } from '../claim.js';
import { parseDuration, positiveDuration } from '../duration.js';
import { parseBytes } from '../bytes.js';
import { rateNumber, resolveShard, wholeNumber } from '../flags.js';
import type { Io } from '../io.js';
import { createLoadView } from '../load-view.js';
import { liveOutput } from '../terminal-safe.js';
import { defaultRunDir } from '../run-dir.js';
import { VERSION } from '../version.js';
import type { CommandRun } from '../commands/define.js';
import { invocationOf } from '../options/invocation.js';
import { outputOf } from '../output/output.js';
import { simTimeScale } from '../options/speedup.js';
import { requestLine } from '../output/request-line.js';
import { renderLoadSummary } from '../../reports/load/terminal-summary.js';
import { verdictLine } from '../../verdict/index.js';
import { parseWorkers, resolveWorkers, type WorkerChoice } from '../../app/load/workers/split.js';
import { availableParallelism } from 'node:os';
import { healthProbeOf } from '../health-flags.js';
import { telemetryFlagsOf } from '../telemetry-flags.js';
import { startRunTelemetry } from '../run-telemetry.js';
import type { LoadArgs } from '../commands/load.js';

/** `chatbench load`'s run, with the arguments its flags (commands/load.ts) parsed. */
export const run: CommandRun<LoadArgs> = loadHandler;

/**
 * What a flag of the spec is called on this command line: `capacity` sets the rate with
 * --start-rate and the length with --step-duration, so its messages must say so.
 */
export type SpecFlagNames = Partial<
  Record<'rate' | 'concurrency' | 'duration' | 'warmup' | 'cooldown' | 'requests', string>
>;

/** Turns flags into a checked LoadSpec; every conflict or value past its limit is a UsageError (exit 2) naming the flags. */
export function loadSpecOf(
  a: LoadArgs,
  io: Io,
  tokens: { count: number; weights: number[] | null },
  names: SpecFlagNames = {},
): LoadSpec {
  const flag = (name: keyof SpecFlagNames) => names[name] ?? name;
  if (a.rate !== undefined && a.concurrency !== undefined)
    throw new UsageError('--rate (open model) and --concurrency (closed model) conflict: give one');
  if (a.stages !== undefined && a.duration !== undefined)
    throw new UsageError('--stages and --duration conflict: the stages set the duration');
  if (a.stages !== undefined && (a.rate !== undefined || a.concurrency !== undefined))
    throw new UsageError(
      '--stages sets the rate or users itself: drop --rate/--concurrency (use --load-model closed to ramp users)',
    );
  if (a.stages === undefined && a.rate === undefined && a.concurrency === undefined)
    throw new UsageError('give --rate R (open model), --concurrency N (closed model) or --stages');
  if (a.stages === undefined && a.duration === undefined && a.requests === undefined)
    throw new UsageError('give --duration, --requests or --stages: a load run must end by itself');
  const model = a['load-model'] ?? (a.concurrency !== undefined ? 'closed' : 'open');
  if (a['load-model'] === 'open' && a.concurrency !== undefined)
    throw new UsageError('--load-model open takes --rate, not --concurrency');
  if (a['load-model'] === 'closed' && a.rate !== undefined)
    throw new UsageError('--load-model closed takes --concurrency, not --rate');
  if (model === 'closed' && a.arrival !== 'constant')
    throw new UsageError('--arrival applies to the open model (--rate) only');
  if (model === 'closed' && (a['max-in-flight'] !== undefined || a.connections !== undefined))
    throw new UsageError(
      '--max-in-flight and --connections apply to the open model only: the closed model has one request in flight per user',
    );
  const problem =
    (a.concurrency !== undefined ? wholeNumber(a.concurrency, flag('concurrency'), 1, LIMITS.inFlight) : undefined) ??
    (a.requests !== undefined ? wholeNumber(a.requests, flag('requests'), 1, LIMITS.loadRequests) : undefined) ??
    (a['max-in-flight'] !== undefined
      ? wholeNumber(a['max-in-flight'], 'max-in-flight', 1, LIMITS.inFlight)
      : undefined) ??
    (a.connections !== undefined ? wholeNumber(a.connections, 'connections', 1, LIMITS.inFlight) : undefined) ??
    (a.rate !== undefined ? rateNumber(a.rate, flag('rate'), LIMITS.rate) : undefined) ??
    wholeNumber(a.retries, 'retries', 0, LIMITS.retries);
  if (problem) throw new UsageError(problem);
  let thinkTime = null;
  if (a['think-time'] !== undefined) {
    const parsed = parseThinkTime(a['think-time']);
    if ('problems' in parsed) throw new UsageError(parsed.problems.map((p) => `--think-time: ${p}`).join('\n'));
    thinkTime = parsed;
  }
  let abandon = null;
  if (a.abandon !== undefined) {
    const parsed = parseAbandon(a.abandon, (text) => parseDuration(text, 'abandon', { maxMs: LIMITS.runMs }));
    if (typeof parsed === 'string') throw new UsageError(parsed);
    abandon = parsed;
  }
  let stages = null;
  if (a.stages !== undefined) {
    const parsed = parseStages(a.stages, {
      integerTargets: model === 'closed',
      maxTarget: model === 'closed' ? LIMITS.inFlight : LIMITS.rate,
      maxTotalMs: LIMITS.runMs,
    });
    if ('problems' in parsed) throw new UsageError(`--stages: ${parsed.problems.join('; ')}`);
    stages = parsed;
  }
  const run = { positive: true, maxMs: LIMITS.runMs };
  const result = LoadSpecSchema.safeParse({
    operation: a.operation,
    mode: a.operation === 'open-urls' ? 'full' : a.mode,
    model,
    concurrency: a.concurrency,
    rate: a.rate,
    arrival: a.arrival,
    max_in_flight: a['max-in-flight'] ?? 1000,
    connections: a.connections ?? null,
    stages,
    duration_ms: a.duration === undefined ? null : parseDuration(a.duration, flag('duration'), run),
    requests: a.requests ?? null,
    warmup_ms: parseDuration(a.warmup, flag('warmup'), { maxMs: LIMITS.runMs }),
    cooldown_ms: parseDuration(a.cooldown, flag('cooldown'), { maxMs: LIMITS.runMs }),
    seed: a.seed,
    // The set's name is settled by prepareLoad (a sets file may name it); this is the flags' guess.
    question_order: a['question-order'],
    set: a.operation === 'open-urls' ? 'open-urls' : (a['set-name'] ?? setNameOf(a.set[0])),
    tokens: tokens.count,
    token_weights: tokens.weights,
    shard: resolveShard(a, io),
    start_at: a['start-at'] ?? null,
    conversations: a.conversations ?? false,
    think_time: thinkTime,
    ...(abandon === null ? {} : { abandon }),
  });
  if (!result.success)
    throw new UsageError(
      result.error.issues.map((i) => `${i.path.length > 0 ? `${flagOf(i.path, names)}: ` : ''}${i.message}`).join('\n'),
    );
  const tooLarge = scheduleTooLarge(result.data, heapLimitBytes());
  if (tooLarge) throw new UsageError(tooLarge);
  return result.data;
}

const setNameOf = (flag: string | undefined) => (flag === undefined ? 'default' : (flag.split('=')[0] ?? 'default'));
const flagOf = (path: readonly PropertyKey[], names: SpecFlagNames) => {
  const name = String(path[0]).replace('_ms', '').replaceAll('_', '-');
  return `--${names[name as keyof SpecFlagNames] ?? name}`;
};

/** Tokens from --token (repeatable), --token-file (one per line, optional weight) or CHATBENCH_TOKEN; each checked (connection.ts). */
export function resolveTokens(
  a: Pick<LoadArgs, 'token' | 'token-file'>,
  io: Io,
): { tokens: string[]; weights: number[] | null } {
  if (a.token.length > 0 && a['token-file'] !== undefined)
    throw new UsageError('--token and --token-file conflict: give one');
  if (a['token-file'] !== undefined) {
    const file = a['token-file'];
    const list = parseTokenFile(readTokenFile(file, io.cwd), file);
    return {
      tokens: list.tokens.map((t, i) => checkToken(t, `--token-file ${file}: token ${i + 1}`)),
      weights: list.weights,
    };
  }
  if (a.token.length > 0)
    return {
      tokens: a.token.map((t, i) => checkToken(t, a.token.length > 1 ? `--token (the ${ordinal(i + 1)})` : '--token')),
      weights: null,
    };
  return {
    tokens: io.env.CHATBENCH_TOKEN ? [checkToken(io.env.CHATBENCH_TOKEN, 'CHATBENCH_TOKEN')] : [],
    weights: null,
  };
}

const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** A `turn:N` gate needs conversations with an N-th turn: refused before anything is sent, not after the run. */
function checkTurnGates(
  gates: readonly ReturnType<typeof parseLoadGateFlag>[],
  spec: LoadSpec,
  prepared: PreparedLoad,
): void {
  const longest =
    spec.conversations && prepared.source.operation === 'chat' ? Math.max(0, ...prepared.source.rows.turns) : 0;
  for (const gate of gates) {
    const turn = gate.turn ?? null;
    if (turn === null || turn <= longest) continue;
    throw new UsageError(
      `--gate "${gate.text}": turn:${turn} names no turn of the run (${spec.conversations ? `its longest conversation has ${longest} turn${longest === 1 ? '' : 's'}` : 'turns are played with --conversations'})`,
    );
  }
}

async function loadHandler(a: LoadArgs, io: Io): Promise<ExitCode> {
  const timeoutMs = a.timeout === undefined ? undefined : positiveDuration(a.timeout, 'timeout');
  const maxDurationMs =
    a['max-duration'] === undefined ? undefined : positiveDuration(a['max-duration'], 'max-duration');
  const maxAnswerBytes = parseBytes(a['max-answer-bytes'] ?? '1MiB', 'max-answer-bytes', LIMITS.answerBytes);
  const { maxBodyBytes, maxLineBytes, maxErrorBodyBytes } = bodyCapsOf(a);
  const graceMs = parseDuration(a.grace, 'grace');
  const healthProbe = healthProbeOf({
    'health-probe': a['health-probe'],
    'health-interval': a['health-interval'] ?? '1s',
  });
  const telemetry = telemetryFlagsOf(a);
  if (a.sim && a['base-url'] !== undefined)
    throw new UsageError('--sim and --base-url conflict: --sim runs against the embedded simulated service');
  const baseUrl = resolveBaseUrl({ 'base-url': a['base-url'] }, io);
  if (!a.sim && baseUrl === undefined)
    throw new UsageError(
      'no target: give --base-url (or CHATBENCH_BASE_URL), or --sim for a dry run against the embedded simulated service',
    );
  if (a['start-at'] !== undefined) checkStartAt(a['start-at'], Date.now());
  const slos = (a.slo ?? []).map((text) => parseSlo(text));
  const gates = (a.gate ?? []).map((text) => parseLoadGateFlag(text));
  const { tokens, weights } = resolveTokens(a, io);
  const flags = loadSpecOf(a, io, { count: Math.max(1, tokens.length), weights });
  const workers = resolveWorkers(workersOption(a.workers), {
    url: a.sim ? null : (baseUrl ?? null),
    cores: availableParallelism(),
  });
  // Every input is checked before a simulator starts or a byte is sent.
  const prepared = await prepareLoad({
    operation: flags.operation,
    mode: flags.mode,
    datasetPath: a.dataset,
    urlsFile: a['urls-file'],
    modelsPath: a['sets-file'],
    setFlags: a.set,
    setName: a['set-name'],
    cwd: io.cwd,
    toolIds: a.sim ? await simulatorToolIds() : null,
  });
  const spec: LoadSpec = { ...flags, set: prepared.sets[0]?.name ?? flags.set };
  checkTurnGates(gates, spec, prepared);
  const outDir = a.out ?? defaultRunDir('load', new Date(), io.cwd);
  const claim = await claimDir(io, outDir, { label: `--out ${outDir}`, command: 'load' });
  try {
    return await runClaimed(a, io, {
      spec,
      prepared,
      baseUrl,
      tokens,
      timeoutMs,
      maxDurationMs,
      maxAnswerBytes,
      maxBodyBytes,
      maxLineBytes,
      maxErrorBodyBytes,
      graceMs,
      slos,
      gates,
      outDir,
      workers,
      healthProbe,
      telemetry,
    });
  } finally {
    await claim.release();
  }
}

interface CheckedLoad {
  spec: LoadSpec;
  prepared: Awaited<ReturnType<typeof prepareLoad>>;
  baseUrl: string | undefined;
  tokens: string[];
  /** Undefined: the silence limit's default. */
  timeoutMs: number | undefined;
  maxDurationMs: number | undefined;
  maxAnswerBytes: number;
  maxBodyBytes: number;
  maxLineBytes: number;
  maxErrorBodyBytes: number;
  graceMs: number;
  slos: ReturnType<typeof parseSlo>[];
  gates: ReturnType<typeof parseLoadGateFlag>[];
  outDir: string;
  workers: WorkerChoice;
  healthProbe: ReturnType<typeof healthProbeOf>;
  telemetry: ReturnType<typeof telemetryFlagsOf>;
}

/** Runs the checked load in its claimed directory; prints the summary and the gates. */
async function runClaimed(a: LoadArgs, io: Io, c: CheckedLoad): Promise<ExitCode> {
  const {
    spec,
    prepared,
    baseUrl,
    tokens,
    timeoutMs,
    maxDurationMs,
    maxAnswerBytes,
    maxBodyBytes,
    maxLineBytes,
    maxErrorBodyBytes,
    graceMs,
    slos,
    gates,
  } = c;
  const output = outputOf(io);
  const target = await openTarget({
    sim: a.sim,
    seed: a.seed,
    baseUrl,
    token: tokens[0],
    timeScale: simTimeScale(io.env),
  });
  const view = createLoadView(liveOutput(io.stderr), {
    scheduleMs: spec.stages ? stagesDurationMs(spec.stages) : spec.duration_ms,
    // With conversations --requests counts conversations, not the requests the view counts: no fraction then.
    requests:
      !spec.conversations && spec.stages === null && spec.duration_ms === null && spec.requests !== null
        ? shardUsers(spec.requests, spec.shard)
        : null,
  });
  const live = await startRunTelemetry(io, c.telemetry, {
    tokens,
    prepared,
    mode: spec.mode,
    steps: false,
    conditions: [
      ...slos.map((x) => ({ kind: 'slo' as const, text: x.gate.text })),
      ...gates.map((g) => ({ kind: 'gate' as const, text: g.text })),
    ],
  }).catch(async (error: unknown) => {
    // Nothing was sent (a dashboard port taken, its bundle missing): the target must not hold the process.
    view.stop();
    await target.close();
    throw error;
  });
  let result: LoadResult;
  try {
    result = await runLoad({
      spec,
      baseUrl: target.baseUrl,
      tokens: tokens.length > 0 ? tokens : [target.token ?? ''],
      prepared,
      target: target.kind,
      cwd: io.cwd,
      outDir: c.outDir,
      signal: io.signal,
      graceMs,
      timeoutMs,
      maxDurationMs,
      maxAnswerBytes,
      maxBodyBytes,
      maxLineBytes,
      maxErrorBodyBytes,
      retries: a.retries,
      retry429: a['retry-429'],
      version: VERSION,
      slos,
      gates,
      cpuUsage: () => process.cpuUsage(),
      invocation: invocationOf(a),
      workers: c.workers.count,
      healthProbe: c.healthProbe,
      onRecord: live.onRecord(output.mode === 'verbose' ? (record) => output.detail(requestLine(record)) : undefined),
      onStart: ({ outDir, planned, startsInMs }) => {
        const load =
          spec.model === 'open'
            ? spec.rate !== undefined
              ? `${spec.rate}/s ${spec.arrival}`
              : 'a ramp of rate'
            : spec.concurrency !== undefined
              ? `${spec.concurrency} users`
              : 'a ramp of users';
        const shard = spec.shard ? ` (shard ${spec.shard.index}/${spec.shard.count})` : '';
        const unit = spec.conversations ? 'conversations' : 'requests';
        io.stderr.write(
          `chatbench load: ${load}${planned === null ? '' : `, ${planned} ${unit} planned`}${spec.conversations ? ` (conversations${spec.think_time === null ? '' : `, think time ${describeThinkTime(spec.think_time)}`})` : ''}${shard}, against ${target.kind === 'simulator' ? 'the embedded simulated service' : target.baseUrl}, ${c.workers.count} worker${c.workers.count === 1 ? '' : 's'} (${c.workers.reason}) → ${outDir}\n`,
        );
        if (startsInMs !== null && startsInMs < 0)
          io.stderr.write(
            `chatbench load: --start-at ${spec.start_at} has passed: starting now, ${Math.round(-startsInMs)} ms late\n`,
          );
        else if (startsInMs !== null)
          io.stderr.write(
            `chatbench load: waiting ${Math.round(startsInMs / 1000)} s for --start-at ${spec.start_at}\n`,
          );
      },
      onTick: live.onTick((tick) => view.update(tick)),
    });
  } finally {
    view.stop();
    await live.close();
    await target.close();
  }
  const failed = result.gates.filter((g) => !g.passed);
  const { summary, verdict } = result;
  if (summary === null || verdict === null) throw new Error('chatbench load: the run ended without its reports');
  const exitCode = verdict.exit_code;
  live.finish(verdict);
  io.stdout.write(
    `\n${renderLoadSummary(summary, result.gates, output.paint)}\nreports:\n${[`${result.outDir}/results.jsonl`, ...result.reports].map((f) => `  ${f}`).join('\n')}\n`,
  );
  for (const gate of failed) output.alert(`gate failed: ${gate.reason}`);
  for (const slo of summary.slos.filter((x) => !x.passed && !x.goodput_only)) output.alert(`SLO broken: ${slo.reason}`);
  if (result.interrupted)
    io.stderr.write(
      `chatbench load: interrupted; ${result.records} sent requests recorded, ${result.generator.unsent} planned arrivals not sent\n`,
    );
  output.verdict(verdictLine(verdict, output.paint));
  output.result({
    command: 'load',
    exit_code: exitCode,
    verdict: verdict.headline,
    decision: verdict,
    run_dir: result.outDir,
    files: [`${result.outDir}/results.jsonl`, ...result.reports],
    gates: result.gates,
    summary,
  });
  await live.linger();
  return exitCode;
}

/** `--workers N|auto` (default auto); a bad value is a UsageError before anything is sent. */
export function workersOption(value: string | number | undefined): number | 'auto' {
  const parsed = parseWorkers(value ?? 'auto');
  if (typeof parsed === 'string' && parsed !== 'auto') throw new UsageError(parsed);
  return parsed;
}

/** `--start-at`: an ISO date-time at most LIMITS.startAheadMs ahead (a timer cannot wait for ever; nobody means a month). */
export function checkStartAt(text: string, nowMs: number): void {
  if (!z.iso.datetime({ offset: true }).safeParse(text).success)
    throw new UsageError(`--start-at: "${text}" is not an ISO date-time, e.g. 2030-01-01T12:00:00Z`);
  const ahead = Date.parse(text) - nowMs;
  if (ahead > LIMITS.startAheadMs)
    throw new UsageError(
      `--start-at ${text} is ${formatDuration(ahead)} ahead, over the maximum of ${formatDuration(LIMITS.startAheadMs)}`,
    );
}

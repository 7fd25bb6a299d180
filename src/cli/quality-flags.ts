/**
 * @module cli/quality-flags
 * The answer-quality flags of `chatbench eval` (and the demo): the judge (`--judge URL|sim|off`,
 * its model, token, concurrency, repeats, cache), `--fetch-cited`, `--checks`, `--pass` and
 * `--labels`. The judge's token comes from `--judge-token-file` or CHATBENCH_JUDGE_TOKEN and, like
 * every secret, is never printed or written.
 */
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { JudgeSettings } from '../app/eval/assess-record.js';
import { UsageError } from '../errors.js';
import { JUDGE_FIGURES, type JudgeFigure } from '../records/judge-figures.js';
import { SIM_JUDGE_MODEL } from '../api/sim-judge.js';
import { parseBytes } from './bytes.js';
import { checkToken, noControl, oneLine, parseBaseUrl, readTokenFile } from './connection.js';
import { parseDuration } from './duration.js';
import { wholeNumber } from './flags.js';
import type { Io } from './io.js';

export interface QualityFlags {
  judge?: string | undefined;
  'judge-model'?: string | undefined;
  'judge-token-file'?: string | undefined;
  'judge-concurrency': number;
  'judge-repeat': number;
  'judge-figures'?: string[] | undefined;
  'judge-timeout': string;
  'judge-max-reply-bytes'?: string | undefined;
  'judge-retries': number;
  'judge-cache': boolean;
  'judge-cache-dir'?: string | undefined;
  'judge-structured-output': 'auto' | 'off';
  'fetch-cited': boolean;
  checks?: string | undefined;
  'checks-timeout': string;
  'checks-total-timeout'?: string | undefined;
  'checks-max-heap-bytes'?: string | undefined;
  pass?: string[] | undefined;
  labels?: string | undefined;
}

export function withQualityFlags<T>(y: Argv<T>) {
  return y
    .option('judge', {
      type: 'string',
      describe:
        'Judge answers with the model at this OpenAI-compatible base URL (POST {URL}/v1/chat/completions); "sim": the simulator\'s rule-based judge (the default with --sim); "off": no judge',
      group: 'Answer quality:',
    })
    .option('judge-model', {
      type: 'string',
      describe: 'The judge model, as the endpoint names it (needed with --judge URL)',
      group: 'Answer quality:',
    })
    .option('judge-token-file', {
      type: 'string',
      describe: "Read the judge's bearer token from this file (or env CHATBENCH_JUDGE_TOKEN); never printed",
      group: 'Answer quality:',
    })
    .option('judge-figures', {
      type: 'string',
      array: true,
      describe: `Judge only these figures (${JUDGE_FIGURES.join(', ')}; default all)`,
      group: 'Answer quality:',
    })
    .option('judge-concurrency', {
      type: 'number',
      default: 4,
      describe: 'Judge calls in flight at once',
      group: 'Answer quality:',
    })
    .option('judge-repeat', {
      type: 'number',
      default: 1,
      describe: "Ask the judge N times per figure: the verdict is the mean, the report gives the judge's flip rate",
      group: 'Answer quality:',
    })
    .option('judge-timeout', {
      type: 'string',
      default: '60s',
      describe: 'Time allowed per judge call, its reply included',
      group: 'Answer quality:',
    })
    .option('judge-max-reply-bytes', {
      type: 'string',
      default: '4MiB',
      describe: 'Most bytes of one judge reply read; past it the figure is judge_error',
      group: 'Answer quality:',
    })
    .option('judge-retries', {
      type: 'number',
      default: 4,
      describe:
        'Retry a judge call after a 429 (honouring Retry-After), a 5xx, a network error or a reply without a verdict',
      group: 'Answer quality:',
    })
    .option('judge-cache', {
      type: 'boolean',
      default: true,
      describe: 'Keep verdicts on disk and never ask twice (--no-judge-cache: ask every time)',
      group: 'Answer quality:',
    })
    .option('judge-cache-dir', {
      type: 'string',
      describe: 'Where verdicts are kept (default $XDG_CACHE_HOME/chatbench/judge, else ~/.cache/chatbench/judge)',
      group: 'Answer quality:',
    })
    .option('judge-structured-output', {
      choices: ['auto', 'off'] as const,
      default: 'auto' as const,
      describe:
        'auto: ask for JSON-schema output and fall back when the endpoint refuses; off: never ask (the reply is read leniently either way)',
      group: 'Answer quality:',
    })
    .option('fetch-cited', {
      type: 'boolean',
      default: false,
      describe:
        "Judge groundedness on the cited pages' text too, fetched once per URL through the service's open-urls operation",
      group: 'Answer quality:',
    })
    .option('checks', {
      type: 'string',
      describe: 'An ES module whose named exports (ctx) => boolean | number | {pass, score, reason} become figures',
      group: 'Answer quality:',
    })
    .option('checks-timeout', {
      type: 'string',
      default: '2s',
      describe: 'Time one check may take on one answer',
      group: 'Answer quality:',
    })
    .option('checks-total-timeout', {
      type: 'string',
      default: '30s',
      describe:
        "Time all the checks of one answer may take together; a check not started in time is that check's error",
      group: 'Answer quality:',
    })
    .option('checks-max-heap-bytes', {
      type: 'string',
      default: '256MiB',
      describe: "Heap of the checks' worker (at least 16MiB); a check past it is that check's error",
      group: 'Answer quality:',
    })
    .option('pass', {
      type: 'string',
      array: true,
      describe:
        'A pass condition, e.g. "correctness >= 0.7" (repeatable; "default" adds the default rule); replaces the default pass rule',
      group: 'Answer quality:',
    })
    .option('labels', {
      type: 'string',
      describe: "A CSV of human verdicts (question_id, verdict[, set][, figure]) for the judge's agreement",
      group: 'Answer quality:',
    });
}

/** The figures asked: --judge-figures (comma or space separated, repeatable) or all of them. */
function figuresOf(flags: QualityFlags): JudgeFigure[] {
  const given = (flags['judge-figures'] ?? []).flatMap((f) => f.split(/[\s,]+/)).filter((f) => f !== '');
  if (given.length === 0) return [...JUDGE_FIGURES];
  for (const figure of given) {
    if (!(JUDGE_FIGURES as readonly string[]).includes(figure))
      throw new UsageError(`--judge-figures: "${figure}" is not a judged figure (${JUDGE_FIGURES.join(', ')})`);
  }
  return JUDGE_FIGURES.filter((f) => given.includes(f));
}

/**
 * The judge's key from --judge-token-file or CHATBENCH_JUDGE_TOKEN, checked as the service's token
 * is (cli/connection checkToken): empty, white space inside (a CR LF), a control character or
 * anything outside printable ASCII is refused (exit 2), naming where, never the key.
 */
export function judgeKey(flags: QualityFlags, io: Io): string | undefined {
  const file = flags['judge-token-file'];
  if (file !== undefined)
    return checkToken(
      oneLine(readTokenFile(file, io.cwd, '--judge-token-file'), `--judge-token-file ${file}`),
      `--judge-token-file ${file}`,
    );
  const fromEnv = io.env.CHATBENCH_JUDGE_TOKEN;
  return fromEnv === undefined || fromEnv === ''
    ? undefined
    : checkToken(noControl(fromEnv, 'CHATBENCH_JUDGE_TOKEN'), 'CHATBENCH_JUDGE_TOKEN');
}

/** Where verdicts are kept; null when caching is off or no cache directory can be named. */
function cacheDir(flags: QualityFlags, io: Io): string | null {
  if (!flags['judge-cache']) return null;
  if (flags['judge-cache-dir'] !== undefined) return resolve(io.cwd, flags['judge-cache-dir']);
  const base = io.env.XDG_CACHE_HOME ?? (io.env.HOME === undefined ? undefined : join(io.env.HOME, '.cache'));
  return base === undefined ? null : join(base, 'chatbench', 'judge');
}

/** The smallest heap a checks worker is given: below it a worker cannot even load a module. */
const MIN_CHECKS_HEAP_MIB = 16;
const MIB = 1024 * 1024;

/** The checks' limits: --checks-timeout, --checks-total-timeout, --checks-max-heap-bytes (in MiB, as a worker's resourceLimits take it). */
export function checksLimits(
  flags: Pick<QualityFlags, 'checks-timeout' | 'checks-total-timeout' | 'checks-max-heap-bytes'>,
): { timeoutMs: number; totalMs: number; heapMb: number } {
  const timeoutMs = parseDuration(flags['checks-timeout'], 'checks-timeout');
  const totalMs = parseDuration(flags['checks-total-timeout'] ?? '30s', 'checks-total-timeout');
  if (totalMs <= 0) throw new UsageError('--checks-total-timeout must be above 0');
  const text = flags['checks-max-heap-bytes'] ?? '256MiB';
  const heapMb = Math.floor(parseBytes(text, 'checks-max-heap-bytes') / MIB);
  if (heapMb < MIN_CHECKS_HEAP_MIB)
    throw new UsageError(
      `--checks-max-heap-bytes: "${text}" is under the least a worker needs, ${MIN_CHECKS_HEAP_MIB}MiB`,
    );
  return { timeoutMs, totalMs, heapMb };
}

/** How the judge is chosen, before the target exists: `sim` is resolved against the simulator later. */
export type JudgeChoice = { kind: 'off' } | { kind: 'sim' } | { kind: 'url'; url: string };

/** Checks the flags (UsageError on any mistake) and says which judge, if any, will be asked. */
export function judgeChoice(flags: QualityFlags, sim: boolean): JudgeChoice {
  const problem =
    wholeNumber(flags['judge-concurrency'], 'judge-concurrency', 1) ??
    wholeNumber(flags['judge-repeat'], 'judge-repeat', 1) ??
    wholeNumber(flags['judge-retries'], 'judge-retries', 0);
  if (problem) throw new UsageError(problem);
  parseDuration(flags['judge-timeout'], 'judge-timeout');
  checksLimits(flags);
  parseBytes(flags['judge-max-reply-bytes'] ?? '4MiB', 'judge-max-reply-bytes');
  figuresOf(flags);
  const given = flags.judge?.trim();
  const choice: JudgeChoice =
    given === undefined
      ? sim
        ? { kind: 'sim' }
        : { kind: 'off' }
      : given === 'off'
        ? { kind: 'off' }
        : given === 'sim'
          ? { kind: 'sim' }
          : { kind: 'url', url: parseBaseUrl(given, '--judge') };
  if (choice.kind === 'url' && (flags['judge-model'] === undefined || flags['judge-model'].trim() === '')) {
    throw new UsageError(
      '--judge URL needs --judge-model NAME (the model the endpoint serves, e.g. gpt-4o-mini or llama3.1:8b)',
    );
  }
  if (choice.kind === 'off') {
    const stray =
      (['judge-model', 'judge-token-file', 'judge-figures'] as const).find((f) => flags[f] !== undefined) ??
      (flags['fetch-cited'] ? 'fetch-cited' : undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} needs a judge: give --judge URL (or run with --sim)`);
  }
  return choice;
}

/** The judge's settings once its URL is known (the simulator's root for `sim`). */
export function judgeSettings(flags: QualityFlags, io: Io, url: string, simulated: boolean): JudgeSettings {
  return {
    url,
    model: flags['judge-model']?.trim() || SIM_JUDGE_MODEL,
    token: simulated ? undefined : judgeKey(flags, io),
    figures: figuresOf(flags),
    repeat: flags['judge-repeat'],
    concurrency: flags['judge-concurrency'],
    timeoutMs: parseDuration(flags['judge-timeout'], 'judge-timeout'),
    retries: flags['judge-retries'],
    cacheDir: cacheDir(flags, io),
    structuredOutput: flags['judge-structured-output'],
    fetchCited: flags['fetch-cited'],
    maxReplyBytes: parseBytes(flags['judge-max-reply-bytes'] ?? '4MiB', 'judge-max-reply-bytes'),
  };
}

/**
 * @module cli/commands/capacity
 * `chatbench capacity`: find the highest rate (or, with --users, the most users) the service
 * sustains under the SLOs. Parses and checks flags (reusing `load`'s spec checks with the first
 * step's target), then delegates to app/load/run-capacity. Exit 0 when a sustainable target was found,
 * 1 when even the smallest target failed, 130 when interrupted.
 * Its flags and help; what it runs is cli/run/capacity.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { DEFAULT_SATURATION, DEFAULT_SEARCH } from '../../plan/capacity.js';
import { LIMITS_NOTE } from '../flags.js';
import { defineFlags } from './define.js';
import type { LoadArgs } from './load.js';
import { HEALTH_OPTIONS } from '../health-flags.js';
import { TELEMETRY_OPTIONS, type TelemetryArgs } from '../telemetry-flags.js';

export interface CapacityArgs
  extends
    Pick<
      LoadArgs,
      | 'base-url'
      | 'token'
      | 'token-file'
      | 'sim'
      | 'seed'
      | 'operation'
      | 'mode'
      | 'dataset'
      | 'urls-file'
      | 'sets-file'
      | 'set'
      | 'set-name'
      | 'question-order'
      | 'arrival'
      | 'max-in-flight'
      | 'connections'
      | 'timeout'
      | 'retries'
      | 'retry-429'
      | 'grace'
      | 'out'
      | 'workers'
      | 'health-probe'
      | 'health-interval'
    >,
    TelemetryArgs {
  users: boolean;
  'start-rate': number;
  'start-users': number;
  factor: number;
  precision: number;
  'step-duration': string;
  'step-warmup': string;
  'max-steps': number;
  'max-duration': string;
  slo: string[];
  'max-ttfp-rise': number;
}

export const flags = defineFlags<CapacityArgs>({
  command: 'capacity',
  describe:
    'Find the highest sustainable rate (or users): step up ×2 until an SLO breaks or the service saturates, then bisect',
  builder: (y: Argv) =>
    y
      .option('base-url', {
        type: 'string',
        describe: 'Base URL of the chat service, with its path prefix (env CHATBENCH_BASE_URL)',
        group: 'Target:',
      })
      .option('token', {
        type: 'string',
        array: true,
        default: [],
        describe: 'Bearer token (repeat for several; env CHATBENCH_TOKEN); never printed',
        group: 'Target:',
      })
      .option('token-file', {
        type: 'string',
        describe: 'Tokens, one per line, each optionally followed by a weight',
        group: 'Target:',
      })
      .option('sim', {
        type: 'boolean',
        default: false,
        describe: 'Run against the embedded simulated service',
        group: 'Target:',
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'Seed of arrivals, question order and the simulator',
        group: 'Target:',
      })
      .option('operation', { choices: ['chat', 'open-urls'] as const, default: 'chat' as const, group: 'Inputs:' })
      .option('dataset', {
        type: 'string',
        describe: 'CSV of questions (chat), or with a url column (open-urls)',
        group: 'Inputs:',
      })
      .option('urls-file', { type: 'string', describe: 'open-urls: one URL per line', group: 'Inputs:' })
      .option('sets-file', {
        type: 'string',
        describe: 'File of model override sets (JSON, or YAML named .yaml/.yml; formerly --models)',
        group: 'Inputs:',
      })
      .option('set', {
        type: 'string',
        array: true,
        default: [],
        describe: 'The set as name=provider:version[@temperature]',
        group: 'Inputs:',
      })
      .option('set-name', { type: 'string', describe: 'Which set of --sets-file to send', group: 'Inputs:' })
      .option('mode', { choices: ['stream', 'full'] as const, default: 'stream' as const, group: 'Inputs:' })
      .option('question-order', {
        choices: ['sequential', 'random'] as const,
        default: 'sequential' as const,
        group: 'Inputs:',
      })
      .option('users', {
        type: 'boolean',
        default: false,
        describe: 'Step virtual users (closed model) instead of the arrival rate',
        group: 'Search:',
      })
      .option('start-rate', {
        type: 'number',
        default: 1,
        describe: 'First step: requests per second',
        group: 'Search:',
      })
      .option('start-users', {
        type: 'number',
        default: 1,
        describe: "With --users: first step's users",
        group: 'Search:',
      })
      .option('factor', {
        type: 'number',
        default: DEFAULT_SEARCH.factor,
        describe: 'Ramp factor between steps until one is bad',
        group: 'Search:',
      })
      .option('precision', {
        type: 'number',
        default: DEFAULT_SEARCH.precision,
        describe: 'Bisect until good and bad targets are this close (relative)',
        group: 'Search:',
      })
      .option('step-duration', {
        type: 'string',
        default: '20s',
        describe: 'How long each step holds its target',
        group: 'Search:',
      })
      .option('step-warmup', {
        type: 'string',
        default: '0s',
        describe: 'Start of each step left out of its figures',
        group: 'Search:',
      })
      .option('max-steps', { type: 'number', default: DEFAULT_SEARCH.maxSteps, group: 'Search:' })
      .option('max-duration', {
        type: 'string',
        default: '10m',
        describe: 'No step starts that would end after this',
        group: 'Search:',
      })
      .option('slo', {
        type: 'string',
        array: true,
        default: [],
        describe:
          'An objective, e.g. "ttft_ms.p95<=3000", "error_rate<=0.01": a step that breaks one is bad; exit 1 when no step held them all ("goodput:…" only defines goodput) (repeatable)',
        group: 'Search:',
      })
      .option('max-ttfp-rise', {
        type: 'number',
        default: DEFAULT_SATURATION.maxTtfpRise,
        describe: 'Saturated when TTFP p50 rises more than this (relative) within a step',
        group: 'Search:',
      })
      .option('arrival', { choices: ['constant', 'poisson'] as const, default: 'constant' as const, group: 'Load:' })
      .option('max-in-flight', {
        type: 'number',
        describe: 'Open model: arrivals finding this many in flight are dropped (default 1000)',
        group: 'Load:',
      })
      .option('connections', {
        type: 'number',
        describe: 'Open model: requests sent and unanswered at most',
        group: 'Load:',
      })
      .option('timeout', {
        type: 'string',
        describe: 'Longest silence allowed between two parts of an answer; default 180s, 300s for deep research',
        group: 'Run:',
      })
      .option('retries', { type: 'number', default: 0, group: 'Run:' })
      .option('retry-429', { type: 'boolean', default: false, group: 'Run:' })
      .option('grace', { type: 'string', default: '10s', group: 'Run:' })
      .option('workers', {
        type: 'string',
        describe:
          "Worker threads each step's load runs on (as `load --workers`): N, or auto (cores − 1 when the target is not on loopback, else 1)",
        group: 'Run:',
      })
      .option('out', {
        type: 'string',
        describe: 'Run directory (default reports/<date-time>-capacity); steps go to steps/NN-rate-R/',
        group: 'Output:',
      })
      .options(HEALTH_OPTIONS)
      .options(TELEMETRY_OPTIONS)
      .example(
        '$0 capacity --sim --dataset datasets/sample.csv --start-rate 5 --step-duration 10s --slo "ttft_ms.p95<=3000" --slo "rate_limited_rate<=0.05"',
        'Find the sustainable rate of the simulator',
      )
      .example(
        '$0 capacity --token-file examples/tokens.txt --dataset examples/questions.csv --users --start-users 2 --slo "error_rate<=0.01"',
        'Find how many concurrent users the deployment CHATBENCH_BASE_URL names takes',
      )
      .example(
        '$0 capacity --dataset examples/questions.csv --start-rate 20 --step-duration 10s --workers auto --slo "error_rate<=0.01"',
        'Search a high rate of the service CHATBENCH_BASE_URL names with every core but one sending (one on loopback)',
      )
      .epilogue(LIMITS_NOTE),
});

/**
 * @module cli/commands/load
 * `chatbench load`: the open model (`--rate`, arrivals on a schedule computed before the run) or the
 * closed model (`--concurrency` virtual users), optionally ramped with `--stages`, against the chat
 * or the open-urls operation. Parses and checks flags, then delegates to app/load/run-load.
 * Its flags and help; what it runs is cli/run/load.ts, loaded only when it runs
 * (commands/index.ts).
 */
import { BODY_CAP_OPTIONS, type BodyCapArgs } from '../body-cap-flags.js';
import type { Argv } from 'yargs';
import { LIMITS_NOTE, withShardFlags } from '../flags.js';
import { defineFlags } from './define.js';
import { HEALTH_OPTIONS, type HealthArgs } from '../health-flags.js';
import { TELEMETRY_OPTIONS, type TelemetryArgs } from '../telemetry-flags.js';

export interface LoadArgs extends Partial<HealthArgs>, TelemetryArgs, BodyCapArgs {
  'base-url'?: string;
  token: string[];
  'token-file'?: string;
  sim: boolean;
  seed: number;
  operation: 'chat' | 'open-urls';
  mode: 'stream' | 'full';
  dataset?: string;
  'urls-file'?: string;
  'sets-file'?: string;
  set: string[];
  'set-name'?: string;
  'load-model'?: 'open' | 'closed';
  concurrency?: number;
  rate?: number;
  arrival: 'constant' | 'poisson';
  'max-in-flight'?: number;
  connections?: number;
  stages?: string;
  duration?: string;
  requests?: number;
  warmup: string;
  cooldown: string;
  'question-order': 'sequential' | 'random';
  timeout?: string | undefined;
  'max-duration'?: string | undefined;
  'max-answer-bytes'?: string | undefined;
  retries: number;
  'retry-429': boolean;
  grace: string;
  'start-at'?: string;
  out?: string;
  slo?: string[];
  gate?: string[];
  shard?: string;
  shards?: number;
  conversations: boolean;
  'think-time'?: string;
  abandon?: string;
  workers?: string | number;
}

export const flags = defineFlags<LoadArgs>({
  command: 'load',
  describe: 'Load-test the service: open model (--rate) or closed model (--concurrency), optionally ramped (--stages)',
  builder: (y: Argv) =>
    withShardFlags(y)
      .option('base-url', {
        type: 'string',
        describe: 'Base URL of the chat service, with its path prefix (env CHATBENCH_BASE_URL)',
        group: 'Target:',
      })
      .option('token', {
        type: 'string',
        array: true,
        default: [],
        describe: 'Bearer token (repeat for several, used round-robin; env CHATBENCH_TOKEN); never printed',
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
      .option('operation', {
        choices: ['chat', 'open-urls'] as const,
        default: 'chat' as const,
        describe: 'What each request does',
        group: 'Inputs:',
      })
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
      .option('mode', {
        choices: ['stream', 'full'] as const,
        default: 'stream' as const,
        describe: 'Streamed requests or full (stream=false) ones',
        group: 'Inputs:',
      })
      .option('question-order', {
        choices: ['sequential', 'random'] as const,
        default: 'sequential' as const,
        describe: 'Questions in dataset order (cycling) or drawn at random (seeded)',
        group: 'Inputs:',
      })
      .option('conversations', {
        type: 'boolean',
        default: false,
        describe:
          'Each arrival (open) or user iteration (closed) plays a whole conversation of the dataset, its turns in one session',
        group: 'Inputs:',
      })
      .option('think-time', {
        type: 'string',
        describe:
          "With --conversations, the wait between a turn's end and the next: 5s, 2s..8s (uniform) or lognormal:3s,p99=15s",
        group: 'Inputs:',
      })
      .option('abandon', {
        type: 'string',
        describe:
          'SHARE[@AFTER]: the client closes that share of the requests after a drawn delay, as users leaving (e.g. 0.1, 0.1@2s, 0.1@500ms-3s; default 500ms-5s); recorded abandoned, not errors',
        group: 'Load:',
      })
      .option('rate', {
        type: 'number',
        describe: 'Open model: arrivals per second, whatever the responses',
        group: 'Load:',
      })
      .option('concurrency', {
        type: 'number',
        describe: 'Closed model: virtual users, each sending when its last request ends',
        group: 'Load:',
      })
      .option('load-model', {
        choices: ['open', 'closed'] as const,
        describe: 'With --stages: ramp a rate (open, default) or users (closed) (formerly --model)',
        group: 'Load:',
      })
      .option('arrival', {
        choices: ['constant', 'poisson'] as const,
        default: 'constant' as const,
        describe: 'Open model: evenly spaced or Poisson arrivals',
        group: 'Load:',
      })
      .option('max-in-flight', {
        type: 'number',
        describe: 'Open model: arrivals finding this many in flight are dropped and counted (default 1000)',
        group: 'Load:',
      })
      .option('connections', {
        type: 'number',
        describe:
          'Open model: requests sent and unanswered at most; later arrivals wait (their wait counts in response_ms). Default: --max-in-flight',
        group: 'Load:',
      })
      .option('stages', {
        type: 'string',
        describe: 'A ramp, e.g. "30s:10,2m:50,30s:0" (duration:target; from 0)',
        group: 'Load:',
      })
      .option('duration', { type: 'string', describe: 'How long to send, e.g. 60s, 5m', group: 'Load:' })
      .option('requests', {
        type: 'number',
        describe: 'How many requests to send (with or instead of --duration)',
        group: 'Load:',
      })
      .option('warmup', {
        type: 'string',
        default: '0s',
        describe: 'First window of the schedule, excluded from the figures',
        group: 'Load:',
      })
      .option('cooldown', {
        type: 'string',
        default: '0s',
        describe: 'Last window of the schedule, excluded from the figures',
        group: 'Load:',
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'Seed of Poisson gaps, random question order and the simulator',
        group: 'Load:',
      })
      .option('timeout', {
        type: 'string',
        describe:
          'Longest silence allowed between two parts of an answer (heartbeats count); default 180s, 300s for deep research',
        group: 'Run:',
      })
      .option('max-duration', {
        type: 'string',
        describe: 'Longest one request may take in all, not the whole run; default 15m, 60m for deep research',
        group: 'Run:',
      })
      .option('max-answer-bytes', {
        type: 'string',
        default: '1MiB',
        describe: 'Answer text kept per answer in the record',
        group: 'Run:',
      })
      .options(BODY_CAP_OPTIONS)
      .option('retries', {
        type: 'number',
        default: 0,
        describe: 'Retry network errors, 5xx and streaming errors marked is_retryable this many times',
        group: 'Run:',
      })
      .option('retry-429', {
        type: 'boolean',
        default: false,
        describe: 'Retry 429s too, honouring Retry-After',
        group: 'Run:',
      })
      .option('grace', {
        type: 'string',
        default: '10s',
        describe: 'On Ctrl-C, how long in-flight requests may finish',
        group: 'Run:',
      })
      .option('start-at', {
        type: 'string',
        describe: 'ISO time at which every shard starts its schedule',
        group: 'Scale out:',
      })
      .option('workers', {
        type: 'string',
        describe:
          'Worker threads sharing the plan as shards do (request k → worker k mod N), each with its share of the connections: N, or auto (cores − 1 when the target is not on loopback, else 1)',
        group: 'Scale out:',
      })
      .option('out', {
        type: 'string',
        describe: 'Run directory (default reports/<date-time>-load)',
        group: 'Output:',
      })
      .option('slo', {
        type: 'string',
        array: true,
        default: [],
        describe:
          'An SLO on the measured window, e.g. "ttft_ms.p95<=3000" or the ITL "itl_ms.p95<=50"; exit 1 when one is broken. Every per-request latency SLO (not the ITL, pooled over gaps) defines goodput; one written "goodput:ttft_ms<=1500" only defines goodput and never fails the run (repeatable)',
        group: 'Gates:',
      })
      .option('gate', {
        type: 'string',
        array: true,
        default: [],
        describe: 'A gate on the load figures, e.g. "rate_limited_rate <= 0.05"; exit 1 when one fails (repeatable)',
        group: 'Gates:',
      })
      .options(HEALTH_OPTIONS)
      .options(TELEMETRY_OPTIONS)
      .example(
        '$0 load --sim --dataset datasets/sample.csv --rate 20 --duration 60s',
        'Open model: 20 requests per second for a minute against the simulator',
      )
      .example(
        '$0 load --sim --dataset datasets/sample.csv --concurrency 16 --requests 500 --mode full',
        'Closed model: 16 users, 500 full requests',
      )
      .example(
        '$0 load --token-file examples/tokens.txt --dataset examples/questions.csv --stages "30s:5,2m:50,30s:0" --arrival poisson --question-order random',
        'Ramp the rate to 50/s with Poisson arrivals, several tokens, against the service CHATBENCH_BASE_URL names',
      )
      .example(
        '$0 load --sim --dataset datasets/sample.csv --rate 10 --duration 30s --slo "ttft_ms.p95<=3000" --slo "ttfp_ms.p95<=2000" --gate "rate_limited_rate <= 0.05"',
        'SLOs (they define goodput) and gates: exit 1 when an SLO is broken or a gate fails',
      )
      .example(
        '$0 load --dataset examples/questions.csv --rate 40 --duration 30s --workers auto',
        'Against the service CHATBENCH_BASE_URL names: every core but one sends (a worker thread each; one on loopback), into one results.jsonl',
      )
      .example(
        '$0 load --dataset examples/questions.csv --rate 10 --duration 30s --health-probe /health/ready',
        'Probe the health of the service CHATBENCH_BASE_URL names once a second under load (add --gate "health_failures <= 0" to fail on it)',
      )
      .example(
        '$0 load --sim --operation open-urls --urls-file examples/urls.txt --rate 5 --duration 30s',
        'Load the open-urls operation',
      )
      .example(
        '$0 load --sim --dataset datasets/sample.csv --conversations --concurrency 8 --think-time 2s..8s --duration 2m --gate "turn:3 ttft_ms.p95 <= 4000"',
        'Eight users playing conversations, 2–8 s between turns; gate TTFT at depth 3',
      )
      .epilogue(LIMITS_NOTE),
});

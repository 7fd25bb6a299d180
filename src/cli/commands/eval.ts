/**
 * @module cli/commands/eval
 * `chatbench eval`: its flags and help. What it runs is cli/run/eval.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { BODY_CAP_OPTIONS, type BodyCapArgs } from '../body-cap-flags.js';
import { DEFAULT_JUNIT_QUESTIONS, JUNIT_QUESTION_MODES, type JunitQuestions } from '../../reports/junit-xml.js';
import { withQualityFlags, type QualityFlags } from '../quality-flags.js';
import { MODE_OPTIONS, type ModeOption } from '../../sets/flag-forms.js';
import { LIMITS_NOTE, withConnectionFlags, withShardFlags } from '../flags.js';
import { defineFlags } from './define.js';

export const flags = defineFlags<EvalArgs>({
  command: 'eval',
  describe:
    'Run a question dataset against model override sets; score citations, answer quality and tools; write the reports',
  builder: (y: Argv) =>
    withQualityFlags(withShardFlags(withConnectionFlags(y)))
      .option('dataset', { type: 'string', demandOption: true, describe: 'CSV file of questions', group: 'Inputs:' })
      .option('sets-file', {
        type: 'string',
        describe: 'File of model override sets (JSON, or YAML named .yaml/.yml; formerly --models)',
        group: 'Inputs:',
      })
      .option('set', {
        type: 'string',
        array: true,
        default: [],
        describe: 'A set as name=provider:version[@temperature] (repeatable)',
        group: 'Inputs:',
      })
      .option('mode', {
        choices: MODE_OPTIONS,
        default: 'stream' as const,
        describe: 'Streamed requests, full (stream=false) ones, or both',
        group: 'Run:',
      })
      .option('concurrency', { type: 'number', default: 4, describe: 'Requests in flight at once', group: 'Run:' })
      .option('repeat', {
        type: 'number',
        default: 1,
        describe: 'Ask every question this many times per set and mode',
        group: 'Run:',
      })
      .option('timeout', {
        type: 'string',
        describe:
          'Longest silence allowed between two parts of an answer (heartbeats count); default 180s, 300s for deep research',
        group: 'Run:',
      })
      .option('max-duration', {
        type: 'string',
        describe: 'Longest one request may take in all; default 15m, 60m for deep research',
        group: 'Run:',
      })
      .option('max-answer-bytes', {
        type: 'string',
        default: '1MiB',
        describe:
          'Answer text kept per answer in the record (answer_truncated says when cut; counts use the whole answer)',
        group: 'Run:',
      })
      .options(BODY_CAP_OPTIONS)
      .option('max-version-bytes', {
        type: 'string',
        default: '64KiB',
        describe: 'Most bytes of the GET /version answer read; past it the release is unknown',
        group: 'Run:',
      })
      .option('version-timeout', {
        type: 'string',
        default: '5s',
        describe: 'Time the GET /version probe may take before the first request; past it the release is unknown',
        group: 'Run:',
      })
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
      .option('restore-project', {
        type: 'boolean',
        default: false,
        describe:
          "When the sets file sets a project's instructions (defaults.project): put the text the project had before back when the run ends (manifest.json keeps it either way)",
        group: 'Run:',
      })
      .option('out', {
        type: 'string',
        describe: 'Run directory (default reports/<date-time>-eval)',
        group: 'Output:',
      })
      .option('resume', {
        type: 'string',
        describe:
          "Continue the killed or interrupted run in this directory: its options come from the run's manifest.json (give the token again); a flag given beside must agree with the run; only the requests it has no record of are sent",
        group: 'Output:',
      })
      .option('baseline', {
        type: 'string',
        describe:
          'Compare with this run or saved baseline after the run (compare.md/json/html); last-passing[:BRANCH]: the latest passing eval in the run history',
        group: 'Gates:',
      })
      .option('gate', {
        type: 'string',
        array: true,
        default: [],
        describe: 'A gate, e.g. "citation_recall delta >= -0.02 significant" (repeatable; docs/ci.md)',
        group: 'Gates:',
      })
      .option('gates-file', { type: 'string', describe: 'A JSON file of gates (formerly --gates)', group: 'Gates:' })
      .option('map', {
        type: 'string',
        array: true,
        default: [],
        describe: 'old=new: a set renamed since the baseline',
        group: 'Gates:',
      })
      .option('reference', {
        type: 'string',
        describe:
          'With two or more sets: the set the others are compared with, paired by question (default: the first set; kept in manifest.json for `chatbench report DIR`)',
        group: 'Gates:',
      })
      .option('max-error-rate', {
        type: 'number',
        default: DEFAULT_MAX_ERROR_RATE,
        describe:
          'Exit 1 when, in any set × mode, more than this share of the requests failed (error_rate) or was rate-limited (rate_limited_rate); gates of their own in junit.xml. 1 turns it off',
        group: 'Gates:',
      })
      .option('max-judge-error-rate', {
        type: 'number',
        default: DEFAULT_MAX_JUDGE_ERROR_RATE,
        describe:
          "With a judge: exit 1 when, in any set × mode, more than this share of the judge's asks ended without a verdict (judge_error_rate); a gate of its own in junit.xml. 1 turns it off",
        group: 'Gates:',
      })
      .option('junit-questions', {
        choices: JUNIT_QUESTION_MODES,
        default: DEFAULT_JUNIT_QUESTIONS,
        describe:
          'How questions that did not pass (or whose request failed) appear in junit.xml: skipped cases with the reason (the gates alone decide; a run whose gates pass has failures="0"), failures and errors, or off (gates only)',
        group: 'Output:',
      })
      .example(
        '$0 eval --sim --dataset datasets/sample.csv --sets-file datasets/models.example.json',
        'A dry run against the embedded simulated service',
      )
      .example(
        '$0 eval --dataset examples/questions.csv --set fast=openai:gpt-4o-mini@0 --set accurate=openai:gpt-4o@0',
        'Compare two models on a real deployment: CHATBENCH_BASE_URL and CHATBENCH_TOKEN (or a config file) name it',
      )
      .example(
        '$0 eval --sim --dataset datasets/sample.csv --baseline datasets/baselines/main --gate "citation_recall delta >= -0.02 significant" --gate "ttft_ms.p95 ratio <= 1.2"',
        'Run, compare with a baseline and gate, in one CI step (exit 1 when a gate fails)',
      )
      .example(
        'CHATBENCH_CONFIG=examples/prod.json $0 eval --dataset examples/questions.csv --mode both --concurrency 8 --out reports/nightly',
        'Both modes, eight in flight, a fixed run directory; the target in examples/prod.json: {"base-url": "https://chat.example.com/api", "token-file": "examples/token.txt"}',
      )
      .example(
        '$0 eval --dataset examples/questions.csv --sets-file examples/research.json --timeout 5m --max-duration 20m',
        'Deep-research sets ("deep_research": true): up to 5 minutes of silence, 20 minutes per request',
      )
      .example(
        'CHATBENCH_JUDGE_TOKEN=sk-... $0 eval --dataset examples/questions.csv --judge-model gpt-4o-mini --fetch-cited --gate "correctness >= 0.7"',
        'Judge correctness, groundedness (on the cited pages too), relevance and rubrics with the hosted model at CHATBENCH_JUDGE (e.g. https://api.openai.com); gate on correctness',
      )
      .example(
        '$0 eval --sim --dataset examples/questions.csv --judge-model llama3.1:8b --judge-repeat 3 --labels examples/labels.csv',
        'A local Ollama judge (CHATBENCH_JUDGE=http://127.0.0.1:11434), asked three times (flip rate), measured against human verdicts',
      )
      .example(
        '$0 eval --sim --dataset examples/questions.csv --checks examples/checks.mjs --pass default --pass "cites_policy >= 1"',
        'Your own checks as figures, and the pass rule extended with one of them',
      )
      .epilogue(LIMITS_NOTE),
});

export interface EvalArgs extends QualityFlags, BodyCapArgs {
  'base-url'?: string;
  token?: string;
  'token-file'?: string;
  sim: boolean;
  seed: number;
  dataset: string;
  'sets-file'?: string;
  set: string[];
  mode: ModeOption;
  concurrency: number;
  repeat: number;
  timeout?: string | undefined;
  'max-duration'?: string | undefined;
  'max-answer-bytes'?: string | undefined;
  'max-version-bytes'?: string | undefined;
  'version-timeout'?: string | undefined;
  retries: number;
  'retry-429': boolean;
  grace: string;
  'restore-project'?: boolean;
  out?: string;
  resume?: string;
  shard?: string;
  shards?: number;
  baseline?: string;
  gate?: string[];
  'gates-file'?: string;
  map?: string[];
  reference?: string;
  'max-error-rate'?: number;
  'junit-questions'?: JunitQuestions;
  'max-judge-error-rate'?: number;
}

/** `--max-error-rate`'s default: an evaluation where more than 10% of a set's requests failed is not a result. */
export const DEFAULT_MAX_ERROR_RATE = 0.1;

/** `--max-judge-error-rate`'s default: a judge that could not judge more than 10% of its asks leaves judged figures that are not a result. */
export const DEFAULT_MAX_JUDGE_ERROR_RATE = 0.1;

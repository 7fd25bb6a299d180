/**
 * @module cli/commands/mock-llm
 * `chatbench mock-llm`: runs the mock LLM (src/sim/llm/) until SIGINT/SIGTERM: an OpenAI-compatible
 * server to register in a real deployment as an `openai_compatible` provider, so that a load test
 * measures the application, not an LLM provider (docs/mock-llm.md).
 * Its flags and help; what it runs is cli/run/mock-llm.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { DEFAULT_KNOBS } from '../../sim/llm/knobs.js';
import { defineFlags } from './define.js';

export interface MockLlmArgs {
  host: string;
  port: number;
  'ttft-ms': number;
  'itl-ms': number;
  tokens: number;
  model: string[] | undefined;
  'api-key': string | undefined;
  'time-scale': number;
}

export const flags = defineFlags<MockLlmArgs>({
  command: 'mock-llm',
  describe:
    'Run a mock OpenAI-compatible LLM (timing and tool calls from the model name) to put behind a real deployment',
  builder: (y: Argv) =>
    y
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'interface to bind; 0.0.0.0 lets a deployment on another host reach it',
      })
      .option('port', { type: 'number', default: 8001, describe: 'port to listen on (0 = any free port)' })
      .option('ttft-ms', {
        type: 'number',
        default: DEFAULT_KNOBS.ttftMs,
        describe: 'time to the first token when the model name has no -ttft<ms>',
      })
      .option('itl-ms', {
        type: 'number',
        default: DEFAULT_KNOBS.itlMs,
        describe: 'time between tokens when the model name has no -itl<ms>',
      })
      .option('tokens', {
        type: 'number',
        default: DEFAULT_KNOBS.tokens,
        describe: 'answer length in tokens when the model name has no -len<n>',
      })
      .option('model', {
        type: 'string',
        array: true,
        describe: 'a model id GET /v1/models lists (repeatable; any name is served; default mock-model)',
      })
      .option('api-key', { type: 'string', describe: 'require this key as a Bearer token (default: accept any)' })
      .option('time-scale', { type: 'number', default: 1, describe: 'multiply every wait (0.1 = ten times faster)' })
      .example(
        '$0 mock-llm',
        'serve http://127.0.0.1:8001/v1 (add --host 0.0.0.0 when the deployment runs on another host)',
      )
      .example(
        '$0 mock-llm --ttft-ms 8000 --itl-ms 40 --tokens 600',
        'a slow reasoning model by default; mock-ttft300-itl15 still overrides',
      )
      .epilogue(
        "Knobs in the model name (as the service's own load-test kit names them): -ttft<ms> -itl<ms> -len<tokens> " +
          '-tools<n> (call n retrieval tools on the first "auto" cycle) -agents<n> (deep-research agents) -maxctx<tokens> (refuse longer prompts). ' +
          'Step by step: docs/mock-llm.md.',
      ),
});

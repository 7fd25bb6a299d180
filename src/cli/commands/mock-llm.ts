/**
 * @module cli/commands/mock-llm
 * `chatbench mock-llm`: runs the mock LLM (src/sim/llm/) until SIGINT/SIGTERM: an OpenAI-compatible
 * server to register in a real deployment as an `openai_compatible` provider, so that a load test
 * measures the application, not an LLM provider (docs/mock-llm.md).
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { ExitCode, RunError, UsageError } from '../../errors.js';
import { DEFAULT_KNOBS, startMockLlm, type RunningMockLlm } from '../../sim/llm/index.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';
import { checkHost } from './serve.js';

interface MockLlmArgs {
  host: string;
  port: number;
  'ttft-ms': number;
  'itl-ms': number;
  tokens: number;
  model: string[] | undefined;
  'api-key': string | undefined;
  'time-scale': number;
}

function checkArgs(args: MockLlmArgs): void {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new UsageError(`--port ${args.port}: give a port from 0 to 65535`);
  checkHost(args.host);
  for (const flag of ['ttft-ms', 'itl-ms', 'tokens'] as const) {
    if (!Number.isInteger(args[flag]) || args[flag] < 0)
      throw new UsageError(`--${flag} ${args[flag]}: give a whole number ≥ 0`);
  }
  if (!(args['time-scale'] > 0)) throw new UsageError(`--time-scale ${args['time-scale']}: give a positive number`);
}

async function start(args: MockLlmArgs): Promise<RunningMockLlm> {
  checkArgs(args);
  try {
    return await startMockLlm({
      host: args.host,
      port: args.port,
      timeScale: args['time-scale'],
      apiKey: args['api-key'] ?? null,
      defaults: { ...DEFAULT_KNOBS, ttftMs: args['ttft-ms'], itlMs: args['itl-ms'], tokens: args.tokens },
      ...(args.model === undefined ? {} : { models: args.model }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new RunError(`cannot listen on ${args.host}:${args.port} (${code})`, {
        cause: error,
        hint: 'choose another --port or --host',
      });
    }
    throw error;
  }
}

async function serve(args: MockLlmArgs, io: Io): Promise<void> {
  const mock = await start(args);
  io.stdout.write(
    `chatbench mock LLM listening on ${mock.baseUrl} (OpenAI-compatible: POST /v1/chat/completions, GET /v1/models)\n` +
      `defaults: ttft ${args['ttft-ms']} ms, itl ${args['itl-ms']} ms, ${args.tokens} tokens; a model name overrides them (mock-ttft500-itl20-len400-tools1)\n` +
      `register it in the deployment as an openai_compatible provider with api_base ${mock.baseUrl.replace(/\/v1$/, '')} (docs/mock-llm.md)\nPress Ctrl+C to stop.\n`,
  );
  outputOf(io).result({ command: 'mock-llm', base_url: mock.baseUrl });
  if (!io.signal.aborted) await new Promise((done) => io.signal.addEventListener('abort', done, { once: true }));
  const stats = mock.stats();
  await mock.close();
  io.stdout.write(
    `chatbench mock LLM stopped after ${stats.requests} requests (${stats.streamed} streamed, ${stats.tool_call_replies} with tool calls, ${stats.errors} refused, ${stats.cancelled} streams cancelled by the caller)\n`,
  );
}

/** `chatbench mock-llm`: exit 0 after a clean stop, 2 bad flags, 3 cannot listen. */
export function mockLlmCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  const command = {
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
    handler: async (args: ArgumentsCamelCase<MockLlmArgs>) => {
      await serve(args, io);
      setExitCode(ExitCode.Ok);
    },
  } satisfies CommandModule<object, MockLlmArgs>;
  return defineCommand(command);
}

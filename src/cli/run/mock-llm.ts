/**
 * @module cli/run/mock-llm
 * `chatbench mock-llm`: runs the mock LLM (src/sim/llm/) until SIGINT/SIGTERM: an OpenAI-compatible
 * server to register in a real deployment as an `openai_compatible` provider, so that a load test
 * measures the application, not an LLM provider (docs/mock-llm.md).
 * The run; its flags and help are cli/commands/mock-llm.ts.
 */
import { ExitCode, RunError, UsageError } from '../../errors.js';
import { DEFAULT_KNOBS, startMockLlm, type RunningMockLlm } from '../../sim/llm/index.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import { checkHost } from './serve.js';
import type { MockLlmArgs } from '../commands/mock-llm.js';

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

/** `chatbench mock-llm`'s run, with the arguments its flags (commands/mock-llm.ts) parsed. */
export const run: CommandRun<MockLlmArgs> = async (a, io) => {
  await serve(a, io);
  return ExitCode.Ok;
};

/**
 * @module cli/run/serve
 * `chatbench serve`: runs the simulated chat service until SIGINT/SIGTERM, printing its base URL
 * and tokens so a script or a curl can use them at once.
 * The run; its flags and help are cli/commands/serve.ts.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ExitCode, InputError, RunError, UsageError } from '../../errors.js';
import type { RunningSimulator, SimConfigInput, TokenEntry } from '../../sim/index.js';
import { DEMO_TOKEN, SimConfigError, parseSimConfig, startSimulator } from '../../sim/index.js';
import { tooLargeMessage } from '../../dataset/read-text.js';
import { LIMITS } from '../../util/limits.js';
import { FileTooLargeError, readCapped } from '../../util/read-capped.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import type { ServeArgs } from '../commands/serve.js';

/** Reads and parses the config file; a missing file or bad JSON is the user's input error. */
async function readConfig(path: string, cwd: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = (await readCapped(resolve(cwd, path), LIMITS.inputFileBytes)).toString('utf8');
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new InputError([tooLargeMessage(path, error)]);
    throw new InputError([
      `${path}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('the top level must be an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new InputError([`${path}: not a JSON object: ${(error as Error).message}`]);
  }
}

/** `--time-scale` overrides the file's chat.time_scale, `--onyx-release` its onyx_release; every other setting comes from the file. */
function withFlags(
  config: Record<string, unknown>,
  timeScale: number | undefined,
  release: string | undefined,
): SimConfigInput {
  const chat = typeof config.chat === 'object' && config.chat !== null ? config.chat : {};
  return {
    ...config,
    ...(release === undefined ? {} : { onyx_release: release }),
    ...(timeScale === undefined ? {} : { chat: { ...chat, time_scale: timeScale } }),
  } as SimConfigInput;
}

function describeTokens(tokens: readonly TokenEntry[]): string {
  const width = Math.max(...tokens.map((entry) => entry.token.length));
  return tokens
    .map(
      (entry) =>
        `  ${entry.token.padEnd(width)}  user ${entry.user_id}, ${entry.scopes ? `scopes ${entry.scopes.join(', ')}` : 'unrestricted'}`,
    )
    .join('\n');
}

async function start(args: ServeArgs, io: Io): Promise<RunningSimulator> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new UsageError(`--port ${args.port}: give a port from 0 to 65535`);
  checkHost(args.host);
  if (args['time-scale'] !== undefined && !(args['time-scale'] > 0))
    throw new UsageError('--time-scale must be a positive number');
  const file = args['sim-config'] === undefined ? {} : await readConfig(args['sim-config'], io.cwd);
  const config = withFlags(file, args['time-scale'], args['onyx-release']);
  const chat = file.chat as Record<string, unknown> | undefined;
  if (typeof chat === 'object' && chat !== null && 'first_part_ms' in chat) {
    io.stderr.write(
      `chatbench: ${args['sim-config']}: chat.first_part_ms is now chat.ttfp_ms (the old name still works)\n`,
    );
  }
  try {
    parseSimConfig(
      config,
      args['onyx-release'] !== undefined && args['sim-config'] === undefined
        ? '--onyx-release'
        : (args['sim-config'] ?? 'sim-config'),
    );
  } catch (error) {
    if (error instanceof SimConfigError)
      throw new InputError(error.problems, { hint: 'see examples/sim.json for every setting' });
    throw error;
  }
  try {
    return await startSimulator({
      config,
      seed: args.seed,
      host: args.host,
      port: args.port,
      token: args.token ?? io.env.CHATBENCH_SIM_TOKEN ?? DEMO_TOKEN,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code === 'ENOTFOUND' ||
      code === 'EAI_AGAIN' ||
      code === 'EADDRNOTAVAIL' ||
      code === 'EINVAL' ||
      code === 'EAI_NONAME'
    ) {
      throw new UsageError(`--host ${args.host}: not an address of this machine (${code})`, {
        hint: '127.0.0.1 (the default) serves this machine only; 0.0.0.0 every interface',
      });
    }
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new RunError(`cannot listen on ${args.host}:${args.port} (${code})`, {
        cause: error,
        hint: 'choose another --port, or --port 0 for any free port',
      });
    }
    throw error;
  }
}

/**
 * `--host`: an IPv4 or IPv6 address or a host name. Digits and dots that do not make an IPv4
 * address (`999.1.1.1`) are refused here: a resolver would take them for a name and fail later.
 */
export function checkHost(host: string): void {
  const name = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
  if (isIP(host) !== 0) return;
  if (/^[\d.]+$/.test(host))
    throw new UsageError(`--host ${host}: not an IPv4 address (four numbers from 0 to 255, e.g. 127.0.0.1)`);
  if (!name.test(host)) throw new UsageError(`--host ${JSON.stringify(host)}: not an IP address or a host name`);
}

/** Starts the simulator, prints where it is, and waits for the interrupt signal to close it. */
async function serve(args: ServeArgs, io: Io): Promise<void> {
  const sim = await start(args, io);
  const judge = `${new URL(sim.baseUrl).origin}`;
  io.stdout.write(
    `chatbench simulator listening on ${sim.baseUrl} (speaking Onyx ${sim.backendVersion})\njudge (rule-based, OpenAI-compatible): --judge ${judge} --judge-model any-name\ntokens:\n${describeTokens(sim.tokens)}\nPress Ctrl+C to stop.\n`,
  );
  const output = outputOf(io);
  if (output.mode === 'quiet') output.verdict(sim.baseUrl);
  // --json: one document as soon as it listens (a script reads the URL and tokens, then uses them).
  output.result({ command: 'serve', base_url: sim.baseUrl, tokens: sim.tokens });
  if (!io.signal.aborted) await new Promise((done) => io.signal.addEventListener('abort', done, { once: true }));
  await sim.close();
  io.stdout.write('chatbench simulator stopped\n');
}

/** `chatbench serve`: parses flags and delegates; exit 0 after a clean stop, 2 bad config, 3 cannot listen. */

/** `chatbench serve`'s run, with the arguments its flags (commands/serve.ts) parsed. */
export const run: CommandRun<ServeArgs> = async (a, io) => {
  await serve(a, io);
  return ExitCode.Ok;
};

/**
 * @module cli/run/view
 * `chatbench view RUN... [--baseline RUN]`: serves the results viewer on 127.0.0.1 until
 * interrupted: the runs' figures side by side, every question's answers, the comparison with a
 * baseline, and reviews saved to each run's reviews.jsonl.
 * The run; its flags and help are cli/commands/view.ts.
 */
import { spawn } from 'node:child_process';
import { userInfo } from 'node:os';
import { openViewRuns } from '../../app/shared/view-runs.js';
import { ExitCode, RunError, UsageError } from '../../errors.js';
import { readViewerBundle } from '../../viewer/assets.js';
import { startViewerServer } from '../../viewer/server.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { VERSION } from '../version.js';
import type { CommandRun } from '../commands/define.js';
import type { ViewArgs } from '../commands/view.js';

/** The reviewer: --reviewer, else the OS user, else $USER. */
function reviewerOf(flag: string | undefined, io: Io): string {
  if (flag !== undefined) {
    const name = flag.trim();
    if (name === '' || name.length > 200 || /[\p{Cc}]/u.test(name))
      throw new UsageError(`--reviewer "${flag}": give a name of 1 to 200 printable characters`);
    return name;
  }
  try {
    return userInfo().username || io.env.USER || 'unknown';
  } catch {
    return io.env.USER ?? io.env.USERNAME ?? 'unknown';
  }
}

/**
 * Opens the URL in a browser: $BROWSER when set (a command, the URL as its argument), else the
 * platform's opener. Failing to open is not an error: the URL is printed anyway.
 */
function openBrowser(url: string, io: Io): void {
  const command =
    io.env.BROWSER ?? (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', (error) =>
      io.stderr.write(`chatbench: could not open a browser (${command}: ${error.message}); open ${url} yourself\n`),
    );
    child.unref();
  } catch (error) {
    io.stderr.write(
      `chatbench: could not open a browser (${command}: ${(error as Error).message}); open ${url} yourself\n`,
    );
  }
}

/** `chatbench view`'s run, with the arguments its flags (commands/view.ts) parsed. */
export const run: CommandRun<ViewArgs> = async (a, io) => {
  if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
    throw new UsageError(`--port ${a.port}: give a port from 0 to 65535`);
  const reviewer = reviewerOf(a.reviewer, io);
  // CHATBENCH_VIEWER_DIR: a bundle built elsewhere (packagers, tests); default dist/viewer.
  const bundle = await readViewerBundle(io.env.CHATBENCH_VIEWER_DIR || undefined);
  const source = await openViewRuns({
    runs: a.runs,
    baseline: a.baseline,
    map: a.map ?? [],
    cwd: io.cwd,
    reviewer,
    version: VERSION,
    seed: a.seed,
    resamples: a.resamples,
  });
  let server;
  try {
    server = await startViewerServer({
      source,
      bundle,
      port: a.port,
      title: `chatbench viewer: ${a.runs.join(', ')}`,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RunError(`cannot listen on 127.0.0.1:${a.port} (${code ?? (error as Error).message})`, {
      cause: error,
      hint: 'choose another --port, or leave it out for any free port',
    });
  }
  io.stdout.write(`chatbench viewer: ${server.url}\nreviews are saved as ${reviewer}. Press Ctrl+C to stop.\n`);
  const output = outputOf(io);
  if (output.mode === 'quiet') output.verdict(server.url);
  output.result({ command: 'view', url: server.url, reviewer });
  if (a.open) openBrowser(server.url, io);
  if (!io.signal.aborted) await new Promise((done) => io.signal.addEventListener('abort', done, { once: true }));
  await server.close();
  io.stdout.write('chatbench viewer stopped\n');
  return ExitCode.Ok;
};

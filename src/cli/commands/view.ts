/**
 * @module cli/commands/view
 * `chatbench view RUN... [--baseline RUN]`: serves the results viewer on 127.0.0.1 until
 * interrupted: the runs' figures side by side, every question's answers, the comparison with a
 * baseline, and reviews saved to each run's reviews.jsonl.
 */
import { spawn } from 'node:child_process';
import { userInfo } from 'node:os';
import type { Argv } from 'yargs';
import { openViewRuns } from '../../app/shared/view-runs.js';
import { ExitCode, RunError, UsageError } from '../../errors.js';
import { readViewerBundle } from '../../viewer/assets.js';
import { startViewerServer } from '../../viewer/server.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { VERSION } from '../version.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface ViewArgs {
  runs: string[];
  baseline: string | undefined;
  map: string[] | undefined;
  port: number;
  open: boolean;
  reviewer: string | undefined;
  seed: number;
  resamples: number;
}

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

export function viewCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<ViewArgs>({
    command: 'view <runs..>',
    describe: 'Explore, compare and review the answers of runs in the browser (a local web app on 127.0.0.1)',
    builder: (y: Argv) =>
      y
        .positional('runs', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'run directories (or results.jsonl files)',
        })
        .option('baseline', {
          alias: 'b',
          type: 'string',
          describe: 'a run or saved baseline to compare each run with: broken and fixed questions, deltas',
        })
        .option('map', {
          type: 'string',
          array: true,
          describe: 'a renamed set for the baseline comparison, repeatable: OLD=NEW',
        })
        .option('port', { type: 'number', default: 0, describe: 'port on 127.0.0.1 (0: any free port)' })
        .option('open', {
          type: 'boolean',
          default: false,
          describe: 'open the viewer in a browser ($BROWSER, else the system opener)',
        })
        .option('reviewer', { type: 'string', describe: 'name saved with your reviews (default: the OS user)' })
        .option('seed', {
          type: 'number',
          default: 1,
          describe: "seed of the baseline comparison's bootstrap (as compare)",
        })
        .option('resamples', {
          type: 'number',
          default: 2000,
          describe:
            'bootstrap resamples per interval of the baseline comparison (as compare; fewer start a large run sooner)',
        })
        .check((a) => {
          if (!Number.isInteger(a.seed)) throw new Error('--seed must be an integer');
          if (!Number.isInteger(a.resamples) || a.resamples < 100 || a.resamples > 100_000)
            throw new Error('--resamples must be an integer from 100 to 100000');
          return true;
        })
        .example('$0 view reports/2026-11-20T10-00-00-eval', 'the sets of one run side by side; review answers')
        .example(
          '$0 view reports/new --baseline datasets/baselines/main --open',
          'what broke and what was fixed, in a browser',
        )
        .example(
          '$0 view runs/a runs/b --reviewer alice',
          'two runs side by side, reviews saved as alice (any free port; --port to choose)',
        )
        .epilogue(
          "Reviews go to reviews.jsonl in each run directory; compare, report and gates read them as the figure human_pass_rate. In a run drafted by draft-expectations, a question's candidate expected documents are accepted or rejected (expectations.jsonl) and the completed CSV exported. Every run also writes viewer.html: the same app, read-only, in one file. Stop with Ctrl+C.",
        ),
    handler: async (args) => {
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
        throw new UsageError(`--port ${args.port}: give a port from 0 to 65535`);
      const reviewer = reviewerOf(args.reviewer, io);
      // CHATBENCH_VIEWER_DIR: a bundle built elsewhere (packagers, tests); default dist/viewer.
      const bundle = await readViewerBundle(io.env.CHATBENCH_VIEWER_DIR || undefined);
      const source = await openViewRuns({
        runs: args.runs,
        baseline: args.baseline,
        map: args.map ?? [],
        cwd: io.cwd,
        reviewer,
        version: VERSION,
        seed: args.seed,
        resamples: args.resamples,
      });
      let server;
      try {
        server = await startViewerServer({
          source,
          bundle,
          port: args.port,
          title: `chatbench viewer: ${args.runs.join(', ')}`,
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new RunError(`cannot listen on 127.0.0.1:${args.port} (${code ?? (error as Error).message})`, {
          cause: error,
          hint: 'choose another --port, or leave it out for any free port',
        });
      }
      io.stdout.write(`chatbench viewer: ${server.url}\nreviews are saved as ${reviewer}. Press Ctrl+C to stop.\n`);
      const output = outputOf(io);
      if (output.mode === 'quiet') output.verdict(server.url);
      output.result({ command: 'view', url: server.url, reviewer });
      if (args.open) openBrowser(server.url, io);
      if (!io.signal.aborted) await new Promise((done) => io.signal.addEventListener('abort', done, { once: true }));
      await server.close();
      io.stdout.write('chatbench viewer stopped\n');
      setExitCode(ExitCode.Ok);
    },
  });
}

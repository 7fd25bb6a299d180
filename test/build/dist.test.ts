/**
 * The compiled CLI that bin/chatbench.js runs: dist/ is built from the sources as they are now (the
 * digest recorded at build time is the sources' digest now), every module is there, a missing dist/
 * is one line saying how to build it, the CLI runs in the process that was started (killing it
 * closes the simulator's port: no orphan holding it), `load` loads the live telemetry's packages
 * only when a telemetry flag asks for them, and `--help` or a refused command line loads no run's modules.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { assetFiles, builtDigest, compiledSources, DIST, sourceDigest } from '../../scripts/build-cli.mjs';
import { spawnCli, waitFor } from '../helpers/spawn-cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Resolves true when something accepts a connection on 127.0.0.1:port, false when it is refused. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('dist/', () => {
  it('was built from the sources as they are now', () => {
    expect(builtDigest(), 'dist/ is stale: run `npm run build:cli` (npm test and vitest do)').toBe(sourceDigest());
  });

  it('holds every compiled module, and no test, fixture or browser code', () => {
    const missing = compiledSources().filter((rel) => !existsSync(join(DIST, rel.replace(/\.ts$/, '.js'))));
    expect(missing).toEqual([]);
    // What the code reads beside itself (the judge's prompts) is there too, byte for byte.
    expect(assetFiles().length).toBeGreaterThan(0);
    for (const rel of assetFiles())
      expect(readFileSync(join(DIST, rel), 'utf8')).toBe(readFileSync(join(ROOT, 'src', rel), 'utf8'));
    expect(existsSync(join(DIST, 'cli', 'main.test.js'))).toBe(false);
    expect(existsSync(join(DIST, 'viewer', 'ui'))).toBe(false);
  });

  it('bin/chatbench.js without dist/ says in one line how to build it, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-nodist-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'chatbench.js'), join(dir, 'bin', 'chatbench.js'));
    const result = spawnSync(process.execPath, [join(dir, 'bin', 'chatbench.js'), '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^chatbench: .*dist.*npm run build/);
  });

  it("load --help loads none of the live telemetry's packages (each is imported when its flag asks)", () => {
    // A preload that reports, at exit, the CommonJS modules of those packages the process loaded
    // (ESM's imports of CommonJS packages fill the same cache). Not a timing: which modules, not how long.
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-loaded-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const preload = join(dir, 'report-loaded.mjs');
    writeFileSync(
      preload,
      [
        "import { createRequire } from 'node:module';",
        'const cache = createRequire(import.meta.url).cache;',
        'const telemetry = /[\\\\/]node_modules[\\\\/](@opentelemetry|prom-client|prometheus-remote-write)[\\\\/]/;',
        "process.on('exit', () => process.stderr.write(`loaded: ${Object.keys(cache).filter((k) => telemetry.test(k)).length}\\n`));",
      ].join('\n'),
    );
    const result = spawnSync(
      process.execPath,
      ['--import', preload, join(ROOT, 'bin', 'chatbench.js'), 'load', '--help'],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('--otlp-endpoint');
    expect(result.stderr).toMatch(/^loaded: 0$/m);
  });

  it("--help and a refused command line load the parser and the commands' flags, none of a run's modules", () => {
    // A resolve hook (on Node's loader thread) prints every module the process resolves; which
    // modules, not how long. Each command's run lives in cli/run and loads when it runs.
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-resolved-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      [
        "import { writeSync } from 'node:fs';",
        'export async function resolve(specifier, context, next) {',
        '  const resolved = await next(specifier, context);',
        '  writeSync(2, `resolved: ${resolved.url}\\n`);',
        '  return resolved;',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
    );
    // Light modules the start itself needs (the young generation's cap, the heap's reading for the
    // history hook, the help's demo token and mock-LLM defaults) are allowed by name.
    const run =
      /\/dist\/(app\/(?!shared\/heap)|runner\/(?!young-generation)|client|sim\/(?!demo-token|llm\/knobs))|\/node_modules\/(zod|undici|csv-parse|@duckdb|minisearch|gpt-tokenizer)\//;
    for (const [args, code] of [
      [['--help'], 0], // every command's flags
      [['eval', '--help'], 0],
      [['eval', '--sim'], 2], // refused by the parser: no --dataset
    ] as const) {
      const result = spawnSync(
        process.execPath,
        ['--import', join(dir, 'register.mjs'), join(ROOT, 'bin', 'chatbench.js'), ...args],
        { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } },
      );
      expect(result.status, result.stderr).toBe(code);
      const resolved = [...result.stderr.matchAll(/^resolved: (.*)$/gm)].map((m) => m[1]!);
      expect(
        resolved.some((url) => url.includes('/dist/cli/commands/')),
        args.join(' '),
      ).toBe(true);
      expect(
        resolved.filter((url) => run.test(url)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('--version prints the package version', async () => {
    const cli = spawnCli(['--version']);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout().trim()).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });
});

describe('bin/chatbench.js runs the CLI in its own process', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`serve killed with ${signal}: the port is closed, nothing left running`, async () => {
      const cli = spawnCli(['serve', '--port', '0']);
      await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(cli.stdout()), 'the simulator to listen');
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(cli.stdout())![1]);
      expect(await accepts(port)).toBe(true);
      cli.child.kill(signal);
      const exit = await cli.exited;
      expect(signal === 'SIGTERM' ? exit.code : exit.signal).toBe(signal === 'SIGTERM' ? 0 : 'SIGKILL');
      expect(await accepts(port)).toBe(false);
    });
  }
});

describe('the compiled CLI end to end', () => {
  it('runs a judged eval on the embedded simulator (what dist/ reads beside its code: prompts, corpus, viewer)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-dist-eval-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'q.csv'),
      `${readFileSync(join(ROOT, 'datasets', 'sample.csv'), 'utf8')
        .split('\n')
        .slice(0, 3)
        .join('\n')}\n`,
    );
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'chatbench.js'), 'eval', '--sim', '--dataset', 'q.csv', '--out', 'run', '--json'],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '', HOME: dir, TMPDIR: tmpdir(), CHATBENCH_TEST_SPEEDUP: '200' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, err).toBe(0);
    const result = JSON.parse(out) as { command: string; files: string[]; summary: unknown };
    expect(result.command).toBe('eval');
    expect(result.files.some((f) => f.endsWith('viewer.html'))).toBe(true);
    expect(readFileSync(join(dir, 'run', 'results.jsonl'), 'utf8')).toContain('"correctness"');
  });
});

describe('the layering of a spawned process', () => {
  it('takes options from the environment as a user sets them', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'chatbench.js'), 'validate', '--json'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmpdir(), CHATBENCH_DATASET: 'datasets/sample.csv' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect((JSON.parse(out) as { dataset: { questions: number } }).dataset.questions).toBeGreaterThan(0);
  });
});

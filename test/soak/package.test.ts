/**
 * Issue 27 §1, in the soak suite (`npm run test:soak`: packing and installing take 10–30 s): the
 * package as a user gets it. `npm pack` (prepack builds dist/ and ships a shrinkwrap), then
 * `npm install --global --prefer-offline` of the tarball into a temporary prefix: the tarballs come
 * from the npm cache by the shrinkwrap's URLs and integrity; npm still reads one version list from
 * the registry (that of @types/node, which protobufjs, under the OpenTelemetry exporter, asks for with
 * a range), so a machine with no npm registry skips. Then, in an empty directory outside
 * the repository: `--version`, `init`, `validate --sim`, `demo --quick`, `view` of the demo's run
 * (its page and the viewer's bundle served), and an eval against `chatbench serve`. Only runtime
 * dependencies may be installed. Skipped, saying why, when the npm cache lacks a dependency.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let base: string;
let bin: string;
let installed: string;
let skip: string | null = null;
const children: ChildProcess[] = [];

/** A user's environment: no CHATBENCH_* of the developer's, HOME in the scratch directory. */
const userEnv = (more: Record<string, string> = {}) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CHATBENCH_') && k !== 'NODE_PATH' && !k.startsWith('npm_'),
    ),
  ),
  HOME: base,
  NO_COLOR: '1',
  BROWSER: 'true',
  ...more,
});

function run(args: string[], cwd: string, env = userEnv()) {
  const result = spawnSync(bin, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts a long-running command; resolves with the first match of `pattern` on its stdout. */
function start(args: string[], cwd: string, pattern: RegExp, env = userEnv()): Promise<RegExpMatchArray> {
  const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`chatbench ${args.join(' ')}: no ${pattern} in 30 s\n${out}\n${err}`)),
      30_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => reject(new Error(`chatbench ${args.join(' ')} exited ${code}\n${out}\n${err}`)));
  });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'chatbench-package-'));
  const packed = spawnSync(npm, ['pack', '--pack-destination', base, '--silent'], { cwd: ROOT, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const tarball = join(base, `chatbench-${manifest.version}.tgz`);
  const prefix = join(base, 'prefix');
  const install = spawnSync(
    npm,
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: base, encoding: 'utf8' },
  );
  if (install.status !== 0) {
    if (/ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(install.stderr)) {
      skip = `neither the npm cache nor the registry gave a runtime dependency: ${install.stderr.split('\n').find((l) => /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|request to/.test(l)) ?? ''}`;
      return;
    }
    throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  }
  bin = join(prefix, 'bin', 'chatbench');
  installed = join(prefix, 'lib', 'node_modules', 'chatbench');
}, 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the packed package, installed from the npm cache', () => {
  it('holds the built CLI, the shipped data and schemas, and only runtime dependencies', (context) => {
    if (skip) return context.skip(skip);
    for (const file of [
      'dist/cli/bin.js',
      'dist/cli/github-action.js',
      'dist/viewer/viewer.js',
      'dist/viewer/viewer.css',
      'dist/schemas/config.schema.json',
      'dist/schemas/sets.schema.json',
      'datasets/sample.csv',
      'datasets/corpus.json',
      'datasets/models.example.json',
    ]) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'src'))).toBe(false);
    const modules = join(installed, 'node_modules');
    // Installed packages by name (a scope's folder holds its packages), and what each of them needs.
    const deps = readdirSync(modules).flatMap((entry) =>
      entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry],
    );
    const needed = new Set(
      deps.flatMap((name) => {
        const file = join(modules, name, 'package.json');
        if (!existsSync(file)) return [];
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> };
        return Object.keys(pkg.dependencies ?? {});
      }),
    );
    // A dev tool is never installed, unless a runtime dependency needs it too (@types/node: protobufjs).
    for (const dev of Object.keys(manifest.devDependencies)) {
      if (!needed.has(dev)) expect(deps, dev).not.toContain(dev);
    }
    for (const dep of Object.keys(manifest.dependencies)) expect(deps, dep).toContain(dep);
  });

  it('runs from an empty directory outside the repository: --version, init, validate, demo --quick, view', async (context) => {
    if (skip) return context.skip(skip);
    const cwd = join(base, 'project');
    mkdirSync(cwd);
    expect(run(['--version'], cwd).stdout.trim()).toBe(manifest.version);
    const init = run(['init'], cwd);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'chatbench.config.yaml'), 'utf8')).toContain(
      `$schema=${join(installed, 'dist', 'schemas', 'config.schema.json')}`,
    );
    const validate = run(['validate', '--sim'], cwd);
    expect(validate.code, validate.stderr).toBe(0);
    const demo = run(['demo', '--quick', '--out', 'reports/demo'], cwd);
    expect(demo.code, demo.stderr).toBe(0);
    expect(existsSync(join(cwd, 'reports', 'demo', 'report.html'))).toBe(true);
    const [, url] = await start(
      ['view', 'reports/demo', '--port', '0'],
      cwd,
      /chatbench viewer: (http:\/\/127\.0\.0\.1:\d+\S*)/,
    );
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/viewer/i);
  }, 180_000);

  it('evaluates against `chatbench serve` as a deployment', async (context) => {
    if (skip) return context.skip(skip);
    const cwd = join(base, 'deployment');
    mkdirSync(cwd);
    const token = 'onyx_pat_package_test';
    const [, baseUrl] = await start(
      ['serve', '--port', '0'],
      cwd,
      /listening on (http:\/\/127\.0\.0\.1:\d+\/api)/,
      userEnv({ CHATBENCH_SIM_TOKEN: token }),
    );
    const evaluated = run(
      [
        'eval',
        '--dataset',
        join(installed, 'datasets', 'sample.csv'),
        '--shard',
        '1/20',
        '--base-url',
        baseUrl!,
        '--out',
        'run',
      ],
      cwd,
      userEnv({ CHATBENCH_TOKEN: token }),
    );
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'run', 'summary.json'), 'utf8'))).toBeTypeOf('object');
  }, 120_000);
});

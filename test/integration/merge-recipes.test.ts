/**
 * The scale-out recipes cannot run here (no cluster, no GitHub runner), so they are checked as
 * data: every YAML file parses; the Indexed Jobs agree with their own `--shards`; the commands
 * they run are accepted by the real CLI (parsed in-process up to the first input check, a dataset
 * that does not exist, so nothing is sent); the gates parse; the workflow's matrix, artifacts and
 * merge fit together; the Dockerfile has the parts the recipes rely on.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseGate } from '../../src/figures/index.js';
import { parseLoadGate } from '../../src/metrics/load-figures.js';
import { createFakeIo } from '../helpers/fake-io.js';

// js-yaml comes with eslint (a dev dependency's dependency), untyped: only loadAll is used.
const yaml = createRequire(import.meta.url)('js-yaml') as { loadAll(text: string): unknown[] };
/** A parsed YAML node: the tests below walk Kubernetes and workflow documents by their known keys. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const docs = (path: string): Node[] => yaml.loadAll(read(path)).filter((d) => d !== null && d !== undefined);

const flag = (args: readonly string[], name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const gatesIn = (command: string) => [...command.matchAll(/--gate "([^"]+)"/g)].map((m) => m[1]!);

/** The Job of a manifest file, and its one container. */
function job(path: string) {
  const all = docs(path);
  const found: Node = all.find((d) => d.kind === 'Job');
  expect(found, `${path} holds a Job`).toBeDefined();
  const container = found!.spec.template.spec.containers[0];
  const env = new Map<string, Node>(container.env.map((e: Node) => [e.name, e]));
  return { all, job: found, container, env };
}

/**
 * Runs a recipe's chatbench args in-process with `$(NAME)` expanded as Kubernetes does and the
 * dataset swapped for one that does not exist: the CLI must accept every flag and stop at the
 * dataset (exit 2), before any request.
 */
async function acceptedByCli(args: readonly string[], vars: Record<string, string>) {
  const missing = join(mkdtempSync(join(tmpdir(), 'chatbench-recipe-')), 'missing.csv');
  const argv = args.map((a) =>
    a.startsWith('--dataset=')
      ? `--dataset=${missing}`
      : a.replace(/\$\((\w+)\)/g, (_, name: string) => vars[name] ?? `$(${name})`),
  );
  const fake = createFakeIo({ env: { CHATBENCH_BASE_URL: 'http://127.0.0.1:9/api', CHATBENCH_TOKEN: 'x', ...vars } });
  const code = await main(argv, fake.io);
  expect(fake.stderr()).toContain('missing.csv: no such file');
  expect(code).toBe(2);
}

describe('deploy/k8s recipes', () => {
  it('eval: an Indexed Job whose completions, parallelism and --shards agree, writing shard-INDEX on the shared claim', async () => {
    const { all, job: j, container, env } = job('deploy/k8s/eval-indexed-job.yaml');
    const shards = Number(flag(container.args, 'shards'));
    expect(j.spec).toMatchObject({ completionMode: 'Indexed', completions: shards, parallelism: shards });
    expect(shards).toBeGreaterThan(1);
    expect(flag(container.args, 'out')).toBe('/runs/$(RUN_ID)/shard-$(JOB_COMPLETION_INDEX)');
    expect(env.get('CHATBENCH_TOKEN').valueFrom.secretKeyRef).toMatchObject({ name: 'chatbench-token', key: 'token' });
    expect(j.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe('chatbench-runs');
    expect(all.find((d) => d.kind === 'PersistentVolumeClaim')).toMatchObject({
      metadata: { name: 'chatbench-runs' },
      spec: { accessModes: ['ReadWriteMany'] },
    });
    await acceptedByCli(container.args, { RUN_ID: 'r1', JOB_COMPLETION_INDEX: String(shards - 1) });
  });

  it('load: the same shape, every shard starting at --start-at', async () => {
    const { job: j, container, env } = job('deploy/k8s/load-indexed-job.yaml');
    const shards = Number(flag(container.args, 'shards'));
    expect(j.spec).toMatchObject({ completionMode: 'Indexed', completions: shards, parallelism: shards });
    expect(container.args[0]).toBe('load');
    expect(flag(container.args, 'start-at')).toBe('$(START_AT)');
    expect(env.get('START_AT').value).toBe('${START_AT}');
    expect(flag(container.args, 'out')).toBe('/runs/$(RUN_ID)/shard-$(JOB_COMPLETION_INDEX)');
    await acceptedByCli(container.args, {
      RUN_ID: 'r1',
      JOB_COMPLETION_INDEX: '0',
      START_AT: new Date(Date.now() + 3_600_000).toISOString(),
    });
  });

  it('merge: the same claim, every shard directory, gates that parse', () => {
    const { job: j, container } = job('deploy/k8s/merge-job.yaml');
    expect(j.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe('chatbench-runs');
    const script: string = container.args[0];
    expect(script).toMatch(/^exec npx chatbench merge \/runs\/"\$RUN_ID"\/shard-\* --out \/runs\/"\$RUN_ID"\/merged /);
    const gates = gatesIn(script);
    expect(gates.length).toBeGreaterThan(0);
    for (const gate of gates) {
      expect(() => parseGate(gate)).not.toThrow();
      expect(() => parseLoadGate(gate, 'merge-job.yaml')).not.toThrow();
    }
  });
});

describe('.github/workflows/shards.yml', () => {
  it('a matrix of SHARDS shards each uploading its run, and a merge job downloading them all', () => {
    const [workflow] = docs('.github/workflows/shards.yml');
    const shards = Number(workflow.env.SHARDS);
    const { shard, merge } = workflow.jobs;
    expect(shard.strategy.matrix.shard).toEqual(Array.from({ length: shards }, (_, i) => i + 1));
    const steps = (j: Node): Node[] => j.steps;
    const run = steps(shard).find((s) => typeof s.run === 'string' && s.run.includes('chatbench eval'));
    expect(run?.run).toContain('--shard "${{ matrix.shard }}/$SHARDS"');
    const upload = steps(shard).find((s) => s.uses === 'actions/upload-artifact@v4');
    expect(upload?.with).toMatchObject({
      name: 'chatbench-shard-${{ matrix.shard }}',
      path: 'runs/shard-${{ matrix.shard }}',
    });
    expect(merge.needs).toBe('shard');
    const download = steps(merge).find((s) => s.uses === 'actions/download-artifact@v4');
    expect(download?.with).toEqual({ pattern: 'chatbench-shard-*', path: 'shards' });
    const merging = steps(merge).find((s) => typeof s.run === 'string' && s.run.includes('chatbench merge'));
    expect(merging?.run).toMatch(/npx chatbench merge shards\/chatbench-shard-\* \\\n\s+--out reports\/merged/);
    for (const gate of gatesIn(merging.run)) expect(() => parseGate(gate)).not.toThrow();
    expect(steps(merge).at(-1)).toMatchObject({
      uses: 'actions/upload-artifact@v4',
      if: 'always()',
      with: { path: 'reports/merged' },
    });
  });
});

describe('deploy/Dockerfile', () => {
  it('node:20-slim, dist/ compiled in a build stage, runtime dependencies only, npx chatbench as the entrypoint', () => {
    const text = read('deploy/Dockerfile');
    expect(text).toMatch(/^FROM node:20-slim AS build$/m);
    expect(text).toMatch(/^FROM node:20-slim$/m);
    expect(text).toMatch(/^COPY package\.json package-lock\.json tsconfig\.json tsconfig\.build\.json \.\/$/m);
    // The build stage's npm ci runs `prepare` (npm run build: dist/ and the viewer's bundle).
    expect(text).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
    expect((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.prepare).toBe(
      'npm run build',
    );
    expect(text).toMatch(/^RUN npm ci --omit=dev --ignore-scripts\b/m);
    for (const dir of ['bin', 'datasets']) expect(text).toMatch(new RegExp(`^COPY ${dir} \\./${dir}$`, 'm'));
    expect(text).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(text).toMatch(/^ENTRYPOINT \["npx", "chatbench"\]$/m);
    // Nothing is transpiled at run time: tsx is for development only.
    expect(
      (JSON.parse(read('package.json')) as { dependencies: Record<string, string> }).dependencies,
    ).not.toHaveProperty('tsx');
  });
});

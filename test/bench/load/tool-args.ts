/**
 * The node arguments that start one tool's child (load/tool-child.ts), shared by load.bench.ts,
 * gc-trace.ts and alloc-sites.ts: chatbench starts as the CLI does (load/cli-start.mjs: the young
 * generation's cap), the floor and autocannon as plain node; `preloads` come after tsx and the CLI's
 * start, so they see the process the tool runs in.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ToolJob } from './tool-child.js';

const HERE = resolve(import.meta.dirname);

/** A fresh directory with the job written to job.json; the child writes result.json there. */
export function toolJobFiles(job: ToolJob, prefix: string): { dir: string; job: string; result: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  return { dir, job: join(dir, 'job.json'), result: join(dir, 'result.json') };
}

export function toolChildArgs(
  job: Pick<ToolJob, 'tool'>,
  files: { job: string; result: string },
  options: { flags?: readonly string[]; preloads?: readonly string[] } = {},
): string[] {
  const cliStart = job.tool === 'chatbench' ? ['--import', join(HERE, 'cli-start.mjs')] : [];
  return [
    ...(options.flags ?? []),
    '--import',
    'tsx',
    ...cliStart,
    ...(options.preloads ?? []).flatMap((preload) => ['--import', join(HERE, preload)]),
    join(HERE, 'tool-child.ts'),
    files.job,
    files.result,
  ];
}

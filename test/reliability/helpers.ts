/**
 * Shared pieces of the reliability tests: scratch directories, dataset and sets files, the CLI
 * run in-process through main() with a fake Io, and the records of a run directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { prepareEval } from '../../src/app/eval/run-eval.js';
import { main } from '../../src/cli/main.js';
import type { ExitCode } from '../../src/errors.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { createFakeIo, type FakeIo } from '../helpers/fake-io.js';

/** A fresh directory under the OS temp dir, removed when the test finishes (a concurrent test passes its context's hook). */
export function scratch(onFinished: typeof onTestFinished = onTestFinished): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-rel-'));
  onFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const DATASET_HEADER = 'id,question,expected_documents,must_contain,expect_no_answer,category';

/** Writes `rows` (quoted cells) under `header` to DIR/NAME and returns the path. */
export function writeCsv(
  dir: string,
  rows: readonly (readonly string[])[],
  name = 'questions.csv',
  header = DATASET_HEADER,
): string {
  const path = join(dir, name);
  const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  writeFileSync(path, `${header}\n${rows.map((r) => r.map(quote).join(',')).join('\n')}\n`);
  return path;
}

/** Writes `value` as JSON to DIR/NAME and returns the path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

export interface CliRun {
  code: ExitCode;
  stdout: string;
  stderr: string;
  fake: FakeIo;
}

/** Runs `chatbench ARGS` in-process; `during` may act on the fake Io (e.g. interrupt) while it runs. */
export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; during?: (fake: FakeIo) => void } = {},
): Promise<CliRun> {
  const fake = createFakeIo({ env: options.env ?? {}, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  const running = main(args, fake.io);
  options.during?.(fake);
  const code = await running;
  return { code, stdout: fake.stdout(), stderr: fake.stderr(), fake };
}

/** The validated records of OUT/results.jsonl (every line must be a complete record). */
export function readRunRecords(out: string): RequestRecord[] {
  const text = readFileSync(join(out, 'results.jsonl'), 'utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error('results.jsonl does not end with a newline');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));
}

/** Counts of `values`, as a plain object (for readable diffs). */
export function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

/** A stack trace line as Node prints it: what a user must never see. */
export const STACK_LINE = /\n\s+at \S+.*[:(]\d+:\d+\)?/;

/** The keys of the whole plan these inputs make, as eval would build it. */
export async function plannedKeys(inputs: {
  datasetPath: string;
  modelsPath?: string;
  setFlags?: string[];
  mode: 'stream' | 'full' | 'both';
  repeat?: number;
}): Promise<string[]> {
  const prepared = await prepareEval({ setFlags: [], repeat: 1, cwd: process.cwd(), ...inputs });
  return [...prepared.plan].map((p) => p.key);
}

/**
 * @module app/store/resume
 * `chatbench eval --resume DIR`: continue a run that was killed or interrupted. The run's
 * manifest must describe the same inputs (dataset and models by hash, mode, repeat, shard, the plan
 * itself by hash, the same target); the keys already in results.jsonl are the requests done. A
 * torn last line (a crash mid-write: no trailing newline) is cut away before anything is appended,
 * so the next record starts on a line of its own; its request counts as not done and is sent again.
 *
 * A conversation cut short continues from its first unrecorded turn, in the session its last
 * recorded turn left when the service still continues it, else in a new session (the runner
 * decides and the record says which: `session` resumed or restarted); when its last recorded turn
 * failed, the rest are recorded skipped.
 */
import { createHash } from 'node:crypto';
import { open, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import type { PlannedRequest } from '../../plan/planned-request.js';
import { ManifestSchema, type Manifest } from './manifest.js';
import { readRecords } from './read-records.js';
import { readRunFileText } from './run-file.js';
import type { RequestRecord } from '../../records/record.js';
import type { PreviousTurn } from '../../runner/index.js';

/** What a resumed run starts from. */
export interface ResumeState {
  /** The run's manifest as it was, before this resume. */
  readonly manifest: Manifest;
  /** Plan indices already recorded, each once: one bit per planned request, not the records. */
  readonly done: DoneSet;
  /**
   * The recorded conversation turns by key: where an unfinished conversation continues from (its
   * session and answer), or why its later turns are skipped.
   */
  readonly turns: ReadonlyMap<string, PreviousTurn>;
  /** Bytes of a torn last line cut from results.jsonl (0 when it ended cleanly). */
  readonly truncatedBytes: number;
}

/**
 * sha256 of the plan's keys and bodies, in plan order: any change to what would be sent (a set's
 * temperature, a question's filters) changes it. mcp_headers values are left out, so that no
 * secret is hashed into the manifest (and rotating one does not block a resume).
 */
export function planDigest(plan: Iterable<PlannedRequest>): string {
  const hash = createHash('sha256');
  for (const p of plan) {
    const headers = p.body.mcp_headers;
    const body = headers ? { ...p.body, mcp_headers: Object.keys(headers).sort() } : p.body;
    hash.update(JSON.stringify([p.key, body]));
    hash.update('\n');
  }
  return hash.digest('hex');
}

/** Reads DIR/manifest.json; InputError when missing or not an eval manifest. */
export async function readRunManifest(dir: string, label: string): Promise<Manifest> {
  const file = join(dir, 'manifest.json');
  const text = await readRunFileText(file, `--resume ${label}: manifest.json`).catch((error: unknown) => {
    if (error instanceof InputError) throw error;
    return undefined;
  });
  if (text === undefined)
    throw new InputError([`--resume ${label}: no manifest.json there; give the directory of the run to continue`]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError([`--resume ${label}: manifest.json is not JSON`]);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success || parsed.data.command !== 'eval')
    throw new InputError([`--resume ${label}: manifest.json is not the manifest of a chatbench eval run`]);
  return parsed.data;
}

const short = (digest: string) => digest.slice(0, 12);

/**
 * Every way `now` (the manifest this invocation would write) differs from `then` (the run's) in what
 * decides the requests and where they go; [] when the run may be resumed. Each is one line.
 */
export function resumeMismatches(then: Manifest, now: Manifest): string[] {
  const problems: string[] = [];
  if (then.dataset.sha256 !== now.dataset.sha256) {
    problems.push(
      `the dataset differs from the run's (${now.dataset.path}: sha256 ${short(now.dataset.sha256)}…, the run read ${then.dataset.path}: ${short(then.dataset.sha256)}…)`,
    );
  }
  if ((then.models?.sha256 ?? null) !== (now.models?.sha256 ?? null)) {
    problems.push(
      `the sets file differs from the run's (${now.models?.path ?? 'none'} now, ${then.models?.path ?? 'none'} then)`,
    );
  }
  for (const option of ['mode', 'repeat'] as const) {
    if (then.options[option] !== now.options[option])
      problems.push(`--${option} was ${String(then.options[option])}, now ${String(now.options[option])}`);
  }
  if (JSON.stringify(then.shard) !== JSON.stringify(now.shard))
    problems.push(
      `the run's shard was ${then.shard ? `${then.shard.index}/${then.shard.count}` : 'none'}, now ${now.shard ? `${now.shard.index}/${now.shard.count}` : 'none'}`,
    );
  if (problems.length === 0 && typeof then.plan_sha256 === 'string' && then.plan_sha256 !== now.plan_sha256) {
    problems.push('the sets or flags give other requests than the run planned (the plan digest differs)');
  }
  problems.push(...qualityMismatches(then, now));
  if (then.target !== now.target)
    problems.push(
      `the run went to ${then.target === 'simulator' ? 'the embedded simulator' : then.base_url}, not ${now.target === 'simulator' ? 'the embedded simulator' : now.base_url}`,
    );
  else if (then.target === 'service' && then.base_url !== now.base_url)
    problems.push(`the run went to ${then.base_url}, not ${now.base_url}`);
  return problems;
}

/** How the answers are judged must not change mid-run (the labels may: they only feed the report). */
function qualityMismatches(then: Manifest, now: Manifest): string[] {
  const a = then.quality ?? null;
  const b = now.quality ?? null;
  const problems: string[] = [];
  if (JSON.stringify(a?.pass ?? []) !== JSON.stringify(b?.pass ?? []))
    problems.push(`the pass rule was ${describePass(a?.pass)}, now ${describePass(b?.pass)}`);
  const judge = (q: typeof a) =>
    q?.judge
      ? JSON.stringify([q.judge.model, q.judge.prompt_version, q.judge.figures, q.judge.repeat, q.judge.fetch_cited])
      : 'none';
  if (judge(a) !== judge(b)) {
    const name = (q: typeof a) =>
      q?.judge
        ? `${q.judge.model} (prompts ${q.judge.prompt_version}, ${q.judge.figures.join('/')}, ×${q.judge.repeat}${q.judge.fetch_cited ? ', --fetch-cited' : ''})`
        : 'no judge';
    problems.push(`the run was judged by ${name(a)}, now ${name(b)}`);
  }
  if ((a?.checks?.sha256 ?? null) !== (b?.checks?.sha256 ?? null))
    problems.push(
      `the checks differ from the run's (${b?.checks?.path ?? 'none'} now, ${a?.checks?.path ?? 'none'} then)`,
    );
  return problems;
}

const describePass = (texts: readonly string[] | undefined) =>
  texts === undefined || texts.length === 0 ? 'the default' : texts.map((t) => `"${t}"`).join(' ');

/** Cuts an unterminated last line off `file`; returns the bytes cut. A missing file cuts nothing. */
export async function cutTornTail(file: string): Promise<number> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || info.size === 0) return 0;
  const handle = await open(file, 'r');
  let keep = info.size;
  try {
    // Read backwards in blocks to the last newline: a record line is rarely over a few KiB.
    const block = Buffer.alloc(64 * 1024);
    for (let end = info.size; end > 0;) {
      const start = Math.max(0, end - block.length);
      const { bytesRead } = await handle.read(block, 0, end - start, start);
      const newline = block.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline !== -1) {
        keep = start + newline + 1;
        break;
      }
      end = start;
      keep = 0;
    }
  } finally {
    await handle.close();
  }
  if (keep < info.size) await truncate(file, keep);
  return info.size - keep;
}

/** The plan indices a run recorded: a bitset over the whole plan (125 KB for a million requests). */
export interface DoneSet {
  readonly size: number;
  has(index: number): boolean;
}

/** Nothing recorded yet (a fresh run). */
export const NOTHING_DONE: DoneSet = { size: 0, has: () => false };

function createDoneSet(total: number) {
  const bits = new Uint8Array(Math.ceil(total / 8));
  let size = 0;
  return {
    get size() {
      return size;
    },
    has: (index: number) => (bits[index >>> 3]! & (1 << (index & 7))) !== 0,
    /** Marks `index`; false when it already was. */
    add(index: number): boolean {
      const mask = 1 << (index & 7);
      if ((bits[index >>> 3]! & mask) !== 0) return false;
      bits[index >>> 3]! |= mask;
      size += 1;
      return true;
    },
  };
}

/** What prepareResume needs of the plan: where a key stands in it (null: not one of its requests). */
export interface ResumablePlan {
  readonly total: number;
  keyIndex(key: string): number | null;
}

/**
 * Checks that DIR's run can be continued with `manifest` and `plan`, cuts a torn last line, and
 * returns what is already recorded (plan indices, read key by key: no record is kept, only the
 * little a conversation's next turn needs). InputError (exit 2) when the inputs differ, when a
 * record is not one of the plan's keys, or when a key appears twice (not a run this plan made).
 */
export async function prepareResume(
  dir: string,
  label: string,
  manifest: Manifest,
  plan: ResumablePlan,
): Promise<ResumeState> {
  const then = await readRunManifest(dir, label);
  const problems = resumeMismatches(then, manifest);
  if (problems.length > 0) {
    throw new InputError(
      problems.map((p) => `--resume ${label}: ${p}`),
      { hint: 'resume with the same command line as the run (plus --resume), or start a new run with --out' },
    );
  }
  const file = join(dir, 'results.jsonl');
  const truncatedBytes = await cutTornTail(file);
  const done = createDoneSet(plan.total);
  const turns = new Map<string, PreviousTurn>();
  const bad: string[] = [];
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (exists) {
    for await (const record of readRecords(file)) {
      const index = plan.keyIndex(record.key);
      if (index === null) bad.push(`${label}/results.jsonl: record ${record.key} is not in the plan`);
      else if (!done.add(index)) bad.push(`${label}/results.jsonl: record ${record.key} appears twice`);
      if (record.conversation !== null) turns.set(record.key, previousTurnOf(record));
      if (bad.length >= 5) break;
    }
  }
  if (bad.length > 0)
    throw new InputError(bad, { hint: 'this results.jsonl was not written by this plan; start a new run with --out' });
  return { manifest: then, done, truncatedBytes, turns };
}

/** What a later turn needs of a recorded one: how it ended and where it left the conversation (nothing else is kept). */
function previousTurnOf(record: RequestRecord): PreviousTurn {
  return {
    outcome: record.outcome,
    error_code: record.error_code,
    error_message: record.error_message,
    turn: record.turn,
    chat_session_id: record.chat_session_id,
    message_id: record.message_id,
    models: record.models?.map((m) => ({ model_index: m.model_index, message_id: m.message_id })) ?? null,
  };
}

/** The run's manifest with this resume added to `resumes` (its start time and its own options). */
export const withResume = (then: Manifest, now: Manifest): Manifest => ({
  ...then,
  resumes: [...(then.resumes ?? []), { started_at: now.started_at, options: now.options }],
});

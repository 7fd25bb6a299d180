/**
 * @module app/store/merge-checks
 * Whether a set of run directories are the shards of one plan, decided from their manifests alone
 * before any record is read: same command, dataset, models, plan (version, size, options, sets,
 * load spec), shard count, target and chatbench major version; every shard 1..N present exactly
 * once. Each problem is one line naming the directories, so a user sees every mistake at once.
 */
import { parseJsonText } from '../../util/parse-json.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ShardSchema, type Shard } from '../../records/shard.js';
import { readUtf8File } from '../../dataset/read-text.js';
import type { PlanOutline } from '../../plan/record-owner.js';
import { ManifestSchema } from './manifest.js';

/** One input of a merge, as the merged manifest lists it. */
export const MergedFromSchema = z.object({
  dir: z.string(),
  shard: ShardSchema,
  chatbench_version: z.string(),
  started_at: z.string(),
  planned_requests: z.number().int(),
  records: z.number().int(),
  torn_lines: z.number().int(),
});
export type MergedFrom = z.infer<typeof MergedFromSchema>;

/**
 * manifest.json as merge reads and writes it: the shared fields are checked, anything else (a load
 * run's `load` spec, fields added later) is kept as it is. `merged_from` is set on merged runs only.
 */
export const RunManifestSchema = ManifestSchema.extend({
  /** Any version, so that a shard of another plan version is refused with a message saying so. */
  plan_version: z.number().int(),
  load: z
    .looseObject({ shard: ShardSchema.nullable().optional(), start_at: z.string().nullable().optional() })
    .optional(),
  merged_from: z.array(MergedFromSchema).optional(),
}).loose();
export type RunManifest = z.infer<typeof RunManifestSchema>;

/** A run directory given to merge, with its manifest. */
export interface ShardRun {
  /** Resolved path. */
  readonly path: string;
  /** As the user gave it, with a trailing slash: how messages name it. */
  readonly label: string;
  readonly manifest: RunManifest;
}

/** Lines of one kind listed before the rest are counted: a wrong directory list is not worth 500 lines. */
export const MAX_LISTED = 10;

/** `a/`: the directory as given, always with one trailing slash. */
export const dirLabel = (dir: string): string => `${dir.replace(/[\\/]+$/, '')}/`;

/** Reads and validates `DIR/manifest.json` (relative to `cwd`); InputError `DIR/manifest.json: ...` otherwise. */
export async function readRunManifest(dir: string, cwd: string): Promise<ShardRun> {
  const label = dirLabel(dir);
  const file = `${label}manifest.json`;
  const text = await readUtf8File({ path: file, cwd });
  return { path: resolve(cwd, dir), label, manifest: parseJsonText(text, file, RunManifestSchema) };
}

const an = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
const major = (version: string): string => version.split('.')[0] ?? version;
const short = (hash: string | undefined): string => (hash === undefined ? 'none' : `${hash.slice(0, 12)}…`);
const shardText = (s: Shard | null): string => (s === null ? 'not a shard' : `shard ${s.index}/${s.count}`);

/** What fixes the requests of a plan besides the dataset and models: two shards must agree on all of it. */
function planIdentity(m: RunManifest): string {
  const load = m.load === undefined ? null : { ...m.load, shard: null };
  return JSON.stringify({ mode: m.options.mode, repeat: m.options.repeat, sets: m.sets, defaults: m.defaults, load });
}

/** An embedded simulator listens on a port of its own in every process, so only a real service's URL must match. */
const targetIdentity = (m: RunManifest): string => (m.target === 'simulator' ? 'the embedded simulator' : m.base_url);

interface Rule {
  readonly of: (m: RunManifest) => unknown;
  readonly say: (run: ShardRun, ref: ShardRun) => string;
}

/** Checked in this order against the first directory given; the first rule a run breaks is reported. */
const RULES: readonly Rule[] = [
  {
    of: (m) => m.command,
    say: (r, f) =>
      `${r.label} is ${an(r.manifest.command)} run but ${f.label} is ${an(f.manifest.command)} run: only runs of one command merge`,
  },
  {
    of: (m) => m.plan_version,
    say: (r, f) =>
      `${r.label} has plan version ${r.manifest.plan_version} but ${f.label} has ${f.manifest.plan_version}`,
  },
  {
    of: (m) => major(m.chatbench_version),
    say: (r, f) =>
      `${r.label} was written by chatbench ${r.manifest.chatbench_version} but ${f.label} by ${f.manifest.chatbench_version}: major versions differ`,
  },
  {
    of: (m) => m.dataset.sha256,
    say: (r, f) =>
      `${r.label} ran another dataset than ${f.label} (sha256 ${short(r.manifest.dataset.sha256)} vs ${short(f.manifest.dataset.sha256)})`,
  },
  {
    of: (m) => m.models?.sha256 ?? null,
    say: (r, f) =>
      `${r.label} used another sets file than ${f.label} (sha256 ${short(r.manifest.models?.sha256)} vs ${short(f.manifest.models?.sha256)})`,
  },
  {
    of: (m) => m.shard?.count ?? null,
    say: (r, f) =>
      `${r.label} is ${shardText(r.manifest.shard)} but ${f.label} is ${shardText(f.manifest.shard)}: shard counts differ`,
  },
  // A closed-model load plans no request count: its spec (planIdentity) is what must agree.
  {
    of: (m) => (m.command === 'load' ? null : m.planned_total),
    say: (r, f) =>
      `${r.label} belongs to a plan of ${r.manifest.planned_total} requests but ${f.label} to one of ${f.manifest.planned_total}`,
  },
  {
    of: (m) => m.whole_plan_sha256 ?? null,
    say: (r, f) =>
      `${r.label} is a shard of another plan than ${f.label} (the whole plans' digests differ: the sets, flags or defaults give other requests)`,
  },
  {
    of: planIdentity,
    say: (r, f) =>
      `${r.label} planned other requests than ${f.label} (mode, repeat, sets, defaults or load spec differ)`,
  },
  {
    of: targetIdentity,
    say: (r, f) =>
      `${r.label} ran against ${targetIdentity(r.manifest)} but ${f.label} against ${targetIdentity(f.manifest)}`,
  },
];

/** One line per shard missing or given more than once; empty when 1..count are each there once. */
function coverageProblems(runs: readonly ShardRun[], count: number): string[] {
  const byIndex = new Map<number, ShardRun[]>();
  for (const run of runs) {
    const index = run.manifest.shard?.index;
    if (index !== undefined) byIndex.set(index, [...(byIndex.get(index) ?? []), run]);
  }
  const missing: string[] = [];
  const repeated: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    const given = byIndex.get(index) ?? [];
    if (given.length === 0) missing.push(`missing shard ${index}/${count}`);
    if (given.length > 1) {
      const times = given.length === 2 ? 'twice' : `${given.length} times`;
      repeated.push(`shard ${index}/${count} given ${times}: ${given.map((r) => r.label).join(' and ')}`);
    }
  }
  return [...capped(repeated, 'shards given more than once'), ...capped(missing, 'shards missing')];
}

/** The first MAX_LISTED lines, then one line counting the rest. */
export function capped(lines: readonly string[], what: string): string[] {
  if (lines.length <= MAX_LISTED) return [...lines];
  return [...lines.slice(0, MAX_LISTED), `… and ${lines.length - MAX_LISTED} more ${what} (${lines.length} in all)`];
}

/**
 * Every reason these runs are not the complete shards of one plan, one line each (empty: they
 * are). Each run is compared with the first; a run without a shard is refused (merge joins shards,
 * not arbitrary runs); coverage is checked only when every run agrees on the shard count.
 */
export function mergeProblems(runs: readonly ShardRun[]): string[] {
  const [first] = runs;
  if (first === undefined) return ['no run directory given'];
  const problems: string[] = [];
  for (const run of runs) {
    if (run.manifest.shard === null) {
      const merged = run.manifest.merged_from === undefined ? '' : ' (it is a merged run)';
      problems.push(`${run.label} is not a shard${merged}: merge joins the runs of --shard i/N (or --shards N)`);
    }
  }
  if (problems.length > 0) return problems;
  for (const run of runs.slice(1)) {
    const broken = RULES.find(
      (rule) => JSON.stringify(rule.of(run.manifest)) !== JSON.stringify(rule.of(first.manifest)),
    );
    if (broken) problems.push(broken.say(run, first));
  }
  if (problems.length > 0) return capped(problems, 'runs that do not match');
  return coverageProblems(runs, first.manifest.shard?.count ?? 1);
}

const LoadOutlineSchema = z.looseObject({
  set: z.string(),
  mode: z.string(),
  question_order: z.enum(['sequential', 'random']),
  seed: z.number(),
  model: z.enum(['open', 'closed']),
  requests: z.number().nullable(),
});

/**
 * What a shard's manifest tells of its plan, for checking each record's place (plan/record-owner);
 * null when it tells too little (an eval run written before manifests listed question ids).
 */
export function planOutline(m: RunManifest): PlanOutline | null {
  const shardCount = m.shard?.count ?? 1;
  if (m.command === 'eval') {
    const mode = m.options['mode'];
    const repeat = m.options['repeat'];
    if (
      m.question_ids === undefined ||
      (mode !== 'stream' && mode !== 'full' && mode !== 'both') ||
      typeof repeat !== 'number'
    )
      return null;
    return {
      command: 'eval',
      questionIds: m.question_ids,
      units: m.conversation_units ?? null,
      sets: m.sets,
      mode,
      repeat,
      shardCount,
    };
  }
  const load = LoadOutlineSchema.safeParse(m.load);
  if (m.command !== 'load' || !load.success) return null;
  const total = load.data.model === 'open' ? m.planned_total : load.data.requests;
  return {
    command: 'load',
    questionIds: m.question_ids ?? null,
    units: m.conversation_units ?? null,
    set: load.data.set,
    mode: load.data.mode,
    order: load.data.question_order,
    seed: load.data.seed,
    total,
    shardCount,
  };
}

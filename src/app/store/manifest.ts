/**
 * @module app/store/manifest
 * manifest.json of a run directory: what was run, against what, with which inputs (by hash), so a
 * run can be told apart from another, resumed and merged. Secrets never go in: the token is not
 * here at all, and `mcp_headers` values are redacted.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EncodingSchema, type Encoding } from '../../records/encoding.js';
import { ONYX_RELEASES } from '../../api/index.js';
import { ShardSchema } from '../../records/shard.js';
import { InputError } from '../../errors.js';
import { readRunFileText } from './run-file.js';

export const PLAN_VERSION = 1;

/**
 * How answers were judged (issue 14): what `chatbench report` needs to say the pass rule, and what
 * `--resume` checks is unchanged. The judge's URL is shown without credentials; its token never.
 */
export const QualityManifestSchema = z.object({
  /** The `--pass` texts ([] = the default rule). */
  pass: z.array(z.string()),
  judge: z
    .object({
      url: z.string(),
      model: z.string(),
      prompt_version: z.string(),
      figures: z.array(z.string()),
      repeat: z.number().int(),
      fetch_cited: z.boolean(),
    })
    .nullable(),
  checks: z.object({ path: z.string(), sha256: z.string(), names: z.array(z.string()) }).nullable(),
  labels: z.object({ path: z.string(), sha256: z.string(), labels: z.number().int() }).nullable(),
});
export type QualityManifest = z.infer<typeof QualityManifestSchema>;

/**
 * The command line as it took effect: every option's value (secrets redacted) and where it came from
 * (`flag`, `env CHATBENCH_RATE`, `file chatbench.config.json (load.rate)`, `default`), so a run from
 * a config file and the same run from flags record the same `options`.
 */
export const InvocationSchema = z.object({
  config_file: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  sources: z.record(z.string(), z.string()),
});
export type Invocation = z.infer<typeof InvocationSchema>;

/**
 * A project's instructions as the run found them: `previous_instructions` is the text the service
 * held before the run replaced it (null when it could not be read), what `--restore-project` puts
 * back; `restored_at` says when it did.
 */
export const ProjectManifestSchema = z.object({
  id: z.number().int(),
  previous_instructions: z.string().nullable(),
  restored_at: z.string().nullable(),
});
export type ProjectManifest = z.infer<typeof ProjectManifestSchema>;

export const ManifestSchema = z.object({
  manifest_version: z.literal(1),
  chatbench_version: z.string(),
  command: z.string(),
  started_at: z.string(),
  /** Scheme, host and path only: credentials in a URL are dropped. */
  base_url: z.string(),
  target: z.enum(['service', 'simulator']),
  plan_version: z.literal(PLAN_VERSION),
  /** Requests this run planned to send (its shard). */
  planned_requests: z.number().int(),
  /** Requests of the whole plan, every shard together. */
  planned_total: z.number().int(),
  shard: ShardSchema.nullable(),
  /** Digest of the requests this run sends (keys and bodies, mcp_headers values left out): what --resume checks. */
  plan_sha256: z.string().nullish(),
  /** Digest of the whole plan before sharding: shards of one plan share it, which merge checks. */
  whole_plan_sha256: z.string().nullish(),
  dataset: z.object({ path: z.string(), sha256: z.string(), questions: z.number().int() }),
  /** The dataset's question ids (load open-urls: URL ids) in file order: what merge checks each record's place in the plan with. */
  question_ids: z.array(z.string()).optional(),
  /**
   * With conversations: the plan's units of scheduling and sharding, each the question ids of one
   * conversation in turn order (a question on its own is a unit of one), in plan order. Absent when
   * the dataset has none (eval) or the run plays none (load without --conversations).
   */
  conversation_units: z.array(z.array(z.string())).optional(),
  models: z.object({ path: z.string(), sha256: z.string() }).nullable(),
  sets: z.array(
    z.object({
      name: z.string(),
      multi: z.boolean(),
      encoding: EncodingSchema.optional(),
      models: z.array(z.string()),
    }),
  ),
  defaults: z.record(z.string(), z.unknown()),
  /** How the run was started: mode, repeat, concurrency, timeout, retries. */
  options: z.record(z.string(), z.unknown()),
  /**
   * What the target told of itself: `GET /version`'s backend_version, the listed release it reads
   * as, and the stream framing seen (known once a stream came back). Absent in older manifests.
   */
  service: z
    .object({
      backend_version: z.string().nullable(),
      release: z.string().nullable(),
      framing: z.enum(['ndjson', 'sse']).nullable(),
    })
    .nullish(),
  /** Absent in runs made before answer quality existed. */
  quality: QualityManifestSchema.nullish(),
  /** Each `--resume` of the run, in order: when, and with which options (they may differ from the start's). */
  resumes: z.array(z.object({ started_at: z.string(), options: z.record(z.string(), z.unknown()) })).optional(),
  invocation: InvocationSchema.optional(),
  /** The project whose instructions the run replaced (app/project-instructions); absent when it replaced none. */
  project: ProjectManifestSchema.nullish(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export async function sha256File(path: string): Promise<string> {
  // Streamed: read whole, a million-row dataset (92 MB) was as much external memory again, at the
  // eval's start, on top of its row index.
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `https://user:pass@host/api?x` → `https://host/api`. */
export function displayUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}

const REDACTED = '[redacted]';

/** Copies `defaults` with every mcp_headers value replaced, keeping the header names. */
export function redactDefaults<T extends { mcp_headers?: Record<string, string> | undefined }>(defaults: T): T {
  if (!defaults.mcp_headers) return defaults;
  return { ...defaults, mcp_headers: Object.fromEntries(Object.keys(defaults.mcp_headers).map((k) => [k, REDACTED])) };
}

/**
 * The part of a run's manifest.json that `schema` reads; undefined when there is no manifest, it is
 * not JSON, or it does not have that part (an older run, a bare results.jsonl). Readers of a run
 * directory take what they need this way and go on without it.
 */
export async function readManifestPart<S extends z.ZodType>(dir: string, schema: S): Promise<z.infer<S> | undefined> {
  const file = join(dir, 'manifest.json');
  // Too large is an error (exit 2); missing or unreadable is "no manifest", as before.
  const text = await readRunFileText(file, file).catch((error: unknown) => {
    if (error instanceof InputError) throw error;
    return undefined;
  });
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(withoutQuestionLists(text));
  } catch {
    try {
      json = JSON.parse(text); // (laid out otherwise, and the cut broke it)
    } catch {
      return undefined;
    }
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The members readManifestPart never reads: one entry a question, a million at a million rows. */
const QUESTION_LISTS = ['question_ids', 'conversation_units'] as const;

/**
 * The manifest's text without its top-level `question_ids` and `conversation_units`, cut as
 * chatbench writes them (two-space indented: from `\n  "question_ids": [\n` to the next `\n  ]`),
 * so that a reader wanting a few fields does not parse a million ids (~47 MB of strings at a
 * million rows, for each of the reports' several reads). A raw newline stands only between tokens
 * in JSON, never in a string, so the cut cannot land inside one; text laid out otherwise is left as
 * it is.
 */
export function withoutQuestionLists(text: string): string {
  let out = text;
  for (const key of QUESTION_LISTS) {
    const opening = `\n  ${JSON.stringify(key)}: [\n`;
    const start = out.indexOf(opening);
    if (start === -1) continue;
    const close = out.indexOf('\n  ]', start + opening.length - 1);
    if (close === -1) continue;
    let [from, to] = [start, close + 4];
    if (out[to] === ',') to += 1;
    else if (out[from - 1] === ',') from -= 1; // the last member: the comma before it goes
    out = out.slice(0, from) + out.slice(to);
  }
  return out;
}

/** Each set's token encoding (tokens/encodings.ts) as the sets file chose it, from manifest.json; absent ones use the default. */
export async function setEncodings(dir: string): Promise<ReadonlyMap<string, Encoding>> {
  const part = await readManifestPart(
    dir,
    z.object({ sets: z.array(z.object({ name: z.string(), encoding: EncodingSchema.optional().catch(undefined) })) }),
  );
  return new Map((part?.sets ?? []).flatMap((s) => (s.encoding === undefined ? [] : [[s.name, s.encoding] as const])));
}

/** The sets in plan order, from the run's manifest.json; undefined when there is none (a bare results.jsonl). */
export async function plannedSetOrder(dir: string): Promise<string[] | undefined> {
  return (await readManifestPart(dir, z.object({ sets: z.array(z.object({ name: z.string() })) })))?.sets.map(
    (s) => s.name,
  );
}

const ServiceOfManifestSchema = z.object({
  service: z
    .object({
      backend_version: z.string().nullable(),
      release: z.enum(ONYX_RELEASES).nullable().catch(null),
      framing: z.enum(['ndjson', 'sse']).nullable(),
    })
    .nullish(),
});

/** What the target said of itself, from the run's manifest.json; undefined when it is not there (an older run, a bare results.jsonl). */
export async function targetService(
  dir: string,
): Promise<NonNullable<z.infer<typeof ServiceOfManifestSchema>['service']> | undefined> {
  return (await readManifestPart(dir, ServiceOfManifestSchema))?.service ?? undefined;
}

const QualityOfManifestSchema = z.object({ quality: QualityManifestSchema.nullish() });

/**
 * How a run's answers were judged (its manifest's `quality`); null for a run made before answer
 * quality existed, undefined when there is no manifest (a bare results.jsonl).
 */
export async function qualityOfRun(dir: string): Promise<QualityManifest | null | undefined> {
  const part = await readManifestPart(dir, QualityOfManifestSchema);
  return part === undefined ? undefined : (part.quality ?? null);
}

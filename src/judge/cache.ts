/**
 * @module judge/cache
 * Verdicts kept on disk, so that a resume, a rerun with unchanged answers or a second run of the
 * demo never asks the judge twice. The key is the SHA-256 of (judge model, prompt version, task,
 * the exact input shown, ask number): change any and it is a new question. One small JSON file per
 * verdict under DIR/ab/<key>.json, written to a temporary name and renamed, so that concurrent
 * runs sharing a cache never read half a file. Only answered verdicts are kept, never failures.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const CachedVerdictSchema = z.object({ score: z.number().min(0).max(1), reason: z.string().nullable() });
export type CachedVerdict = z.infer<typeof CachedVerdictSchema>;

export interface VerdictCache {
  get(key: string): Promise<CachedVerdict | undefined>;
  set(key: string, verdict: CachedVerdict): Promise<void>;
}

/** The cache key of one ask. */
export function verdictKey(parts: {
  model: string;
  promptVersion: string;
  task: string;
  input: string;
  ask: number;
}): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.model, parts.promptVersion, parts.task, parts.input, parts.ask]))
    .digest('hex');
}

/** `--no-judge-cache`: asks every time. */
export const noCache: VerdictCache = { get: async () => undefined, set: async () => {} };

/**
 * A cache in `dir` (created on first write). A file that does not read as a verdict (foreign,
 * damaged) is a miss and is overwritten by the next answer. Write errors are ignored: the cache
 * saves calls, it never fails a run.
 */
export function createDiskCache(dir: string): VerdictCache {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      const text = await readFile(pathOf(key), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      try {
        const parsed = CachedVerdictSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, verdict) {
      const path = pathOf(key);
      const temporary = `${path}.${randomUUID()}.tmp`;
      try {
        await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
        await writeFile(temporary, `${JSON.stringify(verdict)}\n`);
        await rename(temporary, path);
      } catch {
        // A full disk or a read-only cache only costs the next run a call.
      }
    },
  };
}

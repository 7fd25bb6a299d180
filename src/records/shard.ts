/**
 * @module records/shard
 * Which shard of a plan a run is: i of N, 1-based. In manifests, load specs and merges.
 */
import { z } from 'zod';

export const ShardSchema = z
  .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
  .refine((s) => s.index <= s.count, { message: 'the shard index must be between 1 and the shard count' });
export type Shard = z.infer<typeof ShardSchema>;

/**
 * @module figures/gate-verdict
 * What checking one gate concluded: the gate, the group it was checked on, the figures compared,
 * passed or not and why. Beside the gate grammar (grammar.ts) so that compare/ and reports/, which
 * show verdicts, need nothing from gates/, which computes them.
 */
import { z } from 'zod';
import { ModeSchema } from '../records/record.js';
import { GateSchema } from './grammar.js';

export const IntervalSchema = z.object({ low: z.number(), high: z.number() });

/** One set × mode group (one model of a multi-model set): what a gate and a comparison row are about. */
export const GroupRefSchema = z.object({
  set: z.string(),
  mode: ModeSchema,
  model_index: z.number().int().nullable(),
  model_name: z.string().nullable(),
  label: z.string(),
});
export type GroupRef = z.infer<typeof GroupRefSchema>;

export const GateVerdictSchema = z.object({
  gate: GateSchema,
  /** The group the gate was checked on. */
  target: GroupRefSchema,
  /** What was compared with the threshold: the value, the delta or the ratio; null when missing. */
  value: z.number().nullable(),
  baseline: z.number().nullable(),
  current: z.number().nullable(),
  /** 95% interval of the delta or ratio (null for absolute gates). */
  ci: IntervalSchema.nullable(),
  significant: z.boolean().nullable(),
  passed: z.boolean(),
  /** One line: `citation_recall delta >= -0.02 failed for set accurate/stream: -0.081 [-0.12, -0.04] significant`. */
  reason: z.string(),
  /** The questions that pulled a failed score or rate gate down, worst first (at most 5). */
  questions: z.array(z.string()),
});
export type GateVerdict = z.infer<typeof GateVerdictSchema>;

/**
 * @module records/generator-health
 * generator.json of a load run: how well the generator itself kept its schedule (metrics.md
 * "generator health"). When it fell behind, the load reports say so first: their figures then
 * describe the generator as much as the service.
 */
import { z } from 'zod';

const Lag = z.number().nullable();

/** generator.json: how well the generator kept its schedule (metrics.md "generator health"). */
export const GeneratorHealthSchema = z.object({
  planned_arrivals: z.number().int(),
  sent: z.number().int(),
  /** Arrivals not sent because max_in_flight requests were in flight. */
  dropped: z.array(z.object({ scheduled_offset_ms: z.number() })),
  /** Arrivals never offered because the run stopped first (additive to the seam). */
  unsent: z.number().int(),
  /** Arrivals that waited for a connection (--connections) before being sent; additive. */
  queued: z.number().int().optional(),
  /** Sends more than 5 ms behind their schedule (those that waited for a connection included). */
  late_sends: z.number().int(),
  /** Send − scheduled over the arrivals sent at their time (the generator's own lag); null in the closed model. */
  schedule_lag_ms: z.object({ p50: Lag, p99: Lag, max: Lag }),
  peak_in_flight: z.number().int(),
  cpu_user_ms: z.number().nullable(),
  cpu_system_ms: z.number().nullable(),
  interrupted: z.boolean(),
  /** Wall-clock ISO time of the schedule's zero. */
  started_at: z.string(),
  /** --start-at: how late this process began its schedule; 0 when on time or not given. */
  start_delay_ms: z.number(),
  /** Planned length of the schedule, ms (null when only a request count bounds it); additive. */
  schedule_ms: z.number().nullable(),
  /** From the schedule's zero to the last record, ms; additive. */
  duration_ms: z.number(),
});
export type GeneratorHealth = z.infer<typeof GeneratorHealthSchema>;

/**
 * @module records/generator-health
 * generator.json of a load run: how well the generator itself kept its schedule (docs/reference/metrics.md
 * "generator health"). When it fell behind, the load reports say so first: their figures then
 * describe the generator as much as the service.
 */
import { z } from 'zod';
import { HealthProbeRunSchema } from './health-probe.js';

const Lag = z.number().nullable();

/**
 * The generator's own event-loop delay from the first send to the last byte (runner/loop-delay, a
 * 5 ms tick): how late a callback that should have run at once could have been. Every timestamp
 * chatbench takes is taken in such a callback, so this is the uncertainty of its timings.
 * Milliseconds. p50 and p99: how late the tick ran beyond its 5 ms (monitorEventLoopDelay's measure;
 * a 2 ms tick before session 39). max: the longest the loop was held, read from above (the loop's
 * busy time between two ticks, or a tick's lateness): at least the longest pause and at most 5 ms
 * more, but for a wait for a core while the loop was idle, which shows as at least that wait less
 * 5 ms (the 2 ms tick read every pause P as at least P − 2).
 */
export const LoopDelaySchema = z.object({ p50: z.number(), p99: z.number(), max: z.number() });
export type LoopDelay = z.infer<typeof LoopDelaySchema>;

/** Over this event-loop delay (max), the reports warn that timings may be late. */
export const LOOP_DELAY_WARN_MS = 5;

/**
 * generator.json of an eval run: the generator's own health while it timed the requests.
 * (A load run's generator.json is GeneratorHealthSchema; both carry `loop_delay_ms`.)
 */
export const EvalGeneratorSchema = z.object({
  /** Null when the run sent nothing. */
  loop_delay_ms: LoopDelaySchema.nullable(),
  /** Connections opened before the first send (the first wave does not pay for connecting). */
  connections_opened: z.number().int(),
  /** Time spent warming the decoder, the scorer and the HTTP parser on a synthetic stream. */
  warm_up_ms: z.number(),
});
export type EvalGenerator = z.infer<typeof EvalGeneratorSchema>;

/** What the summary of any run reads from generator.json: the loop delay, whichever command wrote it. */
export const GeneratorLoopDelaySchema = z.looseObject({ loop_delay_ms: LoopDelaySchema.nullable().optional() });

/** generator.json: how well the generator kept its schedule (docs/reference/metrics.md "generator health"). */
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
  /** The generator's event-loop delay from the first send to the last byte; additive. */
  loop_delay_ms: LoopDelaySchema.nullable().optional(),
  /** Connections opened before the first send; additive. */
  connections_opened: z.number().int().optional(),
  /** Warming the decoder, scorer and HTTP parser on a synthetic stream before the run, ms; additive. */
  warm_up_ms: z.number().optional(),
  /**
   * `load --conversations`: conversations started (an arrival or a user's iteration each) and the
   * turns recorded `skipped` (not sent: an earlier turn failed, or the schedule ended); additive.
   */
  conversations: z.object({ started: z.number().int(), skipped_turns: z.number().int() }).nullable().optional(),
  /** `--health-probe`: every probe, sent by the parent process off the requests' path; additive. */
  health_probe: HealthProbeRunSchema.nullable().optional(),
});
export type GeneratorHealth = z.infer<typeof GeneratorHealthSchema>;

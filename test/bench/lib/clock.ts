/**
 * @module bench/lib/clock
 * One time axis for two processes. Each process's `performance.now()` counts from its own start, so
 * both sides stamp with `timeOrigin + now()` (milliseconds since the epoch, monotonic within the
 * process, sub-microsecond resolution at today's epoch values). The two origins are read from the
 * wall clock at different moments, so a residual offset is measured over IPC the NTP way: the
 * sample with the shortest round trip bounds the offset to ± half that round trip.
 */

/** Epoch milliseconds from the monotonic clock: comparable across processes up to a small offset. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/** One ping: this process's send and receive times, and the other process's time in between. */
export interface ClockSample {
  readonly sentAt: number;
  readonly remoteAt: number;
  readonly receivedAt: number;
}

export interface ClockOffset {
  /** Remote clock minus local clock, ms: subtract it from a remote time to put it on the local axis. */
  readonly offset_ms: number;
  /** Half the shortest round trip: the offset is right within ± this. */
  readonly uncertainty_ms: number;
  readonly samples: number;
}

/**
 * The offset from the sample with the shortest round trip (the least queueing on either side).
 * Throws on no samples, or a sample whose reply came before its request (a broken clock).
 */
export function estimateOffset(samples: readonly ClockSample[]): ClockOffset {
  let best: ClockSample | undefined;
  for (const sample of samples) {
    if (sample.receivedAt < sample.sentAt) throw new Error('clock sample received before it was sent');
    if (best === undefined || sample.receivedAt - sample.sentAt < best.receivedAt - best.sentAt) best = sample;
  }
  if (best === undefined) throw new Error('no clock samples');
  const rtt = best.receivedAt - best.sentAt;
  return {
    offset_ms: best.remoteAt - (best.sentAt + best.receivedAt) / 2,
    uncertainty_ms: rtt / 2,
    samples: samples.length,
  };
}

/** Types of gaps.mjs (plain JavaScript, loaded by `node --import` into the CLI). */
export interface Gap {
  /** The gap's start, ms on the tick clock. */
  readonly at: number;
  readonly wall: number;
  /** The thread's own CPU in the gap, ms. */
  readonly cpu: number;
  /** Its wait on a run queue in the gap, ms. */
  readonly wait: number;
}
export declare function parseSchedstat(bytes: Uint8Array, length: number): { cpuMs: number; waitMs: number } | null;
export declare function createGapRecorder(
  thresholds: { cpuMs: number; wallMs: number },
  keep: (gap: Gap) => void,
): { tick(t: number, cpu: number, wait: number): void };

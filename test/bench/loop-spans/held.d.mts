/** Types of held.mjs (plain JavaScript, loaded by `node --import` into the CLI). */
export interface Snapshot {
  /** On the tick clock, ms. */
  readonly t: number;
  /** The machine's busy time, ms. */
  readonly machineMs: number;
  /** Each group's CPU, ms, in the order of GROUPS. */
  readonly groups: readonly number[];
}
export declare const GROUPS: readonly string[];
export declare function parseStatBusy(bytes: Uint8Array, length: number): number | null;
export declare function heldBetween(
  before: Snapshot,
  after: Snapshot,
): { span: number; groups: number[]; other: number };
export declare function ownGroup(tid: number, pid: number, atStart: readonly number[], poolSize: number): number;

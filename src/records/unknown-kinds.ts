/**
 * @module records/unknown-kinds
 * What a record says of packet kinds chatbench does not know (`unknown_part_kinds`), for the
 * unknown-protocol alarm (metrics/protocol-alarm.ts) and the run's verdict (runner/verdict.ts): a
 * service newer than the newest release chatbench reads may carry its answer in such packets.
 */
import { NEWEST_ONYX_RELEASE } from '../api/index.js';

/** What the alarm reads of a record. */
export interface ProtocolFields {
  readonly outcome: string;
  readonly ttft_ms: number | null;
  readonly unknown_part_kinds?: Readonly<Record<string, number>> | undefined;
}

/** A request the alarm is about: unknown kinds seen, and no answer text (or no TTFT) came of it. */
export function silencedByUnknownKinds(r: ProtocolFields): boolean {
  if (r.unknown_part_kinds === undefined || Object.keys(r.unknown_part_kinds).length === 0) return false;
  return r.outcome === 'empty_answer' || r.ttft_ms === null;
}

/** "pydantic_ai ×120, answer_metadata ×10": most frequent first, then by name. */
export function describeKinds(kinds: Readonly<Record<string, number>>): string {
  return Object.entries(kinds)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([kind, n]) => `${kind} ×${n}`)
    .join(', ');
}

/** The hint of a run whose every answer was silenced so: what the service may be. */
export const NEWER_SERVICE_HINT = `the service may be newer than Onyx ${NEWEST_ONYX_RELEASE}, the newest release chatbench reads: it sends its answer in packets chatbench does not know (see docs/releases.md)`;

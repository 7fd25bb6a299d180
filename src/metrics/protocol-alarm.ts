/**
 * @module metrics/protocol-alarm
 * The unknown-protocol alarm: a service newer than the newest release chatbench reads may carry its
 * answer in packets chatbench does not know, and every answer would then read as empty, silently.
 * When a request saw unknown packet kinds and its answer came out empty (or without a time to the
 * first token), the run's reports open with one line naming the kinds and their counts. Pure.
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
export const NEWER_SERVICE_HINT = `the service may be newer than Onyx ${NEWEST_ONYX_RELEASE}, the newest release chatbench reads: it sends its answer in packets chatbench does not know (see the README's "Onyx releases")`;

/** Counts the unknown kinds of the silenced requests of a run, record by record. */
export function createProtocolTally() {
  const kinds: Record<string, number> = {};
  let requests = 0;
  let silenced = 0;
  return {
    add(r: ProtocolFields): void {
      requests += 1;
      if (!silencedByUnknownKinds(r)) return;
      silenced += 1;
      for (const [kind, n] of Object.entries(r.unknown_part_kinds ?? {})) kinds[kind] = (kinds[kind] ?? 0) + n;
    },
    /** The banner line, or null when no request was silenced by unknown kinds. */
    line(): string | null {
      if (silenced === 0) return null;
      return `Unknown packet kinds (${describeKinds(kinds)}) and ${silenced} of ${requests} answers came out empty or without a time to the first token: ${NEWER_SERVICE_HINT}.`;
    },
  };
}

/** The banner line for a finished set of records (null when the alarm does not sound). */
export function protocolAlarm(records: Iterable<ProtocolFields>): string | null {
  const tally = createProtocolTally();
  for (const r of records) tally.add(r);
  return tally.line();
}

/**
 * @module metrics/protocol-alarm
 * The unknown-protocol alarm: a service newer than the newest release chatbench reads may carry its
 * answer in packets chatbench does not know, and every answer would then read as empty, silently.
 * When a request saw unknown packet kinds and its answer came out empty (or without a time to the
 * first token), the run's reports open with one line naming the kinds and their counts. Pure.
 */
import {
  describeKinds,
  NEWER_SERVICE_HINT,
  silencedByUnknownKinds,
  type ProtocolFields,
} from '../records/unknown-kinds.js';

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

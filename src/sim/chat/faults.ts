/**
 * @module sim/chat/faults
 * Which fault, if any, a request gets: a trigger matching the message forces one; otherwise each
 * configured rate is a chance, drawn from the request's own fault Rng so that adding a fault rate
 * does not change the content of answers. At most one fault per request.
 */
import type { Rng } from '../rng.js';
import { FAULT_KINDS, triggerMatcher, type ChatConfig, type FaultKind } from './config.js';

/** The fault chosen for one request. */
export interface FaultChoice {
  kind: FaultKind;
  /** The streaming error's code (streaming_error only). */
  errorCode: string;
  /** Which model fails in multi-model mode (streaming_error only); undefined = chosen by the seed. */
  modelIndex: number | undefined;
}

/** Builds the per-request chooser once from the config. */
export function createFaultPicker(faults: ChatConfig['faults']): (message: string, rng: Rng) => FaultChoice | null {
  const triggers = faults.triggers.map((t) => ({ ...t, test: triggerMatcher(t.match) }));
  const rates = FAULT_KINDS.map((kind) => [kind, faults.rates[kind] ?? 0] as const).filter(([, p]) => p > 0);
  return (message, rng) => {
    const trigger = triggers.find((t) => t.test(message));
    if (trigger !== undefined) {
      return { kind: trigger.fault, errorCode: trigger.error_code ?? 'MODEL_ERROR', modelIndex: trigger.model_index };
    }
    if (rates.length === 0) return null;
    let u = rng.next();
    for (const [kind, p] of rates) {
      if (u < p) return { kind, errorCode: 'MODEL_ERROR', modelIndex: undefined };
      u -= p;
    }
    return null;
  };
}

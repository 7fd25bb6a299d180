/**
 * @module runner/warm-up
 * What a run does before its first timed send, so that the first wave is timed within the same
 * error as the rest (docs/reference/metrics.md milestones are taken in callbacks; a cold process runs them late):
 * the client's hot path warmed on synthetic exchanges (client/warm-up: HTTP parser, decoder, fold,
 * schemas), the caller's scorer warmed on their records, and the connections opened ahead.
 */
import { warmUpClient, type RunWarmUp } from '../client/warm-up.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { toRecord } from './to-record.js';
import type { UnscoredRecord } from './unscored-record.js';

export interface WarmUpOptions {
  /** Opens connections to the target ahead (ChatClient / LoadTarget `preconnect`). */
  readonly preconnect: (count: number) => Promise<number>;
  /** How many: the connections the first wave will use. */
  readonly connections: number;
  /** A request of the plan, whose identity the synthetic records borrow (never sent). */
  readonly sample?: PlannedRequest | undefined;
  /** Receives each synthetic record, to warm what the run does with records (scoring); must not write it. */
  readonly score?: ((record: UnscoredRecord) => void) | undefined;
  /** A load run's mode and size, for its own warm-up (client/warm-up runRounds); eval gives none. */
  readonly run?: RunWarmUp | undefined;
  readonly now?: () => number;
}

export interface WarmUpResult {
  readonly connections_opened: number;
  readonly warm_up_ms: number;
}

/** Warms everything up and opens the connections; never rejects. */
export async function warmUp(options: WarmUpOptions): Promise<WarmUpResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const [warm, opened] = await Promise.all([
    warmUpClient({ run: options.run }),
    options.preconnect(options.connections).catch(() => 0),
  ]);
  const { sample, score } = options;
  if (sample !== undefined && score !== undefined) {
    // As many records as the warm-up made exchanges (a load run's own rounds keep only a few):
    // the record's steps are compiled by repetition, as the client's were.
    const made = warm.exchanges.length === 0 ? 0 : warm.rehearsals;
    for (let i = 0; i < made; i++) {
      const exchange = warm.exchanges[i % warm.exchanges.length]!;
      score(
        toRecord(
          sample,
          exchange,
          [
            {
              attempt: 1,
              outcome: exchange.outcome,
              http_status: exchange.http_status,
              error_code: exchange.error_code,
              retry_after_s: null,
              total_ms: exchange.total_ms,
            },
          ],
          exchange.sent,
        ),
      );
    }
  }
  return { connections_opened: opened, warm_up_ms: Math.round((now() - started) * 1000) / 1000 };
}

import { describe, expect, it } from 'vitest';
import { runRounds, WARM_FOR_REQUESTS, warmUpClient } from '../client/warm-up.js';
import { plannedRequest } from './testing/fake-client.js';
import { warmUp } from './warm-up.js';
import type { UnscoredRecord } from './unscored-record.js';

describe('warmUp', () => {
  it("makes a record of every exchange the warm-up made, a load run's own rounds included, and opens the connections", async () => {
    const run = { mode: 'full' as const, requests: WARM_FOR_REQUESTS / 20 };
    const { inProcess, loopback } = runRounds(run);
    const records: UnscoredRecord[] = [];
    const asked: number[] = [];
    const result = await warmUp({
      preconnect: async (n) => (asked.push(n), n),
      connections: 3,
      sample: plannedRequest(0),
      score: (record) => records.push(record),
      run,
    });
    expect(asked).toEqual([3]);
    expect(result.connections_opened).toBe(3);
    // The process's warm-up (another test may have run it first), then the run's own: a record of each exchange.
    const warm = await warmUpClient({ run });
    expect(records).toHaveLength(warm.rehearsals);
    expect(warm.rehearsals).toBeGreaterThanOrEqual(inProcess + loopback + 1);
    expect(records.every((r) => r.outcome === 'ok' && r.question_id === plannedRequest(0).question_id)).toBe(true);
    expect(records.filter((r) => r.top_document_ids.length === 10).length).toBeGreaterThan(0);
  });
});

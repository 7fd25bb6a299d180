import { describe, expect, it } from 'vitest';
import { createStreamDecoder } from './wire/index.js';
import {
  longFullResponse,
  longStreamLines,
  runRounds,
  syntheticFullResponse,
  syntheticStreamLines,
  WARM_FOR_REQUESTS,
  warmUpClient,
} from './warm-up.js';
import { createCollector } from './collect.js';
import { fullResponseFigures } from './full-response.js';
import { decodeDeltaLine } from './wire/delta-line.js';

describe('the warm-up', () => {
  it('uses a stream and a full answer the decoder and the schemas accept whole', () => {
    const decoder = createStreamDecoder();
    const parts = [
      ...decoder.push(
        Buffer.from(
          syntheticStreamLines()
            .map((l) => `${l}\n`)
            .join(''),
        ),
      ),
      ...decoder.end(),
    ];
    expect(parts).toHaveLength(syntheticStreamLines().length);
    expect(parts.filter((p) => p.kind === 'decode_error')).toEqual([]);
    const full = fullResponseFigures(syntheticFullResponse(), 1);
    expect(full.outcome).toBe('ok');
    expect(full.cited_document_ids).toEqual(['warm-up-doc']);
  });

  it("writes the stream as the service's json.dumps does, so its answer deltas take the decoder's fast path", () => {
    const deltas = syntheticStreamLines().filter((line) => line.includes('"message_delta"'));
    expect(deltas.length).toBeGreaterThan(5);
    for (const line of deltas) expect(decodeDeltaLine(line)).toEqual(JSON.parse(line));
    expect(syntheticStreamLines()[0]).toBe(
      '{"chat_session_id": "00000000-0000-4000-8000-000000000000", "incognito": false}',
    );
  });

  it('folds its long in-process stream to an ok answer with ten documents, every part decoded by hand', () => {
    const decoder = createStreamDecoder();
    const collector = createCollector({ sent: 0 });
    const lines = longStreamLines();
    for (const [i, line] of lines.entries())
      for (const part of decoder.push(Buffer.from(`${line}\n`))) collector.onPart(part, i);
    const figures = collector.finish(lines.length);
    expect(figures.outcome).toBe('ok');
    expect(figures.parts).toBe(lines.length);
    expect(figures.answer_deltas).toBeGreaterThan(100);
    expect(figures.top_document_ids).toHaveLength(10);
    expect(figures.decode_errors).toBe(0);
  });

  it('runs every exchange through the real client to an ok end, once per process', async () => {
    const warm = await warmUpClient({ force: true, rounds: 8, inProcessRounds: 20 });
    expect(warm.exchanges).toHaveLength(8);
    expect(warm.rehearsals).toBe(8);
    for (const e of warm.exchanges) {
      expect(e.outcome).toBe('ok');
      expect(e.answer).toContain('The synthetic answer');
      expect(e.cited_document_ids).toEqual(['warm-up-doc']);
    }
    expect(await warmUpClient()).toBe(warm);
  });

  it("folds its long full answer as a search's: ten documents, a tool call, two citations", () => {
    const figures = fullResponseFigures(longFullResponse(), 1);
    expect(figures.outcome).toBe('ok');
    expect(figures.top_document_ids).toHaveLength(10);
    expect(figures.cited_document_ids).toEqual(['warm-up-doc-0', 'warm-up-doc-1']);
    expect(figures.citations).toHaveLength(2);
    expect(figures.markers_without_citation).toEqual([]);
    expect(figures.tools_used).toEqual(['internal_search']);
  });

  it("sizes a load run's own warm-up by its mode and its planned requests, never past the whole", () => {
    expect(runRounds(undefined)).toEqual({ inProcess: 0, loopback: 0 });
    expect(runRounds({ mode: 'full', requests: 0 })).toEqual({ inProcess: 0, loopback: 0 });
    const whole = runRounds({ mode: 'full', requests: WARM_FOR_REQUESTS });
    expect(whole.inProcess).toBeGreaterThan(whole.loopback);
    expect(runRounds({ mode: 'full', requests: WARM_FOR_REQUESTS * 50 })).toEqual(whole);
    const half = runRounds({ mode: 'full', requests: WARM_FOR_REQUESTS / 2 });
    expect(half).toEqual({ inProcess: whole.inProcess / 2, loopback: whole.loopback / 2 });
    // A stream's per-part path has its own in-process rounds: a streamed run adds loopback ones only.
    expect(runRounds({ mode: 'stream', requests: WARM_FOR_REQUESTS })).toEqual({
      inProcess: 0,
      loopback: whole.loopback,
    });
  });

  it.each(['full', 'stream'] as const)(
    "runs a %s load run's own rounds through the real client, long answers of the run's mode, every one ok",
    async (mode) => {
      const requests = Math.round(WARM_FOR_REQUESTS / 40);
      const { inProcess, loopback } = runRounds({ mode, requests });
      expect(loopback).toBeGreaterThan(0);
      const warm = await warmUpClient({ force: true, rounds: 4, inProcessRounds: 2, run: { mode, requests } });
      // Records are made of them as often as exchanges were, but only the last batch and answer are kept.
      expect(warm.rehearsals).toBe(inProcess + 4 + loopback);
      expect(warm.exchanges).toHaveLength(4 + Math.min(16, loopback) + (inProcess > 0 ? 1 : 0));
      for (const e of warm.exchanges) expect(e.outcome).toBe('ok');
      const long = warm.exchanges.filter((e) => e.top_document_ids.length === 10);
      expect(long).toHaveLength(warm.exchanges.length - 4);
      for (const e of long) {
        expect(e.cited_document_ids.length).toBeGreaterThan(0);
        // A stream's parts are counted; a full answer has none.
        expect(e.parts > 0).toBe(mode === 'stream');
      }
    },
  );

  it("runs a load run's own rounds after the process's first warm-up, and again only for a larger run of that mode", async () => {
    const first = await warmUpClient({ force: true, rounds: 4, inProcessRounds: 2 });
    expect(first.rehearsals).toBe(4);
    const small = { mode: 'stream' as const, requests: 50 };
    const run = await warmUpClient({ run: small });
    expect(run.rehearsals).toBe(4 + runRounds(small).loopback);
    expect(run.exchanges.slice(0, 4)).toEqual(first.exchanges);
    // A smaller run of the same mode is warm already; a larger one, or another mode, runs its own.
    expect(warmUpClient({ run: { mode: 'stream', requests: 20 } })).toBe(warmUpClient({ run: small }));
    const larger = await warmUpClient({ run: { mode: 'stream', requests: 100 } });
    expect(larger.rehearsals).toBe(4 + runRounds({ mode: 'stream', requests: 100 }).loopback);
    const full = await warmUpClient({ run: { mode: 'full', requests: 50 } });
    expect(full.rehearsals).toBe(4 + runRounds({ mode: 'full', requests: 50 }).inProcess + runRounds(small).loopback);
    expect(await warmUpClient()).toBe(first);
  });
});

import { describe, expect, it } from 'vitest';
import { createStreamDecoder } from './wire/index.js';
import { longStreamLines, syntheticFullResponse, syntheticStreamLines, warmUpClient } from './warm-up.js';
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
    for (const e of warm.exchanges) {
      expect(e.outcome).toBe('ok');
      expect(e.answer).toContain('The synthetic answer');
      expect(e.cited_document_ids).toEqual(['warm-up-doc']);
    }
    expect(await warmUpClient()).toBe(warm);
  });
});

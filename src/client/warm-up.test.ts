import { describe, expect, it } from 'vitest';
import { createStreamDecoder } from './wire/index.js';
import { syntheticFullResponse, syntheticStreamLines, warmUpClient } from './warm-up.js';
import { fullResponseFigures } from './full-response.js';

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

  it('runs every exchange through the real client to an ok end, once per process', async () => {
    const warm = await warmUpClient({ force: true, rounds: 8 });
    expect(warm.exchanges).toHaveLength(8);
    for (const e of warm.exchanges) {
      expect(e.outcome).toBe('ok');
      expect(e.answer).toContain('The synthetic answer');
      expect(e.cited_document_ids).toEqual(['warm-up-doc']);
    }
    expect(await warmUpClient()).toBe(warm);
  });
});

import { expect, it } from 'vitest';
import { CONVERSATION_UNITS_MARK, manifestChunks, QUESTION_IDS_MARK } from './manifest-text.js';

const whole = (manifest: object) => `${JSON.stringify(manifest, null, 2)}\n`;
const ids = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `q"${i}\\\u00e9\n` : `q${i}`));

it.each([
  ['ids and units', ids, [['a', 'b'], [], ['c']]],
  ['no ids, no units', [], []],
  ['ids, no units member', ids.slice(0, 3), undefined],
])('writes the same bytes as JSON.stringify(…, null, 2) with the lists in place: %s', (_, list, units) => {
  const manifest = (ids: unknown, conversation: unknown) => ({
    command: 'load',
    dataset: { path: 'q.csv', questions: list.length },
    question_ids: ids,
    ...(conversation === undefined ? {} : { conversation_units: conversation }),
    options: { gates: [], slos: ['p95(ttft_ms) < 2000'] },
  });
  const text = [
    ...manifestChunks(manifest(QUESTION_IDS_MARK, units === undefined ? undefined : CONVERSATION_UNITS_MARK), {
      question_ids: () => list,
      conversation_units: () => units ?? [],
    }),
  ].join('');
  expect(text).toBe(whole(manifest(list, units)));
});

it('hands a long list on in pieces, never as one string', () => {
  const chunks = [...manifestChunks({ question_ids: QUESTION_IDS_MARK }, { question_ids: () => ids })];
  expect(chunks.length).toBeGreaterThan(2);
  expect(chunks.join('')).toBe(whole({ question_ids: ids }));
});

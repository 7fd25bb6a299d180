import { describe, expect, it } from 'vitest';
import { bannerLines } from './banner.js';
import { protocolAlarm } from './protocol-alarm.js';

const ok = { outcome: 'ok', ttft_ms: 120 };
const silenced = {
  outcome: 'empty_answer',
  ttft_ms: null,
  unknown_part_kinds: { pydantic_ai: 12, answer_metadata: 1 },
};

describe('the unknown-protocol alarm', () => {
  it.each([
    { what: 'no records', records: [], want: null },
    { what: 'every answer fine', records: [ok, ok], want: null },
    {
      what: 'unknown kinds but the answer came through',
      records: [{ ...ok, unknown_part_kinds: { operation_status: 2 } }],
      want: null,
    },
    {
      what: 'an empty answer without unknown kinds',
      records: [{ outcome: 'empty_answer', ttft_ms: null }],
      want: null,
    },
  ])('is silent: $what', ({ records, want }) => expect(protocolAlarm(records)).toBe(want));

  it('names the kinds, most frequent first, and how many answers came out empty', () => {
    expect(
      protocolAlarm([silenced, ok, { ...silenced, unknown_part_kinds: { pydantic_ai: 3, operation_status: 1 } }]),
    ).toBe(
      'Unknown packet kinds (pydantic_ai ×15, answer_metadata ×1, operation_status ×1) and 2 of 3 answers came out empty or without a time to the first token: ' +
        'the service may be newer than Onyx 4.8, the newest release chatbench reads: it sends its answer in packets chatbench does not know (see docs/releases.md).',
    );
  });

  it('counts an ok answer without TTFT too, and opens the banner lines', () => {
    const line = protocolAlarm([{ outcome: 'ok', ttft_ms: null, unknown_part_kinds: { agent_text: 4 } }]);
    expect(line).toMatch(/^Unknown packet kinds \(agent_text ×4\) and 1 of 1 answers/);
    expect(bannerLines(2, { ok: 1, empty_answer: 1 }, null, line)[0]).toBe(line);
  });
});

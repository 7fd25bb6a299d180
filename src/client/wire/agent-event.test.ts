import { describe, expect, it } from 'vitest';
import { agentEventText } from './agent-event.js';

const top = { sub_turn_index: null };
const start = (part_kind: string, content: unknown) => ({
  event_kind: 'part_start',
  index: 0,
  part: { part_kind, content },
});
const delta = (part_delta_kind: string, content_delta: unknown) => ({
  event_kind: 'part_delta',
  index: 0,
  delta: { part_delta_kind, content_delta },
});

describe('agentEventText', () => {
  it.each([
    {
      what: 'a text part_start is answer',
      obj: { event: start('text', 'Hello'), phase: 'chat' },
      want: { kind: 'answer', text: 'Hello' },
    },
    {
      what: 'a text part_delta is answer',
      obj: { event: delta('text', ' world'), phase: 'chat' },
      want: { kind: 'answer', text: ' world' },
    },
    { what: 'no phase is chat', obj: { event: delta('text', 'x') }, want: { kind: 'answer', text: 'x' } },
    {
      what: 'the report phase is answer',
      obj: { event: delta('text', 'r'), phase: 'report' },
      want: { kind: 'answer', text: 'r' },
    },
    {
      what: 'the clarification phase is answer',
      obj: { event: start('text', '?'), phase: 'clarification' },
      want: { kind: 'answer', text: '?' },
    },
    {
      what: 'a thinking part is reasoning',
      obj: { event: start('thinking', 'Let me see'), phase: 'chat' },
      want: { kind: 'reasoning', text: 'Let me see' },
    },
    {
      what: 'a thinking delta is reasoning',
      obj: { event: delta('thinking', '...'), phase: 'chat' },
      want: { kind: 'reasoning', text: '...' },
    },
    {
      what: 'the plan phase is reasoning',
      obj: { event: delta('text', '1. search'), phase: 'plan' },
      want: { kind: 'reasoning', text: '1. search' },
    },
    {
      what: 'the research phase is reasoning',
      obj: { event: delta('text', 'notes'), phase: 'research' },
      want: { kind: 'reasoning', text: 'notes' },
    },
    {
      what: 'part_end repeats the part: nothing',
      obj: { event: { event_kind: 'part_end', index: 0, part: { part_kind: 'text', content: 'Hello world' } } },
      want: undefined,
    },
    { what: 'an empty delta: nothing', obj: { event: delta('text', '') }, want: undefined },
    { what: 'a tool call part: nothing', obj: { event: start('tool-call', 'x') }, want: undefined },
    {
      what: 'a function tool event: nothing',
      obj: { event: { event_kind: 'function_tool_call', part: {} } },
      want: undefined,
    },
    { what: 'a malformed event: nothing', obj: { event: 'text' }, want: undefined },
    { what: 'a non-string content: nothing', obj: { event: delta('text', 7) }, want: undefined },
  ])('$what', ({ obj, want }) => expect(agentEventText(obj, top)).toEqual(want));

  it('text inside a sub-turn (a research agent) is reasoning, not answer', () => {
    expect(agentEventText({ event: delta('text', 'agent'), phase: 'chat' }, { sub_turn_index: 0 })).toEqual({
      kind: 'reasoning',
      text: 'agent',
    });
  });
});

/**
 * The mock LLM's tool-choice contract: each case replays a request shape the service's LLM loops
 * send (backend/onyx/chat/llm_loop.py, deep_research/dr_loop.py) and checks the mock answers so
 * that the loop makes progress, as the service's own kit checks its mock (loadtest/tests/test_mock_llm.py).
 */
import { describe, expect, it } from 'vitest';
import { LlmRequestSchema, type LlmRequest } from '../../api/llm.js';
import { DEFAULT_KNOBS, knobsOf } from './knobs.js';
import { planReply, streamOf } from './reply.js';

const tool = (name: string, properties: Record<string, { type: string }> = {}, required?: string[]) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties, ...(required ? { required } : {}) } },
});
const SEARCH = tool('internal_search', { queries: { type: 'array' } }, ['queries']);
const WEB = tool('web_search', { queries: { type: 'array' } }, ['queries']);
const OPEN_URL = tool('open_url', { urls: { type: 'array' } }, ['urls']);
const AGENT = tool('research_agent', { task: { type: 'string' } }, ['task']);
const REPORT = tool('generate_report');
const PLAN = tool('generate_plan');
const THINK = tool('think_tool', { reasoning: { type: 'string' } }, ['reasoning']);
const calledBefore = (name: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_prev_1', type: 'function', function: { name, arguments: '{}' } }],
});
const USER = { role: 'user', content: 'load test question' };

const request = (fields: Record<string, unknown>): LlmRequest =>
  LlmRequestSchema.parse({ model: 'mock-ttft0-itl0-len20', messages: [USER], ...fields });
const reply = (fields: Record<string, unknown>) => {
  const req = request(fields);
  return planReply(req, knobsOf(req.model), (i) => `call_${i}`);
};
const names = (fields: Record<string, unknown>) => {
  const r = reply(fields);
  return r.kind === 'tools' ? r.calls.map((c) => c.function.name) : r.kind;
};

describe('model-name knobs', () => {
  it("reads the kit's knobs over the defaults; a name without knobs keeps them", () => {
    expect(knobsOf('mock-ttft500-itl20-len400-tools1')).toEqual({
      ...DEFAULT_KNOBS,
      ttftMs: 500,
      itlMs: 20,
      tokens: 400,
      autoTools: 1,
    });
    expect(knobsOf('mock-agents0-maxctx16000')).toEqual({ ...DEFAULT_KNOBS, agents: 1, maxContextTokens: 16000 });
    expect(knobsOf('gpt-4o', { ...DEFAULT_KNOBS, ttftMs: 7 })).toEqual({ ...DEFAULT_KNOBS, ttftMs: 7 });
  });
});

describe('tool choice', () => {
  it.each([
    { case: 'no tools: text', fields: {}, want: 'text' },
    {
      case: 'none with tools: text',
      fields: { model: 'mock-tools1', tools: [SEARCH], tool_choice: 'none' },
      want: 'text',
    },
    { case: 'auto without the tools knob: text', fields: { tools: [SEARCH], tool_choice: 'auto' }, want: 'text' },
    {
      case: 'auto with tools1: one search',
      fields: { model: 'mock-tools1', tools: [SEARCH, WEB], tool_choice: 'auto' },
      want: ['internal_search'],
    },
    {
      case: 'tools3: every retrieval tool in parallel',
      fields: { model: 'mock-tools3', tools: [THINK, OPEN_URL, WEB, SEARCH] },
      want: ['internal_search', 'web_search', 'open_url'],
    },
    {
      case: 'tools3 capped by what is offered',
      fields: { model: 'mock-tools3', tools: [SEARCH] },
      want: ['internal_search'],
    },
    {
      case: 'tools knob, no retrieval tool: the first tool',
      fields: { model: 'mock-tools2', tools: [THINK] },
      want: ['think_tool'],
    },
    {
      case: 'auto after a tool result: the answer',
      fields: {
        model: 'mock-tools1',
        tools: [SEARCH],
        messages: [
          USER,
          calledBefore('internal_search'),
          { role: 'tool', tool_call_id: 'call_prev_1', content: 'docs' },
        ],
      },
      want: 'text',
    },
    { case: 'DR clarification always plans', fields: { tools: [PLAN], tool_choice: 'auto' }, want: ['generate_plan'] },
    { case: 'DR plan phase: text', fields: { tool_choice: 'none' }, want: 'text' },
    {
      case: 'DR orchestrator, first cycle: the agents',
      fields: { model: 'mock-agents2', tools: [AGENT, REPORT], tool_choice: 'required' },
      want: ['research_agent', 'research_agent'],
    },
    {
      case: 'DR orchestrator, second cycle: the report',
      fields: { tools: [AGENT, REPORT], tool_choice: 'required', messages: [USER, calledBefore('research_agent')] },
      want: ['generate_report'],
    },
    {
      case: 'research agent: search first',
      fields: { tools: [WEB, SEARCH, REPORT], tool_choice: 'required' },
      want: ['internal_search'],
    },
    {
      case: 'research agent: then the report',
      fields: { tools: [SEARCH, REPORT], tool_choice: 'required', messages: [USER, calledBefore('internal_search')] },
      want: ['generate_report'],
    },
    {
      case: 'required, nothing known: the first tool',
      fields: { tools: [THINK], tool_choice: 'required' },
      want: ['think_tool'],
    },
    {
      case: 'forced function',
      fields: { tools: [SEARCH, WEB], tool_choice: { type: 'function', function: { name: 'web_search' } } },
      want: ['web_search'],
    },
  ])('$case', ({ fields, want }) => expect(names(fields)).toEqual(want));

  it("refuses a forced function that is not offered, naming what is (OpenAI's 400)", () => {
    const r = reply({ tools: [SEARCH], tool_choice: { type: 'function', function: { name: 'nope' } } });
    expect(r).toMatchObject({ kind: 'error', status: 400 });
    expect(r.kind === 'error' && r.body.error.message).toBe(
      `Invalid 'tool_choice': function "nope" is not in 'tools': ["internal_search"]`,
    );
  });

  it('fills arguments from the schema: the question for strings, a one-element list for arrays', () => {
    const r = reply({
      model: 'mock-agents1',
      tools: [AGENT, REPORT],
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'why is the sky blue' }],
    });
    expect(r.kind === 'tools' && JSON.parse(r.calls[0]!.function.arguments)).toEqual({
      task: 'research aspect 1: why is the sky blue',
    });
    const s = reply({
      model: 'mock-tools1',
      tools: [SEARCH],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'pto policy' }] }],
    });
    expect(s.kind === 'tools' && JSON.parse(s.calls[0]!.function.arguments)).toEqual({ queries: ['pto policy'] });
  });
});

describe('text', () => {
  it('answers len tokens of filler, capped by max_tokens; the query-rephrase flow echoes the question', () => {
    const r = reply({ model: 'mock-len7' });
    expect(r.kind === 'text' && r.words.length).toBe(7);
    expect(r.kind === 'text' && r.words.join(' ')).not.toContain('load test question');
    const capped = reply({ model: 'mock-len50', max_tokens: 3 });
    expect(capped.kind === 'text' && capped.words.length).toBe(3);
    const echo = reply({
      messages: [
        { role: 'system', content: 'You are a helper that reformulates the last user message into a query.' },
        { role: 'user', content: 'What is the PTO policy?' },
      ],
    });
    expect(echo.kind === 'text' && echo.words.join(' ')).toBe('What is the PTO policy?');
  });

  it('refuses a prompt over -maxctx as a context-window error; a small one passes', () => {
    const long = reply({ model: 'mock-maxctx10', messages: [{ role: 'user', content: 'x'.repeat(200) }] });
    expect(long).toMatchObject({
      kind: 'error',
      status: 400,
      body: { error: { code: 'context_length_exceeded', type: 'invalid_request_error' } },
    });
    expect(reply({ model: 'mock-maxctx1000' }).kind).toBe('text');
  });

  it('streams a role chunk, one word per itl after the ttft, then the finish one itl later', () => {
    const req = request({ model: 'mock-ttft100-itl10-len3' });
    const knobs = knobsOf(req.model);
    const r = planReply(req, knobs, () => 'x');
    if (r.kind === 'error') throw new Error('no reply');
    const stream = streamOf(r, { id: 'c', model: req.model, created: 0 }, knobs);
    expect(stream.map((c) => c.atMs)).toEqual([100, 100, 110, 120, 130]);
    expect(stream.map((c) => c.chunk.choices[0]!.finish_reason)).toEqual([null, null, null, null, 'stop']);
  });
});

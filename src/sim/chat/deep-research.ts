/**
 * @module sim/chat/deep-research
 * A `deep_research` answer as the service streams it (onyx/deep_research/dr_loop.py and
 * tools/fake_tools/research_agent.py at every listed release):
 *   turn 0: deep_research_plan_start, the plan as deep_research_plan_delta, section_end;
 *   turn 1: top_level_branching (two or more agents), then per research agent (tab i):
 *     research_agent_start {research_task}, its search (sub-turn 0: search_tool_start, queries,
 *     documents, section_end), its report (sub-turn 1: intermediate_report_start,
 *     intermediate_report_delta..., intermediate_report_cited_docs), section_end;
 *   turn 2: the final report: message_start (final_documents = the cited documents,
 *     pre_answer_processing_seconds), message_delta with citation_info, stop.
 * Each agent step takes the profile's `deep_research_step_ms` (seconds to tens of seconds), so an
 * answer takes minutes at time_scale 1: the test of a client's silence limit.
 *
 * Citations are numbered as the service numbers them: per search call in one cycle, agent i's
 * documents from i·100 + 1; a document's `citation_info` goes out only the first time it is cited,
 * so a document both agents found can be cited as [[1]] and later [[102]] with no citation_info for
 * the second marker.
 */
import { PyRaw, dumps, pyFloat } from '../encode/index.js';
import { releaseTraits } from '../releases.js';
import { sampleLogNormal } from '../rng.js';
import type { Answer, AnswerSegment } from './answer.js';
import {
  modelErrorPart,
  type DeepResearchInput,
  type ModelPlanInput,
  type ModelRun,
  type ResearchAgent,
  type TimedPart,
} from './model-run.js';

export type { DeepResearchInput, ResearchAgent } from './model-run.js';
import { packet, type WireDoc, type Where } from './parts.js';

/** Citation numbers of the agents' documents: agent i's k-th document is i·100 + k + 1. */
export function citationNumbers(agents: readonly ResearchAgent[]): Map<number, Map<string, number>> {
  return new Map(
    agents.map((agent, i) => [
      i,
      new Map<string, number>(agent.documents.map((d, k) => [d.document_id as string, i * 100 + k + 1])),
    ]),
  );
}

/**
 * The final report's segments with the service's numbering: the n-th marker cites its document by
 * the number of agent (n mod agents) when that agent found it, else of the first agent that did; a
 * citation_info only before a document's first marker. Returns the cited documents in number order.
 */
export function renumber(
  answer: Answer,
  agents: readonly ResearchAgent[],
): { segments: AnswerSegment[]; cited: WireDoc[] } {
  const numbers = citationNumbers(agents);
  const docOf = new Map(answer.citations.map((c) => [c.citation_number, c.document_id]));
  const byId = new Map(agents.flatMap((a) => a.documents.map((d) => [d.document_id as string, d] as const)));
  const seen = new Set<string>();
  const citedNumbers = new Map<string, number>();
  const segments: AnswerSegment[] = [];
  let markers = 0;
  for (const segment of answer.segments) {
    if (segment.kind === 'citation') continue; // re-emitted below, before the first marker of its document
    const match = segment.marker ? /\[\[(\d+)\]\]\(([^)]*)\)/.exec(segment.text) : null;
    const id = match === null ? undefined : docOf.get(Number(match[1]));
    if (match === null || id === undefined) {
      segments.push(segment);
      continue;
    }
    const preferred = numbers.get(markers % Math.max(1, agents.length))?.get(id);
    const number = preferred ?? [...numbers.values()].map((m) => m.get(id)).find((n) => n !== undefined) ?? markers + 1;
    markers++;
    if (!seen.has(id)) {
      seen.add(id);
      citedNumbers.set(id, number);
      segments.push({ kind: 'citation', citation_number: number, document_id: id });
    }
    segments.push({ kind: 'token', text: ` [[${number}]](${match[2]})`, marker: true });
  }
  const cited = [...citedNumbers].sort((a, b) => a[1] - b[1]).flatMap(([id]) => byId.get(id) ?? []);
  return { segments, cited };
}

/** Lays a deep-research answer out in time. */
export function planDeepResearch(input: ModelPlanInput, dr: DeepResearchInput): ModelRun {
  const { modelIndex, profile, timing, timeScale } = input;
  const traits = input.traits ?? releaseTraits();
  const steps: TimedPart[] = [];
  const push = (ms: number, turn: number, obj: { type: string; [key: string]: unknown }, where?: Where) =>
    steps.push({ at: ms * timeScale, part: packet(turn, modelIndex, obj, traits.placement, where), turn });
  const tokenGap = () => sampleLogNormal(timing, profile.token_ms);
  const step = () => sampleLogNormal(timing, profile.deep_research_step_ms);

  let t = 0;
  push(t, 0, { type: 'deep_research_plan_start' });
  for (const content of dr.plan) {
    t += tokenGap();
    push(t, 0, { type: 'deep_research_plan_delta', content });
  }
  push(t, 0, { type: 'section_end' });
  t += sampleLogNormal(timing, profile.first_token_ms);
  if (dr.agents.length > 1) push(t, 1, { type: 'top_level_branching', num_parallel_branches: dr.agents.length });
  let agentsEnd = t;
  dr.agents.forEach((agent, tab) => {
    let a = t;
    push(a, 1, { type: 'research_agent_start', research_task: agent.task }, { tab });
    push(a, 1, { type: 'search_tool_start', is_internet_search: false }, { tab, subTurn: 0 });
    push(a, 1, { type: 'search_tool_queries_delta', queries: agent.queries }, { tab, subTurn: 0 });
    a += step();
    push(
      a,
      1,
      { type: 'search_tool_documents_delta', documents: new PyRaw(dumps(agent.documents)) },
      { tab, subTurn: 0 },
    );
    push(a, 1, { type: 'section_end' }, { tab, subTurn: 0 });
    a += sampleLogNormal(timing, profile.first_token_ms);
    push(a, 1, { type: 'intermediate_report_start' }, { tab, subTurn: 1 });
    const gap = step() / Math.max(1, agent.report.length);
    for (const content of agent.report) {
      a += gap;
      push(a, 1, { type: 'intermediate_report_delta', content }, { tab, subTurn: 1 });
    }
    push(
      a,
      1,
      { type: 'intermediate_report_cited_docs', cited_docs: new PyRaw(dumps(agent.documents.slice(0, 3))) },
      { tab, subTurn: 1 },
    );
    push(a, 1, { type: 'section_end' }, { tab });
    agentsEnd = Math.max(agentsEnd, a);
  });
  t = agentsEnd + sampleLogNormal(timing, profile.first_token_ms);
  const tokens = dr.plan.length + dr.agents.reduce((sum, a) => sum + a.report.length, 0);
  const failure = input.failure;
  if (failure !== null && (failure.kind ?? 'error') !== 'error') {
    const { part, message } = modelErrorPart(input, failure);
    steps.push({ at: t * timeScale, part, turn: 2 });
    return {
      steps,
      tokens,
      text: '',
      citationless: '',
      citations: [],
      reasoning: null,
      error: message,
      endAt: t * timeScale,
      finalDocuments: [],
    };
  }
  const { segments, cited } = renumber(input.answer, dr.agents);
  const seconds = Math.round(t * timeScale) / 1000;
  const final = new PyRaw(dumps(cited));
  push(
    t,
    2,
    traits.preAnswerSeconds
      ? { type: 'message_start', final_documents: final, pre_answer_processing_seconds: pyFloat(seconds) }
      : { type: 'message_start', final_documents: final },
  );
  const tokenCount = segments.filter((s) => s.kind === 'token').length;
  const cutAt = failure === null ? Infinity : Math.max(1, Math.floor(tokenCount * (0.25 + 0.5 * timing.next())));
  let text = '';
  let citationless = '';
  const citations: Answer['citations'] = [];
  let emitted = 0;
  let advanced = true;
  for (const segment of segments) {
    if (emitted >= cutAt) break;
    if (!advanced) t += tokenGap();
    if (segment.kind === 'citation') {
      push(t, 2, { type: 'citation_info', citation_number: segment.citation_number, document_id: segment.document_id });
      citations.push({ citation_number: segment.citation_number, document_id: segment.document_id });
      advanced = true;
      continue;
    }
    steps.push({ at: t * timeScale, turn: 2, delta: { model: modelIndex, content: segment.text } });
    advanced = false;
    emitted++;
    text += segment.text;
    if (!segment.marker) citationless += segment.text;
  }
  t += tokenGap();
  let error: string | null = null;
  if (failure !== null) {
    const failed = modelErrorPart(input, failure);
    steps.push({ at: t * timeScale, part: failed.part, turn: 2 });
    error = failed.message;
  } else push(t, 2, { type: 'stop', stop_reason: null });
  return {
    steps,
    tokens: tokens + emitted,
    text,
    citationless,
    citations,
    reasoning: null,
    error,
    endAt: t * timeScale,
    finalDocuments: cited,
  };
}

/**
 * @module sim/chat/answer
 * What a simulated model says: the sentences of the retrieved documents that best match the
 * question, each followed by a `[[n]](link)` marker citing its document (numbered in order of first
 * citation, a `citation_info` just before a document's first marker), split into tokens (words and
 * punctuation, each with its leading space). The profile's citation knobs make a weaker model cite
 * a wrong retrieved document or leave a citation out. Below the relevance threshold the model says
 * it found nothing and cites nothing.
 */
import type { Corpus, SearchHit } from '../corpus/index.js';
import { contentTerms } from '../corpus/index.js';
import type { ModelProfile } from '../profiles.js';
import type { Rng } from '../rng.js';

/** One step of the answer: a `message_delta` (a marker is one delta) or a `citation_info`. */
export type AnswerSegment =
  { kind: 'token'; text: string; marker: boolean } | { kind: 'citation'; citation_number: number; document_id: string };

/** A built answer. `text` keeps the markers; `citationless` drops them. */
export interface Answer {
  segments: AnswerSegment[];
  text: string;
  citationless: string;
  citations: Array<{ citation_number: number; document_id: string }>;
  /** False when retrieval found nothing relevant and the model said so. */
  found: boolean;
}

export interface AnswerInput {
  /** Not the first part of the answer: its first word keeps its leading space. */
  continues?: boolean;
  hits: readonly SearchHit[];
  /** Whether the best hit passed the relevance threshold. */
  relevant: boolean;
  /** The question's best-matching sentences (rankSentences). */
  ranked: readonly RankedSentence[];
  organisation: string;
  profile: ModelProfile;
  rng: Rng;
  includeCitations: boolean;
  /** The first citation number (default 1): a second search call of the cycle cites from 101 (tool-answer.ts). */
  firstCitationNumber?: number;
}

/** Documents sentences are drawn from (the best few of the final documents). */
const SOURCE_DOCS = 5;
/** A sentence scoring below this share of the best one is not worth saying. */
const KEEP_RATIO = 0.3;

/** Words and punctuation, each token carrying its leading whitespace; numbers like 14:00 or 2.5 stay whole. */
export function tokenize(text: string): string[] {
  return text.match(/\s*(?:[\p{L}\p{N}_]+(?:['’.,:/-][\p{L}\p{N}_]+)*|\S)/gu) ?? [];
}

/** Builds the answer a model with this profile gives. Draws from `rng` in a fixed order. */
export function buildAnswer(input: AnswerInput): Answer {
  if (!input.relevant || input.hits.length === 0) return notFound(input.organisation);
  const picked = pickSentences(input.ranked, input.profile.answer_sentences);
  if (picked.length === 0) return notFound(input.organisation);
  const segments: AnswerSegment[] = [];
  const numbers = new Map<string, number>();
  picked.forEach((candidate, i) => {
    const { hit } = candidate;
    const { tokens, punct } = tokensOf(candidate);
    tokens.forEach((text, k) =>
      segments.push({
        kind: 'token',
        text: i === 0 && k === 0 && input.continues !== true ? text.trimStart() : text,
        marker: false,
      }),
    );
    const missed = input.rng.chance(input.profile.missed_citation_rate);
    const wrong = input.rng.chance(input.profile.wrong_citation_rate);
    const others = input.hits.filter((h) => h.doc.document_id !== hit.doc.document_id);
    const cited = wrong && others.length > 0 ? (others[input.rng.int(others.length)] ?? hit) : hit;
    if (input.includeCitations && !missed) {
      const id = cited.doc.document_id;
      let number = numbers.get(id);
      if (number === undefined) {
        number = numbers.size + (input.firstCitationNumber ?? 1);
        numbers.set(id, number);
        segments.push({ kind: 'citation', citation_number: number, document_id: id });
      }
      segments.push({ kind: 'token', text: ` [[${number}]](${cited.doc.link})`, marker: true });
    }
    segments.push({ kind: 'token', text: punct, marker: false });
  });
  return finish(segments, true);
}

/** The reasoning a reasoning model streams before answering, as tokens. */
export function buildReasoning(question: string, hits: readonly SearchHit[], found: boolean): string[] {
  const titles = hits.slice(0, 2).map((h) => `"${h.doc.title}"`);
  const lines = [`The user asks: "${question.trim().replace(/\s+/g, ' ')}".`];
  if (hits.length === 0) lines.push('The search returned no documents.');
  else
    lines.push(
      `The search returned ${hits.length} document${hits.length === 1 ? '' : 's'}; the most relevant ${titles.length === 1 ? 'is' : 'are'} ${titles.join(' and ')}.`,
    );
  lines.push(
    found
      ? 'I will answer from the passages that address the question directly and cite each source.'
      : 'None of them addresses the question, so I will say that I found nothing rather than guess.',
  );
  return tokenize(lines.join(' '));
}

function notFound(organisation: string): Answer {
  const text = `I could not find any information about this in the ${organisation} knowledge base.`;
  return finish(
    tokenize(text).map((t) => ({ kind: 'token', text: t, marker: false })),
    false,
  );
}

/** The words the service's kit's mock LLM answers with (loadtest/mock_llm/app.py `_FILLER_WORDS`). */
const FILLER =
  'This is deterministic mock answer content used only for load testing the Onyx application and infrastructure under controlled conditions.'.split(
    ' ',
  );

/**
 * The answer cut or padded to exactly `length` tokens (a mock model's `len` knob): citations stay
 * with the tokens kept; padding is the kit's filler words. Markers count as one token each.
 */
export function fitAnswerLength(answer: Answer, length: number): Answer {
  const segments: AnswerSegment[] = [];
  let count = 0;
  for (const segment of answer.segments) {
    if (segment.kind === 'token') {
      if (count >= length) break;
      count += 1;
    }
    segments.push(segment);
  }
  // A citation_info left without its marker would announce a citation the answer never makes.
  while (segments.at(-1)?.kind === 'citation') segments.pop();
  for (let i = 0; count < length; i++, count++) {
    segments.push({
      kind: 'token',
      text: `${count === 0 ? '' : ' '}${FILLER[i % FILLER.length] ?? ''}`,
      marker: false,
    });
  }
  return finish(segments, answer.found);
}

/** An answer of several parts (searches, tool results) as one; found when any part found something. */
export function joinAnswers(parts: readonly Answer[]): Answer {
  return finish(
    parts.flatMap((p) => p.segments),
    parts.some((p) => p.found),
  );
}

/** Plain sentences (a tool's result) as an answer part: tokens, no citation. */
export function sentenceAnswer(text: string, continues: boolean): Answer {
  const tokens = tokenize(continues ? ` ${text}` : text);
  return finish(
    tokens.map((t) => ({ kind: 'token', text: t, marker: false })),
    true,
  );
}

function finish(segments: AnswerSegment[], found: boolean): Answer {
  let text = '';
  let citationless = '';
  const citations: Answer['citations'] = [];
  for (const segment of segments) {
    if (segment.kind === 'citation')
      citations.push({ citation_number: segment.citation_number, document_id: segment.document_id });
    else {
      text += segment.text;
      if (!segment.marker) citationless += segment.text;
    }
  }
  return { segments, text, citationless, citations, found };
}

/** A sentence of a retrieved document and how well it matches the question. */
export interface RankedSentence {
  sentence: string;
  hit: SearchHit;
  score: number;
  /** Tokens of the sentence without its final punctuation, each with its leading space; filled on first use. */
  tokens?: string[];
  punct?: string;
}

/**
 * The sentence's tokens, computed once and kept on the (cached) ranked sentence, so that every
 * answer using it shares the same strings instead of holding copies while it streams.
 */
function tokensOf(candidate: RankedSentence): { tokens: string[]; punct: string } {
  if (candidate.tokens === undefined || candidate.punct === undefined) {
    const [, body = candidate.sentence, punct = '.'] = /^(.*?)([.!?]+)?$/s.exec(candidate.sentence) ?? [];
    candidate.tokens = tokenize(` ${body}`);
    candidate.punct = punct;
  }
  return { tokens: candidate.tokens, punct: candidate.punct };
}

/** How much more a word of a follow-up's own message weighs than a word of its history. */
const FOCUS_WEIGHT = 3;

/**
 * The sentences of the top documents that match the question, best first: each question word a
 * sentence contains (or, for words of four letters or more, starts a word of) adds its rarity; the
 * total is scaled by how well the sentence's document ranked. Duplicates are dropped. With `focus`
 * (a follow-up's own message, the question being its history and it), the words of the focus
 * weigh three times as much: the answer is about what was asked last.
 */
export function rankSentences(
  question: string,
  hits: readonly SearchHit[],
  corpus: Corpus,
  focus?: string,
): RankedSentence[] {
  const terms = contentTerms(question);
  const focused = new Set(focus === undefined ? [] : contentTerms(focus));
  const top = hits[0]?.score ?? 1;
  const candidates: RankedSentence[] = [];
  const seen = new Set<string>();
  for (const hit of hits.slice(0, SOURCE_DOCS)) {
    const rank = Math.sqrt(hit.score / top);
    for (const { text: sentence, words: present } of corpus.sentencesOf(hit.doc)) {
      if (seen.has(sentence)) continue;
      seen.add(sentence);
      let score = 0;
      for (const term of terms) {
        const match = present.includes(term) || (term.length >= 4 && present.some((w) => w.startsWith(term)));
        if (match) score += corpus.termWeight(term) * (focused.has(term) ? FOCUS_WEIGHT : 1);
      }
      if (score > 0) candidates.push({ sentence, hit, score: score * rank });
    }
  }
  return candidates.sort((a, b) => b.score - a.score);
}

/** At most `max` of the ranked sentences, always the best two, then none far below the best. */
function pickSentences(ranked: readonly RankedSentence[], max: number): RankedSentence[] {
  const best = ranked[0]?.score ?? 0;
  const out: RankedSentence[] = [];
  for (const candidate of ranked) {
    if (out.length >= max || (out.length >= 2 && candidate.score < best * KEEP_RATIO)) break;
    out.push(candidate);
  }
  return out;
}

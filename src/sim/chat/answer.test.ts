import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILES, type ModelProfile } from '../profiles.js';
import { createRng } from '../rng.js';
import { buildAnswer, buildReasoning, tokenize, type AnswerInput } from './answer.js';
import { loadTestCorpus } from './fixtures/test-server.js';
import { retrieve } from './retrieval.js';
import { ChatConfigSchema } from './config.js';

const corpus = loadTestCorpus();
const config = ChatConfigSchema.parse({});
const exact: ModelProfile = {
  ...BUILTIN_PROFILES.default!,
  wrong_citation_rate: 0,
  missed_citation_rate: 0,
  answer_sentences: 3,
};

function answer(question: string, overrides: Partial<AnswerInput> = {}, seed = 1) {
  const r = retrieve(corpus, question, null, config);
  return buildAnswer({
    hits: r.hits,
    relevant: r.relevant,
    ranked: r.ranked,
    organisation: corpus.organisation,
    profile: exact,
    rng: createRng(seed),
    includeCitations: true,
    ...overrides,
  });
}
const MARKER = /\[\[(\d+)\]\]\(([^)]*)\)/g;

describe('tokenize', () => {
  it('splits words and punctuation, keeping the leading space and whole numbers', () => {
    expect(tokenize('Roll back at 14:00 UTC, if eu-west-1 fails.')).toEqual([
      'Roll',
      ' back',
      ' at',
      ' 14:00',
      ' UTC',
      ',',
      ' if',
      ' eu-west-1',
      ' fails',
      '.',
    ]);
    expect(tokenize('').length).toBe(0);
  });
});

describe('buildAnswer', () => {
  it('answers from the best-matching sentences of the top documents, each followed by its marker', () => {
    const a = answer('How long is the deploy freeze and when does it run?');
    expect(a.found).toBe(true);
    expect(a.text).toContain(
      'The deploy freeze runs from December 20 to January 3 every year [[1]](https://github.example/acme/runbooks/deploy.md).',
    );
    const sentenceCount = a.citationless.split(/(?<=[.!?])\s/).length;
    expect(sentenceCount).toBeGreaterThanOrEqual(2);
    expect(sentenceCount).toBeLessThanOrEqual(3);
    expect(
      a.segments
        .filter((s) => s.kind === 'token')
        .map((s) => (s.kind === 'token' ? s.text : ''))
        .join(''),
    ).toBe(a.text);
  });
  it('numbers citations in order of first citation from 1, one citation_info per document just before its first marker', () => {
    const a = answer('Which receipts do I need for expenses and hotel stays when travelling?');
    const numbers = [...a.text.matchAll(MARKER)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    const firsts = [...new Set(numbers)];
    expect(firsts).toEqual(firsts.map((_, i) => i + 1));
    expect(a.citations.map((c) => c.citation_number)).toEqual(firsts);
    expect(new Set(a.citations.map((c) => c.document_id)).size).toBe(a.citations.length);
    a.segments.forEach((segment, i) => {
      if (segment.kind !== 'citation') return;
      const next = a.segments[i + 1];
      expect(next?.kind === 'token' && next.marker && next.text.startsWith(` [[${segment.citation_number}]](`)).toBe(
        true,
      );
    });
    // each marker's link is the link of the document its number stands for
    for (const m of a.text.matchAll(MARKER)) {
      const id = a.citations.find((c) => c.citation_number === Number(m[1]))?.document_id;
      expect(corpus.documents.find((d) => d.document_id === id)?.link).toBe(m[2]);
    }
  });
  it('include_citations false: no markers and no citations', () => {
    const a = answer('When is the deploy freeze?', { includeCitations: false });
    expect(a.text).not.toMatch(MARKER);
    expect(a.citations).toEqual([]);
    expect(a.text).toBe(a.citationless);
    expect(a.segments.every((s) => s.kind === 'token' && !s.marker)).toBe(true);
  });
  it('below the relevance threshold the model says it found nothing and cites nothing', () => {
    const r = retrieve(corpus, 'What is the cafeteria menu on Fridays?', null, config);
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.relevant).toBe(false);
    const a = answer('What is the cafeteria menu on Fridays?');
    expect(a.found).toBe(false);
    expect(a.text).toBe('I could not find any information about this in the Acme Test Corp knowledge base.');
    expect(a.citations).toEqual([]);
  });
  it('missed_citation_rate 1 leaves every marker out; wrong_citation_rate 1 cites another retrieved document', () => {
    const missed = answer('When is the deploy freeze?', { profile: { ...exact, missed_citation_rate: 1 } });
    expect(missed.text).not.toMatch(MARKER);
    expect(missed.citations).toEqual([]);
    // with wrong_citation_rate 1 every marker points at a retrieved document other than the source
    const question = 'Which receipts do I need for expenses and hotel stays when travelling?';
    const markerDocs = (a: ReturnType<typeof answer>) =>
      [...a.text.matchAll(MARKER)].map((m) => a.citations.find((c) => c.citation_number === Number(m[1]))?.document_id);
    const right = answer(question);
    const wrong = answer(question, { profile: { ...exact, wrong_citation_rate: 1 } });
    expect(wrong.citationless).toBe(right.citationless);
    const [rightDocs, wrongDocs] = [markerDocs(right), markerDocs(wrong)];
    expect(rightDocs.length).toBeGreaterThan(1);
    expect(wrongDocs).toHaveLength(rightDocs.length);
    wrongDocs.forEach((id, i) => expect(id).not.toBe(rightDocs[i]));
    const retrieved = retrieve(corpus, question, null, config).hits.map((h) => h.doc.document_id);
    for (const c of wrong.citations) expect(retrieved).toContain(c.document_id);
  });
  it('the knobs are rates: about 25% of sentences uncited over many seeded answers', () => {
    let sentences = 0;
    let markers = 0;
    const question = 'When is the deploy freeze?';
    const r = retrieve(corpus, question, null, config);
    const profile = { ...exact, missed_citation_rate: 0.25 };
    for (let seed = 0; seed < 400; seed++) {
      const a = buildAnswer({
        hits: r.hits,
        relevant: r.relevant,
        ranked: r.ranked,
        organisation: corpus.organisation,
        profile,
        rng: createRng(seed),
        includeCitations: true,
      });
      sentences += a.citationless.split(/(?<=[.!?])\s/).length;
      markers += [...a.text.matchAll(MARKER)].length;
    }
    expect(1 - markers / sentences).toBeGreaterThan(0.2);
    expect(1 - markers / sentences).toBeLessThan(0.3);
  });
  it('is deterministic for the same rng seed', () => {
    const profile = BUILTIN_PROFILES['gpt-4o-mini']!;
    expect(answer('Which receipts do I need?', { profile }, 9)).toEqual(
      answer('Which receipts do I need?', { profile }, 9),
    );
  });
});

describe('buildReasoning', () => {
  it('names the question and the top documents, and says when it found nothing', () => {
    const hits = retrieve(corpus, 'When is the deploy freeze?', null, config).hits;
    const found = buildReasoning('When is the deploy freeze?', hits, true).join('');
    expect(found).toContain('"When is the deploy freeze?"');
    expect(found).toContain('"Production deploy runbook"');
    expect(buildReasoning('x', [], false).join('')).toContain('found nothing');
  });
});

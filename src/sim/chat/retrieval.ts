/**
 * @module sim/chat/retrieval
 * The search step of an answer: the query (the message itself: the simulated model does not
 * rephrase), the top documents under the request's filters, and whether the best one is relevant
 * enough to answer from. Relevance is coverage: the share of the question's meaningful words
 * (stop words left out, each weighted by its rarity in the corpus) that the best document matches.
 * Raw BM25 scores grow with the length of a question, so a fixed score threshold would let long
 * off-topic questions through; a question about something the corpus never mentions has most of
 * its weight on words no document contains.
 * Retrieval is a pure function of the message and filters, and load tests repeat their questions,
 * so results are kept in a small LRU cache together with what every answer to them reuses: the
 * document list encoded once, and the question's sentences ranked.
 */
import type { BaseFilters } from '../../api/index.js';
import type { Corpus, SearchHit } from '../corpus/index.js';
import { contentTerms, words } from '../corpus/index.js';
import { PyRaw, dumps } from '../encode/index.js';
import { rankSentences, type RankedSentence } from './answer.js';
import type { ChatConfig } from './config.js';
import { wireDoc, type WireDoc } from './parts.js';

export interface Retrieval {
  queries: string[];
  hits: SearchHit[];
  documents: WireDoc[];
  /** `documents` as stream JSON, encoded once. */
  documentsJson: PyRaw;
  /** The sentences of the top documents, best match first. */
  ranked: RankedSentence[];
  /** The coverage of the best hit (0 when nothing was found). */
  coverage: number;
  relevant: boolean;
}

type RetrievalConfig = Pick<ChatConfig, 'top_k' | 'min_coverage' | 'min_score'>;

/** Entries kept by createRetriever. */
const CACHE_SIZE = 1024;

export interface RetrieverOptions {
  /** false: SearchDocs without `file_id`, as releases before v3.3 write them. */
  fileId?: boolean;
  /** Web search results: SearchDocs with `is_internet: true`, no date, no metadata. */
  internet?: boolean;
}

/**
 * A retrieve() with an LRU cache keyed by message, history and filters. Results are shared: do not
 * mutate. `history` (a follow-up's earlier questions) is searched with the message (retrieve).
 */
export function createRetriever(corpus: Corpus, config: RetrievalConfig, options: RetrieverOptions = {}) {
  const cache = new Map<string, Retrieval>();
  return (message: string, filters: BaseFilters | null | undefined, history = ''): Retrieval => {
    const key = `${message}\u0000${history}\u0000${filters == null ? '' : JSON.stringify(filters)}`;
    let result = cache.get(key);
    if (result !== undefined) cache.delete(key);
    else {
      result = retrieve(corpus, message, filters, config, options.fileId ?? true, history, options.internet ?? false);
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(key, result);
    return result;
  };
}

/**
 * Runs the search for a message. A follow-up searches its `history` (the earlier questions of its
 * session, oldest first) together with the message, as a service rephrases a follow-up into a
 * standalone query; the message's own words weigh most when its sentences are picked.
 */
export function retrieve(
  corpus: Corpus,
  message: string,
  filters: BaseFilters | null | undefined,
  config: RetrievalConfig,
  fileId = true,
  history = '',
  internet = false,
): Retrieval {
  const query = history.trim() === '' ? message.trim() : `${history.trim()} ${message.trim()}`;
  const hits = corpus.search(query, filters, config.top_k);
  const documents = hits.map((h) => {
    const found = corpus.toSearchDoc(h.doc, h.score, 0, h.terms);
    const doc = wireDoc(
      internet
        ? { ...found, metadata: {}, updated_at: null, primary_owners: null, secondary_owners: null, is_internet: true }
        : found,
    );
    if (fileId) return doc;
    const { file_id: _fileId, ...older } = doc;
    return older as WireDoc;
  });
  const top = hits[0];
  const coverage = top === undefined ? 0 : coverageOf(query, top, corpus);
  const relevant = top !== undefined && coverage >= config.min_coverage && top.score >= config.min_score;
  return {
    queries: [query],
    hits,
    documents,
    documentsJson: new PyRaw(dumps(documents)),
    ranked: relevant ? rankSentences(query, hits, corpus, history.trim() === '' ? undefined : message) : [],
    coverage,
    relevant,
  };
}

/** Rarity-weighted share of the question's meaningful words that the hit matched. */
export function coverageOf(question: string, hit: SearchHit, corpus: Corpus): number {
  const terms = contentTerms(question);
  if (terms.length === 0) return 0;
  const matched = new Set(hit.queryTerms.flatMap((t) => words(t)));
  let total = 0;
  let covered = 0;
  for (const term of terms) {
    const weight = corpus.termWeight(term);
    total += weight;
    if (matched.has(term)) covered += weight;
  }
  return total === 0 ? 0 : covered / total;
}

/**
 * Runs a few searches over the corpus's own titles and throws the results away, so the JIT has
 * compiled search, coverage and sentence ranking before the first request (a cold first search
 * costs tens of milliseconds, which the first request would otherwise be charged).
 */
export function warmRetrieval(corpus: Corpus, config: RetrievalConfig): void {
  // What it compiles stays compiled for the life of the process: once per corpus is enough.
  if (warmed.has(corpus)) return;
  warmed.add(corpus);
  for (const doc of corpus.documents.slice(0, 8)) retrieve(corpus, `What does ${doc.title} say?`, null, config);
}

const warmed = new WeakSet<Corpus>();

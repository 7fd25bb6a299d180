/**
 * @module sim/corpus
 * The simulated service's knowledge base: loading and validating the corpus file, BM25 retrieval
 * (minisearch over title and content, the same settings scripts/check-corpus.ts uses), filters,
 * SearchDocs as the service sends them, and the content store that open-urls serves from.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import type { BaseFilters, SearchDoc } from '../../api/index.js';
import { compileFilters } from './filters.js';
import { CorpusError, parseCorpusFile, type CorpusDocument, type CorpusFile, type CorpusPage } from './schema.js';
import {
  STOP_WORDS,
  contentTerms,
  cutAtWord,
  flatText,
  highlight,
  paragraphs,
  sentences,
  words,
  type FlatText,
} from './text.js';

export {
  CorpusError,
  CorpusFileSchema,
  parseCorpusFile,
  type CorpusDocument,
  type CorpusFile,
  type CorpusFileInput,
  type CorpusPage,
} from './schema.js';
export { compileFilters, parseInstant } from './filters.js';
export { STOP_WORDS, contentTerms, sentences, words } from './text.js';

/** One retrieved document. `terms` are the document's matched index terms, `queryTerms` the query's. */
export interface SearchHit {
  doc: CorpusDocument;
  score: number;
  terms: string[];
  queryTerms: string[];
}

/** A loaded corpus. Immutable; safe to share between requests. */
export interface Corpus {
  readonly organisation: string;
  readonly documents: readonly CorpusDocument[];
  /** The web pages of the corpus file (open-urls serves them; the web search tool searches them). */
  readonly pages: readonly CorpusPage[];
  /** BM25 ranking, best first, restricted by the filters, at most `limit` hits. Empty query → []. */
  search(query: string, filters: BaseFilters | null | undefined, limit: number): SearchHit[];
  /**
   * The SearchDoc the service sends for a document, keys in wire order. With `terms` (a hit's
   * matched terms) the blurb is the start of the paragraph that matches best and the highlights
   * wrap each term; without, the blurb is the start of the document.
   */
  toSearchDoc(doc: CorpusDocument, score: number, chunkInd?: number, terms?: readonly string[]): SearchDoc;
  /** Content of a document link or a configured page, for open-urls; undefined when unknown. */
  pageContent(url: string): string | undefined;
  /** Inverse document frequency of a lowercase word over the corpus (rare words weigh more). */
  termWeight(term: string): number;
  /** The document's sentences with their words (see `sentences`), computed once at load. */
  sentencesOf(doc: CorpusDocument): readonly Sentence[];
}

/** A sentence of a document and its lowercase words. */
export interface Sentence {
  text: string;
  words: readonly string[];
}

/** What is computed once per document so that requests do not redo it. */
interface Prepared {
  paragraphs: Array<{ text: string; words: ReadonlySet<string> }>;
  sentences: Sentence[];
  /** The content as highlights search it (flattened and lowercased once, not once per term). */
  content: FlatText;
}

const BLURB_CHARS = 200;
const MAX_HIGHLIGHTS = 3;

/** The default corpus shipped with chatbench. */
export const DEFAULT_CORPUS_URL = new URL('../../../datasets/corpus.json', import.meta.url);

/**
 * The last corpus loaded in this process, by its file's path, size and modification time. Every
 * `--sim` run and `demo` loads one (~0.1 s: parsing, the search index, each document's sentences);
 * a process running several in turn (a script calling main(), the test suite) loads the shipped one
 * again and again. A Corpus is immutable, so sharing it is safe; a file changed since is read anew.
 * One entry: a process never holds more than the corpus it last used.
 */
let lastLoaded: { key: string; corpus: Promise<Corpus> } | undefined;

/** Reads and validates a corpus file (default: datasets/corpus.json). Throws CorpusError. */
export async function loadCorpus(path?: string): Promise<Corpus> {
  const source = path ?? fileURLToPath(DEFAULT_CORPUS_URL);
  const file = await stat(source).catch(() => undefined);
  const key = file === undefined ? undefined : `${source}\0${file.size}\0${file.mtimeMs}`;
  if (key !== undefined && lastLoaded?.key === key) return lastLoaded.corpus;
  const corpus = readCorpus(source);
  if (key !== undefined) {
    lastLoaded = { key, corpus };
    corpus.catch(() => {
      if (lastLoaded?.corpus === corpus) lastLoaded = undefined;
    });
  }
  return corpus;
}

async function readCorpus(source: string): Promise<Corpus> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(source, 'utf8'));
  } catch (error) {
    throw new CorpusError(source, [error instanceof Error ? error.message : String(error)], { cause: error });
  }
  return createCorpus(parseCorpusFile(value, source));
}

/** Indexes an already validated corpus file. */
export function createCorpus(file: CorpusFile): Corpus {
  const documents = file.documents;
  const index = new MiniSearch<{ id: number; title: string; content: string }>({
    fields: ['title', 'content'],
    storeFields: [],
    searchOptions: {
      boost: { title: 2 },
      prefix: true,
      fuzzy: 0.1,
      combineWith: 'OR',
      // Stop words are dropped from queries only: as prefixes, "i" or "a" would match half the
      // vocabulary and outscore the words that carry the question.
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
    },
  });
  index.addAll(documents.map((doc, id) => ({ id, title: doc.title, content: doc.content })));
  const pages = new Map<string, string>();
  for (const doc of documents) pages.set(doc.link, doc.content);
  for (const page of file.pages) pages.set(page.url, page.content);
  const idf = inverseDocumentFrequencies(documents);
  const prepared = new Map<CorpusDocument, Prepared>(documents.map((doc) => [doc, prepareDocument(doc)]));
  const prepare = (doc: CorpusDocument): Prepared => prepared.get(doc) ?? prepareDocument(doc);
  const maxIdf = Math.log(1 + (documents.length + 0.5) / 0.5);

  return {
    organisation: file.organisation,
    documents,
    pages: file.pages,
    search(query, filters, limit) {
      const allowed = compileFilters(filters);
      const results = index.search(
        query,
        allowed ? { filter: (r) => allowed(documents[r.id as number] as CorpusDocument) } : {},
      );
      return results.slice(0, Math.max(0, limit)).map((r) => ({
        doc: documents[r.id as number] as CorpusDocument,
        score: r.score,
        terms: r.terms,
        queryTerms: r.queryTerms,
      }));
    },
    toSearchDoc: (doc, score, chunkInd = 0, terms = []) => searchDocOf(doc, prepare(doc), score, chunkInd, terms),
    pageContent: (url) => pages.get(url) ?? pages.get(url.endsWith('/') ? url.slice(0, -1) : `${url}/`),
    termWeight: (term) => idf.get(term) ?? maxIdf,
    sentencesOf: (doc) => prepare(doc).sentences,
  };
}

function prepareDocument(doc: CorpusDocument): Prepared {
  return {
    paragraphs: paragraphs(doc.content).map((text) => ({ text, words: new Set(words(text)) })),
    sentences: sentences(doc.content).map((text) => ({ text, words: words(text) })),
    content: flatText(doc.content),
  };
}

function inverseDocumentFrequencies(documents: readonly CorpusDocument[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const doc of documents) {
    for (const word of new Set(words(`${doc.title} ${doc.content}`))) df.set(word, (df.get(word) ?? 0) + 1);
  }
  const n = documents.length;
  return new Map([...df].map(([word, count]) => [word, Math.log(1 + (n - count + 0.5) / (count + 0.5))]));
}

function searchDocOf(
  doc: CorpusDocument,
  prepared: Prepared,
  score: number,
  chunkInd: number,
  terms: readonly string[],
): SearchDoc {
  const meaningful = terms.filter((t) => contentTerms(t).length > 0);
  return {
    document_id: doc.document_id,
    chunk_ind: chunkInd,
    semantic_identifier: doc.title,
    link: doc.link,
    blurb: cutAtWord(bestPassage(prepared.paragraphs, meaningful), BLURB_CHARS),
    source_type: doc.source_type,
    boost: 0,
    hidden: false,
    metadata: { ...doc.tags },
    score,
    is_relevant: null,
    relevance_explanation: null,
    match_highlights: highlightsOf(prepared.content, meaningful),
    updated_at: doc.updated_at,
    primary_owners: [...doc.primary_owners],
    secondary_owners: [...doc.secondary_owners],
    is_internet: false,
    file_id: null,
  };
}

/**
 * The first MAX_HIGHLIGHTS highlights of the terms, in term order. Stops as soon as it has them: a
 * prefix search matches tens of terms, and each costs a pass over the document.
 */
function highlightsOf(content: FlatText, terms: readonly string[]): string[] {
  const found: string[] = [];
  for (const term of terms) {
    if (found.length >= MAX_HIGHLIGHTS) break;
    const h = highlight(content, term);
    if (h !== undefined) found.push(h);
  }
  return found;
}

/** The paragraph holding the most distinct matched terms (the first paragraph when none match). */
function bestPassage(blocks: Prepared['paragraphs'], terms: readonly string[]): string {
  let best = blocks[0]?.text ?? '';
  let bestCount = 0;
  for (const block of blocks) {
    const count = terms.filter((t) => block.words.has(t)).length;
    if (count > bestCount) [best, bestCount] = [block.text, count];
  }
  return best;
}

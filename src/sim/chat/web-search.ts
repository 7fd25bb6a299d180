/**
 * @module sim/chat/web-search
 * The web search tool's index: the web pages of the corpus file (the ones open-urls also serves),
 * searched with the same BM25 and relevance rules as the knowledge base, never the network. A
 * page's SearchDoc has its URL as document id and link, its first line as title, source `web` and
 * `is_internet: true`.
 */
import type { BaseFilters } from '../../api/index.js';
import { createCorpus, type Corpus, type CorpusDocument } from '../corpus/index.js';
import type { ChatConfig } from './config.js';
import { createRetriever, type Retrieval } from './retrieval.js';

/** Pages carry no dates; their SearchDocs say none (the date here only satisfies the document schema). */
const UNDATED = '2026-01-01T00:00:00Z';

/**
 * The web pages' own corpus, indexed once per loaded corpus (immutable, as the corpus is): every
 * engine started on a corpus shares it, so starting a server costs no second index (~10 ms).
 */
const webCorpora = new WeakMap<Corpus, Corpus>();

/** A retriever over the corpus's web pages; with none, every search finds nothing. */
export function createWebRetriever(
  corpus: Corpus,
  config: Pick<ChatConfig, 'top_k' | 'min_coverage' | 'min_score'>,
  options: { fileId: boolean },
): (message: string, history?: string) => Retrieval {
  let web = webCorpora.get(corpus);
  if (web === undefined) {
    web = webCorpusOf(corpus);
    webCorpora.set(corpus, web);
  }
  const noFilters: BaseFilters | null = null;
  const retrieve = createRetriever(web, config, { ...options, internet: true });
  return (message, history = '') => retrieve(message, noFilters, history);
}

/** The corpus of `corpus`'s non-empty web pages, each a document. */
function webCorpusOf(corpus: Corpus): Corpus {
  const documents: CorpusDocument[] = corpus.pages
    .filter((page) => page.content.trim() !== '')
    .map((page) => ({
      document_id: page.url,
      title: page.content.trim().split('\n')[0]?.trim().slice(0, 120) || page.url,
      link: page.url,
      source_type: 'web',
      document_sets: [],
      tags: {},
      primary_owners: [],
      secondary_owners: [],
      created_at: UNDATED,
      updated_at: UNDATED,
      content: page.content,
    }));
  return createCorpus({ organisation: corpus.organisation, documents, pages: [] });
}

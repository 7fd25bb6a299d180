/**
 * @module viewer/ui/api
 * Where the app's data comes from: the local server (`chatbench view`: /api/data, /api/question,
 * POST /api/reviews, /api/expectations) or the data embedded in viewer.html (read-only, with no
 * candidate expected documents). One interface, so every view
 * works the same in both.
 */
import type { Review } from '../../records/review.js';
import type { Decision } from '../../dataset/expectation-decisions.js';
import type { DecisionRequest, ReviewRequest, ViewData, ViewDetail, ViewExpectations } from '../view-data.js';

/** The element ids of viewer/page.ts (kept in step by the browser test). */
const DATA_ELEMENT = 'chatbench-view-data';
const DETAILS_ELEMENT = 'chatbench-view-details';

export interface DataSource {
  readonly readOnly: boolean;
  data(): Promise<ViewData>;
  /** undefined: the question has no records here (viewer.html of a large run embeds only some). */
  question(id: string): Promise<ViewDetail | undefined>;
  saveReview(request: ReviewRequest): Promise<Review>;
  /** Question ids matching every word, searched by the server in whole answers; undefined: search the rows' text here. */
  readonly search?: (query: string) => Promise<ReadonlySet<string>>;
  /** The served viewer's candidate expected documents (chatbench draft-expectations); undefined in viewer.html. */
  readonly expectations?: {
    of(id: string): Promise<ViewExpectations[]>;
    save(request: DecisionRequest): Promise<Decision>;
    /** Where the run's completed dataset CSV downloads from. */
    exportUrl(run: number): string;
  };
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...(init?.headers ?? {}) } });
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

function serverSource(): DataSource {
  return {
    readOnly: false,
    data: () => getJson<ViewData>('/api/data'),
    async question(id) {
      const response = await fetch(`/api/question?id=${encodeURIComponent(id)}`);
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return (await response.json()) as ViewDetail;
    },
    search: async (query) =>
      new Set((await getJson<{ ids: string[] }>(`/api/search?q=${encodeURIComponent(query)}`)).ids),
    async saveReview(request) {
      const { review } = await getJson<{ review: Review }>('/api/reviews', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      return review;
    },
    expectations: {
      of: async (id) =>
        (await getJson<{ expectations: ViewExpectations[] }>(`/api/expectations?id=${encodeURIComponent(id)}`))
          .expectations,
      save: async (request) =>
        (
          await getJson<{ decision: Decision }>('/api/expectations', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(request),
          })
        ).decision,
      exportUrl: (run) => `/api/expectations.csv?run=${run}`,
    },
  };
}

function embeddedSource(dataText: string, detailsText: string): DataSource {
  const data = JSON.parse(dataText) as ViewData;
  const details = JSON.parse(detailsText) as Record<string, ViewDetail>;
  return {
    readOnly: true,
    data: async () => data,
    question: async (id) => (Object.prototype.hasOwnProperty.call(details, id) ? details[id] : undefined),
    saveReview: async () => {
      throw new Error(
        'Reviews cannot be saved in viewer.html: it is read-only. Open the run with `chatbench view DIR` to review.',
      );
    },
  };
}

/** The embedded data when the page has it (viewer.html), else the server. */
export function openSource(doc: Document): DataSource {
  const data = doc.getElementById(DATA_ELEMENT);
  const details = doc.getElementById(DETAILS_ELEMENT);
  return data?.textContent ? embeddedSource(data.textContent, details?.textContent || '{}') : serverSource();
}

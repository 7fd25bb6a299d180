/**
 * @module viewer/ui/route
 * The app's place is in the URL's hash (`#/questions?sort=citation_recall`, `#/q/q12`), so a view
 * can be linked, the back button works, and viewer.html works from a file URL.
 */
export type Page = 'overview' | 'questions' | 'question' | 'baseline';

export interface Route {
  readonly page: Page;
  /** The question of page 'question'. */
  readonly id: string | null;
  readonly params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = text.split('?', 2);
  const params = new URLSearchParams(query);
  const parts = path.split('/').map((p) => decodeURIComponent(p));
  if (parts[0] === 'q' && parts[1]) return { page: 'question', id: parts.slice(1).join('/'), params };
  if (parts[0] === 'questions' || parts[0] === 'baseline') return { page: parts[0], id: null, params };
  return { page: 'overview', id: null, params };
}

/** The hash of a page with its parameters (empty values left out). */
export function href(page: Page, params: Record<string, string | null | undefined> = {}, id?: string): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') query.set(k, v);
  const path = page === 'question' ? `q/${encodeURIComponent(id ?? '')}` : page;
  const q = query.toString();
  return `#/${path}${q ? `?${q}` : ''}`;
}

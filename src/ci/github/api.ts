/**
 * @module ci/github/api
 * Creates chatbench's pull-request comment, or updates the one it made before (found by its
 * hidden marker), through GitHub's REST API (GITHUB_API_URL: https://api.github.com, or a GitHub
 * Enterprise Server's): `GET /repos/{repo}/issues/{n}/comments` page by page, then
 * `PATCH /repos/{repo}/issues/comments/{id}` or `POST /repos/{repo}/issues/{n}/comments`.
 * `fetch` is passed in: tests point it at a local fake of the API.
 */
import { z } from 'zod';
import { COMMENT_MARKER } from './comment.js';

export interface CommentTarget {
  /** GITHUB_API_URL, without a trailing slash. */
  readonly apiUrl: string;
  /** owner/name (GITHUB_REPOSITORY). */
  readonly repository: string;
  readonly pullRequest: number;
  readonly token: string;
}

const CommentsSchema = z.array(z.object({ id: z.number(), body: z.string().nullish() }));

/** At 100 a page, the comments looked through for the marker at most (a pull request with more gets a new comment). */
const MAX_PAGES = 50;

export class GithubApiError extends Error {
  override readonly name = 'GithubApiError';
}

export async function upsertComment(
  target: CommentTarget,
  body: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ action: 'created' | 'updated'; id: number }> {
  const base = `${target.apiUrl.replace(/\/+$/, '')}/repos/${target.repository}`;
  const headers = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${target.token}`,
    'content-type': 'application/json',
    'user-agent': 'chatbench',
    'x-github-api-version': '2022-11-28',
  };
  const call = async (method: string, url: string, payload?: unknown): Promise<unknown> => {
    const response = await fetchImpl(url, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    const text = await response.text();
    if (!response.ok)
      throw new GithubApiError(`${method} ${url}: HTTP ${response.status}${text ? ` ${text.slice(0, 200)}` : ''}`);
    return text === '' ? null : JSON.parse(text);
  };
  let existing: number | undefined;
  for (let page = 1; page <= MAX_PAGES && existing === undefined; page++) {
    const comments = CommentsSchema.parse(
      await call('GET', `${base}/issues/${target.pullRequest}/comments?per_page=100&page=${page}`),
    );
    existing = comments.find((c) => c.body?.includes(COMMENT_MARKER))?.id;
    if (comments.length < 100) break;
  }
  if (existing !== undefined) {
    await call('PATCH', `${base}/issues/comments/${existing}`, { body });
    return { action: 'updated', id: existing };
  }
  const created = z
    .object({ id: z.number() })
    .parse(await call('POST', `${base}/issues/${target.pullRequest}/comments`, { body }));
  return { action: 'created', id: created.id };
}

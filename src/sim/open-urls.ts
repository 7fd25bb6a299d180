/**
 * @module sim/open-urls
 * POST {base}/web-search/open-urls, served from a local content store (corpus document links and
 * configured pages), never from the network. Entries are trimmed and blank ones dropped (none left
 * is a 422, the deployed validator's message); a URL with no content is left out of `results`, as
 * one the deployed crawler fails to fetch; content is cut at 15,000 characters plus " [...truncated]".
 */
import { z } from 'zod';
import { OPEN_URL_CONTENT_LIMIT, OpenUrlsRequestSchema, PROVIDER_TYPES, TRUNCATION_SUFFIX } from '../api/index.js';
import { sendJson } from './http.js';
import { readValidBody } from './parse-body.js';
import type { RouteContext } from './route.js';
import { authorize } from './route.js';
import { valueError } from './validation.js';

export const OpenUrlsConfigSchema = z.strictObject({
  provider_type: z.enum(PROVIDER_TYPES).default('onyx_web_crawler'),
  /** url → page text; wins over a corpus document with the same link. */
  pages: z.record(z.string(), z.string()).default({}),
});
export type OpenUrlsConfig = z.infer<typeof OpenUrlsConfigSchema>;

/** Where page text comes from; the corpus satisfies it. */
export interface PageSource {
  pageContent(url: string): string | undefined;
}

/** The text the crawler would return: cut at the limit, with the suffix marking the cut. */
export function truncateContent(content: string): string {
  return content.length > OPEN_URL_CONTENT_LIMIT
    ? content.slice(0, OPEN_URL_CONTENT_LIMIT) + TRUNCATION_SUFFIX
    : content;
}

/** The handler; `pages` is the configured store in front of `source`. */
export function openUrlsHandler(config: OpenUrlsConfig, source: PageSource | undefined) {
  const pages = new Map(Object.entries(config.pages));
  const contentOf = (url: string) => pages.get(url) ?? source?.pageContent(url);
  return async (ctx: RouteContext): Promise<void> => {
    if (authorize(ctx, 'read:search') === undefined) return;
    const body = await readValidBody(ctx.req, ctx.res, OpenUrlsRequestSchema, ctx.body, {
      after: (value, raw) => {
        const kept = value.urls.map((url) => url.trim()).filter((url) => url !== '');
        const urls = (raw as { urls?: unknown }).urls;
        return kept.length > 0
          ? []
          : [valueError(['body', 'urls'], 'urls must include at least one non-empty value', urls)];
      },
    });
    if (body === undefined) return;
    const results = [];
    for (const url of body.urls.map((entry) => entry.trim()).filter((entry) => entry !== '')) {
      const content = contentOf(url);
      if (content === undefined) continue;
      results.push({
        document_citation_number: -1,
        unique_identifier_to_strip_away: url,
        type: 'open_url',
        content: truncateContent(content),
      });
    }
    sendJson(ctx.res, 200, { results, provider_type: config.provider_type });
  };
}

/**
 * @module api/open-urls
 * POST {base}/web-search/open-urls (docs/reference/service-api.md "Open URLs", docs/reference/wire-format.md "open-urls").
 */
import { z } from 'zod';

export const OPEN_URLS_PATH = '/web-search/open-urls';

/** The service trims entries and drops blank ones; none left is a 422. */
export const OpenUrlsRequestSchema = z.object({
  urls: z.array(z.string()).min(1),
});
export type OpenUrlsRequest = z.infer<typeof OpenUrlsRequestSchema>;

export const PROVIDER_TYPES = ['onyx_web_crawler', 'firecrawl', 'exa', 'tavily'] as const;

export const OpenUrlResultSchema = z.looseObject({
  document_citation_number: z.number().int(),
  content: z.string(),
  unique_identifier_to_strip_away: z.string(),
  type: z.literal('open_url'),
});
export const OpenUrlsResponseSchema = z.looseObject({
  /** A URL that could not be fetched is simply missing. */
  results: z.array(OpenUrlResultSchema),
  provider_type: z.string(),
});
export type OpenUrlsResponse = z.infer<typeof OpenUrlsResponseSchema>;

/** Content longer than this is cut and gets TRUNCATION_SUFFIX. */
export const OPEN_URL_CONTENT_LIMIT = 15_000;
export const TRUNCATION_SUFFIX = ' [...truncated]';

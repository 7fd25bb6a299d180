import { describe, expect, it } from 'vitest';
import { OPEN_URLS_PATH, OpenUrlsRequestSchema, OpenUrlsResponseSchema } from './open-urls.js';
import { ProjectInstructionsSchema, projectInstructionsPath } from './projects.js';

describe('open-urls', () => {
  it('round-trips a request and requires at least one URL', () => {
    const request = { urls: ['https://docs.example.com/deploy', 'https://wiki.example.com/helm'] };
    expect(OpenUrlsRequestSchema.parse(request)).toEqual(request);
    expect(OpenUrlsRequestSchema.safeParse({ urls: [] }).success).toBe(false);
    expect(OpenUrlsRequestSchema.safeParse({}).success).toBe(false);
  });

  it('round-trips the response of docs/reference/wire-format.md, and one where every URL failed', () => {
    const response = {
      results: [
        {
          document_citation_number: -1,
          unique_identifier_to_strip_away: 'https://docs.example.com/deploy',
          type: 'open_url',
          content: 'Deploying with Docker Compose...',
        },
      ],
      provider_type: 'onyx_web_crawler',
    };
    expect(OpenUrlsResponseSchema.parse(response)).toEqual(response);
    expect(OpenUrlsResponseSchema.parse({ results: [], provider_type: 'exa' })).toEqual({
      results: [],
      provider_type: 'exa',
    });
  });

  it('refuses a result whose type is not open_url', () => {
    const result = { document_citation_number: -1, unique_identifier_to_strip_away: 'u', type: 'web', content: '' };
    expect(
      OpenUrlsResponseSchema.safeParse({ results: [result], provider_type: 'exa' }).error?.issues[0]?.path,
    ).toEqual(['results', 0, 'type']);
  });

  it('has the path of docs/reference/service-api.md "Endpoints"', () =>
    expect(OPEN_URLS_PATH).toBe('/web-search/open-urls'));
});

describe('project instructions', () => {
  it('round-trips request and response, including the empty text', () => {
    for (const instructions of ['Answer in French and cite sources.', '']) {
      expect(ProjectInstructionsSchema.parse({ instructions })).toEqual({ instructions });
    }
  });

  it('requires a string', () => {
    expect(ProjectInstructionsSchema.safeParse({}).success).toBe(false);
    expect(ProjectInstructionsSchema.safeParse({ instructions: 3 }).success).toBe(false);
  });

  it('builds the path of docs/reference/service-api.md "Endpoints"', () =>
    expect(projectInstructionsPath(42)).toBe('/user/projects/42/instructions'));
});

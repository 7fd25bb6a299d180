// open-urls over real HTTP: local content only, unknown URLs left out, trimming and blank
// entries, truncation at 15,000 characters, and the configured provider_type.
import { describe, expect, it } from 'vitest';
import { OPEN_URL_CONTENT_LIMIT, OpenUrlsResponseSchema, TRUNCATION_SUFFIX } from '../../src/api/index.js';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const PATH = '/web-search/open-urls';
const pages = {
  'https://pages.example/short': 'Short page, caf\u00e9 \u4e2d\u6587 \u{1F600}.',
  'https://pages.example/long': 'a'.repeat(OPEN_URL_CONTENT_LIMIT + 500),
  'https://pages.example/exact': 'b'.repeat(OPEN_URL_CONTENT_LIMIT),
};

describe('open-urls', () => {
  it('returns configured pages in request order, trims entries, and leaves unknown URLs out', async () => {
    const sim = await startSim({ config: { open_urls: { pages } } });
    const res = await call(sim, PATH, {
      token: TOKENS.demo,
      body: {
        urls: [
          '  https://pages.example/short\n',
          'https://nowhere.example/',
          'not a url',
          'https://pages.example/short',
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = OpenUrlsResponseSchema.parse(res.json);
    expect(body.provider_type).toBe('onyx_web_crawler');
    expect(body.results).toEqual([
      {
        document_citation_number: -1,
        unique_identifier_to_strip_away: 'https://pages.example/short',
        type: 'open_url',
        content: pages['https://pages.example/short'],
      },
      {
        document_citation_number: -1,
        unique_identifier_to_strip_away: 'https://pages.example/short',
        type: 'open_url',
        content: pages['https://pages.example/short'],
      },
    ]);
    // Key order as the deployed service writes it; UTF-8 left as is in a whole-body response.
    expect(
      res.text.startsWith(
        '{"results":[{"document_citation_number":-1,"unique_identifier_to_strip_away":"https://pages.example/short","type":"open_url","content":"Short page, caf\u00e9',
      ),
    ).toBe(true);
  });

  it('all URLs unknown gives 200 with no results', async () => {
    const sim = await startSim();
    const res = await call(sim, PATH, { token: TOKENS.demo, body: { urls: ['https://unknown.example/a'] } });
    expect([res.status, res.json]).toEqual([200, { results: [], provider_type: 'onyx_web_crawler' }]);
  });

  it('cuts content at 15,000 characters plus the suffix, and leaves content of exactly the limit whole', async () => {
    const sim = await startSim({ config: { open_urls: { pages, provider_type: 'exa' } } });
    const res = await call(sim, PATH, {
      token: TOKENS.searchOnly,
      body: { urls: ['https://pages.example/long', 'https://pages.example/exact'] },
    });
    const body = OpenUrlsResponseSchema.parse(res.json);
    expect(body.provider_type).toBe('exa');
    expect(body.results[0]?.content).toBe('a'.repeat(OPEN_URL_CONTENT_LIMIT) + TRUNCATION_SUFFIX);
    expect(body.results[1]?.content).toBe(pages['https://pages.example/exact']);
  });

  it('serves the corpus documents by their links', async () => {
    const sim = await startSim();
    const { loadCorpus } = await import('../../src/sim/index.js');
    const corpus = await loadCorpus();
    const doc = corpus.documents[0];
    if (doc === undefined) throw new Error('the shipped corpus is empty');
    const res = await call(sim, PATH, { token: TOKENS.demo, body: { urls: [doc.link] } });
    const body = OpenUrlsResponseSchema.parse(res.json);
    expect(body.results).toHaveLength(1);
    expect(body.results[0]?.content).toBe(corpus.pageContent(doc.link));
  });

  it.each([
    { name: 'only blank entries', urls: ['', '   ', '\t'] },
    { name: 'an empty list', urls: [] },
  ])('$name is 422', async ({ urls }) => {
    const sim = await startSim();
    const res = await call(sim, PATH, { token: TOKENS.demo, body: { urls } });
    expect(res.status).toBe(422);
    const detail = (res.json as { detail: Array<{ type: string; loc: unknown[] }> }).detail;
    expect(detail[0]?.loc).toEqual(['body', 'urls']);
    expect(detail[0]?.type).toBe(urls.length === 0 ? 'too_short' : 'value_error');
  });

  it('the blank-entries 422 carries the deployed validator message', async () => {
    const sim = await startSim();
    const res = await call(sim, PATH, { token: TOKENS.demo, body: { urls: [' '] } });
    expect(res.json).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'urls'],
          msg: 'Value error, urls must include at least one non-empty value',
          input: [' '],
          ctx: { error: {} },
        },
      ],
    });
  });
});

import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchDocSchema } from '../../api/index.js';
import { loadTestCorpus } from '../chat/fixtures/test-server.js';
import { CorpusError, loadCorpus, parseCorpusFile, parseInstant } from './index.js';

const corpus = loadTestCorpus();
const ids = (query: string, filters?: Parameters<typeof corpus.search>[1], limit = 5) =>
  corpus.search(query, filters, limit).map((h) => h.doc.document_id);

describe('parseCorpusFile', () => {
  it('lists every problem with its path', () => {
    const bad = {
      organisation: '',
      documents: [
        {
          document_id: 'a',
          title: 'A',
          link: 'https://x/a',
          source_type: 'Web',
          document_sets: [],
          tags: {},
          primary_owners: [],
          secondary_owners: [],
          created_at: 'yesterday',
          updated_at: '2024-01-01T00:00:00Z',
          content: 'text',
        },
        {
          document_id: 'a',
          title: 'B',
          link: 'https://x/a',
          source_type: 'web',
          document_sets: [],
          tags: { k: 1 },
          primary_owners: [],
          secondary_owners: [],
          created_at: '2024-01-01T00:00:00Z',
          updated_at: '2024-01-01T00:00:00Z',
          content: 'text',
        },
      ],
    };
    try {
      parseCorpusFile(bad, 'bad.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CorpusError);
      const problems = (error as CorpusError).problems.join('\n');
      expect(problems).toContain('organisation');
      expect(problems).toContain('documents.0.source_type');
      expect(problems).toContain('documents.0.created_at');
      expect(problems).toContain('documents.1.tags.k');
      // uniqueness is checked only once the shapes are right, so it is not in this first list
    }
  });
  it('reports duplicate ids and links', () => {
    const doc = {
      document_id: 'a',
      title: 'A',
      link: 'https://x/a',
      source_type: 'web',
      document_sets: [],
      tags: {},
      primary_owners: [],
      secondary_owners: [],
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      content: 'text',
    };
    expect(() => parseCorpusFile({ organisation: 'O', documents: [doc, doc] }, 'dup.json')).toThrow(
      /documents\.1\.document_id: duplicate document_id "a"[\s\S]*documents\.1\.link: duplicate link/,
    );
  });
  it('loadCorpus reads a file and names it in errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    await expect(loadCorpus(join(dir, 'broken.json'))).rejects.toThrow(/broken\.json: invalid corpus/);
    await expect(loadCorpus(join(dir, 'missing.json'))).rejects.toBeInstanceOf(CorpusError);
  });
  it('loadCorpus shares the corpus it last loaded while its file is unchanged, and reads a changed one anew', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'corpus-')), 'c.json');
    const write = (organisation: string, mtime: number) => {
      const doc = {
        document_id: 'a',
        title: 'A',
        link: 'https://x/a',
        source_type: 'web',
        document_sets: [],
        tags: {},
        primary_owners: [],
        secondary_owners: [],
        created_at: '2024-01-01T00:00:00Z',
        updated_at: '2024-01-01T00:00:00Z',
        content: 'text',
      };
      writeFileSync(path, JSON.stringify({ organisation, documents: [doc] }));
      utimesSync(path, mtime, mtime);
    };
    write('Old', 1_000);
    const first = await loadCorpus(path);
    expect(await loadCorpus(path)).toBe(first);
    write('New', 2_000);
    expect((await loadCorpus(path)).organisation).toBe('New');
    writeFileSync(path, '{ not json');
    await expect(loadCorpus(path)).rejects.toBeInstanceOf(CorpusError);
    write('Fixed', 3_000);
    expect((await loadCorpus(path)).organisation).toBe('Fixed');
  });
});

describe('search', () => {
  it('ranks the document that answers first, best first, at most `limit`', () => {
    expect(ids('How many days of paid time off do employees get?')[0]).toBe('hr-pto-policy');
    expect(ids('When is the deploy freeze?')[0]).toBe('eng-deploy-runbook');
    expect(ids('Which identity providers work with SAML SSO?')[0]).toBe('prod-sso-setup');
    const hits = corpus.search('receipt expenses hotel', null, 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(corpus.search('', null, 5)).toEqual([]);
  });
  it.each([
    { name: 'source_type', filters: { source_type: ['github'] }, expected: ['eng-db-failover', 'eng-deploy-runbook'] },
    {
      name: 'source_type, several (OR)',
      filters: { source_type: ['zendesk', 'web'] },
      expected: ['prod-sso-setup', 'sup-refund-macro'],
    },
    {
      name: 'document_set',
      filters: { document_set: ['Finance'] },
      expected: ['fin-expense-policy', 'fin-travel-policy'],
    },
    {
      name: 'tags (any of them)',
      filters: {
        tags: [
          { tag_key: 'team', tag_value: 'data' },
          { tag_key: 'department', tag_value: 'hr' },
        ],
      },
      expected: ['eng-db-failover', 'hr-pto-policy'],
    },
    {
      name: 'tag with the wrong value',
      filters: { tags: [{ tag_key: 'department', tag_value: 'legal' }] },
      expected: [],
    },
    {
      name: 'created_at_range, inclusive end',
      filters: { created_at_range: { start: null, end: '2021-05-10T10:00:00Z' } },
      expected: ['fin-expense-policy', 'sec-password-standard'],
    },
    {
      name: 'updated_at_range, bounds without timezone are UTC',
      filters: { updated_at_range: { start: '2025-01-01T00:00:00', end: '2025-06-03T16:20:00' } },
      expected: ['hr-pto-policy', 'sec-password-standard'],
    },
    {
      name: 'time_cutoff: updated on or after',
      filters: { time_cutoff: '2025-11-02T09:30:00Z' },
      expected: ['eng-deploy-runbook', 'prod-sso-setup'],
    },
    {
      name: 'fields combine (AND)',
      filters: { source_type: ['google_drive'], time_cutoff: '2024-01-01T00:00:00Z' },
      expected: ['fin-expense-policy'],
    },
    { name: 'empty lists restrict nothing', filters: { source_type: [], document_set: [], tags: [] }, expected: null },
  ])('filter: $name', ({ filters, expected }) => {
    // a query every document matches (all the titles), so only the filter decides
    const query = corpus.documents.map((d) => d.title).join(' ');
    const got = ids(query, filters, 50).sort();
    if (expected === null) expect(got).toHaveLength(corpus.documents.length);
    else expect(got).toEqual(expected);
  });
  it('parseInstant reads a bound without a zone as UTC', () => {
    expect(parseInstant('2025-01-01T00:00:00')).toBe(Date.parse('2025-01-01T00:00:00Z'));
    expect(parseInstant('2025-01-01T01:00:00+01:00')).toBe(Date.parse('2025-01-01T00:00:00Z'));
  });
});

describe('toSearchDoc', () => {
  it('has every SearchDoc key in wire order, the matching passage as blurb and highlighted terms', () => {
    const [hit] = corpus.search('When is the deploy freeze?', null, 1);
    const doc = corpus.toSearchDoc(hit!.doc, hit!.score, 0, hit!.terms);
    expect(Object.keys(doc)).toEqual([
      'document_id',
      'chunk_ind',
      'semantic_identifier',
      'link',
      'blurb',
      'source_type',
      'boost',
      'hidden',
      'metadata',
      'score',
      'is_relevant',
      'relevance_explanation',
      'match_highlights',
      'updated_at',
      'primary_owners',
      'secondary_owners',
      'is_internet',
      'file_id',
    ]);
    expect(SearchDocSchema.parse(doc)).toMatchObject({
      semantic_identifier: 'Production deploy runbook',
      boost: 0,
      hidden: false,
      is_internet: false,
      file_id: null,
      chunk_ind: 0,
    });
    expect(doc.blurb).toContain('deploy freeze');
    expect(doc.blurb.length).toBeLessThanOrEqual(200);
    expect(doc.metadata).toEqual({ department: 'engineering', team: 'platform' });
    expect(doc.match_highlights.some((h) => h.includes('<hi>freeze</hi>'))).toBe(true);
  });
  it('without terms the blurb is the start of the document', () => {
    const doc = corpus.toSearchDoc(corpus.documents[0]!, 1.5);
    expect(doc.blurb.startsWith('Full-time employees accrue 20 days')).toBe(true);
    expect(doc.match_highlights).toEqual([]);
  });
});

describe('pageContent', () => {
  it('serves document links and extra pages, tolerates a trailing slash, and knows nothing else', () => {
    expect(corpus.pageContent('https://docs.acme.example/sso')).toContain('SAML');
    expect(corpus.pageContent('https://docs.acme.example/sso/')).toContain('SAML');
    expect(corpus.pageContent('https://status.acme.example/')).toContain('All systems operational');
    expect(corpus.pageContent('https://blog.acme.example/café')).toContain('中文');
    expect(corpus.pageContent('https://unknown.example/')).toBeUndefined();
  });
});

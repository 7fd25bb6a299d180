/**
 * @module sim/corpus/schema
 * The corpus file (`datasets/corpus.json`): the simulated organisation's knowledge base and the
 * extra web pages open-urls serves. Validated with zod; every problem is listed at once.
 */
import { z } from 'zod';
import { DateTimeSchema, DocumentSourceSchema } from '../../api/index.js';

export const CorpusDocumentSchema = z.object({
  document_id: z.string().min(1),
  title: z.string().min(1),
  link: z.string().min(1),
  source_type: DocumentSourceSchema,
  document_sets: z.array(z.string()),
  tags: z.record(z.string(), z.string()),
  primary_owners: z.array(z.string()),
  secondary_owners: z.array(z.string()),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  content: z.string().min(1),
});
export type CorpusDocument = z.output<typeof CorpusDocumentSchema>;

export const CorpusPageSchema = z.object({ url: z.string().min(1), content: z.string() });
export type CorpusPage = z.output<typeof CorpusPageSchema>;

/** The whole file. Document ids and links must be unique (links are open-urls keys). */
export const CorpusFileSchema = z
  .object({
    organisation: z.string().min(1),
    documents: z.array(CorpusDocumentSchema).min(1),
    pages: z.array(CorpusPageSchema).default([]),
  })
  .superRefine((file, ctx) => {
    for (const key of ['document_id', 'link'] as const) {
      const seen = new Set<string>();
      file.documents.forEach((doc, i) => {
        if (seen.has(doc[key]))
          ctx.addIssue({ code: 'custom', path: ['documents', i, key], message: `duplicate ${key} "${doc[key]}"` });
        seen.add(doc[key]);
      });
    }
  });
export type CorpusFile = z.output<typeof CorpusFileSchema>;
export type CorpusFileInput = z.input<typeof CorpusFileSchema>;

/** A corpus file that failed validation; `problems` has one line per issue, with its path. */
export class CorpusError extends Error {
  override readonly name = 'CorpusError';
  readonly code = 'E_CORPUS';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
    options: { cause?: unknown } = {},
  ) {
    super(`${source}: invalid corpus (${problems.length} problem(s))\n${problems.join('\n')}`, options);
  }
}

/** Validates a parsed corpus file; throws CorpusError listing every problem with its path. */
export function parseCorpusFile(value: unknown, source: string): CorpusFile {
  const result = CorpusFileSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new CorpusError(source, problems);
}

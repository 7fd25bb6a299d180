/**
 * @module dataset/warnings
 * What `chatbench validate` warns about without refusing the dataset (exit 0, one line each): an
 * expected document id holding a comma (`a,b` is one id, since ids are separated by `|`: it almost
 * certainly meant two, and would score 0), and, when the corpus is known (the simulator's, or
 * `--corpus FILE`), expected ids that are no document of it, with the nearest id that is ("did you
 * mean"). Pure.
 */
import { closest } from '../figures/grammar.js';
import type { Dataset } from './read-csv.js';

/** `file:line: expected_documents: ...` lines, in row order. */
export function datasetWarnings(
  dataset: Pick<Dataset, 'path' | 'rows'>,
  corpus: { readonly name: string; readonly ids: ReadonlySet<string> } | null,
): string[] {
  const warnings: string[] = [];
  const known = corpus === null ? [] : [...corpus.ids];
  for (const row of dataset.rows) {
    const where = `${dataset.path}:${row.line}: expected_documents`;
    for (const id of row.expectations.expected_document_ids) {
      if (id.includes(',')) {
        warnings.push(
          `${where}: ${JSON.stringify(id)} is one id holding a comma; ids are separated by "|" (${JSON.stringify(
            id
              .split(',')
              .map((s) => s.trim())
              .join('|'),
          )}) or given as a JSON array`,
        );
      } else if (corpus !== null && !corpus.ids.has(id)) {
        const near = closest(id, known);
        warnings.push(
          `${where}: ${JSON.stringify(id)} is no document of the corpus ${corpus.name}${near === undefined ? '' : ` (did you mean ${near}?)`}`,
        );
      }
    }
  }
  return warnings;
}

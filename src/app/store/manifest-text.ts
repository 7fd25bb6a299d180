/**
 * @module app/store/manifest-text
 * manifest.json's text with its question lists (`question_ids`, `conversation_units`) written from
 * the dataset's rows as the file is written, never held as arrays: a million rows' ids are ~47 MB
 * of strings, which a load kept for its whole run to write its final manifest. The text is the one
 * `JSON.stringify(manifest, null, 2)` gives with the lists in place, byte for byte.
 *
 * The manifest holds a mark in each list's place (QUESTION_IDS_MARK, CONVERSATION_UNITS_MARK), so
 * its keys keep their order; `manifestChunks` writes the list where the mark's text stands.
 */

/** The lists, read again each time the manifest is written (the rows stay indexed for the run anyway). */
export interface QuestionLists {
  readonly question_ids: () => Iterable<string>;
  readonly conversation_units?: (() => Iterable<readonly string[]>) | undefined;
}

const MARK = '\u0000chatbench:list';
/** `question_ids` in a manifest written by manifestChunks. */
export const QUESTION_IDS_MARK: string[] = [`${MARK}:question_ids`];
/** `conversation_units` in a manifest written by manifestChunks. */
export const CONVERSATION_UNITS_MARK: string[][] = [[`${MARK}:conversation_units`]];

/** Text is handed on in pieces of about this many characters. */
const PIECE_CHARS = 64 * 1024;

/** manifest.json's text, in pieces, with each mark replaced by its list as JSON.stringify(…, null, 2) lays it out. */
export function* manifestChunks(manifest: object, lists: QuestionLists): Generator<string> {
  let text = `${JSON.stringify(manifest, null, 2)}\n`;
  const places = [
    { mark: markText('question_ids', QUESTION_IDS_MARK), write: () => idsText(lists.question_ids()) },
    { mark: markText('conversation_units', CONVERSATION_UNITS_MARK), write: () => unitsText(lists.conversation_units) },
  ];
  for (const { mark, write } of places) {
    const at = text.indexOf(mark);
    if (at === -1) continue;
    yield text.slice(0, at);
    yield* write();
    text = text.slice(at + mark.length);
  }
  yield text;
}

/** The mark's text as a top-level member's value: `"key": ` is cut off, its indentation kept. */
function markText(key: string, mark: unknown): string {
  const member = JSON.stringify({ [key]: mark }, null, 2);
  const opening = `{\n  ${JSON.stringify(key)}: `;
  return member.slice(opening.length, -'\n}'.length);
}

function* idsText(ids: Iterable<string>): Generator<string> {
  yield* pieces(ids, (id) => JSON.stringify(id), '    ');
}

function* unitsText(units: QuestionLists['conversation_units']): Generator<string> {
  if (units === undefined) throw new Error('manifestChunks: conversation_units is marked but not given');
  yield* pieces(
    units(),
    (unit) => (unit.length === 0 ? '[]' : `[${unit.map((id) => `\n      ${JSON.stringify(id)}`).join(',')}\n    ]`),
    '    ',
  );
}

/** `[`, each item on its own line at `indent`, `]` (`[]` for none), in pieces of about PIECE_CHARS. */
function* pieces<T>(items: Iterable<T>, text: (item: T) => string, indent: string): Generator<string> {
  let piece = '[';
  let any = false;
  for (const item of items) {
    piece += `${any ? ',' : ''}\n${indent}${text(item)}`;
    any = true;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield any ? `${piece}\n  ]` : `${piece}]`;
}

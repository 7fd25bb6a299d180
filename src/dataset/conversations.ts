/**
 * @module dataset/conversations
 * Conversations across the rows of a dataset: the rows sharing a `conversation` id are its turns,
 * numbered 1, 2, … by `turn`, and are sent in order in one chat session. A row without
 * `conversation` is a one-turn conversation (a question on its own, as before conversations).
 * The rows of one conversation may stand anywhere in the file; the conversation takes the place of
 * its first row.
 */
import type { DatasetRow } from './schema.js';

/** What the conversation checks read of a row. */
export type TurnRow = Pick<DatasetRow, 'line' | 'conversation' | 'turn' | 'persona_id' | 'project_id'>;

/**
 * Every problem of the conversations, one line each, `file:line: column: message`: a turn without
 * a conversation, a conversation row without a turn, a turn given twice, a gap in the turns (or
 * turns not starting at 1), and a later turn asking for another persona or project than its first
 * (the session keeps the ones its first turn created it with).
 */
export function conversationProblems(rows: readonly TurnRow[], file: string): string[] {
  const problems: string[] = [];
  const byConversation = new Map<string, Map<number, TurnRow>>();
  for (const row of rows) {
    const at = `${file}:${row.line}`;
    if (row.conversation === null) {
      if (row.turn !== null)
        problems.push(
          `${at}: turn: turn ${row.turn} has no conversation (give the conversation id, or leave turn empty for a question on its own)`,
        );
      continue;
    }
    if (row.turn === null) {
      problems.push(`${at}: turn: conversation ${JSON.stringify(row.conversation)} needs a turn number (1, 2, …)`);
      continue;
    }
    let turns = byConversation.get(row.conversation);
    if (turns === undefined) byConversation.set(row.conversation, (turns = new Map()));
    const first = turns.get(row.turn);
    if (first !== undefined)
      problems.push(
        `${at}: turn: conversation ${JSON.stringify(row.conversation)} has turn ${row.turn} twice (first on line ${first.line})`,
      );
    else turns.set(row.turn, row);
  }
  for (const [id, turns] of byConversation) {
    const numbers = [...turns.keys()].sort((a, b) => a - b);
    const name = JSON.stringify(id);
    numbers.forEach((n, i) => {
      const expected = (numbers[i - 1] ?? 0) + 1;
      if (n !== expected) {
        const missing = n - expected === 1 ? `turn ${expected}` : `turns ${expected}–${n - 1}`;
        problems.push(
          `${file}:${turns.get(n)!.line}: turn: conversation ${name} has no ${missing} (its turns: ${numbers.join(', ')})`,
        );
      }
    });
    const opening = turns.get(numbers[0]!)!;
    for (const n of numbers.slice(1)) {
      const row = turns.get(n)!;
      for (const column of ['persona_id', 'project_id'] as const) {
        if (row[column] !== null && row[column] !== opening[column]) {
          problems.push(
            `${file}:${row.line}: ${column}: ${row[column]} differs from turn ${numbers[0]} of conversation ${name} (line ${opening.line}): a conversation's session keeps the ${column === 'persona_id' ? 'persona' : 'project'} its first turn created it with`,
          );
        }
      }
    }
  }
  return problems.sort((a, b) => lineOf(a) - lineOf(b));
}

const lineOf = (problem: string): number => Number(/:(\d+):/.exec(problem)?.[1] ?? 0);

/**
 * The dataset as the units a plan sends: each conversation's rows in turn order, where its first
 * row stands in the file; each row without a conversation alone. Assumes conversationProblems found
 * nothing.
 */
export function conversationUnits<R extends Pick<DatasetRow, 'conversation' | 'turn'>>(rows: readonly R[]): R[][] {
  const units: R[][] = [];
  const byId = new Map<string, R[]>();
  for (const row of rows) {
    if (row.conversation === null) {
      units.push([row]);
      continue;
    }
    let unit = byId.get(row.conversation);
    if (unit === undefined) {
      byId.set(row.conversation, (unit = []));
      units.push(unit);
    }
    unit.push(row);
  }
  for (const unit of byId.values()) unit.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
  return units;
}

/** Whether any row is a turn of a conversation. */
export const hasConversations = (rows: readonly Pick<DatasetRow, 'conversation'>[]): boolean =>
  rows.some((row) => row.conversation !== null);

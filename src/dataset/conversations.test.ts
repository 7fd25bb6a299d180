import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { conversationUnits } from './conversations.js';
import { readDataset } from './read-csv.js';
import { toolIdsOf } from './tools.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chatbench-conversations-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TOOLS = toolIdsOf([
  ['internal_search', 1],
  ['generate_image', 2],
  ['web_search', 3],
]);
async function read(lines: string[]) {
  await writeFile(join(dir, 'c.csv'), lines.join('\n'));
  return readDataset({ path: 'c.csv', cwd: dir }, { toolIds: TOOLS });
}
async function problemsOf(lines: string[]): Promise<readonly string[]> {
  const error = await read(lines).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems;
}

describe('conversations in a dataset', () => {
  it('turns of a conversation are read with their number; a turn row without an id is conversation#turn', async () => {
    const dataset = await read([
      'question,conversation,turn,expected_tools,forced_tool',
      'How many PTO days?,pto,1,internal_search,',
      'Alone,,,,',
      'And for contractors?,pto,2,SearchTool|web_search,3',
      'Draw it,pto,3,,generate_image',
    ]);
    expect(
      dataset.rows.map((r) => [r.id, r.conversation, r.turn, r.expectations.expected_tools, r.forced_tool]),
    ).toEqual([
      ['pto#1', 'pto', 1, ['internal_search'], null],
      ['2', null, null, [], null],
      ['pto#2', 'pto', 2, ['SearchTool', 'web_search'], { id: 3 }],
      ['pto#3', 'pto', 3, [], { name: 'generate_image' }],
    ]);
    expect(conversationUnits(dataset.rows).map((unit) => unit.map((r) => r.id))).toEqual([
      ['pto#1', 'pto#2', 'pto#3'],
      ['2'],
    ]);
  });

  it('every problem across rows, with file and line', async () => {
    expect(
      await problemsOf([
        'id,question,conversation,turn,persona_id',
        'a1,first,a,1,',
        'a3,third,a,3,',
        'b1,first,b,1,2',
        'b1x,again,b,1,',
        'b2,second,b,2,5',
        'lone,no conversation,,2,',
        'c,no turn,c,,',
        'd2,starts late,d,2,',
      ]),
    ).toEqual([
      'c.csv:3: turn: conversation "a" has no turn 2 (its turns: 1, 3)',
      'c.csv:5: turn: conversation "b" has turn 1 twice (first on line 4)',
      'c.csv:6: persona_id: 5 differs from turn 1 of conversation "b" (line 4): a conversation\'s session keeps the persona its first turn created it with',
      'c.csv:7: turn: turn 2 has no conversation (give the conversation id, or leave turn empty for a question on its own)',
      'c.csv:8: turn: conversation "c" needs a turn number (1, 2, …)',
      'c.csv:9: turn: conversation "d" has no turn 1 (its turns: 2)',
    ]);
  });

  it('bad cells of the new columns', async () => {
    expect(
      await problemsOf([
        'question,conversation,turn,expected_tools,forced_tool',
        'q,a,0,,',
        'q,b,x,,',
        'q,,,web_search|WEB_SEARCH,',
        'q,,,,a|b',
        'q,,,a||b,-3',
      ]),
    ).toEqual([
      'c.csv:2: turn: "0" is not a turn number (1, 2, …)',
      'c.csv:3: turn: "x" is not a turn number (1, 2, …)',
      'c.csv:4: expected_tools: element 2 "WEB_SEARCH" names the same tool as element 1',
      'c.csv:5: forced_tool: "a|b": one tool only (the service forces one tool per message)',
      'c.csv:6: expected_tools: element 2 is empty',
      'c.csv:6: forced_tool: "-3" is not a tool id (a non-negative integer) or a tool name',
    ]);
  });
});

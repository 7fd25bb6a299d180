/**
 * @module sets/json-position
 * Says where a JSON text goes wrong. V8's JSON.parse messages sometimes give a position and
 * sometimes only quote the start of the input (which could echo a secret header value), so
 * chatbench finds the position itself with a small scanner run only after JSON.parse failed.
 */

/** Line and column (both 1-based) of the first character JSON cannot accept, plus a short reason. */
export interface JsonErrorAt {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Returns where `text` stops being JSON, or undefined if it is valid JSON. */
export function findJsonError(text: string): JsonErrorAt | undefined {
  let at = 0;
  const fail = (reason: string): never => {
    throw new Stop(at, reason);
  };
  const describe = (): string =>
    at >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[at])}`;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at += 1;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail(describe());
      at += 1;
    }
  };
  const string = () => {
    at += 1; // opening quote
    for (;;) {
      const char = text[at];
      if (char === undefined) fail('unterminated string');
      else if (char === '"') break;
      else if (char < ' ') fail('control character in a string (escape it, e.g. \\n)');
      else if (char === '\\') {
        at += 1;
        const escape = text[at];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('bad \\u escape');
          at += 4;
        } else if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail('bad escape in a string');
      }
      at += 1;
    }
    at += 1;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null) fail(describe());
    else at += match[0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') object();
    else if (char === '[') array();
    else if (char === '"') string();
    else if (char === 't') literal('true');
    else if (char === 'f') literal('false');
    else if (char === 'n') literal('null');
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) number();
    else fail(describe());
  };
  const members = (close: string, member: () => void, what: string) => {
    at += 1;
    space();
    if (text[at] === close) {
      at += 1;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[at] === ',') {
        at += 1;
        space();
        if (text[at] === close) fail(`trailing comma before "${close}"`);
      } else if (text[at] === close) {
        at += 1;
        return;
      } else fail(`${describe()}: expected "," or "${close}" ${what}`);
    }
  };
  const object = () =>
    members(
      '}',
      () => {
        space();
        if (text[at] !== '"') fail(`${describe()}: expected a double-quoted property name`);
        string();
        space();
        if (text[at] !== ':') fail(`${describe()}: expected ":" after a property name`);
        at += 1;
        value();
      },
      'after a property value',
    );
  const array = () => members(']', value, 'after an array element');

  try {
    value();
    space();
    if (at < text.length) fail(`${describe()} after the JSON value`);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.at).split('\n');
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, reason: error.reason };
  }
}

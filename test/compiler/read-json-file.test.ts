/**
 * The JSON reader's nesting limit, at and past it: a file 64 levels deep is read (its problems, if any, are about
 * what it says), one level more is one `invalid-file` problem at the start of the file, whatever the reader.
 */
import { describe, expect, it } from '@jest/globals';
import { MAX_JSON_NESTING, readJsonText } from '../../compiler/reading/read-json-file.js';

/** A JSON text of arrays and objects nested `levels` deep, around one string. */
function nested(levels: number): string {
  let text = '"x"';
  for (let level = 0; level < levels; level++) text = level % 2 === 0 ? `[${text}]` : `{ "a": ${text} }`;
  return text;
}

describe('the JSON reader’s nesting limit', () => {
  it('is 64 levels: a file at it is read with every place, one level deeper is refused', () => {
    expect(MAX_JSON_NESTING).toBe(64);
    const atLimit = readJsonText('a.json', nested(MAX_JSON_NESTING));
    expect(atLimit.problems).toEqual([]);
    const innermost = Array.from({ length: MAX_JSON_NESTING }, (_, level) => ((MAX_JSON_NESTING - 1 - level) % 2 === 0 ? 0 : 'a'));
    expect(atLimit.read?.positions.nearest(innermost)).toEqual({ line: 1, column: nested(MAX_JSON_NESTING).indexOf('"x"') + 1 });
    expect(readJsonText('a.json', nested(MAX_JSON_NESTING + 1))).toEqual({
      read: undefined,
      problems: [
        {
          file: 'a.json',
          line: 1,
          column: 1,
          path: [],
          code: 'invalid-file',
          message: 'The file nests arrays and objects more than 64 levels deep; no definitions, resource, test or custom roles file does.',
          fix: 'Remove the nesting: definitions, resources and tests are shallow objects.',
        },
      ],
    });
  });
});

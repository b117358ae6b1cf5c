import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../core/errors.js';
import { JsonText } from './json-text.js';

function parseError(text: string): string {
  try {
    JsonText.parse(text, 'file.json');
  } catch (error) {
    if (isMemoryError(error, 'INVALID_INPUT')) return error.message;
    throw error;
  }
  throw new Error('parsed');
}

describe('JsonText', () => {
  it('names the line and column of the first JSON error', () => {
    expect(parseError('{\n  "a": 1,\n}')).toMatch(/^file\.json:3:1: not valid JSON/);
    expect(parseError('{\n  // note\n  "a": 1\n}')).toMatch(/^file\.json:2:3: /);
    expect(parseError('[1, 2]')).toMatch(/the top level is not a JSON object/);
  });

  it('edits only the spans it changes: tabs, CRLF, missing final newline and BOM survive', () => {
    const original = '\uFEFF{\r\n\t"a": [1,2],\r\n\t"b": { "c": true }\r\n}';
    const doc = JsonText.parse(original, 'f');
    doc.set(['d'], 'x');
    expect(doc.text()).toBe('\uFEFF{\r\n\t"a": [1,2],\r\n\t"b": { "c": true },\r\n\t"d": "x"\r\n}');
    doc.set(['d'], undefined);
    expect(doc.value()).toEqual({ a: [1, 2], b: { c: true } });
  });

  it('indents insertions like the file does', () => {
    const doc = JsonText.parse('{\n    "a": 1\n}\n', 'f');
    doc.set(['obj'], { k: [1] });
    expect(doc.text()).toBe(
      '{\n    "a": 1,\n    "obj": {\n        "k": [\n            1\n        ]\n    }\n}\n',
    );
  });

  it('writes a new or blank file as two-space JSON with a final newline, and nothing when empty', () => {
    expect(JsonText.parse(undefined, 'f').text()).toBe('');
    const doc = JsonText.parse('  \n', 'f');
    doc.set(['a', 'b'], 1);
    expect(doc.text()).toBe('{\n  "a": {\n    "b": 1\n  }\n}\n');
  });
});

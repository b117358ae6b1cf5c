import { describe, expect, it } from 'vitest';

import { parseRequest } from './engine-protocol.js';
import { LineBuffer } from './engine-wire.js';

const TOKEN = 'f'.repeat(64);
const line = (value: unknown) => JSON.stringify(value);

describe('parseRequest', () => {
  it('accepts a versioned request with the token', () => {
    expect(parseRequest(line({ v: 1, id: 3, token: TOKEN, op: 'ping' }), TOKEN)).toEqual({
      ok: true,
      id: 3,
      op: 'ping',
    });
    const recall = parseRequest(
      line({
        v: 1,
        id: 'r1',
        token: TOKEN,
        op: 'recall',
        args: { query: 'pnpm', scope: { projectKey: '/p', includeGlobal: true }, limit: 5 },
      }),
      TOKEN,
    );
    expect(recall).toMatchObject({ ok: true, op: 'recall', args: { query: 'pnpm', limit: 5 } });
  });

  it('refuses a missing or wrong token before looking at the version or op, and closes', () => {
    for (const token of [undefined, '', 'x'.repeat(64), `${TOKEN}0`, 42]) {
      expect(parseRequest(line({ v: 99, id: 1, token, op: 'nope' }), TOKEN)).toEqual({
        ok: false,
        id: 1,
        code: 'UNAUTHORIZED',
        message: 'wrong or missing token',
        close: true,
      });
    }
  });

  it('names an unsupported version, an unknown op and bad recall arguments', () => {
    expect(parseRequest(line({ v: 2, id: 1, token: TOKEN, op: 'ping' }), TOKEN)).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED_VERSION',
    });
    expect(parseRequest(line({ v: 1, id: 1, token: TOKEN, op: 'rm' }), TOKEN)).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
      message: 'unknown op "rm"',
    });
    const bad = parseRequest(
      line({ v: 1, id: 1, token: TOKEN, op: 'recall', args: { query: '', limit: 0 } }),
      TOKEN,
    );
    expect(bad).toMatchObject({ ok: false, code: 'BAD_REQUEST', close: false });
    // A privilege-shaped extra argument is refused, not ignored.
    const extra = parseRequest(
      line({
        v: 1,
        id: 1,
        token: TOKEN,
        op: 'recall',
        args: {
          query: 'q',
          scope: { projectKey: null, includeGlobal: true },
          limit: 1,
          origin: 'user',
        },
      }),
      TOKEN,
    );
    expect(extra).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it('refuses text that is not a request object', () => {
    for (const text of ['{', '[1]', '"ping"', line({ v: 1, token: TOKEN, op: 'ping' })]) {
      expect(parseRequest(text, TOKEN)).toMatchObject({
        ok: false,
        code: 'BAD_REQUEST',
        close: true,
      });
    }
  });
});

describe('LineBuffer', () => {
  it('splits lines across chunks', () => {
    const buffer = new LineBuffer(100);
    expect(buffer.push(Buffer.from('{"a":'))).toEqual([]);
    expect(buffer.push(Buffer.from('1}\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(buffer.push(Buffer.from(':3}\n'))).toEqual(['{"c":3}']);
    expect(buffer.overflow).toBe(false);
  });

  it('flags a line longer than the limit, with or without its newline', () => {
    const open = new LineBuffer(10);
    open.push(Buffer.from('x'.repeat(6)));
    open.push(Buffer.from('x'.repeat(6)));
    expect(open.overflow).toBe(true);
    const closed = new LineBuffer(10);
    expect(closed.push(Buffer.from(`${'y'.repeat(11)}\n`))).toEqual([]);
    expect(closed.overflow).toBe(true);
  });
});

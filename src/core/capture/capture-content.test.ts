import { describe, expect, it } from 'vitest';

import { capText, capWithMarker, collectText } from './cap-text.js';
import { buildCapture, CAPTURE_FIELD_CAPS, displayPath, errorHead } from './capture-content.js';

describe('capText', () => {
  it('never cuts a surrogate pair in half', () => {
    const capped = capText('ab😀cd', 3);
    expect(capped).toEqual({ text: 'ab', dropped: 4 });
  });

  it('marks a cut field with the number of dropped characters', () => {
    expect(capWithMarker('x'.repeat(10), 4)).toBe('xxxx … [truncated 6 chars]');
    expect(capWithMarker('short', 10)).toBe('short');
    expect(capWithMarker(42, 10)).toBe('');
  });
});

describe('collectText', () => {
  it('gathers strings from an unknown shape within a character and node budget', () => {
    const value = [{ type: 'text', text: 'first' }, { nested: ['second', { deep: 'third' }] }];
    expect(collectText(value, 100).text).toBe('text\nfirst\nsecond\nthird');
    const wide = Array.from({ length: 10_000 }, () => 'y');
    const bounded = collectText(wide, 1_000_000, 50);
    expect(bounded.text.split('\n').length).toBeLessThanOrEqual(50);
    expect(bounded.dropped).toBeGreaterThan(0);
  });
});

describe('buildCapture', () => {
  const cwd = '/home/dev/acme';

  it('summarises an Edit as a path and a one-line diff', () => {
    const built = buildCapture(
      'edit',
      {
        toolName: 'Edit',
        toolInput: {
          file_path: `${cwd}/src/a.ts`,
          old_string: 'let a = 1;\nlet b = 2;',
          new_string: 'const a = 1;',
        },
        cwd,
      },
      12,
    );
    expect(built).toEqual({
      ok: true,
      kind: 'capture',
      content: 'Edited src/a.ts: - let a = 1; / + const a = 1; (2→1 lines)',
    });
  });

  it('skips an edit below the length floor and one without a path', () => {
    expect(
      buildCapture(
        'edit',
        { toolName: 'Edit', toolInput: { file_path: '/x', old_string: 'a', new_string: 'b' }, cwd },
        12,
      ),
    ).toEqual({
      ok: false,
      reason: 'below_length_floor',
    });
    expect(
      buildCapture(
        'edit',
        { toolName: 'Edit', toolInput: { old_string: 'a'.repeat(40) }, cwd },
        12,
      ),
    ).toEqual({
      ok: false,
      reason: 'missing_fields',
    });
  });

  it('keeps the head of a command error, bounded and marked', () => {
    const error = `Exit code 2\n${'\n'.repeat(100_000)}${Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n')}`;
    const head = errorHead(error);
    expect(head).toBe('Exit code 2\n… [error output truncated]');
    const built = buildCapture(
      'exec_failure',
      { toolName: 'Bash', toolInput: { command: 'make test' }, error, cwd },
      5,
    );
    expect(built).toEqual({
      ok: true,
      kind: 'error',
      content: `Command failed: make test\n${head}`,
    });
  });

  it('caps a 5 MB fetch result before building and marks the cut', () => {
    const built = buildCapture(
      'network',
      {
        toolName: 'WebFetch',
        toolInput: { url: 'https://example.org/a' },
        toolResponse: { result: 'z'.repeat(5_000_000) },
        cwd,
      },
      12,
    );
    expect(built.ok && built.content.length).toBeLessThan(CAPTURE_FIELD_CAPS.outputText + 200);
    expect(built.ok && built.content).toMatch(
      /^Fetched https:\/\/example\.org\/a:\nz+ … \[truncated 4996000 chars\]$/,
    );
  });

  it('writes a fix line naming the command', () => {
    expect(
      buildCapture(
        'exec_success',
        { toolName: 'Bash', toolInput: { command: '  npm test ' }, cwd },
        12,
      ),
    ).toEqual({
      ok: true,
      kind: 'fix',
      content: 'fixed: npm test now passes',
    });
  });

  it('shows paths outside the project in full', () => {
    expect(displayPath('/etc/hosts', cwd)).toBe('/etc/hosts');
    expect(displayPath(`${cwd}/x/y.ts`, `${cwd}/`)).toBe('x/y.ts');
  });
});

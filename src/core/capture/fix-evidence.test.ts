import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { TRUST_ORDER } from '../origin/origin-class.js';
import {
  composeFix,
  errorBodyOf,
  type EvidenceRow,
  FIX_EDITS_HEADING,
  FIX_ERROR_HEADING,
  FIX_EVIDENCE_CAPS,
  fixCommandOf,
  selectEvidence,
  tailOf,
  usableEvidence,
} from './fix-evidence.js';

const COMMAND = 'npm test';

function row(overrides: Partial<EvidenceRow> & Pick<EvidenceRow, 'id'>): EvidenceRow {
  return {
    kind: 'capture',
    origin: 'local_edit',
    originTool: 'Edit',
    content: 'Edited src/sum.ts: - return a - b; / + return a + b; (1→1 lines)',
    quarantine: 'none',
    tainted: false,
    createdAt: '2026-12-05T10:00:01.000Z',
    ...overrides,
  };
}

const failure = row({
  id: '01A',
  kind: 'error',
  origin: 'local_exec',
  originTool: 'Bash',
  content: `Command failed: ${COMMAND}\nExit code 1\nAssertionError: expected -1 to be 3`,
  createdAt: '2026-12-05T10:00:00.000Z',
});

describe('composeFix', () => {
  it('carries the error it fixed and the edit that fixed it under the first line', () => {
    const text = composeFix(selectEvidence(COMMAND, failure, [row({ id: '01B' })], 'local_exec'));
    expect(text).toBe(
      [
        'fixed: npm test now passes',
        FIX_ERROR_HEADING,
        'Exit code 1\nAssertionError: expected -1 to be 3',
        FIX_EDITS_HEADING,
        '- Edited src/sum.ts: - return a - b; / + return a + b; (1→1 lines)',
      ].join('\n'),
    );
    expect(fixCommandOf(text)).toBe(COMMAND);
  });

  it('keeps the end of a long error, at most errorTail characters of it', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} of the failing run`);
    const long = { ...failure, content: `Command failed: ${COMMAND}\n${lines.join('\n')}` };
    const text = composeFix({ command: COMMAND, error: long, edits: [], withheld: 0 });
    const error = text.slice(text.indexOf(FIX_ERROR_HEADING) + FIX_ERROR_HEADING.length + 1);
    expect(error.length).toBeLessThanOrEqual(FIX_EVIDENCE_CAPS.errorTail);
    expect(error.startsWith('… line ')).toBe(true);
    expect(error.endsWith('line 199 of the failing run')).toBe(true);
    expect(text).not.toContain('line 0 of');
  });

  it('lists at most five edits, oldest first, counts the rest and drops repeats', () => {
    const edits = Array.from({ length: 8 }, (_, i) =>
      row({
        id: `01B${i}`,
        content: `Edited src/f${i}.ts: + x (1→1 lines)`,
        createdAt: `2026-12-05T10:00:0${i + 1}.000Z`,
      }),
    );
    const repeat = { ...edits[0]!, id: '01C', createdAt: '2026-12-05T10:00:09.500Z' };
    const text = composeFix({
      command: COMMAND,
      edits: [...edits].reverse().concat(repeat),
      withheld: 0,
    });
    expect(text.split('\n')).toEqual([
      'fixed: npm test now passes',
      FIX_EDITS_HEADING,
      '- Edited src/f0.ts: + x (1→1 lines)',
      '- Edited src/f1.ts: + x (1→1 lines)',
      '- Edited src/f2.ts: + x (1→1 lines)',
      '- Edited src/f3.ts: + x (1→1 lines)',
      '- Edited src/f4.ts: + x (1→1 lines)',
      '- … 3 more edits',
    ]);
  });

  it('is the first line alone when there is no evidence', () => {
    expect(composeFix({ command: COMMAND, edits: [], withheld: 0 })).toBe(
      'fixed: npm test now passes',
    );
  });

  it('never exceeds the total cap, and its first line and command survive any input', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 5000 }),
        fc.array(fc.string({ maxLength: 1000 }), { maxLength: 12 }),
        fc.nat({ max: 20 }),
        (command, error, edits, withheld) => {
          const text = composeFix({
            command,
            error: { ...failure, content: `Command failed: ${command}\n${error}` },
            edits: edits.map((content, i) =>
              row({ id: `01B${String(i).padStart(2, '0')}`, content: `Edited ${content}` }),
            ),
            withheld,
          });
          expect(text.length).toBeLessThanOrEqual(FIX_EVIDENCE_CAPS.total);
          expect(text.startsWith(`fixed: ${command} now passes`)).toBe(true);
        },
      ),
    );
  });

  it('is its first line only when the command alone fills the cap', () => {
    const command = 'x'.repeat(FIX_EVIDENCE_CAPS.total);
    const text = composeFix({ command, error: failure, edits: [row({ id: '01B' })], withheld: 1 });
    expect(text).toBe(`fixed: ${command} now passes`);
  });
});

describe('selectEvidence', () => {
  it('withholds rows held for review, written tainted or less trusted than the fix', () => {
    const held = row({ id: '01B', quarantine: 'pending', content: 'Edited held.ts: + x' });
    const tainted = row({ id: '01C', tainted: true, content: 'Edited tainted.ts: + x' });
    const weak = row({ id: '01D', origin: 'network', content: 'Edited weak.ts: + x' });
    const good = row({ id: '01E', content: 'Edited good.ts: + x' });
    const evidence = selectEvidence(COMMAND, failure, [held, tainted, weak, good], 'local_exec');
    expect(evidence.edits.map((e) => e.id)).toEqual(['01E']);
    expect(evidence.withheld).toBe(3);
    const text = composeFix(evidence);
    expect(text).not.toMatch(/held\.ts|tainted\.ts|weak\.ts/);
    expect(text).toContain('Evidence withheld: 3 rows held for review or less trusted');
  });

  it('withholds the error itself when it may not lend its text', () => {
    const heldError = { ...failure, quarantine: 'pending' as const };
    const evidence = selectEvidence(COMMAND, heldError, [], 'local_exec');
    expect(evidence.error).toBeUndefined();
    expect(composeFix(evidence)).not.toContain('AssertionError');
  });

  it('takes only edit captures written after the failure', () => {
    const before = row({ id: '009', createdAt: '2026-12-05T09:59:59.000Z' });
    const sameMsEarlierId = row({ id: '019', createdAt: failure.createdAt });
    const read = row({ id: '01B', originTool: 'WebFetch', origin: 'local_edit' });
    const after = row({ id: '01C' });
    const evidence = selectEvidence(
      COMMAND,
      failure,
      [before, sameMsEarlierId, read, after],
      'local_exec',
    );
    expect(evidence.edits.map((e) => e.id)).toEqual(['01C']);
    expect(evidence.withheld).toBe(0);
  });
});

describe('usableEvidence', () => {
  it('lends text only from rows at least as trusted as the fix (property over the vocabulary)', () => {
    for (const fixOrigin of TRUST_ORDER) {
      for (const origin of [...TRUST_ORDER, 'made-up']) {
        const usable = usableEvidence({ origin, quarantine: 'none', tainted: false }, fixOrigin);
        // Outside the vocabulary reads as `unknown`, the least trusted.
        const known = (TRUST_ORDER as readonly string[]).indexOf(origin);
        const rank = known === -1 ? TRUST_ORDER.length - 1 : known;
        expect(usable).toBe(rank <= TRUST_ORDER.indexOf(fixOrigin));
      }
      for (const quarantine of ['pending', 'approved', 'rejected'] as const) {
        expect(usableEvidence({ origin: 'user', quarantine, tainted: false }, fixOrigin)).toBe(
          false,
        );
      }
    }
  });
});

describe('errorBodyOf, tailOf and fixCommandOf', () => {
  it('strips the command line of an error capture, even a command over several lines', () => {
    expect(errorBodyOf('Command failed: a &&\n  b\nboom', 'a &&\n  b')).toBe('boom');
    expect(errorBodyOf('Something else\nboom', 'x')).toBe('boom');
  });

  it('never starts a tail on half of a surrogate pair', () => {
    const text = `${'😀'.repeat(20)}`;
    const tail = tailOf(text, 7);
    const first = tail.replace(/^… /, '').charCodeAt(0);
    expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
    expect(tail.length).toBeLessThanOrEqual(9);
  });

  it('reads the command of a fix with or without evidence and refuses other shapes', () => {
    expect(fixCommandOf('fixed: npm test now passes')).toBe('npm test');
    expect(fixCommandOf('fixed: a\nb now passes')).toBe('a\nb');
    expect(fixCommandOf(`fixed: npm test now passes\n${FIX_EDITS_HEADING}\n- x now passes`)).toBe(
      'npm test',
    );
    expect(fixCommandOf('Command failed: npm test')).toBeUndefined();
  });
});

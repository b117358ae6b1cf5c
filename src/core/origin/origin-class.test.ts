import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  isMoreTrusted,
  isOriginClass,
  isTaintSource,
  leastTrusted,
  ORIGIN_CLASSES,
  type OriginClass,
  parseOriginClass,
  TRUST_ORDER,
  trustBand,
  trustRank,
} from './origin-class.js';

const anyOrigin = fc.constantFrom(...TRUST_ORDER);

describe('origin vocabulary and trust order', () => {
  it('lists exactly the eight classes of the issue, most trusted first', () => {
    expect(TRUST_ORDER).toEqual([
      'user',
      'agent',
      'local_edit',
      'local_read',
      'local_exec',
      'agent_tainted',
      'network',
      'unknown',
    ]);
    expect(ORIGIN_CLASSES).toBe(TRUST_ORDER);
  });

  it('puts unknown last and user first', () => {
    expect(trustRank('user')).toBe(0);
    expect(trustRank('unknown')).toBe(TRUST_ORDER.length - 1);
    expect(isMoreTrusted('local_read', 'local_exec')).toBe(true);
    expect(isMoreTrusted('network', 'agent_tainted')).toBe(false);
  });

  it('parses strings outside the vocabulary as unknown', () => {
    expect(parseOriginClass('user')).toBe('user');
    for (const value of ['USER', ' user', 'user_deliberate', '', null, 3, {}]) {
      expect(parseOriginClass(value)).toBe('unknown');
      expect(isOriginClass(value)).toBe(false);
    }
  });

  it('ranks a forged class string as unknown, never as trusted', () => {
    expect(trustRank('root' as OriginClass)).toBe(trustRank('unknown'));
    expect(trustBand('root' as OriginClass)).toBe('untrusted');
  });
});

describe('trustBand', () => {
  it('maps each class to a band', () => {
    expect(TRUST_ORDER.map((o) => [o, trustBand(o)])).toEqual([
      ['user', 'high'],
      ['agent', 'medium'],
      ['local_edit', 'medium'],
      ['local_read', 'low'],
      ['local_exec', 'low'],
      ['agent_tainted', 'untrusted'],
      ['network', 'untrusted'],
      ['unknown', 'untrusted'],
    ]);
  });

  it('never gives a less trusted class a better band', () => {
    const bandRank = { high: 0, medium: 1, low: 2, untrusted: 3 };
    fc.assert(
      fc.property(anyOrigin, anyOrigin, (a, b) => {
        if (trustRank(a) <= trustRank(b)) {
          expect(bandRank[trustBand(a)]).toBeLessThanOrEqual(bandRank[trustBand(b)]);
        }
      }),
    );
  });
});

describe('leastTrusted (derived memories, Biba rule)', () => {
  it('returns unknown for no sources', () => {
    expect(leastTrusted([])).toBe('unknown');
  });

  it('takes the network origin when a user memory is merged with a network one (W10-merge)', () => {
    expect(leastTrusted(['user', 'network'])).toBe('network');
  });

  it('is order-independent', () => {
    fc.assert(
      fc.property(fc.array(anyOrigin, { minLength: 1, maxLength: 12 }), (origins) => {
        const reversed = [...origins].reverse();
        const sorted = [...origins].sort();
        expect(leastTrusted(reversed)).toBe(leastTrusted(origins));
        expect(leastTrusted(sorted)).toBe(leastTrusted(origins));
      }),
    );
  });

  it('is never more trusted than any input and is one of the inputs', () => {
    fc.assert(
      fc.property(fc.array(anyOrigin, { minLength: 1, maxLength: 12 }), (origins) => {
        const result = leastTrusted(origins);
        expect(origins).toContain(result);
        for (const origin of origins) expect(isMoreTrusted(result, origin)).toBe(false);
      }),
    );
  });

  it('treats a forged class among the sources as unknown', () => {
    expect(leastTrusted(['user', 'admin' as OriginClass])).toBe('unknown');
  });
});

describe('isTaintSource', () => {
  it('taints on network, unknown and agent_tainted by default', () => {
    const tainting = TRUST_ORDER.filter((o) => isTaintSource(o, { strict: false }));
    expect(tainting).toEqual(['agent_tainted', 'network', 'unknown']);
  });

  it('adds local reads and command output in strict mode', () => {
    const tainting = TRUST_ORDER.filter((o) => isTaintSource(o, { strict: true }));
    expect(tainting).toEqual(['local_read', 'local_exec', 'agent_tainted', 'network', 'unknown']);
  });

  it('taints on a value outside the vocabulary', () => {
    expect(isTaintSource('web' as OriginClass, { strict: false })).toBe(true);
  });
});

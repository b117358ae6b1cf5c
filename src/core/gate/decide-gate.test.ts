import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { NO_CUES } from '../cues/detect-cues.js';
import { ORIGIN_CLASSES, type OriginClass } from '../origin/origin-class.js';
import { type BypassDecision, decideBypass } from '../privileges/privileges.js';
import {
  decideGate,
  type GateCandidate,
  NEAR_DUPLICATE_THRESHOLD,
  resolveExactDuplicate,
  withinFloodBudget,
} from './decide-gate.js';

const NO_BYPASS: BypassDecision = decideBypass({ origin: 'network', cues: NO_CUES });
const CUE_BYPASS: BypassDecision = decideBypass({ origin: 'user', cues: ['decision'] });
const FORCED: BypassDecision = decideBypass({
  origin: 'user',
  cues: [],
  force: { channel: 'cli' },
});

const TEXT = 'Run the integration tests with pnpm test:int before every push to main';
const RECAPTURE = 'run the integration tests with pnpm test:int before every push to main.';

function candidate(over: Partial<GateCandidate> = {}): GateCandidate {
  return {
    id: '01HZZZZZZZZZZZZZZZZZZZZZZA',
    content: RECAPTURE,
    origin: 'user',
    quarantine: 'none',
    ...over,
  };
}

function gate(origin: OriginClass, candidates: GateCandidate[], bypass = NO_BYPASS) {
  return decideGate({
    content: TEXT,
    origin,
    bypass,
    candidates,
    threshold: NEAR_DUPLICATE_THRESHOLD,
  });
}

describe('decideGate', () => {
  it.each([
    ['no candidates', 'network', [], NO_BYPASS, { action: 'store', reason: 'novel' }],
    [
      'a near-duplicate as trusted',
      'network',
      [candidate({ origin: 'network' })],
      NO_BYPASS,
      { action: 'merge', targetId: candidate().id },
    ],
    [
      'a near-duplicate more trusted',
      'network',
      [candidate({ origin: 'user' })],
      NO_BYPASS,
      { action: 'merge' },
    ],
    [
      'a near-duplicate less trusted',
      'user',
      [candidate({ origin: 'network', quarantine: 'pending' })],
      NO_BYPASS,
      { action: 'store', reason: 'novel', keptApartFrom: { id: candidate().id } },
    ],
    [
      'a near-duplicate a person rejected',
      'network',
      [candidate({ origin: 'network', quarantine: 'rejected' })],
      NO_BYPASS,
      { action: 'reject', reason: 'previously_rejected' },
    ],
    ['a cue bypass', 'user', [candidate()], CUE_BYPASS, { action: 'store', reason: 'bypass_cue' }],
    ['a forced write', 'user', [candidate()], FORCED, { action: 'store', reason: 'forced' }],
    [
      'an exact twin (left to the store dedupe)',
      'network',
      [candidate({ content: `  ${TEXT}  ` })],
      NO_BYPASS,
      { action: 'store', reason: 'novel' },
    ],
    [
      'an unrelated memory',
      'agent',
      [candidate({ content: 'The staging database lives in eu-west-1' })],
      NO_BYPASS,
      { action: 'store', reason: 'novel' },
    ],
  ] as const)('with %s decides %o', (_name, origin, candidates, bypass, expected) => {
    expect(gate(origin, [...candidates], bypass)).toMatchObject(expected);
  });

  it('merges into the most similar eligible candidate', () => {
    const far = candidate({
      id: '01HZZZZZZZZZZZZZZZZZZZZZZB',
      content: 'Run the integration tests with pnpm test:int before every push to the main branch',
    });
    const near = candidate({ id: '01HZZZZZZZZZZZZZZZZZZZZZZC' });
    expect(gate('agent', [far, near])).toMatchObject({ action: 'merge', targetId: near.id });
  });

  it('never merges texts that differ by a negation or a number', () => {
    const negated = candidate({ content: `${RECAPTURE} never` });
    const versioned = candidate({ content: TEXT.replace('main', 'main 2') });
    expect(gate('agent', [negated])).toEqual({ action: 'store', reason: 'novel' });
    expect(gate('agent', [versioned])).toEqual({ action: 'store', reason: 'novel' });
  });

  it('lets no untrusted origin skip the novelty check, whatever the cues', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<OriginClass>(
          'network',
          'unknown',
          'agent_tainted',
          'local_exec',
          'local_read',
        ),
        fc.subarray(['error', 'decision', 'important'] as const),
        (origin, cues) => {
          const bypass = decideBypass({ origin, cues, force: { channel: 'mcp_remember' } });
          const decision = gate(origin, [candidate({ origin })], bypass);
          expect(decision.action).toBe('merge');
        },
      ),
    );
  });
});

describe('resolveExactDuplicate', () => {
  it('supersedes a less trusted copy, merges otherwise, and keeps a rejection', () => {
    expect(resolveExactDuplicate('user', { origin: 'network', quarantine: 'pending' })).toBe(
      'supersede',
    );
    expect(resolveExactDuplicate('user', { origin: 'network', quarantine: 'rejected' })).toBe(
      'supersede',
    );
    expect(resolveExactDuplicate('network', { origin: 'user', quarantine: 'none' })).toBe('merge');
    expect(resolveExactDuplicate('network', { origin: 'network', quarantine: 'rejected' })).toBe(
      'reject',
    );
    expect(resolveExactDuplicate('agent', { origin: 'bogus', quarantine: 'none' })).toBe(
      'supersede',
    );
  });
});

describe('withinFloodBudget', () => {
  const limit = { windowMinutes: 10, maxPerOrigin: { network: 2, unknown: 0 } };

  it('allows writes below the budget and refuses at it', () => {
    expect(withinFloodBudget('network', 1, limit)).toBe(true);
    expect(withinFloodBudget('network', 2, limit)).toBe(false);
    expect(withinFloodBudget('unknown', 0, limit)).toBe(false);
  });

  it('treats an origin absent from the budget as unlimited', () => {
    for (const origin of ORIGIN_CLASSES.filter((o) => o !== 'network' && o !== 'unknown')) {
      expect(withinFloodBudget(origin, 1_000_000, limit)).toBe(true);
    }
  });
});

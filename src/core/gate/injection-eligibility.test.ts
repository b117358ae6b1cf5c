import { describe, expect, it } from 'vitest';

import { ORIGIN_CLASSES } from '../origin/origin-class.js';
import { injectionEligibility } from './injection-eligibility.js';

const base = { origin: 'user', tainted: false, quarantine: 'none', supersededBy: null } as const;

describe('injectionEligibility', () => {
  it('admits only user and untainted agent memories by default', () => {
    const eligible = ORIGIN_CLASSES.filter(
      (origin) => injectionEligibility({ ...base, origin }).eligible,
    );
    expect(eligible).toEqual(['user', 'agent']);
  });

  it('keeps an approved network memory out: approval never upgrades the origin', () => {
    expect(injectionEligibility({ ...base, origin: 'network', quarantine: 'approved' })).toEqual({
      eligible: false,
      reasons: ['origin_not_allowlisted'],
    });
  });

  it('lists every reason a memory is withheld', () => {
    expect(
      injectionEligibility({
        origin: 'agent_tainted',
        tainted: true,
        quarantine: 'pending',
        supersededBy: '01HZZZZZZZZZZZZZZZZZZZZZZA',
      }).reasons,
    ).toEqual(['origin_not_allowlisted', 'tainted', 'quarantine_pending', 'superseded']);
    expect(injectionEligibility({ ...base, quarantine: 'rejected' }).reasons).toEqual([
      'quarantine_rejected',
    ]);
  });

  it('fails closed on an origin outside the vocabulary', () => {
    expect(injectionEligibility({ ...base, origin: 'USER' }).eligible).toBe(false);
  });
});

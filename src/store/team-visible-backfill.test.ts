/**
 * The schema backfills of team visibility (SQLite v5, PostgreSQL v2) write the rule of
 * core/privileges `defaultTeamVisible` out as SQL; this keeps the two from drifting apart.
 */
import { describe, expect, it } from 'vitest';

import { TRUST_ORDER } from '../core/origin/origin-class.js';
import { defaultTeamVisible } from '../core/privileges/privileges.js';
import { PG_MIGRATIONS } from './postgres/postgres-schema.js';
import { MIGRATIONS } from './sqlite/sqlite-schema.js';

function sharedOrigins(sql: string): string[] {
  const list = /visibility = 'project' AND origin IN \(([^)]*)\)/.exec(sql)?.[1] ?? '';
  return [...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!).sort();
}

describe('team visibility backfill', () => {
  const expected = TRUST_ORDER.filter((origin) => defaultTeamVisible(origin, 'project')).sort();

  it('shares exactly the origins defaultTeamVisible shares, on both backends', () => {
    expect(expected.length).toBeGreaterThan(0);
    expect(sharedOrigins(MIGRATIONS.find((m) => m.name === 'teams')?.sql ?? '')).toEqual(expected);
    expect(sharedOrigins(PG_MIGRATIONS.find((m) => m.name === 'teams')?.sql ?? '')).toEqual(
      expected,
    );
  });

  it('never shares a global memory by default', () => {
    for (const origin of TRUST_ORDER) expect(defaultTeamVisible(origin, 'global')).toBe(false);
  });
});

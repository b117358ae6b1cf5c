import { describe, expect, it } from 'vitest';

import { parseDateOption } from './date-option.js';

// A fixed "now" in the local time zone, so today/yesterday are computed from it, never from the clock.
const NOW = new Date(2026, 7, 21, 15, 30, 0);
const localDay = (offset: number) => new Date(2026, 7, 21 + offset);

describe('parseDateOption', () => {
  it('reads today and yesterday as local days, their start for --since and their end for --until', () => {
    expect(parseDateOption('--since', 'yesterday', 'start', NOW)).toBe(localDay(-1).toISOString());
    expect(parseDateOption('--until', 'Yesterday', 'end', NOW)).toBe(
      new Date(localDay(0).getTime() - 1).toISOString(),
    );
    expect(parseDateOption('--since', 'today', 'start', NOW)).toBe(localDay(0).toISOString());
  });

  it('reads ages in hours, days and weeks back from now', () => {
    const back = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
    expect(parseDateOption('--since', '3d', 'start', NOW)).toBe(back(3 * 86_400_000));
    expect(parseDateOption('--since', '2w', 'start', NOW)).toBe(back(14 * 86_400_000));
    expect(parseDateOption('--since', '12h', 'start', NOW)).toBe(back(12 * 3_600_000));
    expect(parseDateOption('--since', '3 days ago', 'start', NOW)).toBe(back(3 * 86_400_000));
    expect(parseDateOption('--since', ' 1 week ', 'start', NOW)).toBe(back(7 * 86_400_000));
  });

  it('reads an ISO date as a whole UTC day and an ISO date-time as given', () => {
    expect(parseDateOption('--since', '2026-08-01', 'start', NOW)).toBe('2026-08-01T00:00:00.000Z');
    expect(parseDateOption('--until', '2026-08-01', 'end', NOW)).toBe('2026-08-01T23:59:59.999Z');
    expect(parseDateOption('--since', '2026-08-01T09:00:00Z', 'start', NOW)).toBe(
      '2026-08-01T09:00:00.000Z',
    );
    expect(parseDateOption('--since', '2026-08-01T11:00+02:00', 'start', NOW)).toBe(
      '2026-08-01T09:00:00.000Z',
    );
  });

  it.each(['createdAfter', 'yesterdy', '3x', '2026-02-30', '2026-13-01', '', 'last week', '-3d'])(
    'refuses %j naming the option and the forms it takes, never a store field',
    (raw) => {
      expect(() => parseDateOption('--since', raw, 'start', NOW)).toThrow(
        /^--since ".*" is not a date\. Give an ISO date such as 2026-08-01 or 2026-08-01T09:00:00Z, today, yesterday, or an age such as 3d, 2w or 12h\.$/,
      );
    },
  );
});

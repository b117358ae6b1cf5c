/**
 * Dates as a person types them on the command line, for every option that takes one (`recall --since`
 * and `--until`, `import claude-code --since`): an ISO date or date-time, `today`, `yesterday`, or an
 * age such as `3d`, `2w`, `12h` (also `3 days`, `2 weeks ago`). Parsed at the edge, before any store is
 * opened, so a bad value is reported in the words of the option, never as a store field.
 */
import { MemoryError } from '../core/errors.js';

const HOUR_MS = 3_600_000;
const UNIT_MS: Record<string, number> = { h: HOUR_MS, d: 24 * HOUR_MS, w: 7 * 24 * HOUR_MS };
const AGE = /^(\d{1,6})\s*(h|hours?|d|days?|w|weeks?)(?:\s+ago)?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Which end of a whole day a day-only value means: `start` for "since", `end` for "until". */
export type DayEnd = 'start' | 'end';

/**
 * The instant `raw` names, as ISO-8601 UTC. A whole day (`2026-08-01`, `today`, `yesterday`) is its
 * first millisecond for a lower bound and its last for an upper bound; `today` and `yesterday` are days
 * of the local time zone, an ISO date a UTC day (as everywhere else in mnemo). Throws INVALID_INPUT
 * naming `flag` and the accepted forms.
 */
export function parseDateOption(
  flag: string,
  raw: string,
  end: DayEnd,
  now: Date = new Date(),
): string {
  const text = raw.trim().toLowerCase();
  const dayBound = (start: Date): string =>
    new Date(end === 'start' ? start.getTime() : start.getTime() + 24 * HOUR_MS - 1).toISOString();
  if (text === 'today' || text === 'yesterday') {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    if (text === 'yesterday') day.setDate(day.getDate() - 1);
    return dayBound(day);
  }
  const age = AGE.exec(text);
  if (age !== null) {
    const unit = UNIT_MS[(age[2] ?? 'd').charAt(0)] ?? HOUR_MS;
    return new Date(now.getTime() - Number(age[1]) * unit).toISOString();
  }
  const day = ISO_DAY.exec(text);
  if (day !== null) {
    const at = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    // Date.UTC rolls 2026-02-30 over to March: a day that does not exist is refused, not moved.
    if (at.toISOString().slice(0, 10) === text) return dayBound(at);
  } else if (ISO_TIME.test(text)) {
    const at = new Date(raw.trim());
    if (!Number.isNaN(at.getTime())) return at.toISOString();
  }
  throw new MemoryError(
    'INVALID_INPUT',
    `${flag} "${raw.slice(0, 40)}" is not a date. Give an ISO date such as 2026-08-01 or ` +
      `2026-08-01T09:00:00Z, today, yesterday, or an age such as 3d, 2w or 12h.`,
  );
}

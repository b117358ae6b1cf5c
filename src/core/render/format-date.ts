/**
 * Dates in the item header. Core has no clock and may not use `Date`, so ISO-8601 strings are sliced and
 * day counts come from calendar arithmetic.
 */

const ISO_DAY = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/u;

/** `YYYY-MM-DD` of an ISO-8601 timestamp, or `date-unknown` when it does not start with one. */
export function formatDay(iso: string | null | undefined): string {
  const match = ISO_DAY.exec(iso ?? '');
  return match === null ? 'date-unknown' : match[0];
}

/**
 * Whole days from `fromIso` to `toIso`, by calendar date (time of day ignored), or `undefined` when either
 * is not an ISO date or the span is negative (clock skew between writers says nothing useful).
 */
export function daysBetween(fromIso: string, toIso: string): number | undefined {
  const from = dayNumber(fromIso);
  const to = dayNumber(toIso);
  if (from === undefined || to === undefined || to < from) return undefined;
  return to - from;
}

/** Days since 1970-01-01 of the date `iso` starts with (proleptic Gregorian, H. Hinnant's algorithm). */
function dayNumber(iso: string): number | undefined {
  const match = ISO_DAY.exec(iso);
  if (match === null) return undefined;
  const month = Number(match[2]);
  const day = Number(match[3]);
  const year = Number(match[1]) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * Pure ISO-8601 timestamp parsing for read-time ranking. Core may not touch the `Date` global (the clock
 * is a port), yet memories carry their times as ISO strings, so ranking parses them itself.
 */

export const MS_PER_DAY = 86_400_000;

// Accepts what the stores write (`toISOString()`: `2024-05-01T12:30:00.000Z`) plus the common variants a
// hand-edited import may contain: date only, no seconds, a space instead of `T`, `,` decimals, and `±hh:mm`,
// `±hhmm` or `±hh` offsets.
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Epoch milliseconds of an ISO-8601 timestamp, or `undefined` when the text is not one or names an
 * impossible date (Feb 30, hour 24, …). A timestamp without a zone is read as UTC, unlike
 * `Date.parse`, which would use the machine's zone: mnemo only ever stores UTC, and ranking must not
 * depend on where it runs. Fractions beyond milliseconds are truncated, as `Date.parse` does.
 */
export function parseIsoTimestamp(text: string): number | undefined {
  const match = ISO_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = match;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const hour = hs === undefined ? 0 : Number(hs);
  const minute = mis === undefined ? 0 : Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const offsetMinutes = parseOffsetMinutes(zone);
  if (offsetMinutes === undefined) return undefined;
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  return seconds * 1000 + millis - offsetMinutes * 60_000;
}

function parseOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant, "chrono-Compatible Low-Level
 * Date Algorithms", days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

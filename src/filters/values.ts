// How filters read values, in one place for both engines. The SQL dialect (sqlite.ts) mirrors each
// rule, and test/filters.test.ts holds the two to the same answers.

/** ASCII case folding: what SQLite's lower() does, so that both engines fold alike. */
export const foldCase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** The number a string spells as a JSON number ("5", "-2.5e3", " 7 "), else null: SQLite's json_valid + json_type agree on that set. */
export function numericString(text: string): number | null {
  if (!/^[ \t\n\r]*-?[0-9]/.test(text)) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'number' ? value : null;
  } catch {
    // "5x" and the like: a string, not a number
    return null;
  }
}

/** A number, or a numeric string read as its number; null otherwise. */
export function numericValue(value: unknown): number | null {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? numericString(value) : null;
}

const DATE_PREFIX = /^[0-9]{4}-[0-9]{2}-[0-9]{2}/;
const SPACE = /^[ \t\n\v\f\r]*/;

/** Two digits in [min, max] at `at`, else null. */
function twoDigits(text: string, at: number, min: number, max: number): number | null {
  const pair = text.slice(at, at + 2);
  if (!/^[0-9]{2}$/.test(pair)) return null;
  const n = Number(pair);
  return n >= min && n <= max ? n : null;
}

/**
 * The instant (ms since the epoch) a date string names, else null. Dates are ISO 8601 texts that
 * start `YYYY-MM-DD`, optionally with a time `HH:MM[:SS[.fff]]` and a zone `Z` or `+HH:MM`; no zone
 * is UTC. The grammar is SQLite's (date.c), so `unixepoch()` in the SQL form reads every such text
 * the same way, down to its quirks (several spaces or `T`s between date and time, day 31 of any
 * month rolling over, sub-millisecond digits rounded).
 */
export function dateValue(text: string): number | null {
  if (!DATE_PREFIX.test(text)) return null;
  const year = Number(text.slice(0, 4));
  const month = twoDigits(text, 5, 1, 12);
  const day = twoDigits(text, 8, 1, 31);
  if (month === null || day === null) return null;
  let rest = text.slice(10);
  rest = rest.replace(/^[ \t\n\v\f\r T]*/, '');
  let ms = 0;
  let zoneMinutes = 0;
  if (rest !== '') {
    const hour = twoDigits(rest, 0, 0, 24);
    const minute = twoDigits(rest, 3, 0, 59);
    if (hour === null || minute === null || rest[2] !== ':') return null;
    rest = rest.slice(5);
    let seconds = 0;
    if (rest[0] === ':') {
      const whole = twoDigits(rest, 1, 0, 59);
      if (whole === null) return null;
      rest = rest.slice(3);
      let fraction = 0;
      const digits = /^\.([0-9]+)/.exec(rest);
      if (digits) {
        let scale = 1;
        for (const d of digits[1]!) {
          fraction = fraction * 10 + Number(d);
          scale *= 10;
        }
        fraction /= scale;
        if (fraction > 0.999) fraction = 0.999;
        rest = rest.slice(digits[0].length);
      }
      seconds = whole + fraction;
    }
    ms = hour * 3_600_000 + minute * 60_000 + Math.trunc(seconds * 1000 + 0.5);
    rest = rest.replace(SPACE, '');
    const sign = rest[0];
    if (sign === 'Z' || sign === 'z') {
      rest = rest.slice(1);
    } else if (sign === '+' || sign === '-') {
      const zoneHour = twoDigits(rest, 1, 0, 14);
      const zoneMinute = twoDigits(rest, 4, 0, 59);
      if (zoneHour === null || zoneMinute === null || rest[3] !== ':') return null;
      zoneMinutes = (sign === '-' ? -1 : 1) * (zoneHour * 60 + zoneMinute);
      rest = rest.slice(6);
    }
    if (rest.replace(SPACE, '') !== '') return null;
  }
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day); // Date.UTC would read years below 100 as 19xx
  return midnight.getTime() + ms - zoneMinutes * 60_000;
}

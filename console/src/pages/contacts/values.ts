// A contact's values as people read them, by the type GET /contacts/fields infers for the field:
// moments in the viewer's time zone with the zone shown, calendar days as days (the same in every
// zone), numbers for the viewer's locale, booleans as Yes/No, objects and arrays as compact JSON.
import type { FieldType } from '../../ui/filterModel';

/** A calendar day without a time (`2024-05-01`). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A moment (`2024-05-01T09:30:00Z`); without an offset it is the viewer's local time. */
export const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

// a day is formatted in UTC, where it was parsed: the viewer's zone would move it to the day before
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
// every digit a number holds: a value is shown, not rounded
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });

export const yesNo = (on: boolean): string => (on ? 'Yes' : 'No');

/** A timestamp (`createdAt`) in the viewer's time zone, the zone named. */
export const formatMoment = (iso: string): string => momentFormat.format(new Date(iso));

function formatDate(text: string): string {
  if (DAY.test(text)) return dayFormat.format(new Date(`${text}T00:00:00Z`));
  const time = MOMENT.test(text) ? new Date(text) : null;
  return time && !Number.isNaN(time.getTime()) ? momentFormat.format(time) : text;
}

/** One value as a cell or a definition shows it; `type` is its field's (a `mixed` field's values each by their own kind). */
export function formatValue(value: unknown, type: FieldType | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return yesNo(value);
  if (typeof value === 'number') return numberFormat.format(value);
  if (typeof value === 'string') return type === 'date' ? formatDate(value) : value;
  return JSON.stringify(value);
}

/** The key of a data field as GET /contacts/fields names it (`data.plan` is `plan`). */
export const keyOf = (field: string): string => field.slice('data.'.length);

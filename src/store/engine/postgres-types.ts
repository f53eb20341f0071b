// Values as the store's callers get them from SQLite, read from PostgreSQL: integers of any width
// and numerics as numbers, booleans as 1 or 0, JSON as its text (callers parse it where they did).
import pg from 'pg';
import type { CustomTypesConfig } from 'pg';

const OID = { bool: 16, int8: 20, json: 114, numeric: 1700, jsonb: 3802 } as const;

/** An int8 as a number; one past 2^53 would come back as another number, so it is refused. */
function int8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`the integer ${text} is beyond what a JavaScript number holds exactly (2^53)`);
  return value;
}

const PARSERS: Partial<Record<number, (text: string) => unknown>> = {
  [OID.bool]: (text) => (text === 't' ? 1 : 0),
  [OID.int8]: int8,
  [OID.numeric]: Number,
  [OID.json]: (text) => text,
  [OID.jsonb]: (text) => text,
};

export const storeTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (format !== 'binary' && PARSERS[oid]) || pg.types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

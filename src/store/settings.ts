// The settings table: named values of the daemon itself (the link-signing secret, the generated TLS
// certificate, a test's clock shift). The one place it is read and written.
import { sql, type Db } from './db.js';

export function readSetting(db: Db, name: string): string | null {
  return (sql(db, 'SELECT value FROM settings WHERE name = ?').get(name) as { value: string } | undefined)?.value ?? null;
}

export function writeSetting(db: Db, name: string, value: string): void {
  sql(db, 'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
}

/** The stored value, or `value` stored first when there is none (two processes starting at once agree on one). */
export function settingOrCreate(db: Db, name: string, value: () => string): string {
  sql(db, 'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, value());
  return readSetting(db, name)!;
}

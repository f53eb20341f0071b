// A PostgreSQL database of a test file's own: made on the server of POSTMILL_TEST_DATABASE_URL (else
// the local one at 127.0.0.1:5432, trust authentication) and dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server's maintenance database, where test databases are created and dropped. */
export const SERVER_URL = process.env.POSTMILL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** The URL of the new, empty database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Runs statements on the maintenance database, on a connection of its own. */
async function onServer(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`these tests need a PostgreSQL server at ${SERVER_URL} (set POSTMILL_TEST_DATABASE_URL): ${(error as Error).message}`);
  }
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `postmill_test_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

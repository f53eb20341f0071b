// Which engine a command may use. The PostgreSQL store is being built behind the engine seam
// (docs/decisions/001-sqlite-and-postgresql.md); until the store functions run on it, a command
// given database.url stops rather than quietly using SQLite in dataDir instead.
import { ConfigError, environmentVariableOf, type Config } from '../../config.js';

/** Throws (one line, no URL: it may carry a password) when the configuration names PostgreSQL. */
export function assertServedEngine(config: Config): void {
  if (config.database.url === null) return;
  throw new ConfigError(
    `database.url names a PostgreSQL database, and this build of Postmill cannot serve from PostgreSQL yet; unset database.url (${environmentVariableOf('database.url')}) to use the SQLite store in dataDir`,
  );
}

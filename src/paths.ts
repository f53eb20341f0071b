import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

/** The package root: dist/ (or the test build) sits one level below it, next to src/ and schema/. */
function findRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/paths.js -> root; .build-test/src/paths.js -> root
  return here.endsWith('src') ? resolve(here, '..', '..') : resolve(here, '..');
}

export const packageRoot = findRoot();
export const schemaDir = resolve(packageRoot, 'schema');
export const migrationsDir = resolve(packageRoot, 'src', 'store', 'migrations');

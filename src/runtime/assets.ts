// Files shipped with the program, as a checkout or an npm install has them: in the package directory.
// The single executable is built with assets.sea.ts in this module's place (scripts/package.mjs), which
// reads the same files from the executable's embedded assets; both export the same functions.
import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { WorkerScript } from './worker-scripts.js';

/** The package root, next to schema/ and src/: this module is <build>/runtime/assets.js, the build dist/ or .build-test/src/. */
const build = dirname(dirname(fileURLToPath(import.meta.url)));
const packageRoot = basename(build) === 'src' ? resolve(build, '..', '..') : resolve(build, '..');

/** The worker-thread scripts, compiled next to this module's own folder. */
const WORKER_FILES: Record<WorkerScript, string> = {
  mail: '../outbound/dkim/worker.js',
  compose: '../workers/compose.js',
  checkpoint: '../store/checkpoint-worker.js',
  reader: '../store/reader-worker.js',
};

/** A text file by its path in the package (`schema/send.json`, `src/store/migrations/001_core.sql`). */
export function readAsset(path: string): string {
  return readFileSync(join(packageRoot, path), 'utf8');
}

/** A file by its path in the package, as bytes (the built console's files). */
export function readAssetBytes(path: string): Buffer {
  return readFileSync(join(packageRoot, path));
}

/** The names of the files in a package folder. */
export function listAssets(dir: string): string[] {
  return readdirSync(join(packageRoot, dir));
}

export function startWorker(script: WorkerScript, options: WorkerOptions = {}): Worker {
  return new Worker(new URL(WORKER_FILES[script], import.meta.url), options);
}

/** Options for opening a database: the native addon is found by better-sqlite3 itself here. */
export function sqliteOptions(_dataDir: string): Database.Options {
  return {};
}


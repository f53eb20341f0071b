// The single executable's version of assets.ts (put in its place by scripts/package.mjs): the
// schemas, migrations, worker scripts and the native addon (better-sqlite3's) are
// embedded assets.
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAsset } from 'node:sea';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { WorkerScript } from './worker-scripts.js';

/** Written by the build: every embedded folder and the names of its files. */
let folders: Record<string, string[]> | null = null;

export function readAsset(path: string): string {
  return getAsset(path, 'utf8');
}

export function readAssetBytes(path: string): Buffer {
  return Buffer.from(getAsset(path));
}

export function listAssets(dir: string): string[] {
  folders ??= JSON.parse(getAsset('folders.json', 'utf8')) as Record<string, string[]>;
  return folders[dir] ?? [];
}

export function startWorker(script: WorkerScript, options: WorkerOptions = {}): Worker {
  return new Worker(getAsset(`workers/${script}.cjs`, 'utf8'), { ...options, eval: true });
}

const loaded = new Map<string, object>();

/**
 * A native addon can only be loaded from a file: an embedded one is written into the data directory
 * (private to the daemon's user, unlike /tmp, and not mounted noexec), named by its content hash so
 * an upgrade brings its own. A file already there is loaded only when its bytes are the embedded
 * ones; anything else is written over first.
 */
function embeddedAddon(name: string, dataDir: string): object {
  const known = loaded.get(name);
  if (known) return known;
  const bytes = Buffer.from(getAsset(`${name}.node`));
  const dir = join(dataDir, 'native');
  const file = join(dir, `${name}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.node`);
  if (!existsSync(file) || !readFileSync(file).equals(bytes)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, bytes, { mode: 0o700 });
    renameSync(partial, file);
  }
  const module = { exports: {} };
  process.dlopen(module, file);
  loaded.set(name, module.exports);
  return module.exports;
}

export function sqliteOptions(dataDir: string): Database.Options {
  // better-sqlite3 takes a loaded addon object here (its docs say so); its types list only a path.
  return { nativeBinding: embeddedAddon('better_sqlite3', dataDir) as unknown as string };
}


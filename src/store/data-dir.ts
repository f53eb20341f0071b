import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { settingFailed } from '../config.js';

/**
 * Creates the data directory and its missing parents, one level at a time. (Node's recursive
 * mkdir loops forever on some paths, /proc/x for one, which made the start spin at full CPU.)
 */
export function ensureDataDir(dataDir: string): void {
  const missing: string[] = [];
  for (let dir = resolve(dataDir); ; dir = dirname(dir)) {
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotCreate(dataDir, err);
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
      continue;
    }
    if (!isDir) throw settingFailed('dataDir', `${dir} is not a directory`);
    break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotCreate(dataDir, err);
    }
  }
}

const cannotCreate = (dataDir: string, err: unknown) =>
  settingFailed(
    'dataDir',
    `cannot create ${resolve(dataDir)} (${(err as NodeJS.ErrnoException).code ?? String(err)}); create it and give the daemon's user write access`,
  );

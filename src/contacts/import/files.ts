// Uploaded CSV files live in the data directory until their import has run: `imports/incoming/`
// while the upload is read, then `imports/<projectId>.<jobId>.csv`, synced to disk before the 202.
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDataDir } from '../../store/data-dir.js';

export const importsDir = (dataDir: string) => join(dataDir, 'imports');
export const incomingDir = (dataDir: string) => join(importsDir(dataDir), 'incoming');

export const importFileName = (projectId: string, jobId: string) => `${projectId}.${jobId}.csv`;
export const importFilePath = (dataDir: string, name: string) => join(importsDir(dataDir), name);

const NAME = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\.csv$/;

export function ensureImportDirs(dataDir: string): void {
  ensureDataDir(incomingDir(dataDir));
}

async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Moves an upload to its place and makes it durable (the file and the directory entry). */
export async function keepUpload(dataDir: string, uploaded: string, name: string): Promise<void> {
  const target = importFilePath(dataDir, name);
  await rename(uploaded, target);
  await fsync(target);
  await fsync(importsDir(dataDir));
}

export async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/**
 * Files no import needs any more: uploads cut off mid-way, and files whose job has finished or is
 * gone (a crash between the job's end and the file's removal). Only files older than `before`.
 */
export async function sweepImportFiles(dataDir: string, before: number, unfinished: (projectId: string, jobId: string) => boolean): Promise<number> {
  let removed = 0;
  const candidates = [
    ...(await readdir(incomingDir(dataDir)).catch(() => [])).map((name) => ({ path: join(incomingDir(dataDir), name), job: null })),
    ...(await readdir(importsDir(dataDir)).catch(() => [])).flatMap((name) => {
      const match = NAME.exec(name);
      return match ? [{ path: importFilePath(dataDir, name), job: { projectId: match[1]!, jobId: match[2]! } }] : [];
    }),
  ];
  for (const { path, job } of candidates) {
    if (job && unfinished(job.projectId, job.jobId)) continue;
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.mtimeMs >= before) continue;
    await removeFile(path);
    removed++;
  }
  return removed;
}

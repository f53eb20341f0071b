// The built console (dist/console/app/, made by `npm run build`; embedded in the single executable),
// read once at start, each file with its gzip form beside it.
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { listAssets, readAssetBytes } from '../runtime/assets.js';

export interface ConsoleFile {
  body: Buffer;
  /** The gzip form, where it is smaller. */
  gzip: Buffer | null;
  type: string;
  /** Asset names carry a hash of their content: cached for good. index.html is never cached. */
  immutable: boolean;
}

export const CONSOLE_DIR = 'dist/console/app';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

function file(path: string, immutable: boolean): ConsoleFile {
  const body = readAssetBytes(`${CONSOLE_DIR}/${path}`);
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const packed = /^(text|image\/svg|application\/json)/.test(type) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null;
  return { body, gzip: packed && packed.length < body.length ? packed : null, type, immutable };
}

/** Every file of the console by its path under /app/ (`index.html`, `assets/index-abc.js`); null when it was never built. */
export function loadConsole(): Map<string, ConsoleFile> | null {
  let assets: string[];
  try {
    assets = listAssets(`${CONSOLE_DIR}/assets`);
  } catch {
    // no assets folder: the console was not built (npm run build), the API serves without it
    return null;
  }
  const files = new Map<string, ConsoleFile>([['index.html', file('index.html', false)]]);
  for (const name of assets) files.set(`assets/${name}`, file(`assets/${name}`, true));
  return files;
}

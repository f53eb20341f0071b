#!/usr/bin/env node
// Builds the single executable (Node's single executable applications): the app bundled into one
// CommonJS script by esbuild, with the worker-thread scripts, request and response schemas, SQL
// migrations (SQLite's and PostgreSQL's) and the native addon (better-sqlite3's) embedded as assets
// (src/runtime/assets.sea.ts reads them), with the built console (dist/console/app), injected into a copy of this machine's node binary.
//
//   node scripts/package.mjs [OUTPUT]     default dist/postmill-<platform>-<arch>
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const output = resolve(process.argv[2] ?? join(root, 'dist', `postmill-${process.platform}-${process.arch}`));
const work = mkdtempSync(join(tmpdir(), 'postmill-package-'));
const require = createRequire(import.meta.url);

/**
 * In the bundle, src/runtime/assets.ts is replaced by its embedded-assets twin; `debug`'s optional
 * `supports-color` is left out (an executable may only require built-in modules: Node warns at
 * every start for the attempt).
 */
const embeddedAssets = {
  name: 'embedded-assets',
  setup(b) {
    const assets = join(root, 'src', 'runtime', 'assets.js');
    b.onResolve({ filter: /assets\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === assets ? { path: join(root, 'src', 'runtime', 'assets.sea.ts') } : undefined));
    b.onResolve({ filter: /^supports-color$/ }, () => ({ path: 'supports-color', namespace: 'left-out' }));
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

const bundle = (entryPoints, outdir) =>
  build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [embeddedAssets],
    // TypeScript sources import './x.js'; esbuild finds the .ts beside it.
    resolveExtensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    logLevel: 'warning',
    legalComments: 'none',
  });

try {
  await bundle({ main: join(root, 'src', 'main.ts') }, work);
  await bundle(
    {
      mail: join(root, 'src', 'outbound', 'dkim', 'worker.ts'),
      compose: join(root, 'src', 'workers', 'compose.ts'),
      checkpoint: join(root, 'src', 'store', 'checkpoint-worker.ts'),
      reader: join(root, 'src', 'store', 'reader-worker.ts'),
    },
    join(work, 'workers'),
  );

  const assets = {};
  const folders = {};
  for (const folder of ['schema', 'schema/responses', 'src/store/migrations', 'src/store/migrations/postgres']) {
    folders[folder] = readdirSync(join(root, folder)).filter((f) => /\.(json|sql)$/.test(f));
    for (const file of folders[folder]) assets[`${folder}/${file}`] = join(root, folder, file);
  }
  // the built console (npm run build), served at /app/
  const app = join(root, 'dist', 'console', 'app');
  if (!existsSync(join(app, 'index.html'))) throw new Error('the console is not built: run `npm run build`, then package again');
  folders['dist/console/app/assets'] = readdirSync(join(app, 'assets'));
  for (const file of folders['dist/console/app/assets']) assets[`dist/console/app/assets/${file}`] = join(app, 'assets', file);
  assets['dist/console/app/index.html'] = join(app, 'index.html');
  writeFileSync(join(work, 'folders.json'), JSON.stringify(folders));
  assets['folders.json'] = join(work, 'folders.json');
  assets['package.json'] = join(root, 'package.json');
  assets['workers/mail.cjs'] = join(work, 'workers', 'mail.cjs');
  assets['workers/compose.cjs'] = join(work, 'workers', 'compose.cjs');
  assets['workers/checkpoint.cjs'] = join(work, 'workers', 'checkpoint.cjs');
  assets['workers/reader.cjs'] = join(work, 'workers', 'reader.cjs');
  assets['better_sqlite3.node'] = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

  const seaConfig = join(work, 'sea-config.json');
  const blob = join(work, 'sea.blob');
  writeFileSync(seaConfig, JSON.stringify({ main: join(work, 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));
  execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: ['ignore', 'ignore', 'inherit'] });

  mkdirSync(dirname(output), { recursive: true });
  rmSync(output, { force: true });
  copyFileSync(process.execPath, output);
  chmodSync(output, 0o755);
  const { inject } = require('postject');
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
  process.stdout.write(`${relative(process.cwd(), output) || output}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

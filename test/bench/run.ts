import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './load.js';

/** Runs every `*.bench.js` beside this file (or those named on the command line) and prints the figures. */
const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

for (const file of files) {
  const mod = (await import(pathToFileURL(`${here}/${file}`).href)) as { run: () => Promise<BenchResult> };
  const result = await mod.run();
  console.log(`\n## ${result.name}`);
  for (const [figure, value] of Object.entries(result.figures)) console.log(`  ${figure}: ${value}`);
}

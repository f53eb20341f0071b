import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { classifyMessage, verpAddress } from '../../src/inbound/classify.js';
import { cpuMs } from '../helpers/cpu-time.js';
import type { BenchResult } from './load.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/inbound/postfix-dsn-user-unknown.eml', import.meta.url));
const RUNS = 1000;

/**
 * What classifying one delivery report of 20 KB costs (a Postfix DSN whose quoted message is a long
 * newsletter), in CPU time after a warm-up: the figure test/classify.test.ts once bounded at 5 ms.
 */
export async function run(): Promise<BenchResult> {
  const base = readFileSync(FIXTURE, 'utf8');
  const raw = Buffer.from(base.replace('Our spring sale starts today.\n', 'Our spring sale starts today, with offers across the whole shop.\n'.repeat(300)));
  const envelope = { mailFrom: '', rcptTo: [verpAddress('786e17de-f7ae-407a-bfc8-7db485549fe9', 'shop.example')] };
  for (let i = 0; i < 50; i++) await classifyMessage(raw, envelope);
  const started = performance.now();
  const cpu = await cpuMs(async () => {
    for (let i = 0; i < RUNS; i++) await classifyMessage(raw, envelope);
  });
  const wall = performance.now() - started;
  return {
    name: 'classify',
    figures: { 'report bytes': raw.length, messages: RUNS, 'CPU ms per message': Number((cpu / RUNS).toFixed(2)), 'wall ms per message': Number((wall / RUNS).toFixed(2)) },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}

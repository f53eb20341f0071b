// Run as a child process by test/v8-settings.test.ts: keeps ~40 MB alive and churns garbage that
// lives long enough to reach the old generation, then prints the largest heap V8 let it grow to.
import { getHeapStatistics } from 'node:v8';
import { configureV8 } from '../../src/runtime/v8-settings.js';

if (process.argv[2] === 'configured') configureV8();
const alive: number[][] = [];
for (let i = 0; i < 40; i++) alive.push(new Array(125_000).fill(i + 0.5));
let largest = 0;
let garbage: number[][] = [];
for (let i = 0; i < 20_000; i++) {
  garbage.push(new Array(2_000).fill(i + 0.5));
  if (garbage.length > 2_000) garbage = [];
  if (i % 50 === 0) largest = Math.max(largest, getHeapStatistics().total_heap_size);
}
process.stdout.write(JSON.stringify({ largest, alive: alive.length }));

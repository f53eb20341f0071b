import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// configureV8 sets --heap-growing-percent at run time, which Node does not promise to honour (the
// single executable has no other way to pass it): the effect is measured, not assumed. The same
// allocations grow the heap to about half as much with it (~150-170 MB against ~300 MB here).
const largestHeap = (mode: string) =>
  (JSON.parse(execFileSync(process.execPath, [new URL('./helpers/heap-churn.js', import.meta.url).pathname, mode], { encoding: 'utf8' })) as { largest: number }).largest;

test('the heap growing factor set at run time takes effect: the same churn peaks far lower', () => {
  const defaults = largestHeap('default');
  const configured = largestHeap('configured');
  assert.ok(configured < defaults * 0.75, `largest heap ${(configured / 1e6).toFixed(0)} MB configured, ${(defaults / 1e6).toFixed(0)} MB by default`);
});

test.run();

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// A catch that drops its error turns a failure into a verdict without a trace: each one says why
// it is silent on its first line, or takes the error (`catch (err)`) and logs it.

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('every catch without its error says why on its first line', () => {
  const unexplained: string[] = [];
  let silent = 0;
  for (const file of files(SRC)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/\bcatch \{\s*$/.test(line)) return;
      silent++;
      if (!/^\s*\/\//.test(lines[i + 1] ?? '')) unexplained.push(`${relative(SRC, file)}:${i + 1}`);
    });
  }
  assert.ok(silent > 0, 'the pattern finds the catches it is about');
  assert.equal(unexplained, [], `catch {} without a comment saying why it is silent: ${unexplained.join(', ')}`);
});

test.run();

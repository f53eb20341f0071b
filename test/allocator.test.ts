// The daemon fixes glibc's mmap threshold at start through the allocator addon built by
// `npm install` (native/allocator); an operator's own setting in the environment wins.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon } from './helpers/daemon.js';

const glibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

async function settingOf(env: Record<string, string>): Promise<string | undefined> {
  const d = await startTestDaemon({ config: { log: { level: 'debug' } }, env });
  try {
    const line = d
      .stderr()
      .split('\n')
      .find((l) => l.includes('malloc mmap threshold'));
    return line ? (JSON.parse(line) as { setting?: string }).setting : undefined;
  } finally {
    await d.stop();
  }
}

test('the daemon fixes the mmap threshold itself: the addon was built and loads', async () => {
  assert.is(await settingOf({}), glibc ? 'fixed' : 'not glibc');
});

test('MALLOC_MMAP_THRESHOLD_ in the environment is left as the operator set it', async () => {
  assert.is(await settingOf({ MALLOC_MMAP_THRESHOLD_: '262144' }), 'set by the environment');
});

test.run();

import * as assert from 'uvu/assert';
import type { TestDaemon } from './daemon.js';
import { ADMIN } from './test-hooks.js';

/** The value of one sample of the Prometheus text, found by name and labels (all of them must match). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return null;
}

/** One sample of the daemon's /metrics now (the daemon needs ADMIN as its admin token); 0 when the series has none yet. */
export async function metric(daemon: TestDaemon, name: string, labels: Record<string, string> = {}): Promise<number> {
  const r = await daemon.request('GET', '/metrics', undefined, { key: ADMIN });
  assert.is(r.status, 200, String(r.body));
  return sample(r.body as string, name, labels) ?? 0;
}

// A latency probe in a process of its own, so that the load generator's work (building 40 MB
// bodies) never delays its clock: argv URL PUBLIC_KEY DURATION_MS. Every 20 ms it asks /health and
// tracks an event for another project, and sends back every latency over IPC, at the end of the
// duration or once the parent sends 'stop'.
import { call, closeAgent } from './load.js';

const [url, publicKey, durationMs] = process.argv.slice(2) as [string, string, string];
let end = performance.now() + Number(durationMs);
process.on('message', (m) => {
  if (m === 'stop') end = 0;
});
const health: number[] = [];
const track: number[] = [];
let errors = 0;
for (let i = 0; performance.now() < end; i++) {
  const t0 = performance.now();
  const h = await call(url, 'GET', '/health', null);
  health.push(performance.now() - t0);
  const t1 = performance.now();
  const t = await call(url, 'POST', '/v1/track', publicKey, { email: `probe${i % 100}@other.test`, event: 'probe' });
  track.push(performance.now() - t1);
  if (h.status !== 200 || t.status !== 200) errors++;
  await new Promise((r) => setTimeout(r, 20));
}
closeAgent();
process.send?.({ health, track, errors }, () => process.exit(0));

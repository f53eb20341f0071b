import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ProbeLatencies {
  /** Every /health latency, ms. */
  health: number[];
  /** Every /v1/track latency of the other project, ms. */
  track: number[];
  errors: number;
}

/**
 * The latency probe of test/bench/probe-process.ts in a process of its own (the caller's work, such
 * as building or sending a 38 MB message, never delays its clock): /health and a /v1/track of
 * another project every 20 ms until `stop`.
 */
export function startProbe(url: string, otherPublicKey: string): { stop(): Promise<ProbeLatencies> } {
  const script = fileURLToPath(new URL('./probe-process.js', import.meta.url));
  const child = fork(script, [url, otherPublicKey, String(10 * 60_000)]);
  const answered = new Promise<ProbeLatencies>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the latency probe exited with ${code}`)));
    child.once('message', (m) => resolve(m as ProbeLatencies));
  });
  answered.catch(() => undefined);
  return {
    stop: () => {
      child.send('stop');
      return answered;
    },
  };
}

/** The worst latency of each kind. */
export const worst = (p: ProbeLatencies) => ({ health: Math.round(Math.max(0, ...p.health)), track: Math.round(Math.max(0, ...p.track)), errors: p.errors });

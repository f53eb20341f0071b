import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startMailEnv, type MailEnv } from '../helpers/mail-env.js';
import { seedStore } from '../helpers/seed.js';
import { insertContact } from '../../src/contacts/store.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 10_000);
const WAITING = Number(process.env.BENCH_WAITING ?? 100_000);
const CLIENTS = 20;

/** An enabled workflow built through the API: steps linked in order, each `[type, config, from?, branch?]`. */
async function workflow(env: MailEnv, eventName: string, steps: [string, unknown, number?, string?][]): Promise<{ id: string; steps: string[] }> {
  const d = env.daemon;
  const w = (await d.request('POST', '/workflows', { name: eventName, eventName })).body;
  const ids: string[] = [w.steps[0].id];
  for (const [i, [type, config, from, branch]] of steps.entries()) {
    const step = (await d.request('POST', `/workflows/${w.id}/steps`, { type, name: `${type} ${i}`, config })).body;
    ids.push(step.id);
    await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: ids[from ?? i], toStepId: step.id, ...(branch ? { condition: { branch } } : {}) });
  }
  const enabled = await d.request('PATCH', `/workflows/${w.id}`, { enabled: true });
  if (enabled.status !== 200) throw new Error(JSON.stringify(enabled.body));
  return { id: w.id, steps: ids };
}

const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/**
 * Issue 13: 10,000 executions started by 10,000 tracked events, each a CONDITION, an UPDATE_CONTACT
 * and a SEND_EMAIL delivered to the loopback sink (time from the first event to the last delivery;
 * /v1/track p99 meanwhile). Then 100,000 executions waiting in a DELAY: CPU and RSS of the idle daemon.
 */
export async function run(): Promise<BenchResult> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startMailEnv({
    sinkDomains: ['flow.test'],
    senders: ['bench.test'],
    config: { log: { level: 'error' } },
    ...(profile ? { daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } } : {}),
  });
  try {
    const d = env.daemon;
    // what the daemon holds with nothing to do: the figure the waiting executions add to
    await new Promise((r) => setTimeout(r, 3000));
    const idleRss = rssMb(d.pid());
    const template = (await d.request('POST', '/templates', { name: 'w', subject: 'Hi {{name}}', body: '<p>Welcome {{name}}, plan {{tier}}</p>', from: 'hi@bench.test', type: 'TRANSACTIONAL' })).body.id;
    const flow = await workflow(env, 'signed-up', [
      ['CONDITION', { field: 'data.plan', operator: 'equals', value: 'pro' }],
      ['UPDATE_CONTACT', { updates: { tier: 'gold' } }, 1, 'yes'],
      ['SEND_EMAIL', { templateId: template }, 2],
      ['UPDATE_CONTACT', { updates: { tier: 'basic' } }, 1, 'no'],
      ['SEND_EMAIL', { templateId: template }, 4],
    ]);
    const started = performance.now();
    const track = await load(
      CLIENTS,
      120_000,
      async (i) => (await call(d.url, 'POST', '/v1/track', d.project.publicKey, { email: `user${i}@flow.test`, event: 'signed-up', data: { plan: i % 2 ? 'pro' : 'free', name: `User ${i}` } })).status === 200,
      (() => {
        let sent = 0;
        return () => ++sent > EXECUTIONS;
      })(),
    );
    const deadline = Date.now() + 180_000;
    let completed = 0;
    while (Date.now() < deadline) {
      completed = (await d.request('GET', `/workflows/${flow.id}/executions?status=COMPLETED&pageSize=1`)).body.total;
      if (completed >= EXECUTIONS && env.sink.messages.length >= EXECUTIONS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const allDoneSeconds = (performance.now() - started) / 1000;
    const figures: Record<string, number | string> = {
      [`executions completed (of ${EXECUTIONS})`]: completed,
      'mails delivered': env.sink.messages.length,
      'first event to last delivery s': Math.round(allDoneSeconds * 10) / 10,
      'track/s while starting': track.perSecond,
      'track p99 ms': track.p99Ms,
      'track max ms': track.maxMs,
    };

    // 100,000 executions waiting in a 30-day DELAY, written as the daemon leaves them: then the daemon idles.
    const waiting = await workflow(env, 'never', [['DELAY', { amount: 30, unit: 'days' }]]);
    const now = Date.now();
    await seedStore(d, (db) => {
      const execution = db.prepare(
        `INSERT INTO workflow_executions (id, workflow_id, project_id, contact_id, status, current_step_id, seq, started_at, updated_at) VALUES (?, ?, ?, ?, 'WAITING', ?, 1, ?, ?)`,
      );
      const run = db.prepare(`INSERT INTO workflow_step_runs (execution_id, seq, step_id, step_type, status, started_at) VALUES (?, 1, ?, 'DELAY', 'WAITING', ?)`);
      const timer = db.prepare(`INSERT INTO jobs (kind, project_id, payload, run_at, max_attempts, unique_key, created_at, updated_at) VALUES ('workflow.step', ?, ?, ?, 20, ?, ?, ?)`);
      for (let i = 0; i < WAITING; i++) {
        const contactId = randomUUID();
        insertContact(db, { id: contactId, projectId: d.project.id, email: `wait${i}@flow.test`, subscribed: true, data: {}, createdAt: now, updatedAt: now });
        const id = randomUUID();
        execution.run(id, waiting.id, d.project.id, contactId, waiting.steps[1], now, now);
        run.run(id, waiting.steps[1], now);
        timer.run(d.project.id, JSON.stringify({ executionId: id, seq: 1 }), now + 30 * 86_400_000, `workflow.step:${id}:1:timer`, now, now);
      }
    });
    await new Promise((r) => setTimeout(r, 3000));
    const pid = d.pid();
    const cpu0 = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 10_000));
    figures[`${WAITING} waiting: daemon CPU over 10 s idle (s)`] = Math.round((cpuSeconds(pid) - cpu0) * 1000) / 1000;
    figures['daemon RSS MB at start, empty store'] = idleRss;
    figures[`${WAITING} waiting: daemon RSS MB`] = rssMb(pid);
    const stillWaiting = (await d.request('GET', `/workflows/${waiting.id}/executions?status=WAITING&pageSize=1`)).body.total;
    figures['waiting executions listed'] = stillWaiting;
    return { name: 'workflows', figures };
  } finally {
    closeAgent();
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}

import { createServer } from 'node:http';
import { ShiftableClock } from './clock.js';
import type { Config } from './config.js';
import { createHttpApp } from './api/app.js';
import { savedClockOffset, testHookRoutes } from './api/test-hooks.js';
import { loadSchemas } from './http/validate.js';
import { startInbound, type InboundListener } from './inbound/listener.js';
import { JobRunner } from './jobs/runner.js';
import { createLogger } from './log.js';
import { listenOn } from './net/listen.js';
import { observeDaemon } from './metrics/observe.js';
import { startSubmission, type SubmissionListener } from './submission/listener.js';
import { DataBudget } from './net/data-budget.js';
import { ensureDefaultProject, type ProjectKeys } from './projects/service.js';
import { issueLink, setupUrl } from './accounts/links.js';
import { startCheckpointer } from './store/checkpointer.js';
import { configureV8 } from './runtime/v8-settings.js';
import { openStore, storeFile } from './store/db.js';
import { modules } from './modules.js';
import { assemble, type Assembly } from './assembly.js';

export interface Daemon {
  parts: Assembly;
  http: string;
  smtp: string;
  /** `HOST:PORT` of SMTP submission, null while it is off. */
  submission: string | null;
  /** Keys of the `default` project when this start created it (shown once). */
  createdProject: ProjectKeys | null;
  /** With them, the one-time link that makes the project's first OWNER (shown once). */
  ownerSetupUrl: string | null;
  stop(): Promise<void>;
}

/** Opens the store, starts the job runner and both listeners. */
export async function startDaemon(config: Config): Promise<Daemon> {
  configureV8();
  const log = createLogger(config.log.level);
  const db = openStore(config.dataDir);
  const clock = new ShiftableClock(config.testHooks ? savedClockOffset(db) : 0);
  const parts = assemble({ db, clock, config, log, readerThreads: true });
  const { core } = parts;
  loadSchemas();
  observeDaemon(core, parts.metrics);

  // the default project and the link of its first owner, together or not at all
  const created = db.transaction(() => {
    const project = ensureDefaultProject(db, clock);
    return project ? { project, ownerToken: issueLink(db, clock, { purpose: 'owner', projectId: project.id }) } : null;
  })();
  const runner = new JobRunner(core.jobs, clock, log);
  const all = modules(parts);
  for (const module of all) {
    module.jobs?.(runner);
    module.usage?.(parts.usage);
    for (const reactor of module.reactors?.() ?? []) core.bus.react(reactor);
    module.activity?.(parts.activity);
  }
  const closeModules = () => Promise.all(all.flatMap((m) => (m.close ? [m.close()] : [])));

  clock.onAdvance(() => runner.wake());
  const koa = createHttpApp(core, parts, all.flatMap((m) => (m.routes ? [m.routes] : [])), config.testHooks ? [testHookRoutes(db, clock, parts.threads, runner, config.adminToken)] : []);
  const handle = koa.callback();
  // Koa answers its own errors (its promise never rejects): nothing is left for node:http to await
  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 120_000;
  let inbound: InboundListener | null = null;
  let submission: SubmissionListener | null = null;
  try {
    const bound = await listenOn(server, config.http.port, config.http.host, 'http');
    // one budget for the DATA both listeners receive: their sum is what memory holds
    const dataBudget = new DataBudget(config.smtp.dataBudget, log);
    inbound = await startInbound(core, dataBudget);
    if (config.submission.port !== null) {
      submission = await startSubmission(core, { admission: parts.admission, threads: parts.threads }, config.submission.port, dataBudget);
    }
    runner.start();
    const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    const http = `http://${host}:${bound.port}`;
    if (!config.publicUrl) config.publicUrl = http;
    const listener = inbound;
    const submitter = submission;
    // Started once the listeners are up: the thread's start-up does not delay the ready line.
    const checkpointer = startCheckpointer(storeFile(config.dataDir));
    return {
      parts,
      http,
      smtp: listener.address,
      submission: submitter?.address ?? null,
      createdProject: created?.project ?? null,
      ownerSetupUrl: created ? setupUrl(config.publicUrl, created.ownerToken) : null,
      stop: async () => {
        // Everything within the contract's 10 seconds: what is unfinished at the deadline stays queued.
        const deadline = Date.now() + 8_000;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
        await Promise.all([listener.close(), submitter?.close()]);
        await runner.stop(Math.max(deadline - Date.now(), 500));
        await closeModules();
        server.closeAllConnections();
        await checkpointer.stop();
        await parts.close();
        db.close();
      },
    };
  } catch (err) {
    server.close();
    await inbound?.close();
    await submission?.close();
    await closeModules();
    await parts.close();
    db.close();
    throw err;
  }
}

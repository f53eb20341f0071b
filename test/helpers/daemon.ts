import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { noteSeen } from './eventually.js';
import { responseChecker, type ResponseCheck } from './openapi.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');
export const MAIN = join(root, 'dist', 'main.js');

export interface Keys {
  id: string;
  name: string;
  publicKey: string;
  secretKey: string;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** A raw body sent as is (for malformed JSON tests). */
  raw?: string | Buffer;
}

export interface TestDaemon {
  url: string;
  smtpHost: string;
  smtpPort: number;
  /** The SMTP submission port, when `submission.port` is configured. */
  submissionPort: number | null;
  dataDir: string;
  configFile: string;
  /** The `default` project created at first start. */
  project: Keys;
  /** The one-time link of the default project's first owner, printed beside its keys. */
  ownerSetupUrl: string;
  request<T = any>(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<Reply<T>>;
  /** Runs the CLI against this daemon's store with --json and answers its parsed output. */
  cli<T = any>(...args: string[]): T;
  createProject(name?: string): Keys;
  /** SIGTERM and wait for exit; answers the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, no cleanup. */
  kill(): Promise<void>;
  /** Starts again on the same store and config. */
  restart(): Promise<void>;
  /** Stops and removes the temp data dir. */
  dispose(): Promise<void>;
  stderr(): string;
  /** The log lines written so far (JSON on stderr), parsed; other stderr text is left out. */
  logs(): LogLine[];
  pid(): number;
}

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

const parsedLogs = (stderr: string): LogLine[] =>
  stderr.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as LogLine;
      return typeof parsed?.msg === 'string' ? [parsed] : [];
    } catch {
      return [];
    }
  });

export interface DaemonOptions {
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Extra node flags (benchmarks pass --cpu-prof). */
  nodeArgs?: string[];
  /** Runs this single executable (npm run package) instead of node dist/main.js, for serve and the CLI. */
  executable?: string;
}

interface Started {
  child: ChildProcess;
  url: string;
  smtp: string;
  submission: string | null;
  project: Keys | null;
  ownerSetupUrl: string | null;
  stderr: string[];
}

/** The program and its first arguments: node with dist/main.js, or a single executable. */
const programOf = (opts: DaemonOptions): [string, string[]] => (opts.executable ? [opts.executable, []] : [process.execPath, [...(opts.nodeArgs ?? []), MAIN]]);

/**
 * How long a daemon may take to print its ready line. Generous: a loaded 2-core machine starting
 * several daemons (and their threads) at once takes far longer than an idle one; a start that
 * hangs still fails, naming what the daemon printed.
 */
const READY_WITHIN_MS = 60_000;

function launch(configFile: string, env: Record<string, string>, opts: DaemonOptions): Promise<Started> {
  const [program, first] = programOf(opts);
  const child = spawn(program, [...first, 'serve', '--json', '--config', configFile], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return new Promise((resolveStart, reject) => {
    let project: Keys | null = null;
    let ownerSetupUrl: string | null = null;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`daemon did not print its ready line within ${READY_WITHIN_MS / 1000} s; its stderr: ${stderr.join('') || '(nothing)'}`));
    }, READY_WITHIN_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as { project?: Keys; setupUrl?: string; ready?: boolean; http?: string; smtp?: string; submission?: string };
      if (msg.project) project = msg.project;
      if (msg.setupUrl) ownerSetupUrl = msg.setupUrl;
      if (msg.ready) {
        clearTimeout(timer);
        resolveStart({ child, url: msg.http!, smtp: msg.smtp!, submission: msg.submission ?? null, project, ownerSetupUrl, stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before ready: ${stderr.join('')}`));
    });
  });
}

function waitExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

/** Starts the real built daemon on a temp store with free ports. */
export async function startTestDaemon(opts: DaemonOptions = {}): Promise<TestDaemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postmill-test-'));
  const configFile = join(dataDir, 'config.json');
  const config = {
    dataDir: join(dataDir, 'store'),
    http: { host: '127.0.0.1', port: 0 },
    smtp: { host: '127.0.0.1', port: 0 },
    hostname: 'mx.postmill.test',
    log: { level: 'warn' },
    // no outbound check at start: it would look up a real domain; tests that want it name a loopback one
    doctor: { probeDomain: null },
    ...opts.config,
  };
  writeFileSync(configFile, JSON.stringify(config));
  const env = opts.env ?? {};
  let started = await launch(configFile, env, opts);
  const project = started.project!;
  const ownerSetupUrl = started.ownerSetupUrl!;
  // Every answer a suite receives is checked against the daemon's own OpenAPI document.
  let checker: Promise<ResponseCheck> | null = null;
  const checkAnswer = () => (checker ??= fetch(`${started.url}/openapi.json`).then(async (r) => responseChecker((await r.json()) as Record<string, unknown>)));

  const daemon: TestDaemon = {
    get url() {
      return started.url;
    },
    get smtpHost() {
      return started.smtp.split(':')[0]!;
    },
    get smtpPort() {
      return Number(started.smtp.split(':')[1]);
    },
    get submissionPort() {
      return started.submission ? Number(started.submission.split(':').at(-1)) : null;
    },
    dataDir,
    configFile,
    project,
    ownerSetupUrl,
    async request(method, path, body, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      const key = o.key === undefined ? project.secretKey : o.key;
      if (key) headers.authorization = `Bearer ${key}`;
      let payload: string | Buffer | undefined;
      if (o.raw !== undefined) payload = o.raw;
      else if (body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const res = await fetch(started.url + path, { method, headers, body: payload });
      const text = await res.text();
      let parsed: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
      noteSeen(() => ({ request: `${method} ${path}`, status: res.status, body: parsed }));
      const problem = (await checkAnswer())(method, path, res.status, res.headers.get('content-type') ?? '', parsed);
      if (problem) throw new Error(`answer not as the OpenAPI document says: ${problem}`);
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
    cli(...args) {
      const [program, first] = programOf({ ...opts, nodeArgs: [] });
      const out = execFileSync(program, [...first, ...args, '--json', '--config', configFile], { env: { ...process.env, ...env } });
      return JSON.parse(out.toString());
    },
    createProject(name = 'test') {
      return daemon.cli<Keys>('project', 'create', '--name', name);
    },
    async stop() {
      started.child.kill('SIGTERM');
      return waitExit(started.child);
    },
    async kill() {
      started.child.kill('SIGKILL');
      await waitExit(started.child);
    },
    async restart() {
      started = await launch(configFile, env, opts);
    },
    async dispose() {
      if (started.child.exitCode === null && started.child.signalCode === null) await daemon.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    stderr: () => started.stderr.join(''),
    logs: () => parsedLogs(started.stderr.join('')),
    pid: () => started.child.pid!,
  };
  return daemon;
}

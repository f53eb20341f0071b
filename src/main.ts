#!/usr/bin/env node
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createProject, rotateKeys, setProjectDisabled, setProjectTracking } from './projects/service.js';
import { listProjects } from './projects/store.js';
import { openStore, type Db } from './store/db.js';

interface Args {
  positional: string[];
  json: boolean;
  config: string | null;
  name: string | null;
}

const USAGE = `usage: postmill <command> [--config FILE] [--json]
  serve                          run the daemon
  project create --name NAME     create a project and print its keys
  project list                   list projects
  project rotate-keys ID         new keys; the old ones stop working at once
  project disable ID | enable ID
  project tracking ID on|off     open/click tracking of TRANSACTIONAL mail
  backup FILE                    online, consistent copy of the store`;

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { positional: [], json: false, config: null, name: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--json') args.json = true;
    else if (arg === '--config') args.config = value();
    else if (arg === '--name') args.name = value();
    else if (arg.startsWith('--config=')) args.config = arg.slice(9);
    else if (arg.startsWith('--name=')) args.name = arg.slice(7);
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else args.positional.push(arg);
  }
  return args;
}

/** Prints a result: JSON with --json, otherwise readable lines. */
function print(args: Args, value: unknown, human: string): void {
  process.stdout.write((args.json ? JSON.stringify(value) : human) + '\n');
}

function withStore<T>(config: Config, fn: (db: Db) => T): T {
  const db = openStore(config.dataDir);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

async function serve(args: Args, config: Config): Promise<void> {
  // Imported here so the project and backup commands stay quick to start.
  const { startDaemon } = await import('./daemon.js');
  const daemon = await startDaemon(config);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    daemon.ctx.log.info('shutting down', { signal });
    setTimeout(() => {
      daemon.ctx.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 9_500).unref();
    daemon.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        daemon.ctx.log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  };
  // Before the ready line: whoever reads it may signal at once.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const created = daemon.createdProject;
  if (created) {
    print(
      args,
      { project: created },
      `Created project "${created.name}" (${created.id}). Its keys are shown only this once:\n  public key: ${created.publicKey}\n  secret key: ${created.secretKey}`,
    );
  }
  print(args, { ready: true, http: daemon.http, smtp: daemon.smtp }, `postmill ready http=${daemon.http} smtp=${daemon.smtp}`);
}

function project(args: Args, config: Config): void {
  const [, sub, id] = args.positional;
  const needId = () => {
    if (!id) throw new UsageError(`project ${sub} needs a project id`);
    return id;
  };
  const missing = () => {
    throw new UsageError(`no project with id ${id}`);
  };
  withStore(config, (db) => {
    switch (sub) {
      case 'create': {
        if (!args.name?.trim()) throw new UsageError('project create needs --name NAME');
        const p = createProject(db, systemClock, args.name.trim());
        return print(args, p, `id: ${p.id}\nname: ${p.name}\npublic key: ${p.publicKey}\nsecret key: ${p.secretKey}`);
      }
      case 'list': {
        const list = listProjects(db).map((p) => ({ id: p.id, name: p.name, disabled: p.disabled, createdAt: new Date(p.createdAt).toISOString() }));
        return print(args, list, list.map((p) => `${p.id}  ${p.name}${p.disabled ? '  (disabled)' : ''}  ${p.createdAt}`).join('\n') || 'no projects');
      }
      case 'rotate-keys': {
        const keys = rotateKeys(db, systemClock, needId()) ?? missing();
        const out = { id: keys.id, publicKey: keys.publicKey, secretKey: keys.secretKey };
        return print(args, out, `public key: ${out.publicKey}\nsecret key: ${out.secretKey}`);
      }
      case 'disable':
      case 'enable': {
        const p = setProjectDisabled(db, systemClock, needId(), sub === 'disable') ?? missing();
        return print(args, { id: p.id, disabled: p.disabled }, `${p.id} ${p.disabled ? 'disabled' : 'enabled'}`);
      }
      case 'tracking': {
        const mode = args.positional[3];
        if (mode !== 'on' && mode !== 'off') throw new UsageError('project tracking ID needs on or off');
        const p = setProjectTracking(db, systemClock, needId(), mode === 'on') ?? missing();
        return print(args, { id: p.id, trackTransactional: p.trackTransactional }, `${p.id} transactional tracking ${mode}`);
      }
      default:
        throw new UsageError(`unknown project command ${sub ?? ''}`);
    }
  });
}

async function backup(args: Args, config: Config): Promise<void> {
  const target = args.positional[1];
  if (!target) throw new UsageError('backup needs a FILE');
  const file = resolve(target);
  const db = openStore(config.dataDir);
  try {
    await db.backup(file);
  } finally {
    db.close();
  }
  const bytes = statSync(file).size;
  print(args, { file, bytes }, `backup written to ${file} (${bytes} bytes)`);
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const config = loadConfig(args.config);
  switch (args.positional[0]) {
    case 'serve':
      return serve(args, config);
    case 'project':
      return project(args, config);
    case 'backup':
      return backup(args, config);
    default:
      throw new UsageError(args.positional[0] ? `unknown command ${args.positional[0]}` : '');
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write((err.message ? `postmill: ${err.message}\n` : '') + USAGE + '\n');
    process.exit(2);
  }
  process.stderr.write(`postmill: ${err instanceof ConfigError ? err.message : (err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});

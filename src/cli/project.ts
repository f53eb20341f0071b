import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { createProject, rotateKeys, setProjectDisabled, setProjectTracking } from '../projects/service.js';
import { OPERATOR } from '../projects/keys.js';
import { listProjects } from '../projects/store.js';
import { rotateWebhookSecret } from '../webhooks/secret.js';
import { openStore, type Db } from '../store/db.js';
import { CommandFailed, print, UsageError, type Command } from './command.js';

/** Runs `fn` on the store directly: safe beside a running daemon (SQLite WAL), which sees the change at once. */
function withStore<T>(config: Config, fn: (db: Db) => T): T {
  const db = openStore(config.dataDir);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const found = <T>(value: T | null, id: string): T => {
  if (value === null) throw new CommandFailed(`no project with id ${id}`);
  return value;
};

const switchCommand = (word: 'disable' | 'enable'): Command => ({
  words: ['project', word],
  args: ['ID'],
  summary: word === 'disable' ? 'disable a project: it can still read, writes answer 403' : 'enable a disabled project',
  run: (input) => {
    const id = input.args[0]!;
    const p = found(
      withStore(input.config, (db) => setProjectDisabled(db, systemClock, id, word === 'disable')),
      id,
    );
    print(input, { id: p.id, disabled: p.disabled }, `${p.id} ${p.disabled ? 'disabled' : 'enabled'}`);
  },
});

export const PROJECT_COMMANDS: Command[] = [
  {
    words: ['project', 'create'],
    args: [],
    summary: 'create a project and print its keys (shown only this once)',
    options: { name: { type: 'string', value: 'NAME', help: 'the project name (required)' } },
    run: (input) => {
      const name = typeof input.options.name === 'string' ? input.options.name.trim() : '';
      if (!name) throw new UsageError('project create needs --name NAME');
      const p = withStore(input.config, (db) => createProject(db, systemClock, name));
      print(input, p, `id: ${p.id}\nname: ${p.name}\npublic key: ${p.publicKey}\nsecret key: ${p.secretKey}`);
    },
  },
  {
    words: ['project', 'list'],
    args: [],
    summary: 'list the projects',
    run: (input) => {
      const list = withStore(input.config, (db) => listProjects(db)).map((p) => ({
        id: p.id,
        name: p.name,
        disabled: p.disabled,
        createdAt: new Date(p.createdAt).toISOString(),
      }));
      print(input, list, list.map((p) => `${p.id}  ${p.name}${p.disabled ? '  (disabled)' : ''}  ${p.createdAt}`).join('\n') || 'no projects');
    },
  },
  {
    words: ['project', 'rotate-keys'],
    args: ['ID'],
    summary: 'new public and secret keys; the old ones stop working at once',
    run: (input) => {
      const id = input.args[0]!;
      const keys = found(
        withStore(input.config, (db) => rotateKeys(db, systemClock, id, OPERATOR)),
        id,
      );
      const out = { id: keys.id, publicKey: keys.publicKey, secretKey: keys.secretKey };
      print(input, out, `public key: ${out.publicKey}\nsecret key: ${out.secretKey}`);
    },
  },
  {
    words: ['project', 'webhook-secret'],
    args: ['ID'],
    summary: 'a new secret for X-Postmill-Signature of WEBHOOK steps (shown only this once); the old one stops at once',
    run: (input) => {
      const id = input.args[0]!;
      const webhookSecret = found(
        withStore(input.config, (db) => rotateWebhookSecret(db, id)),
        id,
      );
      print(input, { id, webhookSecret }, `webhook signing secret: ${webhookSecret}`);
    },
  },
  switchCommand('disable'),
  switchCommand('enable'),
  {
    words: ['project', 'tracking'],
    args: ['ID', 'on|off'],
    summary: 'open and click tracking of TRANSACTIONAL mail (off by default)',
    run: (input) => {
      const [id, mode] = input.args as [string, string];
      if (mode !== 'on' && mode !== 'off') throw new UsageError('project tracking ID needs on or off');
      const p = found(
        withStore(input.config, (db) => setProjectTracking(db, systemClock, id, mode === 'on')),
        id,
      );
      print(input, { id: p.id, trackTransactional: p.trackTransactional }, `${p.id} transactional tracking ${mode}`);
    },
  },
];

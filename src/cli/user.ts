import { setupUrl } from '../accounts/links.js';
import { isRole, type Role } from '../projects/roles.js';
import { createUser, listUsersWithProjects, resetPassword, setDisabled } from '../accounts/users.js';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { getProject } from '../projects/store.js';
import { openStore, type Db } from '../store/db.js';
import { CommandFailed, print, UsageError, type Command } from './command.js';

/** Runs `fn` on the store directly: safe beside a running daemon (SQLite WAL), which sees the change at once. */
async function withStore<T>(config: Config, fn: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openStore(config.dataDir);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

/** The base of links as the daemon of this configuration would make them (publicUrl, or its listener). */
function baseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
  return `http://${host}:${config.http.port}`;
}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin reads the password from standard input: pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // one trailing line break is the pipe's, not the password's
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** The service's refusals (an email in use, a short password) are the command's failure, in one line. */
async function failing<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError) throw new CommandFailed([err.message, ...(err.extra.errors ?? []).map((e) => e.message)].join(': '));
    throw err;
  }
}

export const USER_COMMANDS: Command[] = [
  {
    words: ['user', 'create'],
    args: [],
    summary: 'create a console user; prints a one-time setup link (24 hours) unless --password-stdin',
    options: {
      email: { type: 'string', value: 'EMAIL', help: 'the email the user signs in with (required)' },
      project: { type: 'string', value: 'ID', help: 'add the user to this project' },
      role: { type: 'string', value: 'ROLE', help: 'OWNER, ADMIN or MEMBER in --project (default MEMBER)' },
      'password-stdin': { type: 'boolean', help: 'read the password from standard input instead of printing a setup link' },
    },
    run: async (input) => {
      const email = typeof input.options.email === 'string' ? input.options.email : '';
      if (!email) throw new UsageError('user create needs --email EMAIL');
      const projectId = typeof input.options.project === 'string' ? input.options.project : null;
      const roleOption = typeof input.options.role === 'string' ? input.options.role : null;
      if (roleOption !== null && projectId === null) throw new UsageError('--role goes with --project ID');
      if (roleOption !== null && !isRole(roleOption)) throw new UsageError('--role is OWNER, ADMIN or MEMBER');
      const role: Role = roleOption ?? 'MEMBER';
      const password = input.options['password-stdin'] === true ? await readPassword() : null;
      const user = await withStore(input.config, (db) => {
        if (projectId !== null && !getProject(db, projectId)) throw new CommandFailed(`no project with id ${projectId}`);
        return failing(() => createUser(db, systemClock, { email, password, project: projectId === null ? null : { id: projectId, role } }));
      });
      const link = user.setupToken === null ? null : setupUrl(baseUrl(input.config), user.setupToken);
      print(input, { id: user.id, email: user.email, setupUrl: link }, `id: ${user.id}\nemail: ${user.email}${link ? `\nsetup link (once, within 24 hours): ${link}` : ''}`);
    },
  },
  {
    words: ['user', 'list'],
    args: [],
    summary: 'list the console users and their projects',
    run: async (input) => {
      const users = await withStore(input.config, listUsersWithProjects);
      print(
        input,
        users,
        users.map((u) => `${u.id}  ${u.email}${u.disabled ? '  (disabled)' : ''}  ${u.projects.map((p) => `${p.id}:${p.role}`).join(' ')}`).join('\n') || 'no users',
      );
    },
  },
  ...(['disable', 'enable'] as const).map(
    (word): Command => ({
      words: ['user', word],
      args: ['ID'],
      summary: word === 'disable' ? 'disable a user: every session of it ends at once, it cannot sign in' : 'let a disabled user sign in again',
      run: async (input) => {
        const id = input.args[0]!;
        const user = await withStore(input.config, (db) => failing(() => setDisabled(db, systemClock, id, word === 'disable')));
        print(input, { id: user.id, disabled: user.disabled }, `${user.id} ${user.disabled ? 'disabled' : 'enabled'}`);
      },
    }),
  ),
  {
    words: ['user', 'reset-password'],
    args: ['ID'],
    summary: "end a user's password and sessions and print a new setup link (once, within 24 hours)",
    run: async (input) => {
      const id = input.args[0]!;
      const token = await withStore(input.config, (db) => failing(() => resetPassword(db, systemClock, id)));
      const link = setupUrl(baseUrl(input.config), token);
      print(input, { id, setupUrl: link }, `setup link (once, within 24 hours): ${link}`);
    },
  },
];

// Console sessions in tests: users made by the CLI, signed in through POST /auth/login, and the
// request options that act through the session (cookie, project header, CSRF token, our Origin).
import { execFileSync } from 'node:child_process';
import { MAIN, type RequestOptions, type TestDaemon } from './daemon.js';

export const PASSWORD = 'correct horse battery staple';

export interface Session {
  cookie: string;
  csrfToken: string;
  user: { id: string; email: string };
}

/** `postmill user create` with the password on standard input; answers the user's id. */
export function makeUser(d: TestDaemon, email: string, project: { id: string; role: string } | null = null, password = PASSWORD): string {
  const args = [MAIN, 'user', 'create', '--email', email, '--password-stdin', '--json', '--config', d.configFile];
  if (project) args.push('--project', project.id, '--role', project.role);
  return (JSON.parse(execFileSync(process.execPath, args, { input: password + '\n' }).toString()) as { id: string }).id;
}

/** The value of the session cookie a sign-in answer set. */
export function cookieOf(headers: Headers): string {
  const match = /postmill_session=([^;]*)/.exec(headers.get('set-cookie') ?? '');
  if (!match) throw new Error(`no session cookie in ${headers.get('set-cookie')}`);
  return `postmill_session=${match[1]}`;
}

export async function signIn(d: TestDaemon, email: string, password = PASSWORD): Promise<Session> {
  const res = await d.request('POST', '/auth/login', { email, password }, { key: null });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { cookie: cookieOf(res.headers), csrfToken: res.body.csrfToken, user: res.body.user };
}

/** Options of a request through the session, in `projectId`: a browser of our own origin. `omit` leaves headers out. */
export function as(d: TestDaemon, s: Session, projectId: string | null, omit: string[] = []): RequestOptions {
  const headers: Record<string, string> = { cookie: s.cookie, 'x-postmill-csrf': s.csrfToken, origin: d.url };
  if (projectId) headers['x-postmill-project'] = projectId;
  for (const name of omit) delete headers[name];
  return { key: null, headers };
}

/** The token of a setup link (`.../app/setup#token=...`). */
export const tokenOf = (url: string): string => new URL(url).hash.replace(/^#token=/, '');

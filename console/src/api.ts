// The console's one way to the daemon: the same REST API as every client, with the session cookie,
// the project in X-Postmill-Project and, for writes, the session's CSRF token. Errors carry the
// message of the API's error envelope.

export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';

export interface Me {
  user: { id: string; email: string };
  projects: { id: string; name: string; role: Role }[];
  csrfToken: string;
}

/** One field's refusal in a 422 VALIDATION_ERROR: `field` is a dotted path (`config.url`). */
export interface FieldFailure {
  field: string;
  message: string;
}

/** A refusal of the API: its status, code, the message it gave and, for a 422, its field errors. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldFailure[] = [],
  ) {
    super(message);
  }
}

/** What every request carries besides the cookie: set by the session when it knows them. */
const context: { csrfToken: string | null; projectId: string | null } = { csrfToken: null, projectId: null };

export function setCredentials(csrfToken: string | null, projectId: string | null): void {
  context.csrfToken = csrfToken;
  context.projectId = projectId;
}

function failureOf(status: number, body: unknown): ApiFailure {
  const error = (body as { error?: unknown } | null)?.error;
  if (error && typeof error === 'object') {
    const e = error as { code?: string; message?: string; errors?: FieldFailure[] };
    const fields = e.errors?.map((f) => `${f.field}: ${f.message}`).join('; ');
    return new ApiFailure(status, e.code ?? 'ERROR', [e.message, fields].filter(Boolean).join(' — '), e.errors ?? []);
  }
  if (typeof error === 'string') return new ApiFailure(status, 'ERROR', error);
  return new ApiFailure(status, 'ERROR', `The server answered ${status}`);
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (context.projectId) headers['X-Postmill-Project'] = context.projectId;
  if (context.csrfToken && method !== 'GET') headers['X-Postmill-CSRF'] = context.csrfToken;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
  if (res.status === 204) return undefined as T;
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) throw failureOf(res.status, data);
  return data as T;
}

/** A file upload (multipart/form-data, one field), with the same credentials and errors as `api`. */
export async function upload<T>(path: string, field: string, file: File): Promise<T> {
  const form = new FormData();
  form.append(field, file);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (context.projectId) headers['X-Postmill-Project'] = context.projectId;
  if (context.csrfToken) headers['X-Postmill-CSRF'] = context.csrfToken;
  const res = await fetch(path, { method: 'POST', headers, credentials: 'same-origin', body: form });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) throw failureOf(res.status, data);
  return data as T;
}

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

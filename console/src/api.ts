// The console's one way to the daemon: the same REST API as every client, with the session cookie,
// the project in X-Postmill-Project and, for writes, the session's CSRF token. Errors carry the
// message of the API's error envelope, its field problems and details.

export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';

export type DeliveryMode = 'mx' | 'relay' | 'capture';

export interface Me {
  user: { id: string; email: string };
  projects: { id: string; name: string; role: Role }[];
  csrfToken: string;
  /** The daemon's delivery.mode: in `capture` nothing leaves the machine and the Outbox shows the mail. */
  deliveryMode: DeliveryMode;
}

/** One problem of a 422: the field path in the request body (`condition.groups.0.filters.1.value`) and what is wrong. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A refusal of the API: its status, code, the message it gave and, when it gave them, the problem of each field (422) and its details (a 409's users). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldProblem[] = [],
    readonly details: Record<string, unknown> = {},
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
    const e = error as { code?: string; message?: string; errors?: FieldProblem[]; details?: Record<string, unknown> };
    const fields = e.errors?.map((f) => `${f.field}: ${f.message}`).join('; ');
    return new ApiFailure(status, e.code ?? 'ERROR', [e.message, fields].filter(Boolean).join(' — '), e.errors ?? [], e.details ?? {});
  }
  if (typeof error === 'string') return new ApiFailure(status, 'ERROR', error);
  return new ApiFailure(status, 'ERROR', `The server answered ${status}`);
}

/** The headers every request carries: the project, and for a write the session's CSRF token. */
function headersFor(method: string, accept: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept };
  if (context.projectId) headers['X-Postmill-Project'] = context.projectId;
  if (context.csrfToken && method !== 'GET') headers['X-Postmill-CSRF'] = context.csrfToken;
  return headers;
}

async function failure(res: Response): Promise<ApiFailure> {
  return failureOf(res.status, await res.json().catch(() => null));
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers = headersFor(method, 'application/json');
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A file upload (multipart/form-data, one field), with the same credentials and errors as `api`. */
export async function upload<T>(path: string, field: string, file: File): Promise<T> {
  const form = new FormData();
  form.append(field, file);
  const res = await fetch(path, { method: 'POST', headers: headersFor('POST', 'application/json'), credentials: 'same-origin', body: form });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** A GET whose answer is not JSON (a message as sent, message/rfc822): its bytes. */
export async function download(path: string, accept: string): Promise<ArrayBuffer> {
  const res = await fetch(path, { headers: headersFor('GET', accept), credentials: 'same-origin' });
  if (!res.ok) throw await failure(res);
  return res.arrayBuffer();
}

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

import type { Reply, TestDaemon } from './daemon.js';
import { eventually } from './mail-env.js';

export interface UploadOptions {
  filename?: string;
  type?: string;
  field?: string;
  key?: string;
}

/** POST /contacts/import as a browser form would: multipart/form-data with the file in `file`. */
export async function uploadCsv(d: TestDaemon, content: string | Buffer, opts: UploadOptions = {}): Promise<Reply> {
  const form = new FormData();
  form.append(opts.field ?? 'file', new Blob([content], { type: opts.type ?? 'text/csv' }), opts.filename ?? 'contacts.csv');
  const res = await fetch(d.url + '/contacts/import', {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.key ?? d.project.secretKey}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : text };
}

/** Polls a job (import or bulk) until it has ended; answers its last poll. */
export async function finished(d: TestDaemon, path: string, key = d.project.secretKey, timeoutMs = 20_000): Promise<any> {
  return eventually(
    async () => {
      const r = await d.request('GET', path, undefined, { key });
      return r.body.state === 'completed' || r.body.state === 'failed' ? r.body : null;
    },
    timeoutMs,
    `${path} to end`,
  );
}

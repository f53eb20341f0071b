// Bulk changes of the selected contacts: subscribe, unsubscribe, delete (confirmed), each a queued
// job whose progress shows until it ends.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { ContactJobProgress, type ContactJob } from '../ui/ContactJobProgress';

type Operation = 'subscribe' | 'unsubscribe' | 'delete';

interface BulkResult {
  requested: number;
  changed: number;
  unchanged: number;
  failed: number;
}

export function ContactsBulk({ ids, onDone }: { ids: string[]; onDone(): void }) {
  const [running, setRunning] = useState<{ operation: Operation; jobId: string } | null>(null);
  const [finished, setFinished] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (operation: Operation) => api<{ jobId: string }>('POST', `/contacts/bulk-${operation}`, { contactIds: ids }),
    onSuccess: (r, operation) => {
      setFinished(null);
      setRunning({ operation, jobId: r.jobId });
    },
  });
  const run = (operation: Operation) => {
    if (operation === 'delete' && !window.confirm(`Delete ${ids.length} contacts with their events? This cannot be undone.`)) return;
    start.mutate(operation);
  };
  const done = (job: ContactJob<BulkResult>) => {
    setFinished(
      job.state === 'failed'
        ? `The bulk change failed: ${job.error ?? 'unknown error'}`
        : `${running?.operation ?? 'Change'}: ${job.result.changed} changed, ${job.result.unchanged} already so, ${job.result.failed} failed.`,
    );
    setRunning(null);
    onDone();
  };
  return (
    <section aria-labelledby="bulk-heading" className="bulk">
      <h2 id="bulk-heading" className="visually-hidden">
        Selected contacts
      </h2>
      <div className="row">
        <span>{ids.length} selected</span>
        <button type="button" className="secondary" disabled={ids.length === 0 || running !== null} onClick={() => run('subscribe')}>
          Subscribe selected
        </button>
        <button type="button" className="secondary" disabled={ids.length === 0 || running !== null} onClick={() => run('unsubscribe')}>
          Unsubscribe selected
        </button>
        <button type="button" className="danger" disabled={ids.length === 0 || running !== null} onClick={() => run('delete')}>
          Delete selected
        </button>
      </div>
      <ErrorNote error={start.isError ? errorText(start.error) : null} />
      {running && <ContactJobProgress<BulkResult> key={running.jobId} label="Bulk change progress" path={`/contacts/bulk/${running.jobId}`} onDone={done} />}
      {finished && <p role="status">{finished}</p>}
    </section>
  );
}

// The live progress of a contact job (a CSV import or a bulk change): polls its GET route until it
// ends, shows a labelled progress bar, and hands the finished job to the page.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';

export interface ContactJob<R> {
  id: string;
  type: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  result: R;
  error: string | null;
}

const POLL_MS = 500;

export function useContactJob<R>(path: string | null) {
  return useQuery({
    queryKey: ['contact-job', path],
    queryFn: () => api<ContactJob<R>>('GET', path!),
    enabled: path !== null,
    refetchInterval: (q) => (q.state.data && (q.state.data.state === 'completed' || q.state.data.state === 'failed') ? false : POLL_MS),
  });
}

export function ContactJobProgress<R>({ label, path, onDone }: { label: string; path: string; onDone?(job: ContactJob<R>): void }) {
  const job = useContactJob<R>(path);
  const done = job.data?.state === 'completed' || job.data?.state === 'failed';
  const reported = useRef(false);
  useEffect(() => {
    if (!done || !job.data || reported.current) return;
    reported.current = true;
    onDone?.(job.data);
  }, [done, job.data, onDone]);
  if (job.isError) return <ErrorNote error={errorText(job.error)} />;
  const progress = job.data?.progress ?? 0;
  return (
    <div className="job">
      <progress aria-label={label} max={100} value={progress} />
      <span role="status">
        {job.data?.state === 'failed' ? `Failed: ${job.data.error ?? 'unknown error'}` : done ? 'Done' : `${progress}%`}
      </span>
    </div>
  );
}

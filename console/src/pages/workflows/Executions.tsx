// The executions of a workflow, newest first, live: status filter, pages, each with its contact,
// status and the step it is at; one's timeline (every step it ran: when, the outcome, the output or
// error); cancel a running or waiting one (confirmed); retry a failed one from the step it failed at.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, errorText } from '../../api';
import { ErrorNote } from '../../page';
import { useSession } from '../../session';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EXECUTION_STATUSES, isActive, LIVE_MS, TYPE_LABELS, workflowsKey, type Execution, type ExecutionPage, type ExecutionStatus, type Workflow } from '../Workflows';
import { Pager } from '../../ui/Pager';
import { Skeleton } from '../../ui/Skeleton';

const PAGE_SIZE = 20;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** The contact's email, read once per contact (the list carries only its id). */
function ContactCell({ contactId }: { contactId: string | null }) {
  const { project } = useSession();
  const contact = useQuery({
    queryKey: ['contacts', project?.id, 'one', contactId],
    queryFn: () => api<{ email: string }>('GET', `/contacts/${contactId}`),
    enabled: contactId !== null,
    staleTime: Infinity,
  });
  if (contactId === null) return <>deleted contact</>;
  return <Link to={`/contacts/${contactId}`}>{contact.data?.email ?? contactId}</Link>;
}

function Timeline({ workflow, executionId }: { workflow: Workflow; executionId: string }) {
  const { project } = useSession();
  const execution = useQuery({
    queryKey: [...workflowsKey(project?.id), workflow.id, 'execution', executionId],
    queryFn: () => api<Execution>('GET', `/workflows/${workflow.id}/executions/${executionId}`),
    refetchInterval: (q) => (q.state.data && !isActive(q.state.data.status) ? false : LIVE_MS),
  });
  const stepName = (id: string) => workflow.steps.find((s) => s.id === id)?.name ?? 'a removed step';
  const e = execution.data;
  return (
    <section aria-label="Execution timeline" className="card">
      <h3>
        Timeline {e && <>({e.status})</>}
      </h3>
      <ErrorNote error={execution.isError ? errorText(execution.error) : null} />
      {e?.error && <p className="error">Failed: {e.error}</p>}
      {e && (
        <ol className="timeline">
          {e.steps?.map((run) => (
            <li key={run.seq}>
              <strong>{stepName(run.stepId)}</strong> <span className="hint">{TYPE_LABELS[run.stepType]}</span> — {run.status.toLowerCase()} <time dateTime={run.startedAt}>{when(run.startedAt)}</time>
              {run.finishedAt && run.finishedAt !== run.startedAt && (
                <>
                  {' '}
                  to <time dateTime={run.finishedAt}>{when(run.finishedAt)}</time>
                </>
              )}
              {run.error && <div className="error">{run.error}</div>}
              {run.output !== null && run.output !== undefined && (
                <details>
                  <summary>Output</summary>
                  <pre>{JSON.stringify(run.output, null, 2)}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function Executions({ workflow }: { workflow: Workflow }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const [status, setStatus] = useState<ExecutionStatus | ''>('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<Execution | null>(null);
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (status) params.set('status', status);
  const list = useQuery({
    queryKey: [...workflowsKey(project?.id), workflow.id, 'executions', params.toString()],
    queryFn: () => api<ExecutionPage>('GET', `/workflows/${workflow.id}/executions?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_MS,
  });
  const cancel = useMutation({
    mutationFn: (e: Execution) => api<Execution>('DELETE', `/workflows/${workflow.id}/executions/${e.id}`),
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: [...workflowsKey(project?.id), workflow.id] });
      setCancelling(null);
    },
  });
  const retry = useMutation({
    mutationFn: (e: Execution) => api<Execution>('POST', `/workflows/${workflow.id}/executions/${e.id}/retry`),
    onSettled: () => queries.invalidateQueries({ queryKey: [...workflowsKey(project?.id), workflow.id] }),
  });
  const stepName = (id: string | null) => (id ? (workflow.steps.find((s) => s.id === id)?.name ?? '') : '');
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="executions-heading">
      <h2 id="executions-heading">Executions</h2>
      <div className="toolbar">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as ExecutionStatus | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {EXECUTION_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={list.isError ? errorText(list.error) : cancel.isError ? errorText(cancel.error) : retry.isError ? `Retry: ${errorText(retry.error)}` : null} />
      {list.isPending ? (
        <Skeleton label="Loading executions…" />
      ) : rows.length === 0 ? (
        <p>{status ? `No ${status} executions.` : 'No executions yet: they start when the trigger event comes (with the workflow enabled).'}</p>
      ) : (
        <table>
          <caption>
            {list.data!.total} execution{list.data!.total === 1 ? '' : 's'}, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Contact</th>
              <th scope="col">Status</th>
              <th scope="col">Step</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <td>{when(e.startedAt)}</td>
                <td>
                  <ContactCell contactId={e.contactId} />
                </td>
                <td>{e.status}</td>
                <td>{stepName(e.currentStepId)}</td>
                <td>
                  <div className="actions">
                    <button type="button" className="quiet" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                      Timeline
                    </button>
                    {e.status === 'FAILED' && (
                      <button type="button" className="quiet" disabled={retry.isPending} onClick={() => retry.mutate(e)} aria-label={`Retry the execution of ${when(e.startedAt)}`}>
                        Retry
                      </button>
                    )}
                    {isActive(e.status) && (
                      <button type="button" className="quiet" onClick={() => setCancelling(e)}>
                        Cancel
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <Timeline workflow={workflow} executionId={open} />}
      {list.data && <Pager label="Pages of executions" page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
      <ConfirmDialog open={cancelling !== null} title="Cancel this execution?" confirmLabel="Cancel execution" busy={cancel.isPending} onConfirm={() => cancelling && cancel.mutate(cancelling)} onCancel={() => setCancelling(null)}>
        <p>It stops where it is: no further step runs for it. Without re-entry allowed, the contact does not enter this workflow again.</p>
      </ConfirmDialog>
    </section>
  );
}

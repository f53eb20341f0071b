// Workflows (MEMBER): the project's workflows with their trigger, whether they are enabled, their
// steps and their executions active now and in all (from their step counts); New workflow (a name and the event that
// starts it) opens its canvas; delete (refused with 409 while executions run, shown as such).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiFailure, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { workflowsKey, type StepCount, type Workflow, type WorkflowPage } from './Workflows';
import { Pager } from '../ui/Pager';
import { Skeleton } from '../ui/Skeleton';
import { EmptyState } from '../ui/EmptyState';
import { useToast } from '../ui/Toasts';

const PAGE_SIZE = 20;

/** Executions of one workflow from its step counts: active now (at any step), and all (each passed the trigger). */
function ExecutionCounts({ workflow }: { workflow: Workflow }) {
  const { project } = useSession();
  const counts = useQuery({
    queryKey: [...workflowsKey(project?.id), workflow.id, 'step-counts'],
    queryFn: () => api<{ steps: StepCount[] }>('GET', `/workflows/${workflow.id}/step-counts`),
  });
  if (!counts.data) return <>…</>;
  const trigger = workflow.steps.find((s) => s.type === 'TRIGGER')?.id;
  const active = counts.data.steps.reduce((n, c) => n + c.now, 0);
  const all = counts.data.steps.find((c) => c.stepId === trigger)?.passed ?? 0;
  return (
    <>
      {active} active · {all} in all
    </>
  );
}

function NewWorkflow() {
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [eventName, setEventName] = useState('');
  const create = useMutation({
    mutationFn: () => api<Workflow>('POST', '/workflows', { name, eventName }),
    onSuccess: (w) => {
      void queries.invalidateQueries({ queryKey: workflowsKey(project?.id) });
      navigate(`/workflows/${w.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New workflow
      </button>
    );
  }
  return (
    <form onSubmit={submit} aria-label="New workflow" className="card">
      <h2>New workflow</h2>
      <label>
        Name
        <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Trigger event
        <input required maxLength={200} value={eventName} onChange={(e) => setEventName(e.target.value)} aria-describedby="trigger-hint" />
        <span className="hint" id="trigger-hint">
          The event that starts an execution for its contact: one you track (signed-up), email.*, contact.* or segment.&lt;slug&gt;.entry
        </span>
      </label>
      <ErrorNote error={create.isError ? errorText(create.error) : null} />
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          Create workflow
        </button>
        <button type="button" className="quiet" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function WorkflowsListPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...workflowsKey(project?.id), 'list', page],
    queryFn: () => api<WorkflowPage>('GET', `/workflows?page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (w: Workflow) => api('DELETE', `/workflows/${w.id}`),
    onSuccess: (_, w) => toast(`Workflow ${w.name} deleted`),
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: workflowsKey(project?.id) });
      setDeleting(null);
    },
  });
  const removeFailure = remove.isError
    ? remove.error instanceof ApiFailure && remove.error.status === 409
      ? `${remove.variables?.name ?? 'The workflow'} was not deleted: ${remove.error.message}. Cancel its executions or let them finish first.`
      : errorText(remove.error)
    : null;
  const rows = list.data?.data ?? [];
  return (
    <Page title="Workflows">
      <div className="toolbar">
        <NewWorkflow />
      </div>
      <ErrorNote error={list.isError ? errorText(list.error) : removeFailure} />
      {list.isPending ? (
        <Skeleton label="Loading workflows…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="workflows">
          <p>No workflows yet: make the first one with New workflow.</p>
        </EmptyState>
      ) : (
        <table>
          <caption>
            {list.data!.total} workflow{list.data!.total === 1 ? '' : 's'}, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Trigger</th>
              <th scope="col">State</th>
              <th scope="col">Steps</th>
              <th scope="col">Executions</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((w) => (
              <tr key={w.id}>
                <th scope="row">
                  <Link to={`/workflows/${w.id}`}>{w.name}</Link>
                </th>
                <td>{w.triggerType === 'EVENT' ? <code>{w.triggerConfig.eventName}</code> : 'by hand'}</td>
                <td>{w.enabled ? 'Enabled' : 'Disabled'}</td>
                <td>{w.steps.length}</td>
                <td>
                  <ExecutionCounts workflow={w} />
                </td>
                <td>
                  <button type="button" className="quiet" onClick={() => setDeleting(w)} aria-label={`Delete ${w.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager label="Pages of workflows" page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
      <ConfirmDialog open={deleting !== null} title={`Delete ${deleting?.name ?? ''}?`} confirmLabel="Delete workflow" busy={remove.isPending} onConfirm={() => deleting && remove.mutate(deleting)} onCancel={() => setDeleting(null)}>
        <p>The workflow, its steps and its past executions are gone for good. A workflow with running or waiting executions is not deleted.</p>
      </ConfirmDialog>
    </Page>
  );
}

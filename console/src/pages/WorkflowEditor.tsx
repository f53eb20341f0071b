// A workflow's page (MEMBER): the canvas with each step's live counts, the chosen step's form, Save
// (the draft mapped onto the API's routes), enable and disable, and the executions. While enabled,
// the API keeps the graph runnable after every call, so steps and connections change only while it
// is disabled; names, configs, positions and the trigger can change any time.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiFailure, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { addStep, changeStep, draftOf, hasChanges, removeStep, saveDraft, SaveFailure, setNext, type Draft } from './workflows/draft';
import { Executions } from './workflows/Executions';
import { fieldErrorsOf, stepErrors, type FieldErrors } from './workflows/schema-check';
import { initialConfig, StepForm } from './workflows/StepForm';
import { WorkflowCanvas } from './workflows/WorkflowCanvas';
import { LIVE_MS, STEP_TYPES, TYPE_LABELS, workflowsKey, type AddableStepType, type StepCount, type Workflow } from './Workflows';
import { Skeleton } from '../ui/Skeleton';

type ByStep<T> = Record<string, T>;

/** The schema's errors of every step, with the fields whose text does not read: what keeps a save from being sent. */
function draftErrors(draft: Draft, problems: ByStep<FieldErrors>): ByStep<FieldErrors> {
  const out: ByStep<FieldErrors> = {};
  for (const step of draft.steps) {
    const found = { ...(step.type === 'TRIGGER' ? {} : stepErrors(step.type, step.name, step.config)), ...problems[step.key] };
    if (Object.keys(found).length > 0) out[step.key] = found;
  }
  return out;
}

function Editor({ saved, refetch }: { saved: Workflow; refetch(): Promise<Workflow | undefined> }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [chosen, setChosen] = useState<string | null>(null);
  const [newType, setNewType] = useState<AddableStepType>('SEND_EMAIL');
  const [apiErrors, setApiErrors] = useState<ByStep<FieldErrors>>({});
  const [problems, setProblems] = useState<ByStep<FieldErrors>>({});
  const [checked, setChecked] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const locked = saved.enabled;
  const unsaved = hasChanges(saved, draft);

  const counts = useQuery({
    queryKey: [...workflowsKey(project?.id), saved.id, 'step-counts'],
    queryFn: () => api<{ steps: StepCount[] }>('GET', `/workflows/${saved.id}/step-counts`),
    refetchInterval: LIVE_MS,
  });
  const countMap = useMemo(() => new Map((counts.data?.steps ?? []).map((c) => [c.stepId, c])), [counts.data]);

  const schemaErrors = useMemo(() => (checked ? draftErrors(draft, problems) : {}), [checked, draft, problems]);
  const errorsOf = (key: string): FieldErrors => ({ ...schemaErrors[key], ...apiErrors[key] });
  const invalid = useMemo(() => new Set([...Object.keys(schemaErrors), ...Object.keys(apiErrors)]), [schemaErrors, apiErrors]);

  const edit = useCallback((change: (d: Draft) => Draft) => {
    setDraft(change);
    setNotice(null);
  }, []);
  /** A change of one step's fields clears what the API last said of that step. */
  const editStep = (key: string, change: (d: Draft) => Draft) => {
    edit(change);
    setApiErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const refresh = () => queries.invalidateQueries({ queryKey: workflowsKey(project?.id) });

  const save = useMutation({
    mutationFn: async () => {
      setChecked(true);
      const found = draftErrors(draft, problems);
      const first = Object.keys(found)[0];
      if (first) {
        setChosen(first);
        throw new Error(`Fix the marked fields of "${draft.steps.find((s) => s.key === first)?.name}" first.`);
      }
      try {
        return await saveDraft(saved, draft);
      } finally {
        await refetch();
      }
    },
    onSuccess: async (done) => {
      const fresh = await refetch();
      if (fresh) setDraft(draftOf(fresh));
      // the chosen new step is now known by its id
      setChosen((key) => done.steps.find((s) => s.key === key)?.id ?? key);
      setApiErrors({});
      setNotice('Saved.');
      void refresh();
    },
    onError: (err) => {
      if (!(err instanceof SaveFailure)) return;
      setDraft(err.draft);
      const failure = err.failure;
      const key = err.stepKey ?? draft.steps.find((s) => s.type === 'TRIGGER')?.key ?? null;
      if (key && failure instanceof ApiFailure && failure.fields.length > 0) {
        setApiErrors((all) => ({ ...all, [key]: fieldErrorsOf(failure.fields) }));
        setChosen(key);
      }
    },
  });

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api<Workflow>('PATCH', `/workflows/${saved.id}`, { enabled }),
    onSuccess: async (w) => {
      await refetch();
      setNotice(w.enabled ? 'Enabled: the trigger event now starts executions.' : 'Disabled: no new executions start; running ones go on.');
      void refresh();
    },
    onError: (err) => {
      // a WEBHOOK step whose requests would be refused keeps the workflow off: open it with its URL marked
      const stepId = err instanceof ApiFailure ? err.details.stepId : undefined;
      if (typeof stepId !== 'string' || !draft.steps.some((s) => s.key === stepId)) return;
      setApiErrors((all) => ({ ...all, [stepId]: fieldErrorsOf([{ field: 'config.url', message: err.message }]) }));
      setChosen(stepId);
    },
  });

  const add = () => {
    const made = addStep(draft, newType, initialConfig(newType), TYPE_LABELS[newType], chosen);
    setDraft(made.draft);
    setChosen(made.key);
  };
  const step = draft.steps.find((s) => s.key === chosen) ?? null;
  const failure = save.isError ? errorText(save.error) : toggle.isError ? errorText(toggle.error) : null;

  return (
    <Page title={`Workflow: ${saved.name}`}>
      <p>
        <Link to="/workflows">All workflows</Link>
      </p>
      <div className="toolbar">
        <p role="status" className="state">
          {saved.enabled ? 'Enabled' : 'Disabled'}
          {unsaved ? ' · unsaved changes' : ''}
        </p>
        <button type="button" onClick={() => save.mutate()} disabled={save.isPending || !unsaved}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="quiet" onClick={() => toggle.mutate(!saved.enabled)} disabled={toggle.isPending || unsaved} aria-describedby={unsaved ? 'save-first' : undefined}>
          {saved.enabled ? 'Disable workflow' : 'Enable workflow'}
        </button>
        {unsaved && (
          <span id="save-first" className="hint">
            Save the changes to enable or disable.
          </span>
        )}
      </div>
      <div className="toolbar">
        <div className="field">
          <label htmlFor="new-step-type">Step type</label>
          <select id="new-step-type" value={newType} onChange={(e) => setNewType(e.target.value as AddableStepType)} disabled={locked}>
            {STEP_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={add} disabled={locked} aria-describedby="add-where">
          Add step
        </button>
        {!locked && (
          <span id="add-where" className="hint">
            {step ? `Added after "${step.name}" and connected to it.` : 'Choose a step first to add the new one after it.'}
          </span>
        )}
        {locked && <span className="hint">Disable the workflow to add, remove or connect steps; names, configs and positions can change while it runs.</span>}
      </div>
      <ErrorNote error={failure} />
      <ErrorNote error={counts.isError ? `Live counts: ${errorText(counts.error)}` : null} />
      {notice && !failure && <p role="status">{notice}</p>}
      <div className="workflow">
        <WorkflowCanvas draft={draft} counts={countMap} chosen={chosen} invalid={invalid} locked={locked} onChoose={setChosen} onDraft={edit} onRefused={setNotice} />
        <div className="step-panel">
          {step ? (
            <StepForm
              key={step.key}
              workflowId={saved.id}
              draft={draft}
              step={step}
              errors={errorsOf(step.key)}
              locked={locked}
              onName={(name) => editStep(step.key, (d) => changeStep(d, step.key, { name }))}
              onConfig={(config) => editStep(step.key, (d) => changeStep(d, step.key, { config }))}
              onTrigger={(change) => editStep(step.key, (d) => ({ ...d, ...change }))}
              onNext={(branch, to) => edit((d) => setNext(d, step.key, branch, to))}
              onRemove={() => {
                edit((d) => removeStep(d, step.key));
                setChosen(null);
              }}
              onApiErrors={(errors) => setApiErrors((all) => ({ ...all, [step.key]: errors }))}
              onProblem={(path, message) =>
                setProblems((all) => {
                  const { [path]: _gone, ...rest } = all[step.key] ?? {};
                  return { ...all, [step.key]: message ? { ...rest, [path]: message } : rest };
                })
              }
            />
          ) : (
            <p className="hint">Choose a step on the canvas to edit it. Drag from a step's output (below it) to another step's input (above it) to connect them.</p>
          )}
        </div>
      </div>
      <Executions workflow={saved} />
    </Page>
  );
}

export function WorkflowEditorPage() {
  const { project } = useSession();
  const { id } = useParams();
  const workflow = useQuery({
    queryKey: [...workflowsKey(project?.id), 'one', id],
    queryFn: () => api<Workflow>('GET', `/workflows/${id}`),
    // the draft keeps what is edited: a refetch must not replace it
    staleTime: Infinity,
  });
  const refetch = useCallback(async () => (await workflow.refetch()).data, [workflow]);
  if (workflow.isPending) return <Skeleton label="Loading the workflow…" />;
  if (workflow.isError) {
    return (
      <Page title="Workflow">
        <ErrorNote error={errorText(workflow.error)} />
      </Page>
    );
  }
  return <Editor key={workflow.data.id} saved={workflow.data} refetch={refetch} />;
}

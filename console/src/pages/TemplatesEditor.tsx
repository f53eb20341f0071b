// A template's page (MEMBER): its fields and body (HTML or visual mode), save, duplicate,
// delete; beside them the live preview and a test send of the saved template. `/templates/new`
// makes one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiFailure, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { TEMPLATE_TYPES, templatesKey, type Template, type TemplateType } from './Templates';
import { BodyEditor } from '../ui/BodyEditor';
import { EmailPreview } from '../ui/EmailPreview';
import { TestSend } from '../ui/TestSend';

/** The form's values: text fields as typed (empty optional fields are sent as null). */
interface Draft {
  name: string;
  description: string;
  subject: string;
  from: string;
  fromName: string;
  replyTo: string;
  type: TemplateType;
  body: string;
}

const EMPTY: Draft = { name: '', description: '', subject: '', from: '', fromName: '', replyTo: '', type: 'MARKETING', body: '' };

const draftOf = (t: Template): Draft => ({
  name: t.name,
  description: t.description ?? '',
  subject: t.subject,
  from: t.from,
  fromName: t.fromName ?? '',
  replyTo: t.replyTo ?? '',
  type: t.type,
  body: t.body,
});

const bodyOf = (d: Draft) => ({
  ...d,
  description: d.description || null,
  fromName: d.fromName.trim() || null,
  replyTo: d.replyTo.trim() || null,
});

function Field({ label, value, onChange, type = 'text', required = false, hint }: { label: string; value: string; onChange(v: string): void; type?: string; required?: boolean; hint?: string }) {
  return (
    <label>
      {label}
      <input type={type} required={required} value={value} onChange={(e) => onChange(e.target.value)} />
      {hint && <span className="hint">{hint}</span>}
    </label>
  );
}

function Editor({ saved }: { saved: Template | null }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [baseline, setBaseline] = useState<Draft>(saved ? draftOf(saved) : EMPTY);
  const [draft, setDraft] = useState<Draft>(baseline);
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const unsaved = JSON.stringify(draft) !== JSON.stringify(baseline);
  const refresh = () => queries.invalidateQueries({ queryKey: templatesKey(project?.id) });

  const save = useMutation({
    mutationFn: () => (saved ? api<Template>('PATCH', `/templates/${saved.id}`, bodyOf(draft)) : api<Template>('POST', '/templates', bodyOf(draft))),
    onSuccess: (t) => {
      void refresh();
      setBaseline(draftOf(t));
      setDraft(draftOf(t));
      if (!saved) navigate(`/templates/${t.id}`, { replace: true });
    },
  });
  const duplicate = useMutation({
    mutationFn: () => api<{ id: string }>('POST', `/templates/${saved!.id}/duplicate`),
    onSuccess: ({ id }) => {
      void refresh();
      navigate(`/templates/${id}`);
    },
  });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/templates/${saved!.id}`),
    onSuccess: () => {
      void refresh();
      navigate('/templates');
    },
    onSettled: () => setConfirming(false),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const removeFailure = remove.isError
    ? remove.error instanceof ApiFailure && remove.error.status === 409
      ? `This template is in use and was not deleted: ${remove.error.message}.`
      : errorText(remove.error)
    : null;

  return (
    <Page title={saved ? `Template: ${saved.name}` : 'New template'}>
      <p>
        <Link to="/templates">All templates</Link>
      </p>
      <div className="editor">
        <form onSubmit={submit} aria-label="Template">
          <Field label="Name" required value={draft.name} onChange={set('name')} />
          <Field label="Description" value={draft.description} onChange={set('description')} />
          <Field label="Subject" required value={draft.subject} onChange={set('subject')} hint="Variables work here too: {{name ?? there}}" />
          <Field label="From address" type="email" required value={draft.from} onChange={set('from')} hint="At a verified sender domain of the project" />
          <Field label="From name" value={draft.fromName} onChange={set('fromName')} />
          <Field label="Reply-to address" type="email" value={draft.replyTo} onChange={set('replyTo')} />
          <label>
            Type
            <select value={draft.type} onChange={(e) => set('type')(e.target.value as TemplateType)}>
              {TEMPLATE_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <BodyEditor value={draft.body} onChange={set('body')} />
          <ErrorNote error={save.isError ? errorText(save.error) : duplicate.isError ? errorText(duplicate.error) : removeFailure} />
          <p role="status" className="hint">
            {save.isPending ? 'Saving…' : unsaved ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
          </p>
          <div className="actions">
            <button type="submit" disabled={save.isPending || (saved !== null && !unsaved)}>
              {saved ? 'Save' : 'Create template'}
            </button>
            {saved && (
              <>
                <button type="button" className="quiet" disabled={duplicate.isPending} onClick={() => duplicate.mutate()}>
                  Duplicate
                </button>
                <button type="button" className="quiet" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              </>
            )}
          </div>
        </form>
        <div>
          <EmailPreview path="/templates/preview" draft={{ subject: draft.subject, body: draft.body }} />
          <TestSend
            path={saved ? `/templates/${saved.id}/test` : null}
            blocked={saved === null ? 'Save the template first: a test sends the saved template.' : unsaved ? 'Save your changes first: a test sends the saved template.' : null}
            note="The subject starts with [TEST]; the test is not tracked and not counted."
          />
        </div>
      </div>
      <ConfirmDialog open={confirming} title={`Delete ${saved?.name ?? ''}?`} confirmLabel="Delete template" busy={remove.isPending} onConfirm={() => remove.mutate()} onCancel={() => setConfirming(false)}>
        <p>The template is gone for good; emails already sent with it stay in the log.</p>
      </ConfirmDialog>
    </Page>
  );
}

export function TemplatesEditorPage() {
  const { project } = useSession();
  const { id } = useParams();
  const isNew = id === 'new';
  const template = useQuery({
    queryKey: [...templatesKey(project?.id), 'one', id],
    queryFn: () => api<Template>('GET', `/templates/${id}`),
    enabled: !isNew,
    // the form keeps what is typed: a refetch must not replace it
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  if (isNew) return <Editor key="new" saved={null} />;
  if (template.isPending) return <p role="status">Loading the template…</p>;
  if (template.isError)
    return (
      <Page title="Template">
        <ErrorNote error={errorText(template.error)} />
        <Link to="/templates">All templates</Link>
      </Page>
    );
  return <Editor key={template.data.id} saved={template.data} />;
}

// Editing a contact's subscription and data: one row per field with the control of its type, a
// field added or removed, or the whole data as JSON for those who prefer it. Problems are said on
// the field before anything is sent, and a 422 on the field it names; saving sends what changed
// (PATCH /contacts/{id}: data merges, null deletes a key).
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiFailure, errorText } from '../../api';
import { ErrorNote } from '../../page';
import { Icon } from '../../ui/icons';
import type { FieldType } from '../../ui/filterModel';
import type { Contact } from '../ContactsTypes';
import { AddField } from './AddField';
import { controlLabel, dataOf, draftOf, draftsOfJson, keyOfProblem, patchOf, problemsOf, valueOf, type Draft } from './draft';
import { FieldControl } from './FieldControl';

interface DataFormProps {
  contact: Contact;
  typeOf(key: string): FieldType | undefined;
  onSaved(contact: Contact): void;
  onCancel(): void;
}

function DraftRow({ draft, problem, onChange }: { draft: Draft; problem: string | undefined; onChange(next: Draft | null): void }) {
  const id = useId();
  if (draft.removed) {
    return (
      <li className="data-field removed">
        <span>
          <s>{draft.key}</s> <span className="hint">removed when you save</span>
        </span>
        <button type="button" className="secondary small" onClick={() => onChange({ ...draft, removed: false })}>
          Keep {draft.key}
        </button>
      </li>
    );
  }
  return (
    <li className="data-field">
      <div className="name">
        <label htmlFor={`${id}-input`}>{draft.key}</label>
        <span id={`${id}-type`} className="hint">
          {controlLabel(draft.control)}
          {draft.base ? '' : ', new'}
        </span>
      </div>
      <div className="value">
        <FieldControl
          id={`${id}-input`}
          control={draft.control}
          text={draft.text}
          checked={draft.checked}
          describedBy={problem ? `${id}-type ${id}-problem` : `${id}-type`}
          invalid={!!problem}
          onText={(text) => onChange({ ...draft, text })}
          onChecked={(checked) => onChange({ ...draft, checked })}
        />
        {problem && (
          <p id={`${id}-problem`} className="error">
            {problem}
          </p>
        )}
      </div>
      {/* a new field goes at once; a stored one waits for the save, and can be kept until then */}
      <button type="button" className="ghost icon" aria-label={`Remove ${draft.key}`} title={`Remove ${draft.key}`} onClick={() => onChange(draft.base ? { ...draft, removed: true } : null)}>
        <Icon name="close" size={16} />
      </button>
    </li>
  );
}

export function DataForm({ contact, typeOf, onSaved, onCancel }: DataFormProps) {
  const id = useId();
  const [drafts, setDrafts] = useState(() => Object.entries(contact.data).map(([key, value]) => draftOf(key, value, typeOf(key))));
  const [subscribed, setSubscribed] = useState(contact.subscribed);
  // the data as JSON while that mode is on
  const [json, setJson] = useState<string | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: { subscribed: boolean; data: Record<string, unknown> }) => api<Contact>('PATCH', `/contacts/${contact.id}`, body),
    onSuccess: onSaved,
    onError: (err) => {
      const keys = drafts.map((d) => d.key);
      const named = json === null && err instanceof ApiFailure ? err.fields.filter((p) => keyOfProblem(p, keys) !== null) : [];
      setProblems(Object.fromEntries(named.map((p) => [keyOfProblem(p, keys)!, p.message])));
      const rest = err instanceof ApiFailure ? err.fields.filter((p) => !named.includes(p)) : [];
      setFormProblem(named.length > 0 && rest.length === 0 ? 'Not saved: the fields marked say why.' : errorText(err));
    },
  });

  const change = (key: string, next: Draft | null) => {
    setDrafts((all) => (next ? all.map((d) => (d.key === key ? next : d)) : all.filter((d) => d.key !== key)));
    // a changed field says at once whether it is right now
    const value = next && !next.removed ? valueOf(next) : null;
    setProblems((shown) => {
      const others = { ...shown };
      delete others[key];
      return value && 'problem' in value ? { ...others, [key]: value.problem } : others;
    });
  };
  const listProblems = (found: Record<string, string>) =>
    Object.entries(found)
      .map(([key, problem]) => `${key}: ${problem}`)
      .join('; ');

  /** The drafts the form stands for now (in JSON mode, what the JSON says), or null with the problem said. */
  const currentDrafts = (): Draft[] | null => {
    if (json === null) return drafts;
    try {
      return draftsOfJson(json, contact.data, typeOf);
    } catch (err) {
      setFormProblem((err as Error).message);
      return null;
    }
  };
  const toggleJson = () => {
    const current = currentDrafts();
    if (!current) return;
    const found = problemsOf(current);
    if (json === null && Object.keys(found).length > 0) {
      setProblems(found);
      setFormProblem('Fix the fields marked before editing as JSON.');
      return;
    }
    setFormProblem(null);
    setProblems(found);
    if (json === null) {
      setJson(JSON.stringify(dataOf(current), null, 2));
    } else {
      setDrafts(current);
      setJson(null);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const current = currentDrafts();
    if (!current) return;
    const found = problemsOf(current);
    setProblems(json === null ? found : {});
    if (Object.keys(found).length > 0) {
      setFormProblem(json === null ? 'Not saved: the fields marked say what to fix.' : listProblems(found));
      return;
    }
    setFormProblem(null);
    save.mutate({ subscribed, data: patchOf(contact.data, dataOf(current)) });
  };

  const active = drafts.filter((d) => !d.removed);
  return (
    <form onSubmit={submit} aria-label="Edit data and subscription" className="data-form" noValidate>
      <label className="check">
        <input type="checkbox" checked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} /> Subscribed
      </label>
      <div className="row">
        <h3>Data</h3>
        <button type="button" className="quiet small" onClick={toggleJson}>
          {json === null ? 'Edit as JSON' : 'Edit as a form'}
        </button>
      </div>
      {json === null ? (
        <>
          {drafts.length === 0 ? (
            <p className="hint">No data yet: add a field below.</p>
          ) : (
            <ul className="data-fields">
              {drafts.map((d) => (
                <DraftRow key={d.key} draft={d} problem={problems[d.key]} onChange={(next) => change(d.key, next)} />
              ))}
            </ul>
          )}
          <AddField taken={drafts.map((d) => d.key)} onAdd={(d) => setDrafts((all) => [...all, d])} />
          {active.length < drafts.length && <p className="hint">Removed fields are deleted from the contact when you save.</p>}
        </>
      ) : (
        <label>
          Data (JSON)
          <textarea rows={10} value={json} onChange={(e) => setJson(e.target.value)} spellCheck={false} aria-describedby={`${id}-json-hint`} />
          <span id={`${id}-json-hint`} className="hint">
            Fields left out or set to null are deleted when you save.
          </span>
        </label>
      )}
      <ErrorNote error={formProblem} />
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// An email's HTML body, in HTML mode (a code editor with `{{variable}}` completion) or visual mode
// (a rich-text editor); both edit the same value, so switching keeps the content. Each editor is a
// chunk of its own, loaded when its mode is first shown: other pages never load either.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { api } from '../api';
import { useSession } from '../session';

const HtmlCodeEditor = lazy(async () => ({ default: (await import('./HtmlCodeEditor')).HtmlCodeEditor }));
const VisualEditor = lazy(async () => ({ default: (await import('./VisualEditor')).VisualEditor }));

export type BodyMode = 'HTML' | 'Visual';
const MODES: BodyMode[] = ['HTML', 'Visual'];

/** The variables every message to a contact has (compose/scope.ts), before the project's data fields. */
const STANDARD_VARIABLES = ['email', 'id', 'unsubscribeUrl', 'manageUrl', 'subscribeUrl'];

/** The names `{{...}}` can take: the standard ones and the project's contact data fields (GET /contacts/fields). */
export function useVariables(): string[] {
  const { project } = useSession();
  const fields = useQuery({
    queryKey: ['contact-fields', project?.id],
    queryFn: () => api<{ fields: { field: string }[] }>('GET', '/contacts/fields'),
    staleTime: 60_000,
  });
  return useMemo(() => {
    const custom = (fields.data?.fields ?? []).flatMap(({ field }) => (field.startsWith('data.') ? [field.slice(5)] : [])).filter((k) => /^[\w.-]+$/.test(k));
    return [...STANDARD_VARIABLES, ...custom.filter((k) => !STANDARD_VARIABLES.includes(k))];
  }, [fields.data]);
}

export function BodyEditor({ value, onChange, initialMode = 'HTML' }: { value: string; onChange(value: string): void; initialMode?: BodyMode }) {
  const [mode, setMode] = useState<BodyMode>(initialMode);
  const variables = useVariables();
  const hint = useId();
  const group = useId();
  return (
    <fieldset className="body-editor" aria-describedby={hint}>
      <legend>Body</legend>
      <div role="radiogroup" aria-label="Editor mode" className="row">
        {MODES.map((m) => (
          <label key={m} className="inline">
            <input type="radio" name={group} checked={mode === m} onChange={() => setMode(m)} />
            {m}
          </label>
        ))}
      </div>
      <Suspense fallback={<p role="status">Loading the editor…</p>}>
        {mode === 'HTML' ? (
          <HtmlCodeEditor value={value} onChange={onChange} label="HTML body" variables={variables} />
        ) : (
          <VisualEditor value={value} onChange={onChange} label="Visual body" variables={variables} />
        )}
      </Suspense>
      <p id={hint} className="hint">
        {'{{name}} is HTML-escaped, {{{name}}} inserted as is, {{name ?? fallback}} has a fallback; type {{ in HTML mode to complete a variable.'}
      </p>
    </fieldset>
  );
}

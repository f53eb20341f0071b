// The preview of an email being written (a template, a campaign): rendered by the daemon exactly as
// a send to the chosen contact would be (`path`: POST /templates/preview or /campaigns/preview,
// nothing saved), shown in an iframe sandboxed without scripts or our origin, at a desktop or a
// mobile width. It follows the editor once typing pauses.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { useDebounced } from './useDebounced';
import { BlockedImagesNote } from './BlockedImagesNote';

interface Rendered {
  subject: string;
  html: string;
  text: string;
}

interface ContactChoice {
  id: string;
  email: string;
}

/** The stand-in the daemon renders for when no contact is chosen. */
const STAND_IN = 'someone@example.com';

/** The widths a reader sees it at: a desktop mail client's reading pane, a phone held upright. */
const WIDTHS = { Desktop: '100%', Mobile: '375px' } as const;
type Width = keyof typeof WIDTHS;

function ContactPicker({ chosen, onChoose }: { chosen: ContactChoice | null; onChoose(c: ContactChoice | null): void }) {
  const { project } = useSession();
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), 300);
  const found = useQuery({
    queryKey: ['contacts', project?.id, 'search', settled],
    queryFn: () => api<{ data: ContactChoice[] }>('GET', `/contacts?limit=10&search=${encodeURIComponent(settled)}`),
    enabled: settled !== '',
  });
  const options = [...(chosen ? [chosen] : []), ...(found.data?.data ?? []).filter((c) => c.id !== chosen?.id)];
  return (
    <div className="row">
      <label>
        Find a contact
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="part of an email address" />
      </label>
      <label>
        Preview for
        <select value={chosen?.id ?? ''} onChange={(e) => onChoose(options.find((c) => c.id === e.target.value) ?? null)}>
          <option value="">{STAND_IN} (no contact, no data)</option>
          {options.map((c) => (
            <option key={c.id} value={c.id}>
              {c.email}
            </option>
          ))}
        </select>
      </label>
      <span role="status" className="hint">
        {settled === '' ? '' : found.isFetching ? 'Searching…' : `${found.data?.data.length ?? 0} found`}
      </span>
      <ErrorNote error={found.isError ? errorText(found.error) : null} />
    </div>
  );
}

/** `draft`: the request body without the contact (subject, body and what else `path` renders). */
export function EmailPreview({ path, draft }: { path: string; draft: Record<string, unknown> }) {
  const { project } = useSession();
  const [contact, setContact] = useState<ContactChoice | null>(null);
  const [width, setWidth] = useState<Width>('Desktop');
  // a string, so the debounced value stays equal while nothing changes
  const settled = useDebounced(JSON.stringify({ ...draft, contactId: contact?.id }), 400);
  const preview = useQuery({
    queryKey: ['email-preview', project?.id, path, settled],
    queryFn: () => api<Rendered>('POST', path, JSON.parse(settled) as unknown),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="preview-heading" className="preview">
      <h2 id="preview-heading">Preview</h2>
      <ContactPicker chosen={contact} onChoose={setContact} />
      <fieldset className="row">
        <legend>Width</legend>
        {(Object.keys(WIDTHS) as Width[]).map((w) => (
          <label key={w} className="inline">
            <input type="radio" name="preview-width" checked={width === w} onChange={() => setWidth(w)} />
            {w}
          </label>
        ))}
      </fieldset>
      <p role="status" className="hint">
        {preview.isFetching ? 'Updating the preview…' : ''}
      </p>
      <ErrorNote error={preview.isError ? errorText(preview.error) : null} />
      {preview.data && (
        <>
          <p>
            Subject: <strong>{preview.data.subject}</strong>
          </p>
          {/* no allow-scripts, no allow-same-origin: the email's HTML runs nothing and reaches nothing of ours */}
          <iframe title="Email preview" sandbox="" srcDoc={preview.data.html} style={{ width: WIDTHS[width] }} />
          <BlockedImagesNote html={preview.data.html} />
          <p className="hint">As a send renders it, untracked; unsubscribe, subscribe and manage links point to inert *.preview.invalid addresses.</p>
          <details>
            <summary>Text part</summary>
            <pre>{preview.data.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}

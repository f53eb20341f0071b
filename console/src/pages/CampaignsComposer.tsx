// The composer of a DRAFT or SCHEDULED campaign (`/campaigns/new` makes one): start from a
// template or from scratch; subject, preview text, sender; the body in HTML or visual mode; the
// audience with its live count; save; the preview as a real contact at desktop and mobile widths;
// a test to chosen addresses; send now or schedule. Tests and sends act on the saved campaign.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { BodyEditor } from '../ui/BodyEditor';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { EmailPreview } from '../ui/EmailPreview';
import { TestSend } from '../ui/TestSend';
import { campaignsKey, type Audience, type Campaign } from './Campaigns';
import { CampaignsAudience } from './CampaignsAudience';
import { CampaignsProgress } from './CampaignsProgress';
import { CampaignsSend } from './CampaignsSend';
import { TEMPLATE_TYPES, templatesKey, type Template, type TemplatePage, type TemplateType } from './Templates';

/** The form's values: text fields as typed (empty optional fields are sent as null). */
interface Draft {
  name: string;
  subject: string;
  previewText: string;
  from: string;
  fromName: string;
  replyTo: string;
  type: TemplateType;
  body: string;
  audience: Omit<Audience, 'type'>;
}

const EMPTY: Draft = {
  name: '',
  subject: '',
  previewText: '',
  from: '',
  fromName: '',
  replyTo: '',
  type: 'MARKETING',
  body: '',
  audience: { audienceType: 'ALL', segmentId: null, audienceCondition: null },
};

const draftOf = (c: Campaign): Draft => ({
  name: c.name,
  subject: c.subject,
  previewText: c.previewText ?? '',
  from: c.from,
  fromName: c.fromName ?? '',
  replyTo: c.replyTo ?? '',
  type: c.type,
  body: c.body,
  audience: { audienceType: c.audienceType, segmentId: c.segmentId, audienceCondition: c.audienceCondition },
});

const bodyOf = ({ audience, ...d }: Draft) => ({
  ...d,
  previewText: d.previewText.trim() || null,
  fromName: d.fromName.trim() || null,
  replyTo: d.replyTo.trim() || null,
  ...audience,
});

/** A template's content over the draft's: what "start from a template" takes. */
const fromTemplate = (d: Draft, t: Template): Draft => ({
  ...d,
  name: d.name || t.name,
  subject: t.subject,
  body: t.body,
  from: t.from,
  fromName: t.fromName ?? '',
  replyTo: t.replyTo ?? '',
  type: t.type,
});

/** A text field whose hint describes it without being part of its name. */
function Field({ label, value, onChange, type = 'text', required = false, hint }: { label: string; value: string; onChange(v: string): void; type?: string; required?: boolean; hint?: string }) {
  const hintId = useId();
  return (
    <div className="field">
      <label>
        {label}
        <input type={type} required={required} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={hint ? hintId : undefined} />
      </label>
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}

function TemplateStart({ onUse, replaces }: { onUse(t: Template): void; replaces: boolean }) {
  const { project } = useSession();
  const templates = useQuery({
    queryKey: [...templatesKey(project?.id), 'choices'],
    queryFn: () => api<TemplatePage>('GET', '/templates?pageSize=100&sort=name&dir=asc'),
  });
  const [chosen, setChosen] = useState('');
  const [confirming, setConfirming] = useState(false);
  const template = templates.data?.data.find((t) => t.id === chosen) ?? null;
  const use = () => {
    if (template) onUse(template);
    setConfirming(false);
  };
  return (
    <section aria-labelledby="start-heading">
      <h2 id="start-heading">Start from a template</h2>
      <div className="row">
        <label>
          Template
          <select value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a template…</option>
            {(templates.data?.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="quiet" disabled={!template} onClick={() => (replaces ? setConfirming(true) : use())}>
          Use template
        </button>
      </div>
      <p className="hint">Its subject, body and sender replace the campaign's; or write from scratch below.</p>
      <ErrorNote error={templates.isError ? errorText(templates.error) : null} />
      <ConfirmDialog open={confirming} title={`Replace the content with ${template?.name ?? ''}?`} confirmLabel="Replace content" onConfirm={use} onCancel={() => setConfirming(false)}>
        <p>The subject, body and sender you have written are replaced by the template's.</p>
      </ConfirmDialog>
    </section>
  );
}

export function CampaignsComposer({ saved, onSaved }: { saved: Campaign | null; onSaved(c: Campaign): void }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [baseline, setBaseline] = useState<Draft>(saved ? draftOf(saved) : EMPTY);
  const [draft, setDraft] = useState<Draft>(baseline);
  const [previewing, setPreviewing] = useState(false);
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setAudience = useCallback((audience: Audience) => setDraft((d) => ({ ...d, audience: { audienceType: audience.audienceType, segmentId: audience.segmentId, audienceCondition: audience.audienceCondition } })), []);
  const unsaved = JSON.stringify(draft) !== JSON.stringify(baseline);
  const refresh = () => queries.invalidateQueries({ queryKey: campaignsKey(project?.id) });

  const save = useMutation({
    mutationFn: async () => (saved ? api<Campaign>('PUT', `/campaigns/${saved.id}`, bodyOf(draft)) : (await api<{ data: Campaign }>('POST', '/campaigns', bodyOf(draft))).data),
    onSuccess: (c) => {
      void refresh();
      setBaseline(draftOf(c));
      setDraft(draftOf(c));
      onSaved(c);
      if (!saved) navigate(`/campaigns/${c.id}`, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const blocked = saved === null ? 'Save the draft first: tests and sends use the saved campaign.' : unsaved ? 'Save your changes first: tests and sends use the saved campaign.' : null;
  const audience: Audience = { ...draft.audience, type: draft.type };

  return (
    <>
      <TemplateStart replaces={draft.body.trim() !== ''} onUse={(t) => setDraft((d) => fromTemplate(d, t))} />
      <form onSubmit={submit} aria-label="Campaign" className="composer">
        <h2>Content</h2>
        <Field label="Name" required value={draft.name} onChange={set('name')} hint="Yours only; recipients never see it" />
        <Field label="Subject" required value={draft.subject} onChange={set('subject')} hint="Variables work here too: {{name ?? there}}" />
        <Field label="Preview text" value={draft.previewText} onChange={set('previewText')} hint="The line inboxes show after the subject; hidden in the email itself" />
        <div className="row">
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
        </div>
        <BodyEditor value={draft.body} onChange={set('body')} />
        <CampaignsAudience audience={audience} onChange={setAudience} disabled={false} />
        <ErrorNote error={save.isError ? errorText(save.error) : null} />
        <p role="status" className="hint">
          {save.isPending ? 'Saving…' : unsaved ? 'Unsaved changes' : saved ? 'Saved' : ''}
        </p>
        <div className="actions">
          <button type="submit" disabled={save.isPending || (saved !== null && !unsaved)}>
            {saved ? 'Save draft' : 'Create draft'}
          </button>
          <button type="button" className="quiet" aria-expanded={previewing} aria-controls="campaign-preview" onClick={() => setPreviewing((p) => !p)}>
            Preview
          </button>
        </div>
      </form>
      <div id="campaign-preview">{previewing && <EmailPreview path="/campaigns/preview" draft={{ subject: draft.subject, previewText: draft.previewText, body: draft.body }} />}</div>
      <TestSend path={saved ? `/campaigns/${saved.id}/test` : null} blocked={blocked} note="The subject starts with [TEST]; the test is not tracked and not counted, and no contact's data fills it." />
      {saved && (
        <>
          <CampaignsSend campaign={saved} audience={{ audienceType: saved.audienceType, segmentId: saved.segmentId, audienceCondition: saved.audienceCondition, type: saved.type }} blocked={blocked} onSent={onSaved} />
          {saved.status === 'SCHEDULED' && <CampaignsProgress campaign={saved} onChanged={() => void refresh()} />}
        </>
      )}
    </>
  );
}

// Messages: the log of every email the project sent or tried to, newest first, found by a part of
// the recipient or subject, a status, a campaign and a range of days; each row opens the email's
// timeline. The filters live in the address, so a filtered log is a link.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { EmailLog } from './EmailLog';
import { EMAIL_STATUSES, type LogFilters } from './Emails';

const NONE: LogFilters = { search: '', status: '', campaignId: '', since: '', until: '' };

const filtersOf = (params: URLSearchParams): LogFilters => ({
  search: params.get('search') ?? '',
  status: params.get('status') ?? '',
  campaignId: params.get('campaignId') ?? '',
  since: params.get('since') ?? '',
  until: params.get('until') ?? '',
});

/** The campaigns to filter by: the latest hundred (a campaign's own link may name an older one). */
function useCampaigns() {
  const { project } = useSession();
  return useQuery({
    queryKey: ['campaigns', project?.id, 'choices'],
    queryFn: () => api<{ data: { id: string; name: string }[] }>('GET', '/campaigns?pageSize=100&sort=createdAt&dir=desc'),
  });
}

function Filters({ applied, onApply }: { applied: LogFilters; onApply(f: LogFilters): void }) {
  const [draft, setDraft] = useState(applied);
  const campaigns = useCampaigns();
  const set = (field: keyof LogFilters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...draft, search: draft.search.trim() });
  };
  const choices = campaigns.data?.data ?? [];
  return (
    <form onSubmit={submit} className="filters" aria-label="Find emails">
      <label>
        Search recipient or subject
        <input type="search" value={draft.search} onChange={set('search')} maxLength={200} />
      </label>
      <label>
        Status
        <select value={draft.status} onChange={set('status')}>
          <option value="">Any</option>
          {EMAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Campaign
        <select value={draft.campaignId} onChange={set('campaignId')}>
          <option value="">Any (or none)</option>
          {draft.campaignId && !choices.some((c) => c.id === draft.campaignId) && <option value={draft.campaignId}>{draft.campaignId}</option>}
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Sent since
        <input type="date" value={draft.since} onChange={set('since')} />
      </label>
      <label>
        Sent until
        <input type="date" value={draft.until} min={draft.since || undefined} onChange={set('until')} />
      </label>
      <div className="row">
        <button type="submit">Find</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(NONE);
            onApply(NONE);
          }}
        >
          Clear filters
        </button>
      </div>
      <ErrorNote error={campaigns.isError ? `The campaigns could not be listed: ${errorText(campaigns.error)}` : null} />
    </form>
  );
}

export function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const applied = filtersOf(params);
  const apply = (f: LogFilters) => setParams(new URLSearchParams(Object.entries(f).filter(([, v]) => v !== '')));
  const filtered = Object.values(applied).some((v) => v !== '');
  return (
    <Page title="Messages">
      <p className="hint">Every email of the project, newest first. Open one to see each attempt to deliver it, the server's reply, and its opens and clicks.</p>
      <Filters key={params.toString()} applied={applied} onApply={apply} />
      <EmailLog
        filters={applied}
        caption="Emails, newest first"
        linkOf={(e) => `/messages/${e.id}`}
        empty={filtered ? 'No email matches: clear the filters to see every email.' : 'No email yet: send one through the API or a template’s Send test.'}
      />
    </Page>
  );
}

// Who a campaign goes to: all contacts, a segment, or a filter; with the live count of who a send
// would reach and who it leaves out (unsubscribed, suppressed), asked of the API as the choice
// settles (POST /campaigns/audience-count, counted on its reader thread).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { emptyCondition, FilterBuilder } from '../ui/FilterBuilder';
import { countFilters } from '../ui/filterModel';
import { useDebounced } from '../ui/useDebounced';
import { plural, segmentsKey, type Audience, type AudienceCount, type AudienceType, type SegmentChoice } from './Campaigns';

const CHOICES: { type: AudienceType; label: string }[] = [
  { type: 'ALL', label: 'All contacts' },
  { type: 'SEGMENT', label: 'A segment' },
  { type: 'FILTERED', label: 'A filter' },
];

export function useSegments() {
  const { project } = useSession();
  return useQuery({ queryKey: segmentsKey(project?.id), queryFn: () => api<{ data: SegmentChoice[] }>('GET', '/segments'), staleTime: 30_000 });
}

/** Whether the audience names everything its type needs (the API answers 400 otherwise). */
export const audienceComplete = (a: Audience) =>
  a.audienceType === 'ALL' || (a.audienceType === 'SEGMENT' && a.segmentId !== null) || (a.audienceType === 'FILTERED' && a.audienceCondition !== null && countFilters(a.audienceCondition) > 0);

/** The audience counted now; null while it is incomplete. */
export function useAudienceCount(audience: Audience, live = true) {
  const { project } = useSession();
  // the count route takes exactly these
  const { audienceType, segmentId, audienceCondition, type } = audience;
  const settled = useDebounced(JSON.stringify({ audienceType, segmentId, audienceCondition, type }), live ? 400 : 0);
  const parsed = JSON.parse(settled) as Audience;
  return useQuery({
    queryKey: ['campaign-audience', project?.id, settled],
    queryFn: () => api<AudienceCount>('POST', '/campaigns/audience-count', parsed),
    enabled: audienceComplete(parsed),
    placeholderData: keepPreviousData,
  });
}

/** The count in words: who gets it, and who is left out and why. */
export function AudienceSummary({ count }: { count: AudienceCount }) {
  return (
    <>
      <strong>{plural(count.recipients, 'recipient')}</strong>
      {count.unsubscribed + count.suppressed > 0 && (
        <>
          {' '}
          — left out: {plural(count.unsubscribed, 'unsubscribed contact')}, {plural(count.suppressed, 'suppressed address', 'suppressed addresses')}
        </>
      )}
    </>
  );
}

export function CampaignsAudience({ audience, onChange, disabled }: { audience: Audience; onChange(a: Audience): void; disabled: boolean }) {
  const segments = useSegments();
  const count = useAudienceCount(audience);
  const group = useId();
  const set = (patch: Partial<Audience>) => onChange({ ...audience, ...patch });
  // a segment chosen for you when there is one and none is chosen yet
  const first = segments.data?.data[0]?.id ?? null;
  useEffect(() => {
    if (audience.audienceType === 'SEGMENT' && audience.segmentId === null && first) onChange({ ...audience, segmentId: first });
  }, [audience, first, onChange]);
  return (
    <fieldset disabled={disabled}>
      <legend>Audience</legend>
      <div className="row">
        {CHOICES.map((c) => (
          <label key={c.type} className="inline">
            <input type="radio" name={group} checked={audience.audienceType === c.type} onChange={() => set({ audienceType: c.type })} />
            {c.label}
          </label>
        ))}
      </div>
      {audience.audienceType === 'SEGMENT' &&
        (segments.data?.data.length === 0 ? (
          <p>The project has no segments yet: make one under Segments.</p>
        ) : (
          <label>
            Segment
            <select value={audience.segmentId ?? ''} onChange={(e) => set({ segmentId: e.target.value || null })}>
              {(segments.data?.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        ))}
      {audience.audienceType === 'FILTERED' && (
        <FilterBuilder label="Audience filter" value={audience.audienceCondition ?? emptyCondition()} onChange={(audienceCondition) => set({ audienceCondition })} />
      )}
      <p role="status" aria-live="polite" className="count">
        {!audienceComplete(audience) ? (
          'Complete the audience to count it.'
        ) : count.data ? (
          <>
            <AudienceSummary count={count.data} />
            {count.isFetching ? ' (counting…)' : ''}
          </>
        ) : count.isFetching ? (
          'Counting…'
        ) : (
          ''
        )}
      </p>
      {audience.type === 'TRANSACTIONAL' && <p className="hint">A TRANSACTIONAL campaign reaches unsubscribed contacts too; suppressed addresses never.</p>}
      <ErrorNote error={count.isError ? errorText(count.error) : segments.isError ? errorText(segments.error) : null} />
    </fieldset>
  );
}

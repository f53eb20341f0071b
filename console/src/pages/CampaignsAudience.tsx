// Who a campaign goes to: all contacts, a segment, or a filter; with the live count of who a send
// would reach and who it leaves out (unsubscribed, suppressed), asked of the API as the choice
// settles (POST /campaigns/audience-count, counted on its reader thread).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { useDebounced } from '../ui/useDebounced';
import { plural, segmentsKey, type Audience, type AudienceCount, type AudienceType, type FilterCondition, type SegmentChoice } from './Campaigns';

const CHOICES: { type: AudienceType; label: string }[] = [
  { type: 'ALL', label: 'All contacts' },
  { type: 'SEGMENT', label: 'A segment' },
  { type: 'FILTERED', label: 'A filter' },
];

export function useSegments() {
  const { project } = useSession();
  return useQuery({ queryKey: segmentsKey(project?.id), queryFn: () => api<{ data: SegmentChoice[] }>('GET', '/segments'), staleTime: 30_000 });
}

/**
 * A FilterCondition typed as JSON: the seam where the segment builder's filter builder
 * (ui/FilterBuilder, the same `{ value, onChange }`) takes over. The API checks the condition; this
 * only parses it.
 */
function FilterConditionInput({ value, onChange }: { value: FilterCondition | null; onChange(value: FilterCondition | null): void }) {
  const [text, setText] = useState(() => (value ? JSON.stringify(value, null, 2) : ''));
  const [problem, setProblem] = useState<string | null>(null);
  const hint = useId();
  const change = (next: string) => {
    setText(next);
    try {
      const parsed: unknown = JSON.parse(next);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('a FilterCondition is an object: {"logic": "AND", "groups": [...]}');
      setProblem(null);
      onChange(parsed as FilterCondition);
    } catch (err) {
      setProblem(next.trim() === '' ? null : `Not a FilterCondition yet: ${errorText(err)}`);
      onChange(null);
    }
  };
  return (
    <label>
      Filter (FilterCondition JSON)
      <textarea rows={8} spellCheck={false} value={text} onChange={(e) => change(e.target.value)} aria-describedby={hint} aria-invalid={problem !== null} />
      <span id={hint} className="hint">
        {problem ?? 'For example {"logic": "AND", "groups": [{"filters": [{"field": "data.plan", "operator": "equals", "value": "pro"}]}]}'}
      </span>
    </label>
  );
}

/** Whether the audience names everything its type needs (the API answers 400 otherwise). */
export const audienceComplete = (a: Audience) =>
  a.audienceType === 'ALL' || (a.audienceType === 'SEGMENT' && a.segmentId !== null) || (a.audienceType === 'FILTERED' && a.audienceCondition !== null);

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
      {audience.audienceType === 'FILTERED' && <FilterConditionInput value={audience.audienceCondition} onChange={(audienceCondition) => set({ audienceCondition })} />}
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

// A segment's page (MEMBER), `/segments/new` to make one: name, description, type and membership
// tracking; a dynamic segment's condition in the filter builder beside its live members; a static
// segment's members; save, and delete (refused with the API's 409 while something uses it).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, errorText, type FieldProblem } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { emptyCondition, FilterBuilder, type FilterCondition } from '../ui/FilterBuilder';
import { SegmentMembers } from './SegmentMembers';
import { SegmentPreview } from './SegmentPreview';
import { deleteFailure, segmentsKey, type Segment, type SegmentType } from './Segments';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { Skeleton } from '../ui/Skeleton';
import { useToast } from '../ui/Toasts';

interface Draft {
  name: string;
  description: string;
  type: SegmentType;
  trackMembership: boolean;
  condition: FilterCondition;
}

const draftOf = (s: Segment): Draft => ({
  name: s.name,
  description: s.description ?? '',
  type: s.type,
  trackMembership: s.trackMembership,
  condition: s.condition ?? emptyCondition(),
});

const EMPTY: Draft = { name: '', description: '', type: 'DYNAMIC', trackMembership: false, condition: emptyCondition() };

/** The body of a POST (every field) or a PATCH (the type never changes; a static segment has no condition). */
function bodyOf(d: Draft, creating: boolean) {
  const body: Record<string, unknown> = { name: d.name, description: d.description.trim() || null, trackMembership: d.trackMembership };
  if (creating) body.type = d.type;
  if (d.type === 'DYNAMIC') body.condition = d.condition;
  return body;
}

function Editor({ saved }: { saved: Segment | null }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [baseline, setBaseline] = useState<Draft>(saved ? draftOf(saved) : EMPTY);
  const [draft, setDraft] = useState<Draft>(baseline);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setCondition = useCallback((condition: FilterCondition) => setDraft((d) => ({ ...d, condition })), []);
  const unsaved = JSON.stringify(draft) !== JSON.stringify(baseline);
  const refresh = () => queries.invalidateQueries({ queryKey: segmentsKey(project?.id) });

  const save = useMutation({
    mutationFn: () => (saved ? api<Segment>('PATCH', `/segments/${saved.id}`, bodyOf(draft, false)) : api<Segment>('POST', '/segments', bodyOf(draft, true))),
    onSuccess: (s) => {
      void refresh();
      setBaseline(draftOf(s));
      setDraft(draftOf(s));
      if (!saved) navigate(`/segments/${s.id}`, { replace: true });
    },
  });
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/segments/${saved!.id}`),
    onSuccess: () => {
      void refresh();
      toast(`Segment ${saved!.name} deleted`);
      navigate('/segments');
    },
    onSettled: () => setConfirming(false),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const dynamic = draft.type === 'DYNAMIC';
  return (
    <Page title={saved ? `Segment: ${saved.name}` : 'New segment'}>
      <p>
        <Link to="/segments">All segments</Link>
      </p>
      {saved && <ExportCsvButton segmentId={saved.id} fileName={`segment-${saved.name.replace(/[^\w-]+/g, '-').toLowerCase()}.csv`} label="Export members as CSV" />}
      <div className={dynamic ? 'editor segment-editor' : undefined}>
        <form onSubmit={submit} aria-label="Segment">
          <label>
            Name
            <input required maxLength={100} value={draft.name} onChange={(e) => set('name', e.target.value)} />
          </label>
          <label>
            Description
            <input maxLength={500} value={draft.description} onChange={(e) => set('description', e.target.value)} />
          </label>
          {saved ? (
            <p>
              Type: <strong>{dynamic ? 'Dynamic' : 'Static'}</strong> {saved && <span className="hint">({saved.memberCount} members when last counted)</span>}
            </p>
          ) : (
            <fieldset>
              <legend>Type</legend>
              <label className="check">
                <input type="radio" name="type" checked={dynamic} onChange={() => set('type', 'DYNAMIC')} />
                Dynamic: the contacts a condition matches, always up to date
              </label>
              <label className="check">
                <input type="radio" name="type" checked={!dynamic} onChange={() => set('type', 'STATIC')} />
                Static: contacts added by hand or from a CSV file
              </label>
            </fieldset>
          )}
          <label className="check">
            <input type="checkbox" checked={draft.trackMembership} onChange={(e) => set('trackMembership', e.target.checked)} />
            Track membership (events when contacts enter or leave, for workflows)
          </label>
          {dynamic && <FilterBuilder label="Condition" value={draft.condition} onChange={setCondition} problems={problems} excludeSegmentId={saved?.id} />}
          <ErrorNote error={save.isError ? errorText(save.error) : remove.isError ? deleteFailure(remove.error, saved?.name ?? 'The segment') : null} />
          <p role="status" className="hint">
            {save.isPending ? 'Saving…' : unsaved ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
          </p>
          <div className="actions">
            <button type="submit" disabled={save.isPending || (saved !== null && !unsaved)}>
              {saved ? 'Save' : 'Create segment'}
            </button>
            {saved && (
              <button type="button" className="quiet" onClick={() => setConfirming(true)}>
                Delete
              </button>
            )}
          </div>
        </form>
        {dynamic && <SegmentPreview condition={draft.condition} segmentId={saved?.id} onProblems={setProblems} />}
      </div>
      {saved && !dynamic && <SegmentMembers segment={saved} />}
      <ConfirmDialog open={confirming} title={`Delete ${saved?.name ?? ''}?`} confirmLabel="Delete segment" busy={remove.isPending} onConfirm={() => remove.mutate()} onCancel={() => setConfirming(false)}>
        <p>The segment is gone for good; its contacts stay. A segment that a campaign, another segment or a workflow uses is not deleted.</p>
      </ConfirmDialog>
    </Page>
  );
}

export function SegmentEditorPage() {
  const { project } = useSession();
  const { id } = useParams();
  const isNew = id === 'new';
  const segment = useQuery({
    queryKey: [...segmentsKey(project?.id), 'one', id],
    queryFn: () => api<Segment>('GET', `/segments/${id}`),
    enabled: !isNew,
    // the form keeps what is typed: a refetch must not replace it
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  if (isNew) return <Editor key="new" saved={null} />;
  if (segment.isPending) return <Skeleton label="Loading the segment…" />;
  if (segment.isError)
    return (
      <Page title="Segment">
        <ErrorNote error={errorText(segment.error)} />
        <Link to="/segments">All segments</Link>
      </Page>
    );
  return <Editor key={segment.data.id} saved={segment.data} />;
}

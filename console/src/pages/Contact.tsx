// One contact: its data and subscription (a list of fields edited in a typed form, with a note when
// a send left it unsubscribed), its activity timeline, and deletion.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import type { Contact } from './ContactsTypes';
import { Skeleton } from '../ui/Skeleton';
import { ContactData } from './contacts/ContactData';
import { formatMoment } from './contacts/values';

interface ActivityPage {
  data: { id: string; type: string; timestamp: string; metadata: Record<string, unknown> }[];
  cursor: string | null;
  hasMore: boolean;
}

function Timeline({ contactId }: { contactId: string }) {
  const { project } = useSession();
  const feed = useInfiniteQuery({
    queryKey: ['activity', project?.id, contactId],
    queryFn: ({ pageParam }) => api<ActivityPage>('GET', `/activity?contactId=${contactId}&limit=25${pageParam ? `&cursor=${pageParam}` : ''}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.cursor : null),
  });
  const entries = feed.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Activity</h2>
      <ErrorNote error={feed.isError ? errorText(feed.error) : null} />
      {feed.isPending ? (
        <Skeleton label="Loading activity…" />
      ) : entries.length === 0 ? (
        <p>No activity yet.</p>
      ) : (
        <ol className="timeline">
          {entries.map((e) => (
            <li key={e.id}>
              <time dateTime={e.timestamp}>{formatMoment(e.timestamp)}</time> <strong>{e.type}</strong>
              {typeof e.metadata.subject === 'string' && <span className="hint"> {e.metadata.subject}</span>}
            </li>
          ))}
        </ol>
      )}
      {feed.hasNextPage && (
        <button type="button" className="secondary" disabled={feed.isFetchingNextPage} onClick={() => void feed.fetchNextPage()}>
          Show older activity
        </button>
      )}
    </section>
  );
}

/**
 * A contact unsubscribed since it was created, as one a send creates: no subscription change in its
 * activity. Said on its page, since the send's answer does not say it.
 */
function NeverSubscribedNote({ contact }: { contact: Contact }) {
  const { project } = useSession();
  const changes = useQuery({
    queryKey: ['activity', project?.id, contact.id, 'subscription', contact.updatedAt],
    queryFn: () => api<ActivityPage>('GET', `/activity?contactId=${contact.id}&types=contact.subscribed,contact.unsubscribed&limit=1`),
  });
  if (changes.data?.data.length !== 0) return null;
  return (
    <p className="hint">
      Never subscribed: a contact that a send (<code>/v1/send</code>) creates starts unsubscribed unless the send says <code>subscribed: true</code>. Campaigns and
      marketing mail skip it until it subscribes.
    </p>
  );
}

export function ContactPage() {
  const { id = '' } = useParams();
  const { project } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const key = ['contact', project?.id, id];
  const contact = useQuery({ queryKey: key, queryFn: () => api<Contact>('GET', `/contacts/${id}`) });
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/contacts/${id}`),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['contacts', project?.id] });
      navigate('/contacts');
    },
  });
  const c = contact.data;
  return (
    <Page title={c ? c.email : 'Contact'}>
      <ErrorNote error={contact.isError ? errorText(contact.error) : remove.isError ? errorText(remove.error) : null} />
      {contact.isPending && <Skeleton label="Loading the contact…" />}
      {c && (
        <>
          <p className="hint">
            Created {formatMoment(c.createdAt)}, changed {formatMoment(c.updatedAt)}. {c.subscribed ? 'Subscribed.' : 'Unsubscribed.'}
          </p>
          {!c.subscribed && <NeverSubscribedNote contact={c} />}
          <ContactData
            key={c.id}
            contact={c}
            onSaved={(saved) => {
              queries.setQueryData(key, saved);
              // the list and the fields (a new one, a type changed) read what was saved
              void queries.invalidateQueries({ queryKey: ['contacts', project?.id] });
            }}
          />
          <Timeline contactId={c.id} />
          <section aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete</h2>
            <p>Deleting removes the contact and its events. It cannot be undone.</p>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete ${c.email} and its events?`)) remove.mutate();
              }}
            >
              Delete contact
            </button>
          </section>
        </>
      )}
    </Page>
  );
}

// Settings > Members (OWNER): who is in the project with which role; invite, change a role, remove.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, errorText, type Role } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { CopyButton } from '../ui/CopyButton';
import { useToast } from '../ui/Toasts';
import { Skeleton } from '../ui/Skeleton';

interface Member {
  userId: string;
  email: string;
  role: Role;
  status: 'invited' | 'active' | 'disabled';
  createdAt: string;
}

interface Invitation {
  member: Member;
  inviteUrl: string;
  emailId: string | null;
}

const ROLES: Role[] = ['OWNER', 'ADMIN', 'MEMBER'];
const STATUS_TONES: Record<Member['status'], string> = { active: 'success', invited: 'accent', disabled: 'neutral' };

function RoleSelect({ label, value, onChange, disabled }: { label: string; value: Role; onChange(role: Role): void; disabled?: boolean }) {
  return (
    <select aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r}>{r}</option>
      ))}
    </select>
  );
}

function InviteForm({ onInvited }: { onInvited(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const invite = useMutation({
    mutationFn: () => api<Invitation>('POST', '/members', { email, role }),
    onSuccess: () => {
      setEmail('');
      onInvited();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  const done = invite.data;
  const linkId = useId();
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form onSubmit={submit} className="row">
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Role
          <RoleSelect label="Role" value={role} onChange={setRole} />
        </label>
        <button type="submit" disabled={invite.isPending}>
          Invite
        </button>
      </form>
      <ErrorNote error={invite.isError ? errorText(invite.error) : null} />
      {done && (
        <div role="status" className="note">
          <p>
            {done.member.email} is invited as {done.member.role}: the role counts once the invitation is accepted through its link.{' '}
            {done.emailId ? 'An invitation email is on its way.' : 'No email was sent (the project has no verified sender domain): pass this link on, to that person only.'}
          </p>
          <label htmlFor={linkId}>Invitation link</label>
          <div className="copy-field">
            <input id={linkId} readOnly value={done.inviteUrl} onFocus={(e) => e.target.select()} />
            <CopyButton text={done.inviteUrl} label="invitation link" />
          </div>
        </div>
      )}
    </section>
  );
}

export function MembersPage() {
  const { project, me } = useSession();
  const queries = useQueryClient();
  const key = ['members', project?.id];
  const members = useQuery({ queryKey: key, queryFn: () => api<{ data: Member[] }>('GET', '/members') });
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const toast = useToast();
  const change = useMutation({
    mutationFn: (m: Member) => api('PATCH', `/members/${m.userId}`, { role: m.role }),
    onSuccess: (_, m) => toast(`${m.email} is now ${m.role}`),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (m: Member) => api('DELETE', `/members/${m.userId}`),
    onSuccess: (_, m) => toast(`${m.email} left ${project?.name ?? 'the project'}`),
    onSettled: refresh,
  });
  // the server keeps a project's last OWNER (409): that row offers neither removal nor another role
  const activeOwners = members.data?.data.filter((m) => m.role === 'OWNER' && m.status === 'active') ?? [];
  const isOnlyOwner = (m: Member) => activeOwners.length === 1 && activeOwners[0]!.userId === m.userId;
  const failure = change.isError ? errorText(change.error) : remove.isError ? errorText(remove.error) : members.isError ? errorText(members.error) : null;
  return (
    <Page title="Members">
      <ErrorNote error={failure} />
      {members.isPending ? (
        <Skeleton label="Loading members…" />
      ) : (
        members.data && (
          <table>
            <caption>People in {project?.name} and their roles</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((m) => (
                <tr key={m.userId}>
                  <th scope="row">{m.email}</th>
                  <td>
                    <RoleSelect label={`Role of ${m.email}`} value={m.role} disabled={change.isPending || isOnlyOwner(m)} onChange={(role) => change.mutate({ ...m, role })} />
                  </td>
                  <td>
                    <span className="badge" data-tone={STATUS_TONES[m.status]}>
                      {m.status}
                    </span>
                  </td>
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="secondary small"
                        disabled={remove.isPending || isOnlyOwner(m)}
                        aria-describedby={isOnlyOwner(m) ? `only-owner-${m.userId}` : undefined}
                        onClick={() => {
                          if (window.confirm(`Remove ${m.email} from ${project?.name}?`)) remove.mutate(m);
                        }}
                      >
                        Remove<span className="visually-hidden"> {m.email}</span>
                      </button>
                      {m.userId === me.user.id && <span className="hint">(you)</span>}
                      {isOnlyOwner(m) && (
                        <span className="hint" id={`only-owner-${m.userId}`}>
                          the only owner: make someone else OWNER first
                        </span>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      <InviteForm onInvited={refresh} />
    </Page>
  );
}

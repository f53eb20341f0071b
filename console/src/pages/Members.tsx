// Settings > Members (OWNER): who is in the project with which role; invite, change a role, remove.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText, type Role } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
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
          <label>
            Invitation link
            <input readOnly value={done.inviteUrl} onFocus={(e) => e.target.select()} />
          </label>
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
  const change = useMutation({
    mutationFn: (m: { userId: string; role: Role }) => api('PATCH', `/members/${m.userId}`, { role: m.role }),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (userId: string) => api('DELETE', `/members/${userId}`), onSettled: refresh });
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
                    <RoleSelect label={`Role of ${m.email}`} value={m.role} disabled={change.isPending} onChange={(role) => change.mutate({ userId: m.userId, role })} />
                  </td>
                  <td>{m.status}</td>
                  <td>
                    <button
                      type="button"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Remove ${m.email} from ${project?.name}?`)) remove.mutate(m.userId);
                      }}
                    >
                      Remove<span className="visually-hidden"> {m.email}</span>
                    </button>
                    {m.userId === me.user.id && <span className="hint"> (you)</span>}
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

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { usePasswordFields } from './PasswordFields';

export function AccountPage() {
  const { me } = useSession();
  const [current, setCurrent] = useState('');
  const [tried, setTried] = useState(false);
  const { password, problem, fields } = usePasswordFields();
  const change = useMutation({ mutationFn: () => api('POST', '/auth/password', { currentPassword: current, newPassword: password }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!problem) change.mutate();
  };
  return (
    <Page title="Your account">
      <p>Signed in as {me.user.email}.</p>
      {me.projects.length === 0 && <p>You are not a member of any project yet: ask an owner of one to add you.</p>}
      <h2>Change your password</h2>
      <form onSubmit={submit}>
        <label>
          Current password
          <input type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        </label>
        {fields}
        <ErrorNote error={tried && problem ? problem : change.isError ? errorText(change.error) : null} />
        {change.isSuccess && <p role="status">Your password is changed; your other sessions have ended.</p>}
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
      </form>
    </Page>
  );
}

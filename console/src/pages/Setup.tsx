// The page of setup, invitation and reset links: `/app/setup#token=...`. The token stays in the
// fragment (never sent in a request line or a Referer); it is read once and taken out of the address bar.
// An invitation is accepted with a new password, or with the password of an account the person has
// already: the page cannot tell which (nothing shows whether an address has an account), the person can.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { ME } from '../session';
import { usePasswordFields } from './PasswordFields';

const tokenInAddress = () => new URLSearchParams(window.location.hash.slice(1)).get('token');

export function SetupPage() {
  const [token] = useState(tokenInAddress);
  useEffect(() => {
    if (token) history.replaceState(history.state, '', window.location.pathname);
  }, [token]);
  const [email, setEmail] = useState('');
  const [tried, setTried] = useState(false);
  const [hasAccount, setHasAccount] = useState(false);
  const [current, setCurrent] = useState('');
  const fresh = usePasswordFields();
  const password = hasAccount ? current : fresh.password;
  const problem = hasAccount ? null : fresh.problem;
  const navigate = useNavigate();
  const queries = useQueryClient();
  const link = useQuery({
    queryKey: ['setup-link', token],
    queryFn: () => api<{ email: string | null; purpose: string }>('POST', '/auth/setup/check', { token }),
    enabled: token !== null,
  });
  const setup = useMutation({
    mutationFn: () => api('POST', '/auth/setup', { token, password, ...(link.data?.email === null ? { email } : {}) }),
    onSuccess: () => {
      // forget the signed-out answer: the shell asks again before it decides anything
      queries.removeQueries({ queryKey: ME });
      navigate('/', { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!problem) setup.mutate();
  };
  const dead = token === null ? 'This address carries no setup link.' : link.isError ? errorText(link.error) : null;
  return (
    <main id="main" className="narrow">
      <Page title="Choose your password">
        {dead ? (
          <>
            <ErrorNote error={dead} />
            <p>
              <NavLink to="/sign-in">Sign in</NavLink> if you have a password already.
            </p>
          </>
        ) : !link.data ? (
          <p role="status">Checking the link…</p>
        ) : (
          <form onSubmit={submit}>
            {link.data.email === null ? (
              <label>
                Email
                <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
              </label>
            ) : (
              <p>
                For <strong>{link.data.email}</strong>
              </p>
            )}
            {link.data.purpose === 'invite' && (
              <label>
                <input type="checkbox" checked={hasAccount} onChange={(e) => setHasAccount(e.target.checked)} /> I have a Postmill password already
              </label>
            )}
            {hasAccount ? (
              <label>
                Your password
                <input type="password" autoComplete="current-password" required maxLength={1024} value={current} onChange={(e) => setCurrent(e.target.value)} />
              </label>
            ) : (
              fresh.fields
            )}
            <ErrorNote error={tried && problem ? problem : setup.isError ? errorText(setup.error) : null} />
            <button type="submit" disabled={setup.isPending}>
              {hasAccount ? 'Accept the invitation' : 'Set password'}
            </button>
          </form>
        )}
      </Page>
    </main>
  );
}

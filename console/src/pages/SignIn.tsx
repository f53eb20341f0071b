import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { ME } from '../session';

export function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const queries = useQueryClient();
  const signIn = useMutation({
    mutationFn: () => api('POST', '/auth/login', { email, password }),
    onSuccess: () => {
      // forget the signed-out answer: the shell asks again before it decides anything
      queries.removeQueries({ queryKey: ME });
      navigate(from, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate();
  };
  return (
    <main id="main" className="narrow">
      <Page title="Sign in to Postmill">
        <form onSubmit={submit}>
          <label>
            Email
            <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          <ErrorNote error={signIn.isError ? errorText(signIn.error) : null} />
          <button type="submit" disabled={signIn.isPending}>
            Sign in
          </button>
        </form>
        <p className="hint">No password yet? Open the setup link you were given, or ask an owner of your project for an invitation.</p>
      </Page>
    </main>
  );
}

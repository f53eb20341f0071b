// Who is signed in (GET /auth/me), the project the console works in (remembered per browser) and
// the user's role there.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { api, ApiFailure, setCredentials, type Me, type Role } from './api';

const PROJECT_KEY = 'postmill.project';

export interface Session {
  me: Me;
  project: { id: string; name: string; role: Role } | null;
  switchProject(id: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export const ME = ['me'] as const;

/** `me` is null when nobody is signed in (401); other failures are thrown to the error view. */
export function useMe() {
  return useQuery({
    queryKey: ME,
    queryFn: async () => {
      try {
        return await api<Me>('GET', '/auth/me');
      } catch (err) {
        if (err instanceof ApiFailure && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function SessionProvider({ me, children }: { me: Me; children: ReactNode }) {
  const queries = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(PROJECT_KEY));
  const project = me.projects.find((p) => p.id === chosen) ?? me.projects[0] ?? null;
  // set before the children render, so their first requests carry the right headers
  setCredentials(me.csrfToken, project?.id ?? null);

  const switchProject = useCallback(
    (id: string) => {
      localStorage.setItem(PROJECT_KEY, id);
      setChosen(id);
    },
    [],
  );
  const signOut = useCallback(async () => {
    await api('POST', '/auth/logout').catch(() => undefined);
    setCredentials(null, null);
    queries.clear();
    queries.setQueryData(ME, null);
  }, [queries]);

  const value = useMemo(() => ({ me, project, switchProject, signOut }), [me, project, switchProject, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

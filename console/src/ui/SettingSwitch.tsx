// One on/off setting of the project (a boolean field of a /settings/... resource): the box shows the
// choice at once, a refusal puts it back to what the server holds, and a status line says what the
// saved value means.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, errorText } from '../api';
import { ErrorNote } from '../page';
import { useSession } from '../session';
import { Skeleton } from './Skeleton';

export function SettingSwitch<F extends string>({ path, field, label, saved }: { path: string; field: F; label: ReactNode; saved(on: boolean): string }) {
  const { project } = useSession();
  const queries = useQueryClient();
  const key = ['settings', project?.id, path];
  const settings = useQuery({ queryKey: key, queryFn: () => api<Record<F, boolean>>('GET', path) });
  const [wanted, setWanted] = useState<boolean | null>(null);
  const change = useMutation({
    mutationFn: (on: boolean) => api<Record<F, boolean>>('PATCH', path, { [field]: on }),
    onSuccess: (s) => queries.setQueryData(key, s),
    onSettled: () => setWanted(null),
  });
  return (
    <>
      <ErrorNote error={settings.isError ? errorText(settings.error) : change.isError ? errorText(change.error) : null} />
      {settings.isPending ? (
        <Skeleton />
      ) : (
        settings.data && (
          <label className="check">
            <input
              type="checkbox"
              checked={wanted ?? settings.data[field]}
              disabled={change.isPending}
              onChange={(e) => {
                setWanted(e.target.checked);
                change.mutate(e.target.checked);
              }}
            />
            {label}
          </label>
        )
      )}
      <p role="status" className="hint">
        {change.isPending ? 'Saving…' : change.isSuccess ? `Saved: ${saved(change.data[field])}` : ''}
      </p>
    </>
  );
}

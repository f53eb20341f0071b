// Settings > Tracking (ADMIN): open and click tracking of TRANSACTIONAL mail (the CLI's `project
// tracking` setting); marketing, campaign and workflow mail is always tracked.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';

interface TrackingSettings {
  trackTransactional: boolean;
}

export function SettingsTrackingPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const key = ['settings', project?.id, 'tracking'];
  const settings = useQuery({ queryKey: key, queryFn: () => api<TrackingSettings>('GET', '/settings/tracking') });
  // the box shows the choice at once; a refusal puts it back to what the server holds
  const [wanted, setWanted] = useState<boolean | null>(null);
  const change = useMutation({
    mutationFn: (on: boolean) => api<TrackingSettings>('PATCH', '/settings/tracking', { trackTransactional: on }),
    onSuccess: (s) => queries.setQueryData(key, s),
    onSettled: () => setWanted(null),
  });
  return (
    <Page title="Tracking">
      <p>
        Marketing, campaign and workflow mail is always tracked: its links pass through a redirect that counts clicks, and a one-pixel image counts opens.
        Transactional mail (receipts, password resets) is not, unless you turn it on here.
      </p>
      <ErrorNote error={settings.isError ? errorText(settings.error) : change.isError ? errorText(change.error) : null} />
      {settings.isPending ? (
        <p role="status">Loading…</p>
      ) : (
        settings.data && (
          <label className="check">
            <input
              type="checkbox"
              checked={wanted ?? settings.data.trackTransactional}
              disabled={change.isPending}
              onChange={(e) => {
                setWanted(e.target.checked);
                change.mutate(e.target.checked);
              }}
            />
            Track opens and clicks of transactional mail
          </label>
        )
      )}
      <p role="status" className="hint">
        {change.isPending ? 'Saving…' : change.isSuccess ? `Saved: transactional mail sent from now on is ${change.data.trackTransactional ? '' : 'not '}tracked.` : ''}
      </p>
    </Page>
  );
}

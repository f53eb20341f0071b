// Settings > API keys (ADMIN): the public key, and rotating both keys; the new secret key is
// shown this once (the daemon keeps only its hash).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { CopyButton } from '../ui/CopyButton';
import { Skeleton } from '../ui/Skeleton';

interface KeySettings {
  publicKey: string | null;
  createdAt: string;
}

interface NewKeys {
  publicKey: string;
  secretKey: string;
}

export function SettingsKeysPage() {
  const { project } = useSession();
  const role = project?.role;
  const queries = useQueryClient();
  const key = ['settings', project?.id, 'keys'];
  const keys = useQuery({ queryKey: key, queryFn: () => api<KeySettings>('GET', '/settings/keys') });
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => api<NewKeys>('POST', `/users/@me/projects/${project!.id}/regenerate-keys`),
    onSuccess: () => queries.invalidateQueries({ queryKey: key }),
    onSettled: () => setConfirming(false),
  });
  return (
    <Page title="API keys">
      <p className="hint">
        Scripts and servers use the secret key (<code>Authorization: Bearer sk_…</code>) for every route; web pages use the public key, which can only
        track events (<code>POST /v1/track</code>). The console itself needs neither.
      </p>
      <ErrorNote error={keys.isError ? errorText(keys.error) : rotate.isError ? errorText(rotate.error) : null} />
      {rotate.data && (
        <div className="note warning" role="status">
          <p>
            <strong>New secret key, shown only this once.</strong> Copy it now and keep it somewhere safe: Postmill keeps only its hash, and the old keys have
            stopped working.
          </p>
          <div className="row">
            <label>
              New secret key
              <input readOnly value={rotate.data.secretKey} onFocus={(e) => e.target.select()} size={70} />
            </label>
            <CopyButton text={rotate.data.secretKey} label="new secret key" />
          </div>
        </div>
      )}
      <h2>Public key</h2>
      {keys.isPending ? (
        <Skeleton label="Loading keys…" />
      ) : keys.data?.publicKey ? (
        <div className="row">
          <label>
            Public key
            <input readOnly value={keys.data.publicKey} onFocus={(e) => e.target.select()} size={70} />
          </label>
          <CopyButton text={keys.data.publicKey} label="public key" />
        </div>
      ) : (
        keys.data && <p>These keys were made before Postmill kept public keys: rotate them to see a public key here.</p>
      )}
      {keys.data && <p className="hint">The keys were made {new Date(keys.data.createdAt).toLocaleString()}.</p>}
      <h2>Rotate the keys</h2>
      <p>Makes a new public and secret key. The current ones stop working at once: update every script and site that uses them.</p>
      <p className="hint">
        The new secret key acts with your role in this project ({role}), never more, and stops working if you lose that role: keys for scripts that
        manage members are made by an owner.
      </p>
      <button type="button" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
        Rotate keys
      </button>
      <ConfirmDialog open={confirming} title="Rotate both keys?" confirmLabel="Rotate keys now" busy={rotate.isPending} onConfirm={() => rotate.mutate()} onCancel={() => setConfirming(false)}>
        <p>The current public and secret keys of {project?.name} stop working at once. The new secret key is shown once.</p>
      </ConfirmDialog>
    </Page>
  );
}

// Settings > Webhooks (ADMIN): the secret that signs the project's WEBHOOK requests, how a receiver
// checks it, and rotating it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Page } from '../page';
import { useSession } from '../session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { CopyButton } from '../ui/CopyButton';
import { Skeleton } from '../ui/Skeleton';

interface WebhookSettings {
  signingSecret: string;
  algorithm: string;
  header: string;
  format: string;
}

export function SettingsWebhooksPage() {
  const { project } = useSession();
  const queries = useQueryClient();
  const key = ['settings', project?.id, 'webhooks'];
  const settings = useQuery({ queryKey: key, queryFn: () => api<WebhookSettings>('GET', '/settings/webhooks') });
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => api<WebhookSettings>('POST', '/settings/webhooks/rotate-secret'),
    onSuccess: (s) => queries.setQueryData(key, s),
    onSettled: () => setConfirming(false),
  });
  const s = settings.data;
  return (
    <Page title="Webhook signing">
      <p className="hint">Every request of a workflow's WEBHOOK step is signed, so its receiver can tell it came from this project.</p>
      <ErrorNote error={settings.isError ? errorText(settings.error) : rotate.isError ? errorText(rotate.error) : null} />
      {rotate.isSuccess && <p role="status">A new secret signs from now on; the old one no longer does.</p>}
      {settings.isPending ? (
        <Skeleton />
      ) : (
        s && (
          <>
            <div className="row">
              <label>
                Signing secret
                <input readOnly type={shown ? 'text' : 'password'} value={s.signingSecret} size={70} onFocus={(e) => e.target.select()} />
              </label>
              <button type="button" className="quiet" aria-pressed={shown} onClick={() => setShown(!shown)}>
                Show secret
              </button>
              <CopyButton text={s.signingSecret} label="signing secret" />
            </div>
            <dl>
              <dt>Header</dt>
              <dd>
                <code>{s.header}</code>
              </dd>
              <dt>Algorithm</dt>
              <dd>{s.algorithm}</dd>
              <dt>Format</dt>
              <dd>
                <code>{s.format}</code>
              </dd>
            </dl>
            <h2>Rotate the secret</h2>
            <p>The old secret stops signing at once: receivers that check it refuse new requests until they have the new one.</p>
            <button type="button" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
              Rotate secret
            </button>
          </>
        )
      )}
      <ConfirmDialog open={confirming} title="Rotate the signing secret?" confirmLabel="Rotate secret now" busy={rotate.isPending} onConfirm={() => rotate.mutate()} onCancel={() => setConfirming(false)}>
        <p>Requests are signed with the new secret from now on; receivers need it to accept them.</p>
      </ConfirmDialog>
    </Page>
  );
}

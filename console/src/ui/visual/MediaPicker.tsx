// The project's media library in the Image block's form: upload an image (POST /media) or pick one
// already there; either hands the image's public address and size to the form.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText, upload } from '../../api';
import { useSession } from '../../session';

export interface MediaItem {
  id: string;
  name: string;
  url: string;
  width: number;
  height: number;
}

export function MediaPicker({ onPick }: { onPick(item: MediaItem): void }) {
  const { project } = useSession();
  const client = useQueryClient();
  const key = ['media', project?.id];
  const library = useQuery({ queryKey: key, queryFn: () => api<{ data: MediaItem[] }>('GET', '/media?limit=100') });
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const uploadFile = async (file: File | undefined) => {
    if (!file) return;
    setState({ busy: true, error: null });
    try {
      const item = await upload<MediaItem>('/media', 'file', file);
      await client.invalidateQueries({ queryKey: key });
      onPick(item);
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: errorText(err) });
    }
  };

  return (
    <div className="media-picker">
      <label>
        Upload an image
        <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" disabled={state.busy} onChange={(e) => void uploadFile(e.target.files?.[0])} />
      </label>
      <p className="hint">PNG, JPEG, GIF or WebP, at most 5 MB. Emails show it from the public address of Postmill.</p>
      {state.busy && <p role="status">Uploading…</p>}
      {state.error && <p role="alert">{state.error}</p>}
      {library.data && library.data.data.length > 0 && (
        <div role="group" aria-label="Media library" className="media-grid">
          {library.data.data.map((m) => (
            <button key={m.id} type="button" className="quiet media-choice" onClick={() => onPick(m)} aria-label={`Use ${m.name}`}>
              <img src={m.url} alt="" width={64} height={64} />
              <span>{m.name}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

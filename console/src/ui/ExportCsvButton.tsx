// Downloads GET /contacts/export (every contact, or one segment's members) as a CSV file. The
// request carries the session's project header, which a plain link could not, so the file is
// fetched and then handed to the browser as a download.
import { useState } from 'react';
import { download, errorText } from '../api';
import { ErrorNote } from '../page';

export function ExportCsvButton({ segmentId, fileName, label }: { segmentId?: string; fileName: string; label: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const save = async () => {
    setState({ busy: true, error: null });
    try {
      const bytes = await download(`/contacts/export${segmentId ? `?segmentId=${encodeURIComponent(segmentId)}` : ''}`, 'text/csv');
      const url = URL.createObjectURL(new Blob([bytes], { type: 'text/csv' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
      link.click();
      URL.revokeObjectURL(url);
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: errorText(err) });
    }
  };
  return (
    <span className="actions">
      <button type="button" className="quiet" disabled={state.busy} onClick={() => void save()}>
        {label}
      </button>
      {state.busy && <span role="status">Preparing the CSV file…</span>}
      <ErrorNote error={state.error} />
    </span>
  );
}

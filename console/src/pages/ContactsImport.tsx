// CSV import: upload a file, watch the job's progress, then see what it did and every rejected row
// with its reason.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorText, upload } from '../api';
import { ErrorNote, Page } from '../page';
import { ContactJobProgress, type ContactJob } from '../ui/ContactJobProgress';

interface ImportResult {
  totalRows: number;
  created: number;
  updated: number;
  failed: number;
  errors: { row: number; message: string }[];
}

function Outcome({ job }: { job: ContactJob<ImportResult> }) {
  const r = job.result;
  return (
    <section aria-labelledby="outcome-heading">
      <h2 id="outcome-heading">{job.state === 'failed' ? 'The import stopped' : 'Imported'}</h2>
      {job.error && <p role="alert">{job.error}</p>}
      <p>
        {r.totalRows} rows: {r.created} contacts created, {r.updated} updated, {r.failed} rejected.
      </p>
      {r.errors.length > 0 && (
        <table>
          <caption>Rejected rows{r.failed > r.errors.length ? ` (the first ${r.errors.length} of ${r.failed})` : ''}</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {r.errors.map((e) => (
              <tr key={e.row}>
                <th scope="row">{e.row}</th>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ContactsImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [finished, setFinished] = useState<ContactJob<ImportResult> | null>(null);
  const start = useMutation({
    mutationFn: (f: File) => upload<{ jobId: string }>('/contacts/import', 'file', f),
    onMutate: () => setFinished(null),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file) start.mutate(file);
  };
  return (
    <Page title="Import contacts">
      <p>
        A CSV file (up to 5 MB) with a header row: an <code>email</code> column, optionally <code>subscribed</code> (true or false), and any other
        column becomes a data field. Existing contacts (by email) are updated.
      </p>
      <form onSubmit={submit} className="row">
        <label>
          CSV file
          <input type="file" accept=".csv,text/csv" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <button type="submit" disabled={!file || start.isPending}>
          Import
        </button>
      </form>
      <ErrorNote error={start.isError ? errorText(start.error) : null} />
      {start.data && <ContactJobProgress<ImportResult> key={start.data.jobId} label="Import progress" path={`/contacts/import/${start.data.jobId}`} onDone={setFinished} />}
      {finished && <Outcome job={finished} />}
    </Page>
  );
}

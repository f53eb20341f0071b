// "Send a test" of saved content (a template, a campaign): to each address given, one request
// each (`POST <path> {email}`), each address answered on its own line: one refused address (a
// suppressed one) does not hide that the others went out.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';

/** At most this many addresses a click: a test is for people, not an audience. */
const MAX_ADDRESSES = 10;

interface Outcome {
  email: string;
  sent: boolean;
  message: string;
}

const addressesIn = (text: string) => [...new Set(text.split(/[\s,;]+/).filter((a) => a !== ''))];

/** `path` is null while there is nothing saved to test; `blocked` says why the button is off. */
export function TestSend({ path, blocked, note }: { path: string | null; blocked: string | null; note: string }) {
  const [text, setText] = useState('');
  const addresses = addressesIn(text);
  const send = useMutation({
    mutationFn: async (emails: string[]): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      for (const email of emails) {
        try {
          outcomes.push({ email, sent: true, message: (await api<{ message: string }>('POST', path!, { email })).message });
        } catch (err) {
          outcomes.push({ email, sent: false, message: errorText(err) });
        }
      }
      return outcomes;
    },
  });
  const tooMany = addresses.length > MAX_ADDRESSES;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!tooMany) send.mutate(addresses);
  };
  const why = blocked ?? (tooMany ? `At most ${MAX_ADDRESSES} addresses at a time.` : null);
  return (
    <section aria-labelledby="test-heading">
      <h2 id="test-heading">Send a test</h2>
      <form onSubmit={submit} className="row">
        <label>
          Test addresses
          <input type="text" inputMode="email" required value={text} onChange={(e) => setText(e.target.value)} autoComplete="email" aria-describedby="test-addresses-hint" />
          <span id="test-addresses-hint" className="hint">
            One or more, separated by commas or spaces
          </span>
        </label>
        <button type="submit" disabled={send.isPending || why !== null} aria-describedby={why ? 'test-blocked' : undefined}>
          Send test
        </button>
      </form>
      {why && (
        <p id="test-blocked" className="hint">
          {why}
        </p>
      )}
      <p className="hint">{note}</p>
      <div role="status">
        {send.isPending && <p>Sending…</p>}
        {send.data && (
          <ul className="outcomes">
            {send.data.map((o) => (
              <li key={o.email} className={o.sent ? undefined : 'error'}>
                {o.email}: {o.sent ? `${o.message}.` : `not sent: ${o.message}`}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

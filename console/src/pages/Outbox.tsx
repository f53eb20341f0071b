// Outbox (ADMIN, capture mode only): the mail this daemon kept instead of sending, newest first,
// following new messages as they come; each opens as its recipient would see it, with its headers,
// raw source, DKIM result and spam score (MessageSource).
import { useState } from 'react';
import { Page } from '../page';
import { EmailLog } from './EmailLog';

/** The Outbox asks for new mail this often. */
const FOLLOW_MS = 3000;

export function OutboxPage() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  return (
    <Page title="Outbox">
      <p className="hint">
        In capture mode nothing leaves this machine: every message is signed and kept here as it would have been sent. Mail to the simulator's addresses
        (delivered@, bounce@, complaint@ or delay@simulator.postmill.invalid) plays that outcome.
      </p>
      <form
        className="row"
        aria-label="Find captured messages"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
        }}
      >
        <label>
          Search recipient or subject
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} maxLength={200} />
        </label>
        <button type="submit">Find</button>
      </form>
      <EmailLog
        filters={{ search: applied, status: '', campaignId: '', since: '', until: '' }}
        caption="Captured messages, newest first"
        linkOf={(e) => `/outbox/${e.id}`}
        empty={applied ? 'No captured message matches.' : 'Nothing captured yet: send an email and it shows here.'}
        refetchMs={FOLLOW_MS}
      />
    </Page>
  );
}

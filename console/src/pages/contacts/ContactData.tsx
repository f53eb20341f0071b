// A contact's subscription and data as a list of field and value, each value formatted by its
// field's type; "Edit data" turns the list into the typed form, and a save turns it back.
import { Fragment, useState } from 'react';
import type { Contact } from '../ContactsTypes';
import { DataForm } from './DataForm';
import { useDataFields } from './useDataFields';
import { formatValue, yesNo } from './values';
import './contacts.css';

export function ContactData({ contact, onSaved }: { contact: Contact; onSaved(contact: Contact): void }) {
  const fields = useDataFields();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const entries = Object.entries(contact.data);
  return (
    <section className="card" aria-labelledby="edit-heading">
      <div className="section-head">
        <h2 id="edit-heading">Data and subscription</h2>
        {!editing && (
          // the fields' types choose the controls: the form waits for them (or for their failure)
          <button
            type="button"
            className="secondary"
            disabled={fields.query.isPending}
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            Edit data
          </button>
        )}
      </div>
      {editing ? (
        <DataForm
          contact={contact}
          typeOf={fields.typeOf}
          onSaved={(next) => {
            onSaved(next);
            setEditing(false);
            setSaved(true);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <dl className="contact-data">
            <dt>Subscribed</dt>
            <dd>{yesNo(contact.subscribed)}</dd>
            {entries.map(([key, value]) => (
              <Fragment key={key}>
                <dt>{key}</dt>
                <dd className={typeof value === 'object' ? 'json' : undefined}>{formatValue(value, fields.typeOf(key))}</dd>
              </Fragment>
            ))}
          </dl>
          {entries.length === 0 && <p className="hint">No data yet: Edit data adds a field.</p>}
        </>
      )}
      <p role="status" className="hint">
        {saved ? 'Saved.' : ''}
      </p>
    </section>
  );
}

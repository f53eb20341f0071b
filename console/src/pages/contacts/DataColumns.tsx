// The data fields the contact list shows as columns: the most common few until the viewer chooses,
// then the choice, remembered in this browser per project (localStorage) and kept across visits.
import { useState } from 'react';
import type { KnownField } from '../../ui/filterModel';
import { keyOf } from './values';

/** Columns a project shows before anyone chooses: its fields that most contacts have. */
const DEFAULT_COLUMNS = 4;

const storageKey = (projectId: string) => `postmill.contacts.columns.${projectId}`;

function storedChoice(projectId: string): string[] | null {
  const text = localStorage.getItem(storageKey(projectId));
  if (text === null) return null;
  try {
    const choice: unknown = JSON.parse(text);
    return Array.isArray(choice) && choice.every((f) => typeof f === 'string') ? choice : null;
  } catch {
    // a value another version wrote, or edited by hand: the default columns until the next choice
    return null;
  }
}

const mostCommon = (fields: KnownField[]) =>
  [...fields]
    .sort((a, b) => b.coverage - a.coverage)
    .slice(0, DEFAULT_COLUMNS)
    .map((f) => f.field);

/** The data fields shown as columns (in the order of `fields`), and the viewer's choice of them. */
export function useDataColumns(projectId: string, fields: KnownField[]) {
  // read at each render (a switch of project reads that project's); a choice re-renders
  const [, rerender] = useState(0);
  const chosen = new Set(storedChoice(projectId) ?? mostCommon(fields));
  return {
    shown: fields.filter((f) => chosen.has(f.field)),
    chosen,
    choose(next: string[] | null) {
      if (next === null) localStorage.removeItem(storageKey(projectId));
      else localStorage.setItem(storageKey(projectId), JSON.stringify(next));
      rerender((n) => n + 1);
    },
  };
}

export function ColumnChooser({ fields, columns }: { fields: KnownField[]; columns: ReturnType<typeof useDataColumns> }) {
  if (fields.length === 0) return null;
  const toggle = (field: string) => {
    const next = new Set(columns.chosen);
    if (next.has(field)) next.delete(field);
    else next.add(field);
    columns.choose(fields.map((f) => f.field).filter((f) => next.has(f)));
  };
  return (
    <details className="columns-chooser">
      <summary>Columns ({columns.shown.length} of {fields.length} data fields)</summary>
      <fieldset>
        <legend>Data fields shown as columns</legend>
        <ul>
          {fields.map((f) => (
            <li key={f.field}>
              <label className="inline">
                <input type="checkbox" checked={columns.chosen.has(f.field)} onChange={() => toggle(f.field)} />
                {keyOf(f.field)}
              </label>
              <span className="hint">{f.coverage}% of contacts</span>
            </li>
          ))}
        </ul>
        <button type="button" className="secondary small" onClick={() => columns.choose(null)}>
          Show the most common
        </button>
      </fieldset>
    </details>
  );
}

// The command menu (Ctrl-K or Cmd-K anywhere, or the header's button): a modal dialog with one
// combobox; typing narrows the pages and actions and finds contacts and emails; arrows move, Enter
// goes, Escape closes and gives the focus back. The pattern is the ARIA combobox with a grouped
// listbox, the choice followed by aria-activedescendant.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { pagesOpenTo } from '../pages';
import { allows } from '../roles';
import { useSession } from '../session';
import { actionCommands, findContacts, findEmails, matches, pageCommands, type Command, type CommandGroup } from './commands';
import { Icon } from './icons';
import { useDebounced } from './useDebounced';

/** Searches start at this many characters: one letter matches half the contacts. */
const MIN_SEARCH = 2;

function useFound(query: string) {
  const { project } = useSession();
  const settled = useDebounced(query.trim(), 200);
  const enabled = settled.length >= MIN_SEARCH && allows(project?.role, 'MEMBER');
  const contacts = useQuery({ queryKey: ['command-contacts', project?.id, settled], queryFn: () => findContacts(settled), enabled });
  const emails = useQuery({ queryKey: ['command-emails', project?.id, settled], queryFn: () => findEmails(settled), enabled });
  return { contacts: enabled ? (contacts.data ?? []) : [], emails: enabled ? (emails.data ?? []) : [], searching: enabled && (contacts.isFetching || emails.isFetching) };
}

export function CommandMenu({ open, onClose }: { open: boolean; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const { me, project } = useSession();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const found = useFound(query);

  const groups: CommandGroup[] = useMemo(() => {
    const pages = pagesOpenTo(project?.role, me.deliveryMode);
    const q = query.trim();
    const pick = (commands: Command[]) => (q ? commands.filter((c) => matches(c.label, q)) : commands);
    return [
      { name: 'Actions', commands: pick(actionCommands(pages)) },
      { name: 'Pages', commands: pick(pageCommands(pages)) },
      { name: 'Contacts', commands: found.contacts },
      { name: 'Emails', commands: found.emails },
    ].filter((g) => g.commands.length > 0);
  }, [project?.role, me.deliveryMode, query, found.contacts, found.emails]);
  const flat = groups.flatMap((g) => g.commands);
  const current = flat[Math.min(active, flat.length - 1)];

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) {
      setQuery('');
      setActive(0);
      d.showModal();
    }
    if (!open && d?.open) d.close();
  }, [open]);

  const choose = (c: Command) => {
    onClose();
    navigate(c.to);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (flat.length === 0 ? 0 : (Math.min(i, flat.length - 1) + step + flat.length) % flat.length));
    } else if (e.key === 'Enter' && current) {
      e.preventDefault();
      choose(current);
    }
  };
  const optionId = (c: Command) => `${listId}-${c.id}`;
  useEffect(() => {
    if (current) document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
  });

  return (
    <dialog ref={dialog} className="command" aria-label="Command menu" onClose={() => open && onClose()} onClick={(e) => e.target === dialog.current && onClose()}>
      {/* its fields exist only while it is open: closed, nothing in it answers a search of the page's labels */}
      {open && (
        <>
          <div className="command-search">
            <Icon name="search" />
            <input
              autoFocus
              role="combobox"
              aria-label="Go to a page, find a contact or an email"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={current ? optionId(current) : undefined}
              placeholder="Go to a page, find a contact or an email…"
              autoComplete="off"
              spellCheck={false}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKey}
            />
          </div>
          <div role="listbox" id={listId} aria-label="Commands">
            {groups.map((g) => (
              <div role="group" key={g.name} aria-labelledby={`${listId}-${g.name}`}>
                <div role="presentation" id={`${listId}-${g.name}`}>
                  {g.name}
                </div>
                {g.commands.map((c) => (
                  <div key={c.id} id={optionId(c)} role="option" aria-selected={c === current} onMouseMove={() => setActive(flat.indexOf(c))} onClick={() => choose(c)}>
                    <Icon name={c.icon} size={16} />
                    {c.label}
                  </div>
                ))}
              </div>
            ))}
          </div>
          <p className="hint" role="status">
            {found.searching ? 'Searching contacts and emails…' : flat.length === 0 ? `Nothing matches “${query.trim()}”.` : ''}
          </p>
          <div className="command-foot" aria-hidden="true">
            <span>
              <kbd>↑</kbd> <kbd>↓</kbd> to move
            </span>
            <span>
              <kbd>Enter</kbd> to go
            </span>
            <span>
              <kbd>Esc</kbd> to close
            </span>
          </div>
        </>
      )}
    </dialog>
  );
}

/** Ctrl-K or Cmd-K toggles the menu from anywhere in the console, an editor's text included. */
export function useCommandShortcut(toggle: () => void) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [toggle]);
}

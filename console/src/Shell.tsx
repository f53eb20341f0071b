// The frame of every signed-in page: a skip link, the header (the menu button on narrow screens,
// the command menu, project switcher, theme, account, sign out), in capture mode a banner saying
// that nothing is sent, the main navigation and the page. Below 48rem the navigation is a panel the
// Menu button opens and any navigation closes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { navigationFor } from './pages';
import { allows } from './roles';
import { useSession } from './session';
import { CommandMenu, useCommandShortcut } from './ui/CommandMenu';
import { sectionIcon } from './ui/commands';
import { Icon } from './ui/icons';
import { ThemeSwitch } from './ui/ThemeSwitch';
import { ToastProvider } from './ui/Toasts';

/** Capture mode: mail is kept, not sent. The Outbox shows it to those who may read raw messages (ADMIN). */
function CaptureBanner() {
  const { project } = useSession();
  return (
    <aside aria-label="Capture mode" className="capture">
      <strong>Capture mode: nothing leaves this machine.</strong> Every message is kept here instead of being sent:{' '}
      {allows(project?.role, 'ADMIN') ? <Link to="/outbox">open the Outbox</Link> : <Link to="/messages">see them in Messages</Link>}.
    </aside>
  );
}

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform);

export function Shell() {
  const { me, project, switchProject, signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const nav = navigationFor(project?.role, me.deliveryMode);
  const [menuOpen, setMenuOpen] = useState(false);
  const [commandsOpen, setCommandsOpen] = useState(false);
  const top = useRef<HTMLDivElement>(null);
  const toggleCommands = useCallback(() => setCommandsOpen((o) => !o), []);
  useCommandShortcut(toggleCommands);
  // a navigation closes the menu panel
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const navTop = `${top.current?.offsetHeight ?? 0}px`;
  return (
    <ToastProvider>
      <div className="shell">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <div className="top" ref={top}>
          <header className="bar">
            {nav.length > 0 && (
              <button type="button" className="ghost icon menu" aria-label="Menu" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen((o) => !o)}>
                <Icon name={menuOpen ? 'close' : 'menu'} />
              </button>
            )}
            <Link to="/" className="brand">
              <Icon name="mail" size={20} />
              Postmill
            </Link>
            <button type="button" className="secondary search" aria-label="Command menu" aria-keyshortcuts="Control+K Meta+K" aria-haspopup="dialog" onClick={() => setCommandsOpen(true)}>
              <Icon name="search" size={16} />
              {/* the visible label is the name (speech input says what it sees); the shortcut is a
                  hint drawn by CSS from data-keys, outside the label, and told by aria-keyshortcuts */}
              <span className="label">Command menu</span>
              <kbd data-keys={`${isMac() ? '⌘' : 'Ctrl'} K`} />
            </button>
            {me.projects.length > 0 && (
              <label className="switcher">
                Project{' '}
                <select
                  value={project?.id ?? ''}
                  onChange={(e) => {
                    switchProject(e.target.value);
                    navigate('/');
                  }}
                >
                  {me.projects.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.role})
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ThemeSwitch />
            <NavLink to="/account" className="account" title={me.user.email}>
              <Icon name="user" />
              <span>{me.user.email}</span>
            </NavLink>
            <button
              type="button"
              className="ghost sign-out"
              onClick={async () => {
                await signOut();
                navigate('/sign-in');
              }}
            >
              <Icon name="logOut" />
              <span className="label">Sign out</span>
            </button>
          </header>
          {me.deliveryMode === 'capture' && <CaptureBanner />}
        </div>
        {nav.length > 0 && (
          <nav aria-label="Main" id="main-nav" className={menuOpen ? 'open' : undefined} style={{ ['--nav-top' as string]: navTop }}>
            <ul>
              {nav.map((n) => (
                <li key={n.section}>
                  <NavLink to={`/${n.path.split('/')[0]}`} onClick={() => setMenuOpen(false)}>
                    <Icon name={sectionIcon(n.section)} />
                    {n.section}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main">
          <Outlet />
        </main>
        <CommandMenu open={commandsOpen} onClose={() => setCommandsOpen(false)} />
      </div>
    </ToastProvider>
  );
}

// The frame of every signed-in page: a skip link, the header (project switcher, account, sign out),
// in capture mode a banner saying that nothing is sent, the main navigation and the page.
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { navigationFor } from './pages';
import { allows } from './roles';
import { useSession } from './session';

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

export function Shell() {
  const { me, project, switchProject, signOut } = useSession();
  const navigate = useNavigate();
  const nav = navigationFor(project?.role, me.deliveryMode);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <div className="top">
        <header className="bar">
          <span className="brand">Postmill</span>
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
          <NavLink to="/account">{me.user.email}</NavLink>
          <button
            type="button"
            onClick={async () => {
              await signOut();
              navigate('/sign-in');
            }}
          >
            Sign out
          </button>
        </header>
        {me.deliveryMode === 'capture' && <CaptureBanner />}
      </div>
      {nav.length > 0 && (
        <nav aria-label="Main">
          <ul>
            {nav.map((n) => (
              <li key={n.section}>
                <NavLink to={`/${n.path.split('/')[0]}`}>{n.section}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="main">
        <Outlet />
      </main>
    </div>
  );
}

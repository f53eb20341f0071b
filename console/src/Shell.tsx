// The frame of every signed-in page: a skip link, the header (project switcher, account, sign out),
// the main navigation and the page.
import { NavLink, Outlet, useNavigate } from 'react-router';
import { navigationFor } from './pages';
import { useSession } from './session';

export function Shell() {
  const { me, project, switchProject, signOut } = useSession();
  const navigate = useNavigate();
  const nav = navigationFor(project?.role);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
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

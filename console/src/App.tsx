// The console's routes: sign-in and setup-link pages, then everything behind a session inside the
// shell, built from the route table (pages.tsx).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, NavLink, Outlet, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { AccountPage } from './pages/Account';
import { SetupPage } from './pages/Setup';
import { SignInPage } from './pages/SignIn';
import { navigationFor, PAGES, pageExists, pagesOpenTo, type PageRoute, type Section } from './pages';
import { Page } from './page';
import { SessionProvider, useMe, useSession } from './session';
import { Shell } from './Shell';
import { Skeleton } from './ui/Skeleton';

/** A page behind its role: the server refuses the rest anyway; this says so instead of failing calls. */
function RoleGate({ page }: { page: PageRoute }) {
  const { me, project } = useSession();
  const open = pagesOpenTo(project?.role, me.deliveryMode);
  // the section's own pages (a list and its neighbours such as Compare), not pages of one item
  const siblings = open.filter((p) => p.section === page.section && !p.detail && !p.path.includes(':'));
  if (!pageExists(page, me.deliveryMode)) {
    return (
      <Page title={`No ${page.section}`}>
        <p>
          The {page.section} holds the mail a daemon in capture mode keeps instead of sending; this one delivers it (delivery.mode {me.deliveryMode}).{' '}
          <NavLink to="/messages">Messages</NavLink> lists every email and what became of it.
        </p>
      </Page>
    );
  }
  if (!open.includes(page)) {
    return (
      <Page title="Not allowed">
        <p>
          {page.label} needs the {page.role} role in this project{project ? `; yours is ${project.role}` : ''}.
        </p>
      </Page>
    );
  }
  return (
    <>
      {siblings.length > 1 && (
        <nav aria-label={page.section} className="subnav">
          <ul>
            {siblings.map((p) => (
              <li key={p.path}>
                <NavLink to={`/${p.path}`} end>
                  {p.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {page.element}
    </>
  );
}

/** `/settings` and the like: the section's first page the role opens ("Not allowed" when none). */
function SectionIndex({ section }: { section: Section }) {
  const { me, project } = useSession();
  const first = pagesOpenTo(project?.role, me.deliveryMode).find((p) => p.section === section);
  return first ? <Navigate to={`/${first.path}`} replace /> : <RoleGate page={PAGES.find((p) => p.section === section)!} />;
}

function Home() {
  const { me, project } = useSession();
  const first = navigationFor(project?.role, me.deliveryMode)[0];
  return <Navigate to={first ? `/${first.path}` : '/account'} replace />;
}

function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page. <NavLink to="/">Go to the start</NavLink>.
      </p>
    </Page>
  );
}

/** Everything behind a session: the sign-in page for whoever has none. */
function SignedIn() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Skeleton />;
  if (me.isError) return <p role="alert">The console cannot reach the server: {me.error.message}</p>;
  if (!me.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return (
    <SessionProvider me={me.data}>
      <Outlet />
    </SessionProvider>
  );
}

const sectionRoot = (p: PageRoute) => p.path.split('/')[0]!;
/** Sections whose pages all live below the section's name (`/settings/...`): their name leads to the first one. */
const sectionIndexes: RouteObject[] = [...new Set(PAGES.filter((p) => p.path.includes('/') && !p.detail).map((p) => p.section))]
  .filter((section) => !PAGES.some((p) => p.section === section && p.path === sectionRoot(p)))
  .map((section) => ({ path: sectionRoot(PAGES.find((p) => p.section === section)!), element: <SectionIndex section={section} /> }));

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/setup', element: <SetupPage /> },
    {
      element: <SignedIn />,
      children: [
        {
          element: <Shell />,
          children: [
            { index: true, element: <Home /> },
            { path: 'account', element: <AccountPage /> },
            ...sectionIndexes,
            ...PAGES.map((page) => ({ path: page.path, element: <RoleGate page={page} /> })),
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);

const queries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true } } });

export function App() {
  return (
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

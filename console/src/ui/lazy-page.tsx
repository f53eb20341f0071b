// A page whose code loads when it is first opened (its own chunk), so the first page's JavaScript
// stays small: the route table names the module, the page shows a status while it loads.
import { lazy, Suspense, type ComponentType } from 'react';

export function lazyPage(load: () => Promise<ComponentType>) {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <Page />
    </Suspense>
  );
}

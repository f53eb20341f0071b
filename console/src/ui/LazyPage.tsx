// A page whose code loads when it is first opened, so the first page's JavaScript stays small.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';

export function lazyPage(load: () => Promise<ComponentType>): ReactNode {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <Page />
    </Suspense>
  );
}

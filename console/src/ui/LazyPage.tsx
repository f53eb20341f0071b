// A page whose code loads when it is first opened, so the first page's JavaScript stays small; a
// skeleton holds its place meanwhile.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Skeleton } from './Skeleton';

export function lazyPage(load: () => Promise<ComponentType>): ReactNode {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<Skeleton lines={6} />}>
      <Page />
    </Suspense>
  );
}

// Every page's frame: its title in the tab and as the one h1, which takes the focus when the page
// opens, so a screen reader announces where a navigation landed.
import { useEffect, useRef, type ReactNode } from 'react';

export function Page({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Postmill`;
    heading.current?.focus();
  }, [title]);
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </>
  );
}

/** An error the API gave, announced as it appears. */
export function ErrorNote({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}

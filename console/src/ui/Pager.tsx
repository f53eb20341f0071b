// Previous and next over a list the API answers in numbered pages; nothing when there is one page.
import type { ReactNode } from 'react';

export function Pager({ label, page, totalPages, onPage }: { label: string; page: number; totalPages: number; onPage(page: number): void }): ReactNode {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="pager">
      <button type="button" className="quiet" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" className="quiet" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

// A modal confirmation for destructive actions: the native <dialog> (focus kept inside, Escape
// cancels, focus returns where it was, or to the page's heading), Cancel focused first so Enter
// never destroys by accident.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The button that does it: "Delete", "Rotate keys". */
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children: ReactNode;
}

export function ConfirmDialog({ open, title, confirmLabel, busy = false, onConfirm, onCancel, children }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) {
      d.close();
      // closing returns the focus to the button that opened it; when that is gone with what it
      // deleted, the page's heading takes it rather than nothing
      if (document.activeElement === document.body) document.querySelector<HTMLElement>('main h1')?.focus();
    }
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} className="confirm" onClose={() => open && onCancel()}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="actions">
        <button type="button" className="quiet" autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

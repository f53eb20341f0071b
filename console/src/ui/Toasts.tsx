// Feedback for an action that has no place of its own on the page (a removal, an invitation sent):
// a short message at the corner that leaves by itself. The list is a polite live region, so a
// screen reader hears each message once, without moving the focus.
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Icon } from './icons';

type Tone = 'success' | 'danger';
interface Toast {
  id: number;
  text: string;
  tone: Tone;
}

const SHOWN_MS = 5000;

const ToastContext = createContext<(text: string, tone?: Tone) => void>(() => undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((text: string, tone: Tone = 'success') => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-2), { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), SHOWN_MS);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <ol className="toasts" aria-live="polite" aria-label="Notifications">
        {toasts.map((t) => (
          <li key={t.id} className="toast" data-tone={t.tone}>
            <Icon name={t.tone === 'danger' ? 'alert' : 'check'} />
            <p>{t.text}</p>
          </li>
        ))}
      </ol>
    </ToastContext.Provider>
  );
}

/** `toast("Member removed")`: says so at the corner for a few seconds. */
export const useToast = () => useContext(ToastContext);

// A button that copies a value with the Clipboard API and says so to screen readers. Where the
// API is missing (a console served over plain http from another host is no secure context) or
// refused, it says how to copy by hand instead of failing silently.
import { useEffect, useState } from 'react';
import { Icon } from './icons';

export function CopyButton({ text, label }: { text: string; /** What is copied, for the accessible name: "Copy {label}". */ label: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(null), 3000);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no Clipboard API');
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="quiet" onClick={copy} aria-label={`Copy ${label}`}>
        <Icon name={outcome === 'copied' ? 'check' : 'copy'} size={14} />
        Copy
      </button>
      <span role="status" className={outcome === 'failed' ? 'error' : 'hint'}>
        {outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'This browser did not allow copying: select the text and copy it by hand' : ''}
      </span>
    </span>
  );
}

// The input a data value is edited in, by its control: text, a number (typed as text, so a wrong
// entry can be said on the field rather than swallowed by the browser), a checkbox, a date, a date
// and time in the viewer's zone, JSON for objects and arrays. Named by the label that points at `id`.
import type { Control } from './draft';

export interface FieldControlProps {
  id: string;
  control: Control;
  text: string;
  checked: boolean;
  /** Ids of the texts that describe the input (its type, its problem). */
  describedBy: string;
  invalid: boolean;
  onText(text: string): void;
  onChecked(checked: boolean): void;
}

export function FieldControl({ id, control, text, checked, describedBy, invalid, onText, onChecked }: FieldControlProps) {
  const common = { id, 'aria-describedby': describedBy || undefined, 'aria-invalid': invalid || undefined };
  switch (control) {
    case 'boolean':
      return <input {...common} type="checkbox" checked={checked} onChange={(e) => onChecked(e.target.checked)} />;
    case 'json':
      return <textarea {...common} rows={Math.min(8, text.split('\n').length + 1)} value={text} spellCheck={false} onChange={(e) => onText(e.target.value)} />;
    case 'number':
      return <input {...common} inputMode="decimal" value={text} onChange={(e) => onText(e.target.value)} />;
    case 'date':
      return <input {...common} type="date" value={text} onChange={(e) => onText(e.target.value)} />;
    case 'datetime':
      return <input {...common} type="datetime-local" step={1} value={text} onChange={(e) => onText(e.target.value)} />;
    case 'text':
      return <input {...common} value={text} onChange={(e) => onText(e.target.value)} />;
  }
}

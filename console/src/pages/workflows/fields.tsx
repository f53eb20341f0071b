// The form fields of the step forms: each names its API field path (`config.url`), shows that
// field's error (from the schema check or the API's 422) beside it, announced and tied to the input;
// hints and errors describe the control and stay out of its name.
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { FieldErrors } from './schema-check';

interface Described {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled control with its hint and error; `children` gets the id and aria attributes that tie them. */
export function Field({ label, path, errors, hint, children }: { label: string; path: string; errors: FieldErrors; hint?: string; children: (aria: Described) => ReactNode }) {
  const id = useId();
  const error = errors[path];
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': described })}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function TextField({ label, path, errors, value, onChange, hint, type = 'text', list }: { label: string; path: string; errors: FieldErrors; value: string; onChange(v: string): void; hint?: string; type?: string; list?: string }) {
  return (
    <Field label={label} path={path} errors={errors} {...(hint ? { hint } : {})}>
      {(aria) => <input type={type} value={value} list={list} onChange={(e) => onChange(e.target.value)} {...aria} />}
    </Field>
  );
}

export function SelectField<T extends string>({ label, path, errors, value, options, onChange }: { label: string; path: string; errors: FieldErrors; value: T; options: readonly (readonly [T, string])[]; onChange(v: T): void }) {
  return (
    <Field label={label} path={path} errors={errors}>
      {(aria) => (
        <select value={value} onChange={(e) => onChange(e.target.value as T)} {...aria}>
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * A textarea for a value written as text (JSON, "Name: value" lines): what is typed stays as typed;
 * each change that reads is handed on, one that does not is reported as a problem of the field
 * (which keeps the step from being saved until it reads).
 */
export function CodedField<V>({
  label,
  path,
  errors,
  value,
  encode,
  decode,
  onValue,
  onProblem,
  hint,
  rows = 4,
}: {
  label: string;
  path: string;
  errors: FieldErrors;
  value: V;
  encode(v: V): string;
  decode(text: string): { value: V } | { error: string };
  onValue(v: V): void;
  onProblem(message: string | null): void;
  hint?: string;
  rows?: number;
}) {
  const [text, setText] = useState(() => encode(value));
  // a value changed from elsewhere (another step chosen, a save) is shown as it now is
  useEffect(() => {
    const read = decode(text);
    if (!('value' in read) || JSON.stringify(read.value) !== JSON.stringify(value)) setText(encode(value));
  }, [value]);
  return (
    <Field label={label} path={path} errors={errors} {...(hint ? { hint } : {})}>
      {(aria) => (
        <textarea
          rows={rows}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const read = decode(e.target.value);
            if ('value' in read) {
              onProblem(null);
              onValue(read.value);
            } else onProblem(read.error);
          }}
          {...aria}
        />
      )}
    </Field>
  );
}

/** JSON text: empty is "none" (undefined). */
export const jsonCodec = {
  encode: (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2)),
  decode: (text: string): { value: unknown } | { error: string } => {
    if (text.trim() === '') return { value: undefined };
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { error: 'Not JSON: check the quotes, commas and brackets' };
    }
  },
};

/** HTTP headers as "Name: value" lines; none is undefined. */
export const headersCodec = {
  encode: (v: Record<string, string> | undefined) => (v ? Object.entries(v).map(([k, val]) => `${k}: ${val}`).join('\n') : ''),
  decode: (text: string): { value: Record<string, string> | undefined } | { error: string } => {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const bad = lines.find((l) => !/^[^:\s]+:/.test(l));
    if (bad !== undefined) return { error: `"${bad}" is not Name: value` };
    if (lines.length === 0) return { value: undefined };
    return { value: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()])) };
  },
};

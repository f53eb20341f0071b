/**
 * One finding of `postmill doctor`: what was checked, what was found and, when it failed, how to
 * fix it. A warning passes (the exit stays 0) but says what to improve, and how.
 */
export interface Check {
  name: string;
  ok: boolean;
  warning: boolean;
  detail: string;
  fix: string | null;
}

export const passed = (name: string, detail: string): Check => ({ name, ok: true, warning: false, detail, fix: null });
export const warned = (name: string, detail: string, fix: string): Check => ({ name, ok: true, warning: true, detail, fix });
export const failed = (name: string, detail: string, fix: string): Check => ({ name, ok: false, warning: false, detail, fix });
/** A check that needs DNS, while DNS does not answer: its own advice would point the wrong way. */
export const notChecked = (name: string): Check => failed(name, 'not checked: DNS does not answer (see the dns check)', 'Fix the dns check first, then run the doctor again');

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
export function hostAndPort(text: string, defaultPort: number): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? defaultPort) };
  const parts = text.split(':');
  return parts.length === 2 ? { host: parts[0]!, port: Number(parts[1]) } : { host: text, port: defaultPort };
}

export const reasonOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err);

// Text that is not well-formed Unicode (a lone UTF-16 surrogate, which JSON can spell as \ud800)
// would be stored mangled: SQLite's JSON functions cannot read it back as written.
import { fieldPath } from '../errors.js';

const LONE_SURROGATE = /\p{Cs}/u;

/** Whether the raw text spells a surrogate escape at all; almost no body does, and then nothing is walked. */
export const mentionsSurrogates = (text: Buffer) => text.indexOf('\\ud') !== -1 || text.indexOf('\\uD') !== -1;

/** The field path of the first key or string holding a lone surrogate, or null. */
export function loneSurrogateAt(value: unknown): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? '' : null;
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (top.value === null || typeof top.value !== 'object') continue;
    for (const [key, child] of Object.entries(top.value)) {
      const path = [...top.path, key];
      if (LONE_SURROGATE.test(key) || (typeof child === 'string' && LONE_SURROGATE.test(child))) return fieldPath(path);
      if (child !== null && typeof child === 'object') stack.push({ value: child, path });
    }
  }
  return null;
}

// String.replace with a global pattern, in memory linear in the text: V8's global replace keeps
// every match until it is done, so a text of millions of matches (short lines, `<`s, `&`s, as a
// 40 MB message can hold) took hundreds of MB of heap, and a thread with a bounded heap died of it.

/** Pieces joined at a time: few enough to stay small, many enough that the final join is short. */
const PIECES = 8192;

/** `text` with every match of the global `pattern` replaced by `replace(match)`. */
export function linearReplace(text: string, pattern: RegExp, replace: (match: string) => string): string {
  pattern.lastIndex = 0;
  let match = pattern.exec(text);
  if (!match) return text;
  const joined: string[] = [];
  let pieces: string[] = [];
  let last = 0;
  for (; match; match = pattern.exec(text)) {
    pieces.push(text.slice(last, match.index), replace(match[0]));
    last = match.index + match[0].length;
    if (match[0].length === 0) pattern.lastIndex++;
    if (pieces.length >= PIECES) {
      joined.push(pieces.join(''));
      pieces = [];
    }
  }
  pieces.push(text.slice(last));
  joined.push(pieces.join(''));
  return joined.join('');
}

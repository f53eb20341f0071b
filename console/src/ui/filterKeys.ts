// Stable React keys for the parts of a FilterCondition, which carry no ids of their own: each
// object gets a key when first seen, and an edit that replaces it hands its key to the new object,
// so a row keeps its state (a chosen value type, a typed path) and its focus while it is edited and
// while rows before it come and go.
const keys = new WeakMap<object, string>();
let last = 0;

export function keyOf(part: object): string {
  let key = keys.get(part);
  if (key === undefined) {
    key = `f${++last}`;
    keys.set(part, key);
  }
  return key;
}

/** `next`, known by the key of `previous` (the same row, edited). */
export function carry<T extends object>(previous: object, next: T): T {
  keys.set(next, keyOf(previous));
  return next;
}

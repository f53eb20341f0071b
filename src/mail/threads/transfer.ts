/**
 * The bytes in an ArrayBuffer of their own, to be transferred between threads rather than cloned:
 * the same memory when they fill theirs, a copy when they share one (a pooled Buffer, a slice).
 */
export function ownArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

// What an uploaded file really is, read from its first bytes (the signature and the header that
// holds its size), never from the name or the type the client declared: a page of HTML or an SVG
// with a script sent as `image/png` is refused. Widths and heights go into the builder's `<img>`,
// which Outlook needs to lay an image out.

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

/** The file name extension of each type, as the public address ends. */
export const EXTENSIONS: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

const startsWith = (bytes: Buffer, signature: number[], at = 0) => bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Buffer, at: number, text: string) => bytes.length >= at + text.length && bytes.toString('latin1', at, at + text.length) === text;

function png(bytes: Buffer): ImageInfo | null {
  if (!startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || !ascii(bytes, 12, 'IHDR') || bytes.length < 24) return null;
  return { type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function gif(bytes: Buffer): ImageInfo | null {
  if ((!ascii(bytes, 0, 'GIF87a') && !ascii(bytes, 0, 'GIF89a')) || bytes.length < 10) return null;
  return { type: 'image/gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** Start-of-frame markers (baseline, progressive, ...): C0-CF but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(bytes: Buffer): ImageInfo | null {
  if (!startsWith(bytes, [0xff, 0xd8, 0xff])) return null;
  // walk the segments up to the frame header, which holds the size
  for (let at = 2; at + 9 <= bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) return { type: 'image/jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

function webp(bytes: Buffer): ImageInfo | null {
  if (!ascii(bytes, 0, 'RIFF') || !ascii(bytes, 8, 'WEBP') || bytes.length < 25) return null;
  const image = (width: number, height: number): ImageInfo => ({ type: 'image/webp', width, height });
  if (ascii(bytes, 12, 'VP8 ') && startsWith(bytes, [0x9d, 0x01, 0x2a], 23) && bytes.length >= 30) return image(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  if (ascii(bytes, 12, 'VP8L') && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return image((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (ascii(bytes, 12, 'VP8X') && bytes.length >= 30) return image(bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
  return null;
}

/** The image the bytes are (PNG, JPEG, GIF or WebP, with a readable size), or null. */
export function sniffImage(bytes: Buffer): ImageInfo | null {
  const info = png(bytes) ?? gif(bytes) ?? jpeg(bytes) ?? webp(bytes);
  return info && info.width > 0 && info.height > 0 ? info : null;
}

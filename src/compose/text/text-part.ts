import { randomBytes } from 'node:crypto';
import { replacePlaceholders } from '../../render/render.js';
import { memoizedSource } from '../../memo.js';
import { htmlToText } from './html-to-text.js';

/** Upper-case hex: survives html-to-text's upper-casing of headings and never word-wraps. */
const NONCE = randomBytes(4).toString('hex').toUpperCase();
const TOKEN = new RegExp(`PM${NONCE}V(\\d+)X`, 'g');

function build(html: string): string | null {
  const originals: string[] = [];
  let rawHtml = false;
  const tokenized = replacePlaceholders(html, (text, raw) => {
    rawHtml ||= raw;
    originals.push(text);
    return `PM${NONCE}V${originals.length - 1}X`;
  });
  // `{{{raw}}}` values are HTML: they must be converted with the page, per recipient.
  if (rawHtml) return null;
  return htmlToText(tokenized).replace(TOKEN, (_, i: string) => originals[Number(i)]!);
}

/**
 * The text part of a template, converted from its HTML once with the placeholders kept: each
 * recipient then only renders it (as plain text). Null when the source must be converted per
 * recipient instead (raw HTML placeholders).
 */
export const textTemplateOf: (html: string) => string | null = memoizedSource(256, build);

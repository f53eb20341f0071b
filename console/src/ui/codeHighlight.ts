// The HTML editor's colours from the design tokens (--code-* in styles/pages.css), so the code reads
// as well in the dark theme as in the light one; CodeMirror's default style is made for light only.
import { HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';

export const codeHighlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.angleBracket], color: 'var(--code-tag)' },
  { tag: tags.attributeName, color: 'var(--code-attr)' },
  { tag: [tags.attributeValue, tags.string], color: 'var(--code-string)' },
  { tag: tags.comment, color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.processingInstruction, tags.documentMeta], color: 'var(--code-keyword)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

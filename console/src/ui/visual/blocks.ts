// The builder's blocks as TipTap nodes: each writes its email-safe markup (emailMarkup.ts) and reads
// it back from its `data-block` table, so a body round-trips between visual and HTML mode. Any
// `<img>` (pasted, or written in HTML mode) is read as an image block, so it is shown and kept.
// Text colour and alignment are a mark and an attribute written as inline styles.
import { Extension, Mark, Node } from '@tiptap/core';
import type { DOMOutputSpec } from '@tiptap/pm/model';
import {
  alignOf,
  buttonMarkup,
  colourOf,
  columnMarkup,
  columnsMarkup,
  CONTENT_WIDTH,
  dividerMarkup,
  footerMarkup,
  hexOf,
  imageMarkup,
  pixelsOf,
  socialMarkup,
  spacerMarkup,
  type Align,
  type ButtonAttrs,
  type ImageAttrs,
  type SocialLink,
} from './emailMarkup';

/** Attributes a block keeps: read from its element by `parse`, written by the block's own markup (never as plain attributes). */
function attrs<T extends object>(defaults: T, parse: (el: HTMLElement) => T): Record<string, { default: unknown; rendered: false; parseHTML(el: HTMLElement): unknown }> {
  return Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, { default: value, rendered: false, parseHTML: (el: HTMLElement) => parse(el)[name as keyof T] }]));
}

/** A block with no editable content inside: selected, deleted, moved whole. */
function atomBlock<T extends object>(name: string, block: string, defaults: T, parse: (el: HTMLElement) => T, markup: (a: T) => DOMOutputSpec, extraRules: { tag: string }[] = []) {
  return Node.create({
    name,
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes: () => attrs(defaults, parse),
    parseHTML: () => [{ tag: `table[data-block="${block}"]` }, ...extraRules],
    renderHTML: ({ node }) => markup(node.attrs as T),
  });
}

const cellOf = (el: HTMLElement) => el.querySelector('td');

const imageOf = (el: HTMLElement): ImageAttrs => {
  const img = el instanceof HTMLImageElement ? el : el.querySelector('img');
  const link = img?.closest('a');
  return {
    src: img?.getAttribute('src') ?? '',
    alt: img?.getAttribute('alt') ?? '',
    width: pixelsOf(img?.getAttribute('width') ?? img?.style.width, CONTENT_WIDTH, CONTENT_WIDTH),
    href: link && el.contains(link) ? link.getAttribute('href') : null,
    align: alignOf(el instanceof HTMLImageElement ? 'center' : cellOf(el)?.getAttribute('align')),
  };
};

export const ImageBlock = atomBlock<ImageAttrs>('emailImage', 'image', { src: '', alt: '', width: CONTENT_WIDTH, href: null, align: 'center' }, imageOf, imageMarkup, [
  // an image from anywhere else (pasted, or written in HTML mode)
  { tag: 'img[src]' },
]);

export const DEFAULT_BUTTON: ButtonAttrs = { text: 'Read more', href: 'https://', background: '#2563eb', colour: '#ffffff', align: 'center' };

export const ButtonBlock = atomBlock<ButtonAttrs>(
  'emailButton',
  'button',
  DEFAULT_BUTTON,
  (el) => {
    const link = el.querySelector('a');
    const cell = link?.closest('td');
    return {
      text: link?.textContent ?? DEFAULT_BUTTON.text,
      href: link?.getAttribute('href') ?? DEFAULT_BUTTON.href,
      background: colourOf(cell?.getAttribute('bgcolor'), DEFAULT_BUTTON.background),
      colour: colourOf(hexOf(link?.style.color ?? ''), DEFAULT_BUTTON.colour),
      align: alignOf(cellOf(el)?.getAttribute('align')),
    };
  },
  buttonMarkup,
);

export const DividerBlock = atomBlock('emailDivider', 'divider', {}, () => ({}), dividerMarkup);

export const SPACER_HEIGHT = 24;
export const SpacerBlock = atomBlock(
  'emailSpacer',
  'spacer',
  { height: SPACER_HEIGHT },
  (el) => ({ height: pixelsOf(cellOf(el)?.getAttribute('height'), SPACER_HEIGHT, 200) }),
  (a) => spacerMarkup(a.height),
);

export const SocialBlock = atomBlock<{ links: SocialLink[]; align: Align }>(
  'emailSocial',
  'social',
  { links: [], align: 'center' },
  (el) => ({
    links: [...el.querySelectorAll('a')].map((a) => ({ network: a.textContent ?? '', url: a.getAttribute('href') ?? '' })),
    align: alignOf(cellOf(el)?.getAttribute('align')),
  }),
  (a) => socialMarkup(a.links, a.align),
);

export const FooterBlock = atomBlock<{ address: string }>(
  'emailFooter',
  'footer',
  { address: '' },
  (el) => {
    const first = el.querySelector('p');
    const lines = first ? [...first.childNodes].filter((n) => n.nodeName !== 'BR').map((n) => n.textContent ?? '') : [];
    return { address: lines.join('\n') };
  },
  (a) => footerMarkup(a.address),
);

/** What a column may hold: text and the single blocks, not columns again (nested tables stack badly on phones). */
const COLUMN_CONTENT = '(paragraph | heading | bulletList | orderedList | blockquote | emailImage | emailButton | emailDivider | emailSpacer)+';

export const ColumnBlock = Node.create({
  name: 'emailColumn',
  content: COLUMN_CONTENT,
  isolating: true,
  parseHTML: () => [{ tag: 'td[data-column]' }],
  renderHTML: () => columnMarkup(),
});

export const ColumnsBlock = Node.create({
  name: 'emailColumns',
  group: 'block',
  content: 'emailColumn emailColumn',
  isolating: true,
  parseHTML: () => [{ tag: 'table[data-block="columns"]', contentElement: 'tr' }],
  renderHTML: () => columnsMarkup(),
});

/** Text colour: `<span style="color:#rrggbb">`. */
export const TextColour = Mark.create({
  name: 'textColour',
  addAttributes: () => ({ colour: { default: null, rendered: false } }),
  parseHTML: () => [
    {
      tag: 'span[style]',
      getAttrs: (el) => {
        const colour = hexOf((el as HTMLElement).style.color);
        return colour ? { colour } : false;
      },
    },
  ],
  renderHTML: ({ mark }) => ['span', { style: `color:${colourOf(mark.attrs.colour, '#111111')}` }, 0],
});

/** Alignment of paragraphs and headings: `style="text-align:..."`, nothing when left as it is. */
export const TextAlign = Extension.create({
  name: 'textAlign',
  addGlobalAttributes: () => [
    {
      types: ['paragraph', 'heading'],
      attributes: {
        textAlign: {
          default: null,
          parseHTML: (el: HTMLElement) => (['left', 'center', 'right'].includes(el.style.textAlign) ? el.style.textAlign : null),
          renderHTML: (a: Record<string, unknown>) => (a.textAlign ? { style: `text-align:${alignOf(a.textAlign)}` } : {}),
        },
      },
    },
  ],
});

export const BLOCK_EXTENSIONS = [ImageBlock, ButtonBlock, DividerBlock, SpacerBlock, SocialBlock, FooterBlock, ColumnBlock, ColumnsBlock, TextColour, TextAlign];

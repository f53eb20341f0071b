// The email-safe markup of the builder's blocks, as ProseMirror output specs: tables for layout
// (role="presentation", no cell spacing), inline styles only, explicit widths on images, no class
// or script. Gmail, Outlook (Word's renderer) and Apple Mail lay these out alike. Each block's
// outer table carries `data-block`, which is how the editor reads its own blocks back.
import type { DOMOutputSpec } from '@tiptap/pm/model';

/** What an element of an output spec holds: elements and text. */
type Child = DOMOutputSpec | string;

export type Align = 'left' | 'center' | 'right';
export const ALIGNS: Align[] = ['left', 'center', 'right'];

/** The width of the email's content column: wider images are scaled to it. */
export const CONTENT_WIDTH = 600;
const FONT = 'Arial, Helvetica, sans-serif';

/** What attributes read back from HTML may hold: anything else falls back, so no style can be smuggled in. */
export const alignOf = (raw: unknown, fallback: Align = 'center'): Align => (ALIGNS.includes(raw as Align) ? (raw as Align) : fallback);
export const colourOf = (raw: unknown, fallback: string): string => (typeof raw === 'string' && /^#[0-9a-f]{6}$/i.test(raw.trim()) ? raw.trim().toLowerCase() : fallback);
export const pixelsOf = (raw: unknown, fallback: number, max: number): number => {
  const n = Number.parseInt(String(raw ?? ''), 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, max) : fallback;
};

/** `rgb(r, g, b)` (how a browser reports an inline colour) or `#rrggbb` as `#rrggbb`. */
export function hexOf(css: string): string | null {
  const rgb = /^rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(css.trim());
  if (rgb) return '#' + rgb.slice(1, 4).map((n) => Number(n).toString(16).padStart(2, '0')).join('');
  return /^#[0-9a-f]{6}$/i.test(css.trim()) ? css.trim().toLowerCase() : null;
}

/** A one-row, one-cell layout table around a block's content. */
function blockTable(block: string, cell: Record<string, string>, ...content: Child[]): DOMOutputSpec {
  return [
    'table',
    { 'data-block': block, role: 'presentation', width: '100%', cellpadding: '0', cellspacing: '0', border: '0', style: 'border-collapse:collapse;width:100%' },
    ['tbody', ['tr', ['td', cell, ...content]]],
  ];
}

export interface ImageAttrs {
  src: string;
  alt: string;
  width: number;
  href: string | null;
  align: Align;
}

export function imageMarkup(a: ImageAttrs): DOMOutputSpec {
  const img: DOMOutputSpec = ['img', { src: a.src, alt: a.alt, width: String(a.width), style: `display:block;width:${a.width}px;max-width:100%;height:auto;border:0;outline:none;text-decoration:none` }];
  return blockTable('image', { align: a.align, style: 'padding:8px 0' }, a.href ? ['a', { href: a.href, style: 'text-decoration:none' }, img] : img);
}

export interface ButtonAttrs {
  text: string;
  href: string;
  background: string;
  colour: string;
  align: Align;
}

/** A "bulletproof" button: the colour on the cell (bgcolor for Outlook) and the padding on the link, so all of it is clickable. */
export function buttonMarkup(a: ButtonAttrs): DOMOutputSpec {
  return blockTable(
    'button',
    { align: a.align, style: 'padding:12px 0' },
    [
      'table',
      { role: 'presentation', cellpadding: '0', cellspacing: '0', border: '0', style: 'border-collapse:separate' },
      [
        'tbody',
        [
          'tr',
          [
            'td',
            { align: 'center', bgcolor: a.background, style: `border-radius:6px;background-color:${a.background}` },
            ['a', { href: a.href, style: `display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:bold;line-height:20px;color:${a.colour};text-decoration:none;border-radius:6px` }, a.text],
          ],
        ],
      ],
    ],
  );
}

export function dividerMarkup(): DOMOutputSpec {
  return blockTable('divider', { style: 'padding:16px 0' }, [
    'table',
    { role: 'presentation', width: '100%', cellpadding: '0', cellspacing: '0', border: '0', style: 'border-collapse:collapse;width:100%' },
    ['tbody', ['tr', ['td', { height: '1', style: 'height:1px;border-top:1px solid #d1d5db;font-size:1px;line-height:1px' }, '\u00a0']]],
  ]);
}

export function spacerMarkup(height: number): DOMOutputSpec {
  return blockTable('spacer', { height: String(height), style: `height:${height}px;font-size:1px;line-height:${height}px` }, '\u00a0');
}

export interface SocialLink {
  network: string;
  url: string;
}

export function socialMarkup(links: SocialLink[], align: Align): DOMOutputSpec {
  const anchors = links.flatMap((l, i): Child[] => [
    ...(i > 0 ? ['\u00a0\u00a0·\u00a0\u00a0'] : []),
    ['a', { href: l.url, style: 'color:#2563eb;text-decoration:none;font-weight:bold' }, l.network],
  ]);
  return blockTable('social', { align, style: `padding:12px 0;font-family:${FONT};font-size:14px;line-height:20px` }, ...anchors);
}

/**
 * The footer every marketing email needs: who sends it and where (CAN-SPAM asks for a postal
 * address) and the links to leave or manage the subscription, filled in per contact at sending.
 */
export function footerMarkup(address: string): DOMOutputSpec {
  const lines = address.split('\n').flatMap((line, i): Child[] => (i > 0 ? [['br'], line] : [line]));
  const link = (href: string, text: string): DOMOutputSpec => ['a', { href, style: 'color:#6b7280;text-decoration:underline' }, text];
  return blockTable(
    'footer',
    { align: 'center', style: `padding:24px 0 8px;font-family:${FONT};font-size:12px;line-height:18px;color:#6b7280` },
    ['p', { style: 'margin:0 0 8px' }, ...lines],
    ['p', { style: 'margin:0' }, link('{{unsubscribeUrl}}', 'Unsubscribe'), '\u00a0·\u00a0', link('{{manageUrl}}', 'Manage preferences')],
  );
}

/** Two columns of equal width; each cell's content is the editor's (the hole `0`). */
export const columnsMarkup = (): DOMOutputSpec => [
  'table',
  { 'data-block': 'columns', role: 'presentation', width: '100%', cellpadding: '0', cellspacing: '0', border: '0', style: 'border-collapse:collapse;width:100%' },
  ['tbody', ['tr', 0]],
];

export const columnMarkup = (): DOMOutputSpec => ['td', { 'data-column': '', width: '50%', valign: 'top', style: 'width:50%;padding:0 8px;vertical-align:top' }, 0];

// The builder's block buttons and the small form some of them open. Divider, Spacer and Columns go
// in at once; Image, Button, Social links and Footer ask first for what they need. Each goes in
// after the block the cursor is in (placement.ts).
import type { Editor } from '@tiptap/core';
import { useState, type ReactNode } from 'react';
import { ALIGNS, CONTENT_WIDTH, type Align, type ButtonAttrs, type SocialLink } from './emailMarkup';
import { DEFAULT_BUTTON, SPACER_HEIGHT } from './blocks';
import { MediaPicker } from './MediaPicker';
import { insertBlock } from './placement';

type Form = 'Image' | 'Button' | 'Social links' | 'Footer';
const ALIGN_NAMES: Record<Align, string> = { left: 'Left', center: 'Centre', right: 'Right' };

function AlignSelect({ value, onChange }: { value: Align; onChange(a: Align): void }) {
  return (
    <label>
      Alignment
      <select value={value} onChange={(e) => onChange(e.target.value as Align)}>
        {ALIGNS.map((a) => (
          <option key={a} value={a}>
            {ALIGN_NAMES[a]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A block's form: its fields, then the button that inserts the block and one that closes the form. */
function BlockForm({ name, insert, canInsert = true, onClose, children }: { name: string; insert(): void; canInsert?: boolean; onClose(): void; children: ReactNode }) {
  return (
    <div role="group" aria-label={`${name} block`} className="block-form">
      {children}
      <div className="actions">
        <button type="button" disabled={!canInsert} onClick={insert}>
          Insert {name.toLowerCase()}
        </button>
        <button type="button" className="quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function ImageForm({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const [image, setImage] = useState({ src: '', alt: '', width: String(CONTENT_WIDTH), href: '', align: 'center' as Align });
  const set = (patch: Partial<typeof image>) => setImage((i) => ({ ...i, ...patch }));
  const insert = () => {
    const width = Math.min(Math.max(Number.parseInt(image.width, 10) || CONTENT_WIDTH, 1), CONTENT_WIDTH);
    insertBlock(editor, { type: 'emailImage', attrs: { src: image.src.trim(), alt: image.alt, width, href: image.href.trim() || null, align: image.align } });
    onClose();
  };
  return (
    <BlockForm name="Image" insert={insert} canInsert={image.src.trim() !== ''} onClose={onClose}>
      <MediaPicker onPick={(m) => set({ src: m.url, width: String(Math.min(m.width, CONTENT_WIDTH)), alt: image.alt || m.name.replace(/\.[a-z]+$/i, '') })} />
      <label>
        Image address
        <input type="url" value={image.src} onChange={(e) => set({ src: e.target.value })} placeholder="https://…" />
      </label>
      <label>
        Alternative text
        <input type="text" value={image.alt} onChange={(e) => set({ alt: e.target.value })} />
      </label>
      <label>
        Width in pixels
        <input type="number" min={1} max={CONTENT_WIDTH} value={image.width} onChange={(e) => set({ width: e.target.value })} />
      </label>
      <label>
        Image link (optional)
        <input type="text" value={image.href} onChange={(e) => set({ href: e.target.value })} placeholder="https://…" />
      </label>
      <AlignSelect value={image.align} onChange={(align) => set({ align })} />
    </BlockForm>
  );
}

function ButtonForm({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const [button, setButton] = useState<ButtonAttrs>({ ...DEFAULT_BUTTON });
  const set = (patch: Partial<ButtonAttrs>) => setButton((b) => ({ ...b, ...patch }));
  const insert = () => {
    insertBlock(editor, { type: 'emailButton', attrs: { ...button, href: button.href.trim() } });
    onClose();
  };
  return (
    <BlockForm name="Button" insert={insert} canInsert={button.text.trim() !== '' && button.href.trim() !== ''} onClose={onClose}>
      <label>
        Button text
        <input type="text" value={button.text} onChange={(e) => set({ text: e.target.value })} />
      </label>
      <label>
        Button link
        <input type="text" value={button.href} onChange={(e) => set({ href: e.target.value })} placeholder="https://… or {{manageUrl}}" />
      </label>
      <label>
        Button colour
        <input type="color" value={button.background} onChange={(e) => set({ background: e.target.value })} />
      </label>
      <label>
        Button text colour
        <input type="color" value={button.colour} onChange={(e) => set({ colour: e.target.value })} />
      </label>
      <AlignSelect value={button.align} onChange={(align) => set({ align })} />
    </BlockForm>
  );
}

const NETWORKS = ['Facebook', 'Instagram', 'LinkedIn', 'X', 'YouTube'];

function SocialForm({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const links: SocialLink[] = NETWORKS.flatMap((network) => (urls[network]?.trim() ? [{ network, url: urls[network]!.trim() }] : []));
  const insert = () => {
    insertBlock(editor, { type: 'emailSocial', attrs: { links, align: 'center' } });
    onClose();
  };
  return (
    <BlockForm name="Social links" insert={insert} canInsert={links.length > 0} onClose={onClose}>
      {NETWORKS.map((network) => (
        <label key={network}>
          {network} address
          <input type="url" value={urls[network] ?? ''} onChange={(e) => setUrls((u) => ({ ...u, [network]: e.target.value }))} placeholder="https://…" />
        </label>
      ))}
    </BlockForm>
  );
}

function FooterForm({ editor, onClose }: { editor: Editor; onClose(): void }) {
  const [address, setAddress] = useState('');
  const insert = () => {
    insertBlock(editor, { type: 'emailFooter', attrs: { address: address.trim() } });
    onClose();
  };
  return (
    <BlockForm name="Footer" insert={insert} canInsert={address.trim() !== ''} onClose={onClose}>
      <label>
        Postal address
        <textarea rows={3} value={address} onChange={(e) => setAddress(e.target.value)} placeholder={'Example Ltd\n1 High Street\nLondon'} />
      </label>
      <p className="hint">The footer adds the Unsubscribe and Manage preferences links of each contact.</p>
    </BlockForm>
  );
}

const FORMS: Record<Form, (p: { editor: Editor; onClose(): void }) => ReactNode> = {
  Image: ImageForm,
  Button: ButtonForm,
  'Social links': SocialForm,
  Footer: FooterForm,
};

export function BlockToolbar({ editor }: { editor: Editor }) {
  const [open, setOpen] = useState<Form | null>(null);
  const insert = (content: { type: string } & Record<string, unknown>) => insertBlock(editor, content);
  const OpenForm = open ? FORMS[open] : null;
  const formButton = (name: Form) => (
    <button type="button" className="quiet" aria-expanded={open === name} onClick={() => setOpen(open === name ? null : name)}>
      {name}
    </button>
  );
  return (
    <>
      <div role="toolbar" aria-label="Blocks" className="actions">
        {formButton('Image')}
        {formButton('Button')}
        <button type="button" className="quiet" onClick={() => insert({ type: 'emailDivider' })}>
          Divider
        </button>
        <button type="button" className="quiet" onClick={() => insert({ type: 'emailSpacer', attrs: { height: SPACER_HEIGHT } })}>
          Spacer
        </button>
        <button
          type="button"
          className="quiet"
          onClick={() => insert({ type: 'emailColumns', content: [1, 2].map((n) => ({ type: 'emailColumn', content: [{ type: 'paragraph', content: [{ type: 'text', text: `Column ${n}` }] }] })) })}
        >
          Columns
        </button>
        {formButton('Social links')}
        {formButton('Footer')}
      </div>
      {OpenForm && <OpenForm key={open} editor={editor} onClose={() => setOpen(null)} />}
    </>
  );
}

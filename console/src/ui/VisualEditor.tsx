// The visual mode of the body editor, for people who do not write HTML: a TipTap (ProseMirror)
// editor whose output is the HTML the API takes. Headings, paragraphs, bold, italic, underline,
// lists, quotes, links, text colour and alignment, and the email blocks (visual/blocks.ts: image,
// button, divider, spacer, columns, social links, footer) written as email-safe HTML and read back;
// `{{variables}}` are inserted as text, as HTML mode writes them. HTML it writes its own way or
// cannot represent (other styles and tables, comments) is not touched until an edit here rewrites
// the body, and it says so before. Its own chunk: BodyEditor imports it lazily.
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef, useState } from 'react';
import { BLOCK_EXTENSIONS } from './visual/blocks';
import { BlockToolbar } from './visual/BlockToolbar';
import { TextStyle } from './visual/TextStyle';

export interface VisualEditorProps {
  value: string;
  onChange(value: string): void;
  label: string;
  variables: string[];
}

const extensions = [
  StarterKit.configure({
    codeBlock: false,
    code: false,
    // links as written: no target or rel added, `{{unsubscribeUrl}}` and other variables kept as addresses
    link: { openOnClick: false, autolink: false, HTMLAttributes: { target: null, rel: null } },
  }),
  ...BLOCK_EXTENSIONS,
];

/** The markup as a document, attributes in order, blanks collapsed: two ways of writing the same HTML compare equal. */
function normalized(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blanks: Node[] = [];
  const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.currentNode as Node | null; node; node = walker.nextNode()) {
    if (node instanceof Element) {
      const attributes = [...node.attributes].map((a) => [a.name, a.value] as const).sort(([a], [b]) => a.localeCompare(b));
      for (const [name] of attributes) node.removeAttribute(name);
      for (const [name, value] of attributes) node.setAttribute(name, value);
    } else if (node.textContent!.trim() === '') blanks.push(node);
    else node.textContent = node.textContent!.replace(/\s+/g, ' ');
  }
  blanks.forEach((n) => n.parentNode?.removeChild(n));
  return doc.documentElement.outerHTML;
}

/** Whether the editor holds `html` whole: its own output says the same thing. */
const keepsWhole = (html: string, editor: Editor) => html.trim() === '' || normalized(html) === normalized(editor.getHTML());

function Toggle({ editor, label, mark, run }: { editor: Editor; label: string; mark: [string, Record<string, unknown>?]; run(): void }) {
  // A click keeps the focus in the text (what is typed next goes there, not to the button, where a
  // space would press it again); from the keyboard the button is reached by Tab and hands focus back.
  return (
    <button type="button" className="quiet" aria-pressed={editor.isActive(...mark)} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {label}
    </button>
  );
}

function LinkForm({ editor }: { editor: Editor }) {
  const [href, setHref] = useState('');
  const set = () => {
    editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };
  // no form of its own: it sits inside the composer's form
  return (
    <span className="row" role="group" aria-label="Link">
      <label>
        Link address
        <input type="text" value={href} onChange={(e) => setHref(e.target.value)} placeholder="https://… or {{manageUrl}}" />
      </label>
      <button type="button" className="quiet" disabled={href.trim() === ''} onClick={set}>
        Set link
      </button>
      <button type="button" className="quiet" disabled={!editor.isActive('link')} onClick={() => editor.chain().focus().extendMarkRange('link').unsetLink().run()}>
        Remove link
      </button>
    </span>
  );
}

function VariableInserter({ editor, variables }: { editor: Editor; variables: string[] }) {
  const [name, setName] = useState(variables[0] ?? '');
  return (
    <span className="row" role="group" aria-label="Variables">
      <label>
        Variable
        <select value={name} onChange={(e) => setName(e.target.value)}>
          {variables.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </label>
      <button type="button" className="quiet" disabled={name === ''} onClick={() => editor.chain().focus().insertContent(`{{${name}}}`).run()}>
        Insert variable
      </button>
    </span>
  );
}

export function VisualEditor({ value, onChange, label, variables }: VisualEditorProps) {
  // what the editor last gave: a value equal to it came from here, any other from outside
  const emitted = useRef(value);
  const [whole, setWhole] = useState(true);
  const editor = useEditor({
    extensions,
    content: value,
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': label, class: 'visual-body' } },
    onCreate: ({ editor: e }) => setWhole(keepsWhole(value, e)),
    onUpdate: ({ editor: e }) => {
      emitted.current = e.getHTML();
      setWhole(true);
      onChange(emitted.current);
    },
  });

  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
    setWhole(keepsWhole(value, editor));
  }, [value, editor]);

  const chain = () => editor.chain().focus();
  return (
    <div className="visual-editor">
      {!whole && (
        <p className="note warning" role="note">
          This HTML has parts the visual editor writes its own way or cannot show (styles, tables, comments or a whole document). They are kept as written until you
          edit here: an edit rewrites the body in the editor's form (images are kept as image blocks). Use HTML mode to keep them as they are.
        </p>
      )}
      <div role="toolbar" aria-label="Formatting" className="actions">
        <Toggle editor={editor} label="Bold" mark={['bold']} run={() => chain().toggleBold().run()} />
        <Toggle editor={editor} label="Italic" mark={['italic']} run={() => chain().toggleItalic().run()} />
        <Toggle editor={editor} label="Underline" mark={['underline']} run={() => chain().toggleUnderline().run()} />
        <Toggle editor={editor} label="Heading" mark={['heading', { level: 2 }]} run={() => chain().toggleHeading({ level: 2 }).run()} />
        <Toggle editor={editor} label="Bulleted list" mark={['bulletList']} run={() => chain().toggleBulletList().run()} />
        <Toggle editor={editor} label="Numbered list" mark={['orderedList']} run={() => chain().toggleOrderedList().run()} />
        <Toggle editor={editor} label="Quote" mark={['blockquote']} run={() => chain().toggleBlockquote().run()} />
      </div>
      <TextStyle editor={editor} />
      <BlockToolbar editor={editor} />
      <div className="actions">
        <LinkForm editor={editor} />
        <VariableInserter editor={editor} variables={variables} />
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}

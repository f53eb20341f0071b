// Colour and alignment of text: a colour applied to the selected words (a span with an inline
// colour), and the alignment of the paragraphs or headings the selection touches.
import type { Editor } from '@tiptap/core';
import { useState } from 'react';
import { ALIGNS, type Align } from './emailMarkup';

const NAMES: Record<Align, string> = { left: 'Align left', center: 'Align centre', right: 'Align right' };

function setAlign(editor: Editor, align: Align) {
  // left is how text starts: no style written for it
  const textAlign = align === 'left' ? null : align;
  editor.chain().focus().updateAttributes('paragraph', { textAlign }).updateAttributes('heading', { textAlign }).run();
}

const alignOfSelection = (editor: Editor): Align => (editor.getAttributes('paragraph').textAlign ?? editor.getAttributes('heading').textAlign ?? 'left') as Align;

export function TextStyle({ editor }: { editor: Editor }) {
  const [colour, setColour] = useState('#dc2626');
  const current = alignOfSelection(editor);
  return (
    <div role="toolbar" aria-label="Colour and alignment" className="actions">
      {ALIGNS.map((a) => (
        <button key={a} type="button" className="quiet" aria-pressed={current === a} onMouseDown={(e) => e.preventDefault()} onClick={() => setAlign(editor, a)}>
          {NAMES[a]}
        </button>
      ))}
      <label>
        Text colour
        <input type="color" value={colour} onChange={(e) => setColour(e.target.value)} />
      </label>
      <button type="button" className="quiet" onMouseDown={(e) => e.preventDefault()} onClick={() => editor.chain().focus().setMark('textColour', { colour }).run()}>
        Apply colour
      </button>
      <button type="button" className="quiet" disabled={!editor.isActive('textColour')} onClick={() => editor.chain().focus().unsetMark('textColour').run()}>
        Remove colour
      </button>
    </div>
  );
}

// Where a block goes: after the block the cursor is in (text is never split), at the deepest level
// that may hold it: an image typed into a column stays in the column, columns or a footer go after
// the columns. A selected block gets the new one after it.
import type { Editor } from '@tiptap/core';

export function insertBlock(editor: Editor, content: { type: string } & Record<string, unknown>): void {
  const type = editor.schema.nodes[content.type]!;
  const { $to } = editor.state.selection;
  const fits = (parent: typeof $to.parent, index: number) => parent.canReplaceWith(index, index, type);
  let at: number | null = !$to.parent.isTextblock && fits($to.parent, $to.index()) ? $to.pos : null;
  for (let depth = $to.depth; at === null && depth >= 1; depth--) {
    if (fits($to.node(depth - 1), $to.indexAfter(depth - 1))) at = $to.after(depth);
  }
  editor.chain().focus().insertContentAt(at ?? editor.state.doc.content.size, content).run();
}

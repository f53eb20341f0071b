// The HTML mode of the body editor: CodeMirror 6 with HTML highlighting, tag completion and the
// completion of `{{variables}}` (the project's contact fields and the variables every send has).
// Its own chunk: only the pages that edit a body load it (BodyEditor imports it lazily).
import { autocompletion, closeBrackets, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { codeHighlight } from './codeHighlight';

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** The accessible name of the editing area. */
  label: string;
  variables: string[];
}

/** What the cursor is after when a variable is being typed: `{{` or `{{{` (raw), spaces, part of a name. */
const OPENING = /\{\{\{?\s*[\w.-]*$/;

/** Completes the name after `{{` and closes the braces unless they are there already. */
export function variableCompletions(variables: readonly string[]) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const typed = ctx.matchBefore(OPENING);
    if (!typed) return null;
    const opening = /^\{\{\{?\s*/.exec(typed.text)![0];
    const closing = opening.startsWith('{{{') ? '}}}' : '}}';
    const closed = ctx.state.sliceDoc(ctx.pos, ctx.pos + closing.length) === closing;
    return {
      from: typed.from + opening.length,
      options: variables.map((name) => ({ label: name, type: 'variable', apply: closed ? name : name + closing })),
      validFor: /^[\w.-]*$/,
    };
  };
}

/** The variables' completion as language data; one source object per list (the completer tells its sources apart by identity). */
function variableData(variables: readonly string[]) {
  const data = [{ autocomplete: variableCompletions(variables) }];
  return EditorState.languageData.of(() => data);
}

export function HtmlCodeEditor({ value, onChange, label, variables }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const completions = useRef(new Compartment());
  // the latest callback, read by the listener made once with the view
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          // Tab is left to the browser: the keyboard can always leave the editor
          keymap.of([...defaultKeymap, ...historyKeymap]),
          html(),
          syntaxHighlighting(codeHighlight),
          bracketMatching(),
          closeBrackets(),
          completions.current.of(variableData(variables)),
          autocompletion(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // made once per label; value and variables follow through the effects below
  }, [label]);

  // a value set from outside (a template applied): the editor shows it
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: completions.current.reconfigure(variableData(variables)) });
  }, [variables]);

  return <div ref={host} className="code-editor" />;
}

// Adding a field to the contact being edited: a name, a type and a value, checked here (a taken or
// reserved name, a value that is not of its type) and said on the input that is wrong. The field
// joins the form's list; the contact changes when the form is saved.
import { useId, useState, type KeyboardEvent } from 'react';
import { Icon } from '../../ui/icons';
import { CONTROLS, keyProblem, newDraft, valueOf, type Control, type Draft } from './draft';
import { FieldControl } from './FieldControl';

export function AddField({ taken, onAdd }: { taken: string[]; onAdd(draft: Draft): void }) {
  const id = useId();
  const [key, setKey] = useState('');
  const [control, setControl] = useState<Control>('text');
  const [text, setText] = useState('');
  const [checked, setChecked] = useState(false);
  const [problems, setProblems] = useState<{ key?: string; value?: string }>({});
  const add = () => {
    const draft = { ...newDraft(key, control), text, checked };
    const value = valueOf(draft);
    const found = { key: keyProblem(key, taken) ?? undefined, value: 'problem' in value ? value.problem : undefined };
    setProblems(found);
    if (found.key || found.value) return;
    onAdd(draft);
    setKey('');
    setText('');
    setChecked(false);
  };
  // Enter adds the field rather than saving the whole form
  const enterAdds = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
      e.preventDefault();
      add();
    }
  };
  const problem = (name: 'key' | 'value') =>
    problems[name] && (
      <p id={`${id}-${name}-problem`} className="error">
        {problems[name]}
      </p>
    );
  return (
    <fieldset className="add-field" onKeyDown={enterAdds}>
      <legend>Add a field</legend>
      <div className="add-field-inputs">
        <div className="field">
          <label htmlFor={`${id}-key`}>Name</label>
          <input id={`${id}-key`} value={key} aria-invalid={!!problems.key || undefined} aria-describedby={problems.key ? `${id}-key-problem` : undefined} onChange={(e) => setKey(e.target.value)} />
          {problem('key')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select id={`${id}-type`} value={control} onChange={(e) => setControl(e.target.value as Control)}>
            {CONTROLS.map((c) => (
              <option key={c.control} value={c.control}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>Value</label>
          <FieldControl
            id={`${id}-value`}
            control={control}
            text={text}
            checked={checked}
            describedBy={problems.value ? `${id}-value-problem` : ''}
            invalid={!!problems.value}
            onText={setText}
            onChecked={setChecked}
          />
          {problem('value')}
        </div>
        <button type="button" className="secondary" onClick={add}>
          <Icon name="plus" size={16} /> Add field
        </button>
      </div>
    </fieldset>
  );
}

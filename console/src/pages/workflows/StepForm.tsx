// The form of the chosen step: its name, its config by type (the fields the API takes, checked as it
// checks them, each with its error), and where it leads: a "Next step" choice per branch, the
// keyboard's way to connect what the canvas connects by dragging.
import { useQuery } from '@tanstack/react-query';
import filterSchema from '../../../../schema/filter.json';
import stepConfigSchema from '../../../../schema/workflow-step-config.json';
import { api } from '../../api';
import { useSession } from '../../session';
import type { TemplatePage } from '../Templates';
import { operatorText, type FieldType, type Operator } from '../../ui/filterModel';
import { branchesOf, TYPE_LABELS, workflowsKey, type AddableStepType } from '../Workflows';
import type { Draft, DraftStep } from './draft';
import { CodedField, Field, headersCodec, jsonCodec, SelectField, TextField } from './fields';
import type { FieldErrors } from './schema-check';
import { WebhookPanel } from './WebhookPanel';

type Config = Record<string, unknown>;

export interface StepFormProps {
  workflowId: string;
  draft: Draft;
  step: DraftStep;
  errors: FieldErrors;
  /** Structure edits (connections, removal) are off while the workflow is enabled. */
  locked: boolean;
  onName(name: string): void;
  onConfig(config: Config): void;
  onTrigger(change: { eventName?: string; allowReentry?: boolean }): void;
  onNext(branch: string | null, to: string | null): void;
  onRemove(): void;
  /** A field whose text does not read (JSON, headers): the step cannot be saved until it does. */
  onProblem(path: string, message: string | null): void;
  /** What the API said of the fields (a test request's 422). */
  onApiErrors(errors: FieldErrors): void;
}

const enumOf = (values: readonly unknown[]) => values.map((v) => [String(v), String(v)] as const);
const defs = stepConfigSchema.$defs;
const OPERATORS = filterSchema.properties.operator.enum as Operator[];

type KnownFields = { fields: { field: string; type: string; kind: string }[] };
/** The contact fields and event names a workflow can test or start on (GET /workflows/fields). */
function useKnownFields() {
  const { project } = useSession();
  return useQuery({ queryKey: [...workflowsKey(project?.id), 'fields'], queryFn: () => api<KnownFields>('GET', '/workflows/fields') });
}
/** Operators that test no value. */
const NO_VALUE = new Set(['exists', 'notExists', 'triggered', 'notTriggered', 'memberOfSegment', 'notMemberOfSegment']);
const WITH_UNIT = new Set(['within', 'olderThan', 'triggeredWithin', 'triggeredOlderThan', 'notTriggeredWithin']);

const BRANCH_LABELS: Record<string, string> = { '': 'Next step', yes: 'Next step if yes', no: 'Next step if no', event: 'Next step when the event comes', timeout: 'Next step when the wait times out' };

/** A config field's value as text ('' when unset). */
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
/** Without the key when empty: the API reads a missing optional field as "none". */
const withValue = (config: Config, key: string, value: unknown): Config => {
  const { [key]: _gone, ...rest } = config;
  return value === undefined || value === '' ? rest : { ...rest, [key]: value };
};

function NextSteps({ draft, step, locked, onNext }: Pick<StepFormProps, 'draft' | 'step' | 'locked' | 'onNext'>) {
  const targets = draft.steps.filter((s) => s.type !== 'TRIGGER' && s.key !== step.key);
  return (
    <>
      {branchesOf(step.type).map((branch) => {
        const current = draft.edges.find((e) => e.from === step.key && e.branch === branch)?.to ?? '';
        return (
          <Field key={branch ?? ''} label={BRANCH_LABELS[branch ?? '']!} path={`next.${branch ?? ''}`} errors={{}}>
            {(aria) => (
              <select value={current} disabled={locked} onChange={(e) => onNext(branch, e.target.value || null)} {...aria}>
                <option value="">None: the execution ends here</option>
                {targets.map((t) => (
                  <option key={t.key} value={t.key}>
                    {t.name} ({TYPE_LABELS[t.type]})
                  </option>
                ))}
              </select>
            )}
          </Field>
        );
      })}
    </>
  );
}

function SendEmailFields({ config, errors, onConfig }: { config: Config; errors: FieldErrors; onConfig(c: Config): void }) {
  const { project } = useSession();
  const templates = useQuery({ queryKey: ['templates', project?.id, 'choices'], queryFn: () => api<TemplatePage>('GET', '/templates?pageSize=100&sort=name&dir=asc') });
  const recipient = (config.recipient as { type?: string; customEmail?: string } | undefined) ?? { type: 'CONTACT' };
  return (
    <>
      <SelectField
        label="Template"
        path="config.templateId"
        errors={errors}
        value={text(config.templateId)}
        options={[['', templates.isPending ? 'Loading templates…' : 'Choose a template'], ...(templates.data?.data ?? []).map((t) => [t.id, `${t.name} (${t.type})`] as const)]}
        onChange={(v) => onConfig(withValue(config, 'templateId', v))}
      />
      <SelectField
        label="Send to"
        path="config.recipient.type"
        errors={errors}
        value={recipient.type ?? 'CONTACT'}
        options={[
          ['CONTACT', 'The contact'],
          ['CUSTOM', 'Another address'],
        ]}
        onChange={(v) => onConfig(withValue(config, 'recipient', v === 'CONTACT' ? undefined : { type: 'CUSTOM', customEmail: recipient.customEmail ?? '' }))}
      />
      {recipient.type === 'CUSTOM' && (
        <TextField label="Address" path="config.recipient.customEmail" errors={errors} value={text(recipient.customEmail)} hint="An address, or a placeholder such as {{data.manager}}" onChange={(v) => onConfig({ ...config, recipient: { type: 'CUSTOM', customEmail: v } })} />
      )}
    </>
  );
}

function ConditionFields({ config, errors, onConfig }: { config: Config; errors: FieldErrors; onConfig(c: Config): void }) {
  const fields = useKnownFields();
  const operator = text(config.operator) || 'equals';
  const fieldType = fields.data?.fields.find((f) => f.field === config.field)?.type;
  // the value as the field's inferred type, so `plan equals pro` and `seats greaterThan 3` both read
  const typed = (v: string): unknown => (v === '' ? undefined : fieldType === 'number' && Number.isFinite(Number(v)) ? Number(v) : fieldType === 'boolean' && (v === 'true' || v === 'false') ? v === 'true' : v);
  return (
    <>
      <TextField label="Field" path="config.field" errors={errors} value={text(config.field)} list="workflow-fields" hint="A contact field (email, subscribed, data.plan…) or, for the triggered operators, an event name" onChange={(v) => onConfig(withValue(config, 'field', v))} />
      <datalist id="workflow-fields">
        {fields.data?.fields.map((f) => (
          <option key={`${f.kind}:${f.field}`} value={f.field}>
            {f.kind === 'event' ? 'event' : f.type}
          </option>
        ))}
      </datalist>
      <SelectField label="Operator" path="config.operator" errors={errors} value={operator} options={OPERATORS.map((op) => [op, operatorText(op, (fieldType ?? 'unknown') as FieldType)] as const)} onChange={(v) => onConfig({ ...withValue(config, 'value', NO_VALUE.has(v) ? undefined : config.value), operator: v })} />
      {!NO_VALUE.has(operator) && <TextField label="Value" path="config.value" errors={errors} value={text(config.value)} onChange={(v) => onConfig(withValue(config, 'value', typed(v)))} />}
      {(WITH_UNIT.has(operator) || config.unit !== undefined) && (
        <SelectField label="Unit" path="config.unit" errors={errors} value={text(config.unit)} options={[['', 'None'], ...enumOf(filterSchema.properties.unit.enum)]} onChange={(v) => onConfig(withValue(config, 'unit', v))} />
      )}
      <p className="hint">Contacts for whom this holds take the yes branch, the others the no branch.</p>
    </>
  );
}

function ConfigFields({ workflowId, step, errors, onConfig, onProblem, onApiErrors }: Pick<StepFormProps, 'workflowId' | 'step' | 'errors' | 'onConfig' | 'onProblem' | 'onApiErrors'>) {
  const config = step.config;
  const set = (key: string, value: unknown) => onConfig(withValue(config, key, value));
  const number = (v: string) => (v.trim() === '' ? undefined : Number(v));
  switch (step.type as AddableStepType) {
    case 'SEND_EMAIL':
      return <SendEmailFields config={config} errors={errors} onConfig={onConfig} />;
    case 'DELAY':
      return (
        <div className="row">
          <TextField label="Wait for" type="number" path="config.amount" errors={errors} value={text(config.amount)} onChange={(v) => set('amount', number(v))} />
          <SelectField label="Unit" path="config.unit" errors={errors} value={text(config.unit) || 'hours'} options={enumOf(defs.DELAY.properties.unit.enum)} onChange={(v) => set('unit', v)} />
        </div>
      );
    case 'WAIT_FOR_EVENT':
      return (
        <>
          <TextField label="Event name" path="config.eventName" errors={errors} value={text(config.eventName)} onChange={(v) => set('eventName', v)} />
          <TextField label="Timeout in seconds" type="number" path="config.timeout" errors={errors} value={text(config.timeout)} hint="Empty: wait for ever" onChange={(v) => set('timeout', number(v))} />
        </>
      );
    case 'CONDITION':
      return <ConditionFields config={config} errors={errors} onConfig={onConfig} />;
    case 'WEBHOOK':
      return (
        <>
          <TextField label="URL" path="config.url" errors={errors} value={text(config.url)} hint="Placeholders may stand in the path, query or fragment: https://example.com/hooks/{{data.id}}. A listener on this machine or a private network is refused unless the daemon's configuration sets webhooks.allowPrivate (POSTMILL_WEBHOOKS_ALLOW_PRIVATE=true)" onChange={(v) => set('url', v)} />
          <SelectField label="Method" path="config.method" errors={errors} value={text(config.method) || 'POST'} options={enumOf(defs.WEBHOOK.properties.method.enum)} onChange={(v) => set('method', v)} />
          <CodedField label="Headers" path="config.headers" errors={errors} value={config.headers as Record<string, string> | undefined} {...headersCodec} hint="One per line, Name: value" onValue={(v) => set('headers', v)} onProblem={(m) => onProblem('config.headers', m)} rows={3} />
          <CodedField label="Body (JSON)" path="config.body" errors={errors} value={config.body} {...jsonCodec} hint="Empty: the default payload (contact, workflow, execution, event)" onValue={(v) => set('body', v)} onProblem={(m) => onProblem('config.body', m)} />
          <WebhookPanel workflowId={workflowId} config={config} onApiErrors={onApiErrors} />
        </>
      );
    case 'UPDATE_CONTACT':
      return (
        <>
          <CodedField label="Data updates (JSON)" path="config.updates" errors={errors} value={config.updates} {...jsonCodec} hint='{"plan": "pro", "trial": null} sets plan and deletes trial' onValue={(v) => set('updates', v)} onProblem={(m) => onProblem('config.updates', m)} />
          <SelectField label="Subscription" path="config.subscriptionAction" errors={errors} value={text(config.subscriptionAction) || 'none'} options={enumOf(defs.UPDATE_CONTACT.properties.subscriptionAction.enum)} onChange={(v) => set('subscriptionAction', v)} />
        </>
      );
    case 'EXIT':
      return <TextField label="Reason" path="config.reason" errors={errors} value={text(config.reason)} onChange={(v) => set('reason', v)} />;
  }
}

/** The event names seen in the project, offered for the trigger (any other name may still be typed). */
function TriggerEvents() {
  const fields = useKnownFields();
  return (
    <datalist id="workflow-trigger-events">
      {fields.data?.fields
        .filter((f) => f.kind === 'event')
        .map((f) => (
          <option key={f.field} value={f.field} />
        ))}
    </datalist>
  );
}

export function StepForm(props: StepFormProps) {
  const { draft, step, errors, locked } = props;
  return (
    <form aria-label={`Step: ${step.name}`} onSubmit={(e) => e.preventDefault()}>
      <h2>
        {TYPE_LABELS[step.type]}: {step.name}
      </h2>
      {step.type === 'TRIGGER' ? (
        <>
          <TextField label="Event name" path="triggerConfig.eventName" errors={errors} value={draft.eventName} list="workflow-trigger-events" hint="The event that starts an execution: a tracked event (the list offers those seen so far), email.*, contact.* or segment.<slug>.entry" onChange={(v) => props.onTrigger({ eventName: v })} />
          <TriggerEvents />
          <label className="check">
            <input type="checkbox" checked={draft.allowReentry} onChange={(e) => props.onTrigger({ allowReentry: e.target.checked })} />
            Let a contact enter again after its execution ended
          </label>
        </>
      ) : (
        <>
          <TextField label="Step name" path="name" errors={errors} value={step.name} onChange={props.onName} />
          <ConfigFields {...props} />
        </>
      )}
      <NextSteps draft={draft} step={step} locked={locked} onNext={props.onNext} />
      {step.type !== 'TRIGGER' && (
        <div className="actions">
          <button type="button" className="quiet" disabled={locked} onClick={props.onRemove}>
            Remove step
          </button>
        </div>
      )}
    </form>
  );
}

/** The config a new step of `type` starts with: what its form shows first. */
export function initialConfig(type: AddableStepType): Config {
  if (type === 'DELAY') return { amount: 1, unit: 'hours' };
  if (type === 'CONDITION') return { field: '', operator: 'equals' };
  if (type === 'WEBHOOK') return { url: '' };
  if (type === 'WAIT_FOR_EVENT') return { eventName: '' };
  return {};
}

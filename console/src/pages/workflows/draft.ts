// The canvas edits a draft of the workflow: its trigger settings, steps and transitions, with keys
// (a saved step's key is its id; a new one's is made here). Save maps the draft onto the API's own
// routes, in an order each call can succeed in: the workflow's settings, removed transitions, removed
// steps, new steps, changed steps, new transitions. It stops at the first refusal and answers the
// draft as far as it got (new steps know their ids), so saving again goes on from there.
import { api, ApiFailure } from '../../api';
import { branchesOf, type AddableStepType, type Step, type StepType, type Workflow } from '../Workflows';

export interface DraftStep {
  key: string;
  /** The saved step's id; null until saved. */
  id: string | null;
  type: StepType;
  name: string;
  position: { x: number; y: number };
  config: Record<string, unknown>;
}

export interface DraftEdge {
  key: string;
  id: string | null;
  from: string;
  to: string;
  branch: string | null;
}

export interface Draft {
  eventName: string;
  allowReentry: boolean;
  steps: DraftStep[];
  edges: DraftEdge[];
}

export function draftOf(w: Workflow): Draft {
  return {
    eventName: w.triggerConfig.eventName ?? '',
    allowReentry: w.allowReentry,
    steps: w.steps.map((s) => ({ key: s.id, id: s.id, type: s.type, name: s.name, position: s.position, config: s.config })),
    edges: w.transitions.map((t) => ({ key: t.id, id: t.id, from: t.fromStepId, to: t.toStepId, branch: t.condition?.branch ?? null })),
  };
}

let made = 0;
const newKey = (what: string) => `new-${what}-${++made}`;

/**
 * A new step of `type` with the config its form starts from. After `after` (the chosen step) it is
 * placed below that step, beside it for a second branch, and connected from the first of its
 * branches that leads nowhere yet; otherwise it goes below the lowest step, unconnected.
 */
export function addStep(draft: Draft, type: AddableStepType, config: Record<string, unknown>, name: string, after: string | null = null): { draft: Draft; key: string } {
  const from = draft.steps.find((s) => s.key === after);
  const branches = from ? branchesOf(from.type) : [];
  const freeIndex = branches.findIndex((b) => !draft.edges.some((e) => e.from === from!.key && e.branch === b));
  const lowest = draft.steps.reduce((y, s) => Math.max(y, s.position.y), 0);
  const position = from && freeIndex >= 0 ? { x: from.position.x + freeIndex * 240, y: from.position.y + 140 } : { x: 0, y: lowest + 140 };
  const step: DraftStep = { key: newKey('step'), id: null, type, name, position, config };
  const added = { ...draft, steps: [...draft.steps, step] };
  return { draft: from && freeIndex >= 0 ? setNext(added, from.key, branches[freeIndex]!, step.key) : added, key: step.key };
}

export const changeStep = (draft: Draft, key: string, change: Partial<Pick<DraftStep, 'name' | 'position' | 'config'>>): Draft => ({
  ...draft,
  steps: draft.steps.map((s) => (s.key === key ? { ...s, ...change } : s)),
});

/** The step goes with its transitions; the trigger stays. */
export function removeStep(draft: Draft, key: string): Draft {
  if (draft.steps.find((s) => s.key === key)?.type === 'TRIGGER') return draft;
  return { ...draft, steps: draft.steps.filter((s) => s.key !== key), edges: draft.edges.filter((e) => e.from !== key && e.to !== key) };
}

/** Why `from` cannot lead to `to` on `branch`, as the API would refuse it; null when it can. */
export function connectionProblem(draft: Draft, from: string, to: string, branch: string | null): string | null {
  const source = draft.steps.find((s) => s.key === from);
  const target = draft.steps.find((s) => s.key === to);
  if (!source || !target) return 'No such step';
  if (from === to) return 'A step cannot lead to itself';
  if (target.type === 'TRIGGER') return 'Nothing leads to the trigger';
  if (!branchesOf(source.type).includes(branch)) return `A ${source.type} step has no ${branch ?? 'plain'} transition`;
  return null;
}

/** The step's transition on `branch` now leads to `to` (none: removed); one per branch, as the API keeps it. */
export function setNext(draft: Draft, from: string, branch: string | null, to: string | null): Draft {
  const others = draft.edges.filter((e) => !(e.from === from && e.branch === branch));
  const existing = draft.edges.find((e) => e.from === from && e.branch === branch);
  if (to === null) return { ...draft, edges: others };
  if (existing?.to === to) return draft;
  return { ...draft, edges: [...others, { key: newKey('edge'), id: null, from, to, branch }] };
}

export const removeEdge = (draft: Draft, key: string): Draft => ({ ...draft, edges: draft.edges.filter((e) => e.key !== key) });

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the draft differs from the saved workflow. */
export function hasChanges(saved: Workflow, draft: Draft): boolean {
  return !same(draftOf(saved), draft);
}

/** A refusal while saving: which step (if a step's call) and the API's failure, with its field errors. */
export class SaveFailure extends Error {
  constructor(
    readonly stepKey: string | null,
    readonly failure: ApiFailure | Error,
    /** The draft as far as the save got. */
    readonly draft: Draft,
  ) {
    super(failure.message);
  }
}

/** Saves the draft through the API's routes; answers the draft with every step's id, or throws a SaveFailure. */
export async function saveDraft(saved: Workflow, start: Draft): Promise<Draft> {
  let draft = start;
  let stepKey: string | null = null;
  const path = `/workflows/${saved.id}`;
  try {
    if (draft.eventName !== (saved.triggerConfig.eventName ?? '') || draft.allowReentry !== saved.allowReentry) {
      await api('PATCH', path, { triggerConfig: { eventName: draft.eventName }, allowReentry: draft.allowReentry });
    }
    const keptEdges = new Set(draft.edges.map((e) => e.id));
    for (const t of saved.transitions) if (!keptEdges.has(t.id)) await api('DELETE', `${path}/transitions/${t.id}`);
    const keptSteps = new Set(draft.steps.map((s) => s.id));
    for (const s of saved.steps) if (!keptSteps.has(s.id)) await api('DELETE', `${path}/steps/${s.id}`);

    const savedSteps = new Map(saved.steps.map((s) => [s.id, s]));
    for (const step of draft.steps) {
      stepKey = step.key;
      if (step.id === null) {
        const created = await api<Step>('POST', `${path}/steps`, { type: step.type, name: step.name, position: step.position, config: step.config });
        draft = { ...draft, steps: draft.steps.map((s) => (s.key === step.key ? { ...s, id: created.id } : s)) };
        continue;
      }
      const before = savedSteps.get(step.id)!;
      const patch: Record<string, unknown> = {};
      if (step.name !== before.name) patch.name = step.name;
      if (!same(step.position, before.position)) patch.position = step.position;
      if (step.type !== 'TRIGGER' && !same(step.config, before.config)) patch.config = step.config;
      if (Object.keys(patch).length > 0) await api('PATCH', `${path}/steps/${step.id}`, patch);
    }
    stepKey = null;

    const idOf = new Map(draft.steps.map((s) => [s.key, s.id!]));
    for (const edge of draft.edges) {
      if (edge.id !== null) continue;
      stepKey = edge.from;
      const created = await api<{ id: string }>('POST', `${path}/transitions`, {
        fromStepId: idOf.get(edge.from),
        toStepId: idOf.get(edge.to),
        ...(edge.branch ? { condition: { branch: edge.branch } } : {}),
      });
      draft = { ...draft, edges: draft.edges.map((e) => (e.key === edge.key ? { ...e, id: created.id } : e)) };
    }
    return draft;
  } catch (err) {
    throw new SaveFailure(stepKey, err instanceof Error ? err : new Error(String(err)), draft);
  }
}

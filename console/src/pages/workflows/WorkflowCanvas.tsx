// The canvas (React Flow): a node per step with its live counts, an edge per transition labelled
// with its branch. Nodes are dragged to place them and connected by dragging from a step's output
// (one per branch) to another step's input; Delete removes what is selected. Every change goes to
// the draft; the connection rules are the API's (draft.connectionProblem).
import {
  applyNodeChanges,
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type NodeProps,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useState } from 'react';
import { branchesOf, TYPE_LABELS, type StepCount } from '../Workflows';
import { connectionProblem, removeEdge, removeStep, setNext, changeStep, type Draft, type DraftStep } from './draft';

interface StepNodeData extends Record<string, unknown> {
  step: DraftStep;
  count: StepCount | undefined;
  chosen: boolean;
  invalid: boolean;
  /** The trigger's event, shown on its node. */
  eventName: string;
  open(): void;
}
type StepNode = Node<StepNodeData, 'step'>;

const NEXT = 'next';
const branchOfHandle = (handle: string | null | undefined) => (!handle || handle === NEXT ? null : handle);

/** A saved step without counts is waiting for them (or they failed, which the page says): it is not "not saved". */
const countText = (step: DraftStep, count: StepCount | undefined) =>
  count ? `${count.now} here now · ${count.passed} passed${count.failed > 0 ? ` · ${count.failed} failed` : ''}` : step.id ? 'counts not known yet' : 'not saved yet';

function StepNodeView({ data }: NodeProps<StepNode>) {
  const { step, count } = data;
  const branches = branchesOf(step.type);
  return (
    <div role="group" aria-label={`Step ${step.name}`} className={`step-node${data.chosen ? ' chosen' : ''}${data.invalid ? ' invalid' : ''}`}>
      {/* a handle is a point to drag (or click) with a pointer, drawn on the canvas: an image named for
          what it connects; keyboards connect steps with the step form's "Next step" choices */}
      {step.type !== 'TRIGGER' && <Handle type="target" position={Position.Top} role="img" aria-label={`Connect to ${step.name}`} />}
      <span className="type">{TYPE_LABELS[step.type]}</span>
      <button type="button" className="nodrag name" aria-pressed={data.chosen} onClick={data.open}>
        {step.name}
      </button>
      {step.type === 'TRIGGER' && <span className="event">{data.eventName ? `When ${data.eventName} happens` : 'No event chosen yet'}</span>}
      <span className="counts">{countText(step, count)}</span>
      {branches.map((branch, i) => (
        <Handle
          key={branch ?? NEXT}
          id={branch ?? NEXT}
          type="source"
          position={Position.Bottom}
          style={{ left: `${((i + 1) * 100) / (branches.length + 1)}%` }}
          role="img"
          aria-label={`Connect from ${step.name}${branch ? ` (${branch})` : ''}`}
        >
          {branch && <span className="branch">{branch}</span>}
        </Handle>
      ))}
    </div>
  );
}

const NODE_TYPES = { step: StepNodeView };

/** A step added or removed: the view fits the steps again, so a new one is never out of sight. */
function FitOnChange({ count }: { count: number }) {
  const flow = useReactFlow();
  useEffect(() => {
    void flow.fitView({ maxZoom: 1 });
  }, [count, flow]);
  return null;
}

export interface CanvasProps {
  draft: Draft;
  counts: Map<string, StepCount>;
  chosen: string | null;
  /** Steps whose forms have errors. */
  invalid: Set<string>;
  locked: boolean;
  onChoose(key: string | null): void;
  onDraft(change: (d: Draft) => Draft): void;
  onRefused(reason: string): void;
}

export function WorkflowCanvas({ draft, counts, chosen, invalid, locked, onChoose, onDraft, onRefused }: CanvasProps) {
  // React Flow keeps what it measured on its nodes: they live here, their steps in the draft
  const [nodes, setNodes] = useState<StepNode[]>([]);
  const [chosenEdges, setChosenEdges] = useState<Set<string>>(new Set());
  useEffect(() => {
    setNodes((previous) =>
      draft.steps.map((step) => {
        const old = previous.find((n) => n.id === step.key);
        const data: StepNodeData = { step, count: step.id ? counts.get(step.id) : undefined, chosen: chosen === step.key, invalid: invalid.has(step.key), eventName: draft.eventName, open: () => onChoose(step.key) };
        return { ...old, id: step.key, type: 'step', position: old?.dragging ? old.position : step.position, data, deletable: !locked && step.type !== 'TRIGGER', ariaLabel: `${TYPE_LABELS[step.type]} step ${step.name}` };
      }),
    );
  }, [draft.steps, draft.eventName, counts, chosen, invalid, locked, onChoose]);

  const edges = useMemo<Edge[]>(
    () =>
      draft.edges.map((e) => ({
        id: e.key,
        source: e.from,
        target: e.to,
        sourceHandle: e.branch ?? NEXT,
        selected: chosenEdges.has(e.key),
        deletable: !locked,
        // above the nodes: an edge that crosses a step (a "no" branch going past its sibling) stays in sight
        zIndex: 1,
        ...(e.branch ? { label: e.branch } : {}),
        ariaLabel: `From ${draft.steps.find((s) => s.key === e.from)?.name ?? ''}${e.branch ? ` (${e.branch})` : ''} to ${draft.steps.find((s) => s.key === e.to)?.name ?? ''}`,
      })),
    [draft.edges, draft.steps, chosenEdges, locked],
  );

  const onNodesChange = (changes: NodeChange<StepNode>[]) => {
    setNodes((ns) => applyNodeChanges(changes, ns));
    for (const change of changes) {
      if (change.type === 'position' && change.dragging === false && change.position) {
        const position = { x: Math.round(change.position.x), y: Math.round(change.position.y) };
        onDraft((d) => changeStep(d, change.id, { position }));
      }
      if (change.type === 'remove') onDraft((d) => removeStep(d, change.id));
      if (change.type === 'select' && change.selected) onChoose(change.id);
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const change of changes) {
      if (change.type === 'remove') onDraft((d) => removeEdge(d, change.id));
      if (change.type === 'select') {
        setChosenEdges((s) => {
          const next = new Set(s);
          if (change.selected) next.add(change.id);
          else next.delete(change.id);
          return next;
        });
      }
    }
  };
  const onConnect = ({ source, target, sourceHandle }: Connection) => {
    const branch = branchOfHandle(sourceHandle);
    const problem = connectionProblem(draft, source, target, branch);
    if (problem) onRefused(problem);
    else onDraft((d) => setNext(d, source, branch, target));
  };

  return (
    <div className="canvas">
      <ReactFlow<StepNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        isValidConnection={(c) => connectionProblem(draft, c.source, c.target, branchOfHandle(c.sourceHandle)) === null}
        nodesConnectable={!locked}
        deleteKeyCode={locked ? null : ['Backspace', 'Delete']}
        onPaneClick={() => onChoose(null)}
      >
        <Background />
        <FitOnChange count={nodes.length} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

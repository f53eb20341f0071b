import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The house keeps its floors: the top folders of src/ (and its top files) import one another
// without a circle, so each stands above everything it uses (docs/architecture.md, "The layers").

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: its top folder under src/, or the file itself. */
const roomOf = (file: string) => relative(SRC, file).split('/')[0]!;

function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files(SRC)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), spec!)).replace(/\.js$/, '.ts');
      if (!target.startsWith(SRC)) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** One circle of rooms if there is any, as the imports that close it. */
function circleOf(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): string[] | null => {
    state.set(room, 'open');
    path.push(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        return loop.slice(1).map((to, i) => graph.get(loop[i]!)!.get(to)!);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(room, 'done');
    return null;
  };
  for (const room of graph.keys()) {
    if (state.has(room)) continue;
    const found = visit(room);
    if (found) return found;
  }
  return null;
}

test('the top folders of src/ import one another without a circle', () => {
  const graph = roomGraph();
  assert.ok(graph.size > 20, `read ${graph.size} rooms`);
  const circle = circleOf(graph);
  assert.is(circle, null, `a circle of imports between folders: ${circle?.join('; ')}`);
});

test.run();

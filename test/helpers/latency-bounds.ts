// Finds wall-clock latency bounds in a test's source: a time measured with Date.now() or
// performance.now() (a clock reading minus an earlier reading) compared with a constant. On a
// loaded machine such a bound fails while the daemon is right: a functional test asserts an order
// or which thread served what, and the figure belongs to a benchmark (test/bench).
import ts from 'typescript';

export interface LatencyBound {
  line: number;
  text: string;
}

const COMPARISONS = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);
const SCALING = new Set([ts.SyntaxKind.SlashToken, ts.SyntaxKind.AsteriskToken]);

const unwrap = (node: ts.Node): ts.Node => (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node) ? unwrap(node.expression) : node);

/** `Date.now()` or `performance.now()`. */
function isClockReading(node: ts.Node): boolean {
  const n = unwrap(node);
  return ts.isCallExpression(n) && n.arguments.length === 0 && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'now' && ['Date', 'performance'].includes(n.expression.expression.getText());
}

/** The name a value is kept under: a variable, an assigned name, or an object literal's property. */
function keptAs(node: ts.Node): string | null {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(parent.left)) return parent.left.text;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name.getText();
  // `list.push(elapsed)`: the list holds times
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression) && ts.isPropertyAccessExpression(parent.expression) && parent.expression.name.text === 'push') {
    return parent.expression.expression.getText();
  }
  return null;
}

function everyNode(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => everyNode(child, visit));
}

/** Every latency bound in `source` (a test file's text), with its line. */
export function latencyBounds(fileName: string, source: string): LatencyBound[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const nodes: ts.Node[] = [];
  everyNode(file, (n) => nodes.push(n));
  /** Names holding a clock reading (a start), and names holding a time measured from one. */
  const readings = new Set(nodes.filter(isClockReading).map(keptAs).filter((n): n is string => n !== null));
  const measured = new Set<string>();

  const isReading = (node: ts.Node) => isClockReading(node) || (ts.isIdentifier(unwrap(node)) && readings.has((unwrap(node) as ts.Identifier).text));
  const nameOf = (n: ts.Node) => (ts.isIdentifier(n) ? n.text : ts.isPropertyAccessExpression(n) ? n.name.text : null);
  function isElapsed(node: ts.Node): boolean {
    const n = unwrap(node);
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      if (op === ts.SyntaxKind.MinusToken) return (isClockReading(n.left) && isReading(n.right)) || isElapsed(n.left);
      if (SCALING.has(op)) return isElapsed(n.left) || isElapsed(n.right);
      return false;
    }
    const name = nameOf(n);
    if (name !== null) return measured.has(name);
    if (ts.isSpreadElement(n)) return isElapsed(n.expression);
    // Math.round(ms), Math.max(...times), Number(x.toFixed())
    if (ts.isCallExpression(n) && n.expression.getText().startsWith('Math.')) return n.arguments.some(isElapsed);
    return false;
  }
  // names take measured times from one another: repeat until nothing more is learnt
  for (let learnt = true; learnt; ) {
    learnt = false;
    for (const node of nodes) {
      if (!isElapsed(node)) continue;
      const name = keptAs(node);
      if (name !== null && !measured.has(name)) {
        measured.add(name);
        learnt = true;
      }
    }
  }

  const constants = new Set(
    nodes.filter((n): n is ts.VariableDeclaration => ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && !!n.initializer && ts.isNumericLiteral(unwrap(n.initializer))).map((n) => (n.name as ts.Identifier).text),
  );
  function isConstant(node: ts.Node): boolean {
    const n = unwrap(node);
    if (ts.isNumericLiteral(n)) return true;
    if (ts.isIdentifier(n)) return constants.has(n.text) || /^[A-Z][A-Z0-9_]*$/.test(n.text);
    if (ts.isPrefixUnaryExpression(n)) return isConstant(n.operand);
    if (ts.isBinaryExpression(n)) return isConstant(n.left) && isConstant(n.right);
    return false;
  }

  return nodes
    .filter((n): n is ts.BinaryExpression => ts.isBinaryExpression(n) && COMPARISONS.has(n.operatorToken.kind))
    .filter((n) => (isElapsed(n.left) && isConstant(n.right)) || (isConstant(n.left) && isElapsed(n.right)))
    .map((n) => ({ line: file.getLineAndCharacterOfPosition(n.getStart()).line + 1, text: n.getText() }));
}

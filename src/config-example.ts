// config/postmill.example.json, written from the schema: every key with its default, and beside it a
// `_key` comment naming its environment variable and what it means.
import { CONFIG_SCHEMA, type ConfigGroup, type ConfigLeaf } from './config-schema.js';
import { isGroup } from './config.js';

const ABOUT =
  'Postmill configuration. Every key is shown with its default; environment variables (named beside each key) win over this file. Keys starting with _ are comments. Unknown keys stop the start.';

function lines(node: ConfigGroup, indent: string): string[] {
  const entries = Object.entries(node.properties);
  return entries.flatMap(([name, child], i) => {
    const last = i === entries.length - 1;
    const comma = last ? '' : ',';
    if (isGroup(child)) {
      const inner = lines(child, `${indent}  `);
      return [`${indent}${JSON.stringify(name)}: {`, ...inner, `${indent}}${comma}`, ...(indent === '  ' && !last ? [''] : [])];
    }
    const leaf = child as ConfigLeaf;
    return [
      `${indent}${JSON.stringify(`_${name}`)}: ${JSON.stringify(`${leaf['x-env']}${leaf.type === 'array' ? ' (comma-separated)' : ''}: ${leaf.description}`)},`,
      `${indent}${JSON.stringify(name)}: ${JSON.stringify(leaf.default)}${comma}`,
      ...(indent === '  ' && !last ? [''] : []),
    ];
  });
}

/** The example file's text. */
export function exampleConfig(): string {
  return ['{', `  "_about": ${JSON.stringify(ABOUT)},`, '', ...lines(CONFIG_SCHEMA, '  '), '}', ''].join('\n');
}

// Placeholder rendering for subjects, HTML bodies and plain strings (webhook URLs, headers, bodies).
// Sources compile once into alternating literals and placeholders; rendering is a join loop.
import { linearReplace } from '../linear-replace.js';
import { memoizedSource } from '../memo.js';

export type Scope = Record<string, unknown>;

interface Placeholder {
  readonly path: readonly string[];
  /** `{{{name}}}`: inserted without HTML escaping. */
  readonly raw: boolean;
  /** Stands in for a missing, null or empty value, and is escaped like one. */
  readonly fallback: string;
}

interface CompiledTemplate {
  /** Always one entry longer than `placeholders`: literal, placeholder, literal, ... literal. */
  readonly literals: readonly string[];
  readonly placeholders: readonly Placeholder[];
}

const PATH = String.raw`[\p{L}\p{N}_$-]+(?:\.[\p{L}\p{N}_$-]+)*`;
// The default stops at the first brace; greedy classes keep matching linear on hostile input.
const EXPRESSION = String.raw`\s*(${PATH})\s*(?:\?\?([^{}]*))?`;
const PLACEHOLDER = new RegExp(String.raw`\{\{\{${EXPRESSION}\}\}\}|\{\{${EXPRESSION}\}\}`, 'gu');

// Own-property lookup already keeps prototypes out; these names are refused outright as well.
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'") && text[text.length - 1] === first) {
    return text.slice(1, -1);
  }
  return text;
}

function compileSource(source: string): CompiledTemplate {
  const literals: string[] = [];
  const placeholders: Placeholder[] = [];
  let position = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    const raw = match[1] !== undefined;
    const path = (raw ? match[1] : match[3]).split('.');
    const fallback = unquote((raw ? match[2] : match[4])?.trim() ?? '');
    literals.push(source.slice(position, match.index));
    // A forbidden path can never resolve: an empty path renders the default alone.
    const safePath = path.some((segment) => FORBIDDEN_SEGMENTS.has(segment)) ? [] : path;
    placeholders.push({ path: safePath, raw, fallback });
    position = match.index + match[0].length;
  }
  literals.push(source.slice(position));
  return { literals, placeholders };
}

/** How many placeholders `source` holds, counted up to `upTo` at most. */
export function countPlaceholders(source: string, upTo: number): number {
  let count = 0;
  for (const _ of source.matchAll(PLACEHOLDER)) if (++count >= upTo) break;
  return count;
}

/** Replaces each placeholder's source text (`{{...}}` or `{{{...}}}`) by what `replace` answers. */
export function replacePlaceholders(source: string, replace: (text: string, raw: boolean) => string): string {
  return source.replace(PLACEHOLDER, (text: string, rawPath: string | undefined) => replace(text, rawPath !== undefined));
}

const compiled = memoizedSource(256, compileSource);

function resolve(scope: Scope, path: readonly string[]): unknown {
  if (path.length === 0) return undefined;
  let current: unknown = scope;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function jsonText(value: object): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // Circular structures or throwing toJSON: rendering never fails.
    return '';
  }
}

function valueText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : jsonText(value);
    default:
      return '';
  }
}

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL_ALL = /[&<>"']/g;
const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? linearReplace(text, HTML_SPECIAL_ALL, (char) => HTML_ENTITIES[char]!) : text;
}

function placeholderText(placeholder: Placeholder, scope: Scope, escape: boolean): string {
  let text = valueText(resolve(scope, placeholder.path));
  if (text === '') text = placeholder.fallback;
  return escape && !placeholder.raw ? escapeHtml(text) : text;
}

function renderCompiled(source: string, scope: Scope, escape: boolean): string {
  const { literals, placeholders } = compiled(source);
  let out = literals[0];
  for (let i = 0; i < placeholders.length; i++) out += placeholderText(placeholders[i], scope, escape) + literals[i + 1];
  return out;
}

/** An HTML template's literals, and for each placeholder between them whether it is raw (`{{{ }}}`, not escaped). */
export function htmlTemplateParts(source: string): { literals: readonly string[]; raw: readonly boolean[] } {
  const { literals, placeholders } = compiled(source);
  return { literals, raw: placeholders.map((p) => p.raw) };
}

/** The placeholders of an HTML template as renderHtml writes them for `scope`, in order. */
export function renderHtmlValues(source: string, scope: Scope): string[] {
  return compiled(source).placeholders.map((placeholder) => placeholderText(placeholder, scope, true));
}

/**
 * A plain template's literals and, between them, each placeholder's value as text, unescaped: for a
 * caller that encodes each value by where it stands (webhook URLs and header values).
 */
export function plainParts(source: string, scope: Scope): { literals: readonly string[]; values: string[] } {
  const { literals, placeholders } = compiled(source);
  return { literals, values: placeholders.map((placeholder) => placeholderText(placeholder, scope, false)) };
}

/** HTML body: values are HTML-escaped except in `{{{triple}}}` braces. */
export function renderHtml(source: string, scope: Scope): string {
  return renderCompiled(source, scope, true);
}

/** Unescaped text with line breaks kept (webhook URLs, header values, bodies). */
export function renderPlain(source: string, scope: Scope): string {
  return renderCompiled(source, scope, false);
}

// Tab survives; every other C0 control goes. Line breaks become one space so no header can be injected.
const CONTROL_CHARS = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;
const LINE_BREAKS = /[\r\n]+/g;

/** Subject line: plain text on a single line whatever the template or the values contain. */
export function renderSubject(source: string, scope: Scope): string {
  return renderCompiled(source, scope, false).replace(CONTROL_CHARS, '').replace(LINE_BREAKS, ' ');
}

/** Distinct dotted variable names a template references, in order of first use. */
export function templateVariables(source: string): string[] {
  const names = new Set<string>();
  for (const { path } of compiled(source).placeholders) {
    if (path.length > 0) names.add(path.join('.'));
  }
  return [...names];
}

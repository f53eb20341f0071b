// RFC 822-style field blocks as report parts carry them (message/delivery-status groups,
// message/feedback-report, returned headers): "Name: value", continuation lines, blank-line
// separated groups.

/** One block of fields, keyed by lowercase name; the first occurrence of a name wins. */
export type Fields = ReadonlyMap<string, string>;

const FIELD_LINE = /^([!-9;-~]+)[ \t]*:(.*)$/;
const BLANK_LINE = /^\s*$/;
// Bounded by the RFC 5321 lengths, which also keeps the scan linear on long runs without an @.
const ADDRESS = /[^\s<>()[\];:,"'@]{1,64}@[^\s<>()[\];:,"'@]{1,255}/g;

/** Every non-empty group of fields in `text`. */
export function parseFieldGroups(text: string): Fields[] {
  const lines = text.split(/\r?\n/);
  const groups: Fields[] = [];
  for (let index = 0; index < lines.length; ) {
    const block = readBlock(lines, index);
    if (block.fields.size > 0) groups.push(block.fields);
    index = block.next;
  }
  return groups;
}

/** The first group of fields in `text`: the header of a returned message. */
export function parseHeaderBlock(text: string): Fields {
  return readBlock(text.split(/\r?\n/), 0).fields;
}

function readBlock(lines: string[], start: number): { fields: Fields; next: number } {
  const fields = new Map<string, string>();
  let index = start;
  while (index < lines.length && BLANK_LINE.test(lines[index])) index++;
  let name: string | null = null;
  let value = '';
  const keep = (): void => {
    if (name !== null && !fields.has(name)) fields.set(name, value.replace(/\s+/g, ' ').trim());
  };
  for (; index < lines.length && !BLANK_LINE.test(lines[index]); index++) {
    const line = lines[index];
    if (line[0] === ' ' || line[0] === '\t') {
      if (name !== null) value += ' ' + line;
      continue;
    }
    keep();
    const match = FIELD_LINE.exec(line);
    name = match ? match[1].toLowerCase() : null;
    value = match ? match[2] : '';
  }
  keep();
  return { fields, next: Math.max(index, start + 1) };
}

/** Every mail address in `text`, in order, without trailing sentence dots. */
export function addressesIn(text: string): string[] {
  return Array.from(text.matchAll(ADDRESS), (match) => match[0].replace(/\.+$/, ''));
}

/** The address of a field such as `Final-Recipient: rfc822; user@example.test`, or null. */
export function addressOfField(value: string | null | undefined): string | null {
  if (!value) return null;
  const typed = /^[\w.-]+\s*;(.*)$/.exec(value);
  return addressesIn(typed ? typed[1] : value)[0] ?? null;
}

/** A Message-ID in its `<id@host>` form, or null when `value` holds none. */
export function messageIdOf(value: string | null | undefined): string | null {
  if (!value) return null;
  const bracketed = /<[^<>\s]+>/.exec(value);
  if (bracketed) return bracketed[0];
  const bare = value.trim();
  return bare !== '' && !/\s/.test(bare) ? `<${bare}>` : null;
}

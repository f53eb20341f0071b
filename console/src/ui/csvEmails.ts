// The email addresses of a CSV file, for adding or removing static segment members: the `email`
// column when the header names one, else the first cell of each row that holds an address.
// Cells may be quoted ("" inside); `,` or `;` separate them, whichever the first line uses.

/** The rows of a CSV text, each a list of cells (blank lines too, so that row numbers are line numbers). */
export function csvRows(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const LOOKS_LIKE_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CsvEmails {
  /** Distinct addresses (case ignored), in file order. */
  emails: string[];
  /** Rows (1 = the first line) with no cell that looks like an address; blank ones are not counted. */
  skipped: number[];
}

export function emailsOfCsv(text: string): CsvEmails {
  const rows = csvRows(text);
  const header = rows[0]?.findIndex((c) => c.trim().toLowerCase() === 'email') ?? -1;
  const seen = new Set<string>();
  const emails: string[] = [];
  const skipped: number[] = [];
  rows.forEach((row, i) => {
    if ((header >= 0 && i === 0) || row.every((c) => c.trim() === '')) return;
    const cell = (header >= 0 ? row[header] : row.find((c) => LOOKS_LIKE_ADDRESS.test(c.trim())))?.trim() ?? '';
    if (!LOOKS_LIKE_ADDRESS.test(cell)) {
      skipped.push(i + 1);
      return;
    }
    if (seen.has(cell.toLowerCase())) return;
    seen.add(cell.toLowerCase());
    emails.push(cell);
  });
  return { emails, skipped };
}

// Reading an uploaded CSV file as a stream of records (csv-parse): quotes, embedded newlines, a
// BOM, CRLF or LF, and `,` or `;` between cells (whichever the header row uses).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse, type Parser } from 'csv-parse';

export type Delimiter = ',' | ';';

const SNIFF_BYTES = 64 * 1024;

/** The delimiter of the header row: the one of `,` and `;` it uses more often outside quotes. */
export function detectDelimiter(firstLine: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
    else if (!quoted && (char === '\n' || char === '\r')) break;
  }
  return semicolons > commas ? ';' : ',';
}

/** The beginning of the file, enough to hold the header row. */
export async function readStart(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/** A file being read: its records (arrays of trimmed cells, the header first) and how far reading has got. */
export interface CsvStream {
  records: AsyncIterable<string[]> & Parser;
  /** Bytes read from the file so far (a little ahead of the records handed over). */
  bytesRead(): number;
}

/** The file's records, streamed. */
export function csvRecords(path: string, delimiter: Delimiter): CsvStream {
  const parser = parse({
    bom: true,
    delimiter,
    // A row with more or fewer cells is the row's problem, reported for it; not the file's.
    relax_column_count: true,
    // A stray quote inside a cell is taken as a character rather than stopping the file.
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
  });
  const source = createReadStream(path);
  source.on('error', (err) => parser.destroy(err));
  parser.on('close', () => source.destroy());
  return { records: source.pipe(parser), bytesRead: () => source.bytesRead };
}

/** The header row, or null for a file without any row. */
export async function readHeader(path: string, delimiter: Delimiter): Promise<string[] | null> {
  const { records } = csvRecords(path, delimiter);
  try {
    for await (const record of records) return record;
    return null;
  } finally {
    records.destroy();
  }
}

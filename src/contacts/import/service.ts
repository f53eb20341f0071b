import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CsvError } from 'csv-parse';
import type { Core } from '../../core.js';
import { validationFailed } from '../../errors.js';
import { upsertContact } from '../service.js';
import {
  contactJobHandler,
  createContactJob,
  itemFailure,
  MAX_REPORTED_ERRORS,
  PermanentJobFailure,
  type ContactJobRun,
} from '../jobs/service.js';
import { yieldToEventLoop } from '../../store/batches.js';
import type { ContactJob } from '../jobs/store.js';
import { csvRecords, detectDelimiter, readHeader, readStart, type Delimiter } from './csv.js';
import { importFileName, importFilePath, keepUpload, removeFile } from './files.js';
import { columnsOf, rowOutcome, type Column } from './rows.js';
import type { Upload } from './upload.js';

export const IMPORT_JOB = 'contacts.import';
/**
 * Rows per transaction: a batch holds the one writer (and the event loop) for 2-3 ms, so API
 * requests queued behind it wait little; 200 rows doubled the /v1/track tail beside an import.
 */
const BATCH_ROWS = 100;

export interface ImportInput {
  file: string;
  bytes: number;
  delimiter: Delimiter;
}

export interface ImportResult {
  totalRows: number;
  created: number;
  updated: number;
  failed: number;
  errors: { row: number; message: string }[];
}

const fileProblem = (message: string) => validationFailed([{ field: 'file', message, code: 'custom' }], 'The CSV file cannot be imported');

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel']);

/** A `.csv` name, or a CSV media type when the client sent no usable name. */
function looksLikeCsv(upload: Upload): boolean {
  if (upload.name && /\.csv$/i.test(upload.name)) return true;
  return upload.type !== null && CSV_TYPES.has(upload.type.toLowerCase());
}

/** The header must name the columns (with `email`) before anything is queued. */
async function checkHeader(path: string): Promise<Delimiter> {
  const delimiter = detectDelimiter(await readStart(path));
  let header: string[] | null;
  try {
    header = await readHeader(path, delimiter);
  } catch (err) {
    if (err instanceof CsvError) throw fileProblem(`The header row cannot be read: ${err.message}`);
    throw err;
  }
  if (!header) throw fileProblem('The file is empty: it needs a header row with an "email" column');
  columnsOf(header);
  return delimiter;
}

/**
 * Checks the upload, keeps it in the data directory (synced) and queues the durable import job:
 * once this answers, the import runs to its end whatever happens to the process.
 */
export async function startImport(core: Core, projectId: string, upload: Upload): Promise<ContactJob<ImportInput, ImportResult>> {
  if (!looksLikeCsv(upload)) throw fileProblem('Expected a .csv file');
  const delimiter = await checkHeader(upload.path);
  const jobId = randomUUID();
  const file = importFileName(projectId, jobId);
  await keepUpload(core.config.dataDir, upload.path, file);
  try {
    const input: ImportInput = { file, bytes: upload.size, delimiter };
    const result: ImportResult = { totalRows: 0, created: 0, updated: 0, failed: 0, errors: [] };
    return createContactJob(core, projectId, 'import', IMPORT_JOB, input, result, jobId);
  } catch (err) {
    await removeFile(importFilePath(core.config.dataDir, file));
    throw err;
  }
}

interface PendingRow {
  /** The row's number in the file: the header is row 1. */
  row: number;
  cells: string[];
}

function addFailure(result: ImportResult, row: number, message: string): void {
  result.failed++;
  result.totalRows++;
  if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ row, message });
}

/** One batch: every row upserted through the contact rules, the totals and position saved with them. */
function commitRows(core: Core, run: ContactJobRun<ImportInput, ImportResult>, columns: Column[], rows: PendingRow[], bytes: number): void {
  const last = rows[rows.length - 1];
  if (!last) return;
  const progress = Math.floor((bytes / Math.max(run.job.input.bytes, 1)) * 100);
  run.commit(last.row - 1, progress, (result) => {
    for (const { row, cells } of rows) {
      const outcome = rowOutcome(cells, columns);
      if (outcome.kind === 'blank') continue;
      if (outcome.kind === 'invalid') {
        addFailure(result, row, outcome.message);
        continue;
      }
      try {
        const { isNew } = upsertContact(core, run.job.projectId, outcome.input, true);
        result.totalRows++;
        if (isNew) result.created++;
        else result.updated++;
      } catch (err) {
        addFailure(result, row, itemFailure(err));
      }
    }
  });
}

/**
 * Streams the file from its start, skips the rows an earlier run committed, and upserts the rest in
 * batches. A file the parser cannot read to its end (a quote never closed) fails from that row on,
 * reported as one failed row; the rows before it are imported.
 */
async function runImport(core: Core, run: ContactJobRun<ImportInput, ImportResult>): Promise<void> {
  const path = importFilePath(core.config.dataDir, run.job.input.file);
  if (!existsSync(path)) throw new PermanentJobFailure('The uploaded file is no longer in the data directory');
  const csv = csvRecords(path, run.job.input.delimiter);
  let columns: Column[] | null = null;
  let row = 0;
  let batch: PendingRow[] = [];
  try {
    for await (const record of csv.records) {
      row++;
      if (!columns) {
        columns = headerColumns(record);
        continue;
      }
      if (row - 1 <= run.position) continue; // committed by an earlier run
      batch.push({ row, cells: record });
      if (batch.length >= BATCH_ROWS) {
        commitRows(core, run, columns, batch, csv.bytesRead());
        batch = [];
        await yieldToEventLoop();
      }
    }
    if (columns) commitRows(core, run, columns, batch, csv.bytesRead());
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    if (!columns) throw new PermanentJobFailure(`The header row cannot be read: ${err.message}`);
    commitRows(core, run, columns, batch, csv.bytesRead());
    const unreadable = row + 1;
    if (unreadable - 1 > run.position) {
      run.commit(unreadable - 1, 100, (result) => addFailure(result, unreadable, `This row and the rest of the file cannot be read: ${err.message}`));
    }
  }
}

/** The header was checked at upload; a file that changed since cannot be imported. */
function headerColumns(header: string[]): Column[] {
  try {
    return columnsOf(header);
  } catch (err) {
    throw new PermanentJobFailure(`The header row is no longer valid: ${itemFailure(err)}`);
  }
}

/** Imports of a project run one at a time: their batches would only take turns at the one writer anyway. */
export const importJob = (core: Core) =>
  contactJobHandler<ImportInput, ImportResult>(
    core,
    (run) => runImport(core, run),
    (job) => removeFile(importFilePath(core.config.dataDir, job.input.file)),
  );

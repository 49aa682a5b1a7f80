import { readFileSync, statSync } from 'node:fs';
import type { Knex } from 'knex';
import type { ErrorObject } from 'ajv';
import type { components } from '../../generated/schema';
import { AccountError } from '../features/accounts/accounts.service';
import { lenderRowFromBody } from '../features/lenders/lenders.service';
import { insertLender, type LenderRow } from '../features/lenders/lenders.repository';
import { ApiError } from '../http/errors';
import type { Scope } from '../http/types';
import type { Clock } from '../lib/clock';
import { contractErrors } from '../web/app/ops/contract-body';

// Operator command: many lenders at once from a CSV file (issue 29), for src/cli/index.ts to merge.
//
//   lenders import FILE --location ID [--dry-run]
//
// Each data row is one `POST /v1/lenders` body with its `criteria`: checked against the same
// contract schema (CreateLenderRequest) and the same service rules (lenderRowFromBody), so the CLI
// has no second set of rules. All or nothing: every row is checked first; one bad row and nothing is
// written (the report names each bad row: row number as a spreadsheet shows it, column, reason).
// A dry run checks the same way and never writes. This file must not import src/cli/index.ts.

/** A usage mistake (missing option, unreadable file): exit 2, like index.ts's UsageError. */
export class LenderUsageError extends Error {}

export interface RowProblem {
  /** The row as a spreadsheet numbers it: the header is row 1, the first lender row 2. */
  row: number;
  /** The column the problem is in (its header as written), or null for the row as a whole. */
  column: string | null;
  reason: string;
}
export interface ImportReport {
  location_id: string;
  file: string;
  dry_run: boolean;
  /** Lender rows read (blank lines skipped). */
  rows: number;
  errors: RowProblem[];
  /** The lenders created (a real run), or that would be (a dry run with no errors). */
  lenders: { row: number; id: string | null; name: string }[];
}

/** The file had bad rows: nothing was written. index.ts prints `report` on stdout and exits 1. */
export class LenderImportRejected extends Error {
  constructor(readonly report: ImportReport) {
    const n = new Set(report.errors.map((e) => e.row)).size;
    super(`${n} bad row${n === 1 ? '' : 's'} in ${report.file}: ${report.dry_run ? 'dry run, ' : ''}nothing was written`);
  }
}

type Values = Record<string, string | boolean | undefined>;
export type LenderCommand = (values: Values, positionals: string[]) => (knex: Knex, clock: Clock) => Promise<unknown>;
type CreateBody = components['schemas']['CreateLenderRequest'];

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 5000;

// ---- CSV (RFC 4180): comma-separated, fields in double quotes may hold commas, line breaks and "" ----

export interface CsvRecord {
  /** Spreadsheet row number (1-based record number; a quoted line break does not start a new row). */
  row: number;
  cells: string[];
  /** Set when the record is malformed (a stray or unclosed quote): the row is reported, not read. */
  problem?: string;
}

export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a spreadsheet's UTF-8 BOM
  const out: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let problem: string | undefined;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted (only a delimiter may follow its closing quote)
  let row = 1;
  const endCell = () => {
    cells.push(cell);
    cell = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endCell();
    out.push({ row, cells, ...(problem ? { problem } : {}) });
    cells = [];
    problem = undefined;
    row++;
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
          wasQuoted = true;
        }
      } else cell += ch;
      continue;
    }
    if (ch === ',') endCell();
    else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      endRecord();
    } else if (ch === '"') {
      if (cell === '' && !wasQuoted) quoted = true;
      else problem ??= 'a double quote inside a field that does not start with one (quote the whole field and double the quote: "")';
    } else if (wasQuoted) {
      problem ??= 'text after a closing double quote (quote the whole field and double any quote inside it: "")';
    } else cell += ch;
  }
  if (quoted) {
    problem ??= 'a quoted field is never closed (a double quote is missing)';
    endRecord();
  } else if (cell !== '' || cells.length || wasQuoted) endRecord();
  // Blank lines are not rows of data (their numbers are kept for the rows after them).
  return out.filter((r) => r.problem || r.cells.some((c) => c.trim() !== ''));
}

// ---- columns ----

type Kind = 'text' | 'email' | 'emails' | 'bool' | 'money' | 'int' | 'number' | 'states' | 'list' | 'criteria';
const LENDER_COLUMNS: Record<string, Kind> = {
  name: 'text', submission_email: 'email', cc_emails: 'emails', contact_name: 'text', contact_phone: 'text', website: 'text',
  tier: 'text', active: 'bool', notes: 'text',
};
const CRITERIA_COLUMNS: Record<string, Kind> = {
  min_monthly_revenue: 'money', min_time_in_business_months: 'int', min_credit_score: 'int', min_amount: 'money', max_amount: 'money',
  max_positions: 'int', min_average_daily_balance: 'money', max_negative_days: 'int', max_nsf_count: 'int', max_withhold_percent: 'number',
  allowed_states: 'states', excluded_states: 'states', excluded_industries: 'list', product_types: 'list', paper_grades: 'list', hard_gates: 'criteria',
};
export const IMPORT_COLUMNS = [...Object.keys(LENDER_COLUMNS), ...Object.keys(CRITERIA_COLUMNS)];

const list = (v: string) => v.split(';').map((s) => s.trim()).filter(Boolean);

/** One cell -> its body value, or a reason it cannot be one. Empty cells are never passed here. */
function cellValue(kind: Kind, raw: string): { value: unknown } | { reason: string } {
  const v = raw.trim();
  switch (kind) {
    case 'text':
    case 'email':
      return { value: v };
    case 'emails':
    case 'list':
    case 'criteria':
      return { value: list(v) };
    case 'states':
      return { value: list(v).map((s) => s.toUpperCase()) };
    case 'bool': {
      const b = v.toLowerCase();
      if (['true', 'yes', '1'].includes(b)) return { value: true };
      if (['false', 'no', '0'].includes(b)) return { value: false };
      return { reason: 'must be true or false (yes/no, 1/0)' };
    }
    case 'money':
    case 'number':
    case 'int': {
      // "25000", "25,000.50", "$25,000": thousands separators and a dollar sign are allowed on amounts.
      const plain = kind === 'money' ? v.replace(/^\$/, '').replace(/^(-?)\$/, '$1') : v;
      const ok = kind === 'money' ? /^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/ : kind === 'int' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
      if (!ok.test(plain)) return { reason: kind === 'int' ? 'must be a whole number' : 'must be a number (for example 25000 or 25,000.50)' };
      return { value: Number(plain.replace(/,/g, '')) };
    }
  }
}

function ajvReason(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'minimum': return `must be at least ${p.limit}`;
    case 'maximum': return `must be at most ${p.limit}`;
    case 'maxLength': return `is too long (at most ${p.limit} characters)`;
    case 'minLength': return 'must not be empty';
    case 'maxItems': return `has too many entries (at most ${p.limit})`;
    case 'uniqueItems': return 'lists the same entry twice';
    case 'format': return p.format === 'email' ? 'is not an email address' : p.format === 'uri' ? 'is not a URL (https://...)' : `is not a valid ${p.format}`;
    case 'pattern': return e.instancePath.includes('states') ? 'must be two-letter state codes separated by ";"' : 'has a value that is not allowed';
    case 'enum': return e.instancePath.endsWith('tier') ? 'must be A, B, C or D' : `must be one of ${(p.allowedValues as unknown[]).filter((x) => x !== null).join(', ')}`;
    case 'required': return 'is required';
    case 'type': return `must be ${p.type}`;
    default: return 'is not valid';
  }
}

/** `/criteria/min_amount`, `/cc_emails/0` -> the column; `required` names the missing property. */
function columnOfAjv(e: ErrorObject): string | null {
  if (e.keyword === 'required') return String((e.params as { missingProperty: string }).missingProperty);
  const parts = e.instancePath.split('/').filter((x) => x && x !== 'criteria' && !/^\d+$/.test(x));
  return parts[parts.length - 1] ?? null;
}

interface Checked {
  problems: RowProblem[];
  rows: { row: number; lender: LenderRow }[];
}

/** Every row checked (nothing written): contract schema, service rules, duplicates. */
async function checkRows(db: Knex | Knex.Transaction, scope: Scope, records: CsvRecord[], clock: Clock): Promise<Checked> {
  const problems: RowProblem[] = [];
  const [header, ...data] = records;
  if (!header) return { problems: [{ row: 1, column: null, reason: 'the file is empty: the first row must name the columns' }], rows: [] };
  if (header.problem) return { problems: [{ row: header.row, column: null, reason: header.problem }], rows: [] };
  const names = header.cells.map((c) => c.trim());
  const known = new Set(IMPORT_COLUMNS);
  const seen = new Set<string>();
  names.forEach((n) => {
    const key = n.toLowerCase();
    if (!known.has(key)) problems.push({ row: header.row, column: n || null, reason: n ? `unknown column (the columns are: ${IMPORT_COLUMNS.join(', ')})` : 'a column has no name' });
    else if (seen.has(key)) problems.push({ row: header.row, column: n, reason: 'the column appears twice' });
    seen.add(key);
  });
  if (!seen.has('name')) problems.push({ row: header.row, column: 'name', reason: 'the name column is required' });
  if (problems.length) return { problems, rows: [] };
  if (!data.length) return { problems: [{ row: header.row + 1, column: null, reason: 'no lender rows after the header' }], rows: [] };
  if (data.length > MAX_IMPORT_ROWS) return { problems: [{ row: data[MAX_IMPORT_ROWS].row, column: null, reason: `at most ${MAX_IMPORT_ROWS} lenders per file` }], rows: [] };
  const keys = names.map((n) => n.toLowerCase());
  const label = (key: string) => names[keys.indexOf(key)] ?? key;

  // Duplicates: a lender of the location (active or not), or an earlier row, with the same name or
  // the same submission email (both compared trimmed and case-insensitively) is a bad row.
  const existing = (await db('lenders').where({ location_id: scope.locationId }).select('id', 'name', 'submission_email')) as { id: string; name: string; submission_email: string | null }[];
  const byName = new Map<string, string>(existing.map((l) => [l.name.trim().toLowerCase(), `lender ${l.id}`]));
  const byEmail = new Map<string, string>(existing.filter((l) => l.submission_email).map((l) => [l.submission_email!.trim().toLowerCase(), `lender ${l.id}`]));

  const now = clock.now();
  const rows: Checked['rows'] = [];
  for (const rec of data) {
    const rowProblems: RowProblem[] = [];
    if (rec.problem) {
      problems.push({ row: rec.row, column: null, reason: rec.problem });
      continue;
    }
    if (rec.cells.length !== names.length) {
      problems.push({ row: rec.row, column: null, reason: `has ${rec.cells.length} fields, the header has ${names.length} (quote a field holding a comma)` });
      continue;
    }
    const body: Record<string, unknown> = {};
    const criteria: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      const raw = rec.cells[i];
      if (raw.trim() === '') return;
      const kind = LENDER_COLUMNS[key] ?? CRITERIA_COLUMNS[key];
      const v = cellValue(kind, raw);
      if ('reason' in v) rowProblems.push({ row: rec.row, column: label(key), reason: v.reason });
      else if (key in CRITERIA_COLUMNS) criteria[key] = v.value;
      else body[key] = key === 'name' || key === 'notes' ? raw : v.value;
    });
    if (Object.keys(criteria).length) body.criteria = criteria;
    {
      // Every column's problem at once (cells that could not be read are left out of this check).
      const seenCols = new Set(rowProblems.map((x) => x.column));
      for (const e of contractErrors('CreateLenderRequest', body)) {
        const col = columnOfAjv(e);
        const column = col ? label(col) : null;
        if (seenCols.has(column)) continue; // one reason per column
        seenCols.add(column);
        rowProblems.push({ row: rec.row, column, reason: `${col ?? 'the row'} ${ajvReason(e)}` });
      }
    }
    let lender: LenderRow | undefined;
    if (!rowProblems.length) {
      try {
        lender = lenderRowFromBody(scope, body as CreateBody, now);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const col = e.param?.replace(/^criteria\./, '') ?? null;
        rowProblems.push({ row: rec.row, column: col ? label(col) : null, reason: e.message });
      }
    }
    if (lender) {
      const n = lender.name.trim().toLowerCase();
      const m = lender.submission_email?.trim().toLowerCase();
      const sameName = byName.get(n);
      const sameEmail = m ? byEmail.get(m) : undefined;
      if (sameName) rowProblems.push({ row: rec.row, column: label('name'), reason: `duplicate: ${sameName} has the same name` });
      if (sameEmail) rowProblems.push({ row: rec.row, column: label('submission_email'), reason: `duplicate: ${sameEmail} has the same submission email` });
      if (!sameName) byName.set(n, `row ${rec.row}`);
      if (m && !sameEmail) byEmail.set(m, `row ${rec.row}`);
    }
    if (rowProblems.length) problems.push(...rowProblems);
    else rows.push({ row: rec.row, lender: lender! });
  }
  return { problems, rows };
}

async function locationOr404(db: Knex | Knex.Transaction, id: string, lock: boolean): Promise<void> {
  const q = db('locations').where({ id }).first('id');
  if (lock) q.forUpdate();
  if (!(await q)) throw new AccountError(`No location ${id}`);
}

/** Reads, checks and (unless a dry run) writes every lender of the file in one transaction. */
export async function importLenders(knex: Knex, clock: Clock, input: { locationId: string; file: string; text: string; dryRun: boolean }): Promise<ImportReport> {
  const scope: Scope = { locationId: input.locationId, role: 'admin', userId: null, scopes: [] };
  const records = parseCsv(input.text);
  const report = (checked: Checked, written: boolean): ImportReport => ({
    location_id: input.locationId, file: input.file, dry_run: input.dryRun, rows: Math.max(0, records.length - 1), errors: checked.problems,
    lenders: checked.problems.length ? [] : checked.rows.map((r) => ({ row: r.row, id: written ? r.lender.id : null, name: r.lender.name })),
  });
  if (input.dryRun) {
    await locationOr404(knex, input.locationId, false);
    const checked = await checkRows(knex, scope, records, clock);
    if (checked.problems.length) throw new LenderImportRejected(report(checked, false));
    return report(checked, false);
  }
  return knex.transaction(async (trx) => {
    // The location row locked: two imports into one location run one after the other, so the
    // duplicate check of the second sees the first's lenders.
    await locationOr404(trx, input.locationId, true);
    const checked = await checkRows(trx, scope, records, clock);
    if (checked.problems.length) throw new LenderImportRejected(report(checked, false));
    for (const r of checked.rows) await insertLender(trx, r.lender);
    return report(checked, true);
  });
}

export const LENDER_COMMANDS: Record<string, LenderCommand> = {
  'lenders import': (v, p) => {
    const file = p[0];
    if (!file) throw new LenderUsageError('lenders import needs the CSV file: lenders import FILE --location ID [--dry-run]');
    const locationId = v.location;
    if (typeof locationId !== 'string' || !locationId) throw new LenderUsageError('--location is required');
    let text: string;
    try {
      if (statSync(file).size > MAX_IMPORT_BYTES) throw new LenderUsageError(`${file} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (e instanceof LenderUsageError) throw e;
      throw new LenderUsageError(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const dryRun = v['dry-run'] === true;
    return (knex, clock) => importLenders(knex, clock, { locationId, file, text, dryRun });
  },
};

export const LENDER_OPTIONS = { 'dry-run': { type: 'boolean' } } as const;

export const LENDER_USAGE = `  lenders import FILE --location ID [--dry-run]   create the lenders of a CSV file with their criteria, all or none
                                                  (columns: docs-site/OPERATIONS.md); --dry-run checks and writes nothing`;

import type { Knex } from 'knex';
import { hmacHex, safeEqual } from '../lib/crypto';
import { invalid } from './errors';

export interface Page<T> {
  data: T[];
  meta: { has_more: boolean; next_cursor: string | null };
}

interface CursorBody {
  /** list the cursor belongs to */
  l: string;
  /** created_at of the last item, ISO */
  t: string;
  /** id of the last item */
  i: string;
  /** fingerprint of the filters the cursor was issued for (absent: no filters) */
  f?: string;
}

const sign = (key: string, payload: string) => hmacHex(key, payload).slice(0, 32);

export function encodeCursor(key: string, body: CursorBody): string {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** Opaque and tamper-evident: a cursor that was altered, or comes from another list, is a 400. */
export function decodeCursor(key: string, list: string, cursor: string, filters = ''): CursorBody {
  const bad = () => invalid('The cursor is not valid; pass meta.next_cursor unchanged', 'cursor', 'invalid_cursor');
  const [payload, sig, extra] = cursor.split('.');
  if (!payload || !sig || extra !== undefined || !safeEqual(sign(key, payload), sig)) throw bad();
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw bad();
  }
  if (body.l !== list || typeof body.i !== 'string' || Number.isNaN(Date.parse(body.t))) throw bad();
  if ((body.f ?? '') !== filters) {
    throw invalid('The cursor was issued for other filters: send the same filters with it, or start again without a cursor', 'cursor', 'invalid_cursor');
  }
  return body;
}

/** The time filters every list with timestamps takes (openapi.yaml: CreatedAfter, CreatedBefore, UpdatedAfter). */
export interface TimeFilters {
  created_after?: string;
  created_before?: string;
  updated_after?: string;
}

/**
 * The list's filters, as one short signed value: a cursor carries the fingerprint of the filters it
 * was issued for, so a next page read with other filters is a 400 instead of a page of another list.
 * `limit` and `cursor` are not filters; times count by the instant they name, not their spelling.
 */
export function filterFingerprint(key: string, filters: Record<string, unknown> | undefined): string {
  const kept: [string, unknown][] = [];
  for (const k of Object.keys(filters ?? {}).sort()) {
    const v = filters![k];
    if (k === 'limit' || k === 'cursor' || v === undefined) continue;
    const instant = /_(after|before)$/.test(k) && typeof v === 'string' ? Date.parse(v) : Number.NaN;
    kept.push([k, Number.isNaN(instant) ? v : new Date(instant).toISOString()]);
  }
  return kept.length ? hmacHex(key, `filters:${JSON.stringify(kept)}`).slice(0, 16) : '';
}

export interface PageOptions {
  /** Signing key (deps.cursorKey). */
  key: string;
  /** Names the list, so a cursor of one list is refused by another. */
  list: string;
  limit?: number;
  cursor?: string;
  /** Qualified column names when the query joins (default created_at / id). */
  createdAtColumn?: string;
  idColumn?: string;
  /**
   * The list's query (its filters, `limit` and `cursor` are ignored): the cursor is bound to them, and
   * `created_after` / `created_before` / `updated_after` are applied here (exclusive bounds).
   */
  filters?: TimeFilters & Record<string, unknown>;
  /** Column the created_* filters compare (default createdAtColumn, for lists ordered by another time). */
  createdFilterColumn?: string;
  /** Column `updated_after` compares (default: createdAtColumn's table's updated_at). */
  updatedFilterColumn?: string;
}

function applyTimeFilters(query: Knex.QueryBuilder, opts: PageOptions, c: string): void {
  const f = opts.filters;
  if (!f) return;
  const created = opts.createdFilterColumn ?? c;
  const updated = opts.updatedFilterColumn ?? created.replace(/created_at$/, 'updated_at');
  const at = (name: keyof TimeFilters, v: string) => {
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) throw invalid(`${name} must be an ISO 8601 date-time with a time zone`, name);
    return d;
  };
  if (f.created_after !== undefined) query.where(created, '>', at('created_after', f.created_after));
  if (f.created_before !== undefined) query.where(created, '<', at('created_before', f.created_before));
  if (f.updated_after !== undefined) query.where(updated, '>', at('updated_after', f.updated_after));
}

/**
 * Keyset pagination, newest first on (created_at, id): rows inserted between two page reads never
 * make an item repeat or go missing. `query` must select `created_at` and `id` of the listed table.
 */
export async function paginate<Row extends { id: string; created_at: Date | string }>(
  query: Knex.QueryBuilder,
  opts: PageOptions,
): Promise<{ rows: Row[]; meta: Page<Row>['meta'] }> {
  const limit = opts.limit ?? 25;
  const c = opts.createdAtColumn ?? 'created_at';
  const i = opts.idColumn ?? 'id';
  const f = filterFingerprint(opts.key, opts.filters);
  applyTimeFilters(query, opts, c);
  if (opts.cursor) {
    const after = decodeCursor(opts.key, opts.list, opts.cursor, f);
    const t = new Date(after.t);
    // A row comparison, so an index on (..., created_at, id) starts the scan at the cursor instead
    // of walking every newer row (page 3,600 of 100,000 rows costs what page 2 does).
    query.whereRaw('(??, ??) < (?, ?)', [c, i, t, after.i]);
  }
  const rows = (await query.orderBy([{ column: c, order: 'desc' }, { column: i, order: 'desc' }]).limit(limit + 1)) as Row[];
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page,
    meta: {
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(opts.key, { l: opts.list, t: new Date(last.created_at).toISOString(), i: last.id, ...(f ? { f } : {}) }) : null,
    },
  };
}

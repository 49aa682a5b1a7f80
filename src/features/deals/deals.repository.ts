import type { Knex } from 'knex';
import { prepared } from '../../db/prepared';
import { wireTimes } from '../../db/wire-time';
import type { WireTimes } from '../../lib/format';
import { visibleDeals } from '../../db/visible';
import type { Scope } from '../../http/types';
import type { StatementDoc } from '../lender-matches/statement-figures';
import { findStages, type StageRow } from '../pipeline/pipeline.service';

// SQL only here. Every function takes the caller's scope first: there is no unscoped read.
// Role `user` sees only the deals it created: `dealsQuery` applies that rule, so every deal read
// (and every deal sub-resource that goes through `findDeal`) inherits it.

export type Db = Knex | Knex.Transaction;

export interface DealOwner {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

export interface DealRow {
  id: string;
  location_id: string;
  business_id: string;
  requested_amount: number | null;
  annual_revenue: number | null;
  use_of_funds: string | null;
  product_type: string;
  desired_term_months: number | null;
  desired_frequency: string | null;
  paper_grade: string | null;
  paper_grade_source: string | null;
  source: string | null;
  lead_source: string | null;
  state_incorporated: string | null;
  closed_reason: string | null;
  ghl_contact_id: string | null;
  ghl_opportunity_id: string | null;
  renewal_of_deal_id: string | null;
  renewal_of_advance_id: string | null;
  risk_flags: Record<string, unknown>;
  form_data: Record<string, unknown>;
  owner: DealOwner;
  status: 'open' | 'funded' | 'dead';
  stage_id: string;
  stage_entered_at: Date;
  primary_offer_id: string | null;
  originator_id: string | null;
  closer_id: string | null;
  created_by_user_id: string | null;
  manually_closed: boolean;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What a deal shows that lives in other rows, read together for a page of deals. */
export interface DealContext {
  business: {
    id: string;
    legal_name: string;
    dba: string | null;
    entity_type: string | null;
    industry: string | null;
    address: string | null;
    city: string | null;
    state: string | null;
    zip: string | null;
    phone: string | null;
    business_start_date: string | null;
  };
  stage: StageRow;
  primary_offer: { id: string; lender_id: string; lender_name: string; amount: number; factor_rate: number; status: string } | null;
  originator: { id: string; name: string } | null;
  closer: { id: string; name: string } | null;
  submissions_count: number;
  offers_count: number;
  /** The deal's bank-statement documents (for `revenue_check`). */
  statements: StatementDoc[];
}

/** The deals this caller may see (src/db/visible.ts: its location, and for role user only the deals it created). */
export function dealsQuery(db: Db, scope: Scope, alias = 'deals') {
  return visibleDeals(db, scope, alias) as Knex.QueryBuilder<DealRow, DealRow[]>;
}

/**
 * Deal search (`GET /v1/deals?search=`), on the columns migration 0021 keeps from the deal's business
 * and owner: text anywhere in the names and emails (trigram index); with no letters and 4 or more
 * digits, those digits anywhere in a phone; exactly 4 digits, the EIN's last four.
 */
export function whereDealSearch(q: Knex.QueryBuilder, term: string, alias = 'deals'): void {
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const digits = term.replace(/\D/g, '');
  const phoneLike = !/\p{L}/u.test(term) && digits.length >= 4;
  q.where((w) => {
    w.whereILike(`${alias}.search_text`, like);
    if (phoneLike) w.orWhereLike(`${alias}.search_phones`, `%${digits}%`);
    if (phoneLike && digits.length === 4) w.orWhere(`${alias}.search_ein4`, digits);
  });
}

export async function findDeal(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<DealRow | undefined> {
  const q = dealsQuery(db, scope).where('deals.id', id).first('deals.*');
  if (opts.forUpdate) q.forUpdate();
  return q;
}

/**
 * A deal of the location whatever the caller's role: only for system moves made on behalf of a
 * caller that already passed `findDeal` (for example a submission being sent).
 */
export async function findDealInLocation(db: Db, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<DealRow | undefined> {
  const q = db<DealRow>('deals').where({ id, location_id: scope.locationId }).first();
  if (opts.forUpdate) q.forUpdate();
  return q;
}

/** The business's primary contact as a deal owner (keys null when there is none). */
export async function primaryContactOwner(db: Db, scope: Scope, businessId: string): Promise<DealOwner> {
  const c = await db('business_people as bp')
    .join('people as p', 'p.id', 'bp.person_id')
    .where({ 'bp.location_id': scope.locationId, 'bp.business_id': businessId, 'bp.is_primary_contact': true })
    .first('p.first_name', 'p.last_name', 'p.email', 'p.phone');
  return { first_name: c?.first_name ?? null, last_name: c?.last_name ?? null, email: c?.email ?? null, phone: c?.phone ?? null };
}

const JSON_COLUMNS = ['risk_flags', 'form_data', 'owner'] as const;
function serialise(values: Partial<DealRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const c of JSON_COLUMNS) if (values[c] !== undefined) out[c] = JSON.stringify(values[c]);
  return out;
}

export async function insertDeal(db: Db, row: DealRow): Promise<void> {
  await db('deals').insert(serialise(row));
}

export async function updateDealRow(db: Db, scope: Scope, id: string, patch: Partial<DealRow>): Promise<void> {
  await db('deals').where({ id, location_id: scope.locationId }).update(serialise(patch));
}

export async function findUsers(db: Db, scope: Scope, ids: (string | null)[]): Promise<Map<string, { id: string; name: string }>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return new Map();
  const rows: { id: string; name: string }[] = await db('users').where('location_id', scope.locationId).whereIn('id', wanted).select('id', 'name');
  return new Map(rows.map((r) => [r.id, r]));
}

/** Business, stage, primary offer, people and counts for many deals, in six queries (no N+1). */
export async function dealContexts(db: Db, scope: Scope, rows: DealRow[]): Promise<Map<string, DealContext>> {
  const out = new Map<string, DealContext>();
  if (!rows.length) return out;
  const ids = rows.map((r) => r.id);
  const businesses = new Map<string, DealContext['business']>(
    (
      await db('businesses')
        .where('location_id', scope.locationId)
        .whereIn('id', [...new Set(rows.map((r) => r.business_id))])
        .select('id', 'legal_name', 'dba', 'entity_type', 'industry', 'address', 'city', 'state', 'zip', 'phone', 'business_start_date')
    ).map((b: DealContext['business']) => [b.id, b]),
  );
  const stages = await findStages(db, scope, rows.map((r) => r.stage_id));
  const offerIds = rows.map((r) => r.primary_offer_id).filter((x): x is string => !!x);
  const offers = new Map<string, NonNullable<DealContext['primary_offer']>>();
  if (offerIds.length) {
    const found = await db('offers as o')
      .join('lenders as l', 'l.id', 'o.lender_id')
      .where('o.location_id', scope.locationId)
      .whereIn('o.id', offerIds)
      .select('o.id', 'o.lender_id', 'l.name as lender_name', 'o.amount', 'o.factor_rate', 'o.status');
    for (const o of found) offers.set(o.id, o);
  }
  const users = await findUsers(db, scope, rows.flatMap((r) => [r.originator_id, r.closer_id]));
  const counts = async (table: string) => {
    const m = new Map<string, number>();
    const res: { deal_id: string; count: number }[] = await db(table).where('location_id', scope.locationId).whereIn('deal_id', ids).groupBy('deal_id').select('deal_id').count('* as count');
    for (const c of res) m.set(c.deal_id, Number(c.count));
    return m;
  };
  const subs = await counts('submissions');
  const offs = await counts('offers');
  const statements = await statementDocsByDeal(db, scope, ids);
  for (const r of rows) {
    out.set(r.id, {
      business: businesses.get(r.business_id)!,
      stage: stages.get(r.stage_id)!,
      primary_offer: r.primary_offer_id ? (offers.get(r.primary_offer_id) ?? null) : null,
      originator: r.originator_id ? (users.get(r.originator_id) ?? null) : null,
      closer: r.closer_id ? (users.get(r.closer_id) ?? null) : null,
      submissions_count: subs.get(r.id) ?? 0,
      offers_count: offs.get(r.id) ?? 0,
      statements: statements.get(r.id) ?? [],
    });
  }
  return out;
}

/**
 * The bank-statement documents of some deals (every status but pending_upload), by deal: what
 * lender matching and the deal's `revenue_check` read (../lender-matches/statement-figures.ts).
 */
export async function statementDocsByDeal(db: Db, scope: Scope, dealIds: string[]): Promise<Map<string, StatementDoc[]>> {
  const out = new Map<string, StatementDoc[]>();
  if (!dealIds.length) return out;
  const rows: Array<StatementDoc & { deal_id: string }> = await db('documents')
    .where('location_id', scope.locationId)
    .whereIn('deal_id', dealIds)
    .where('category', 'bank_statement')
    .whereNot('status', 'pending_upload')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'deal_id', 'status', 'created_at', 'statement');
  for (const r of rows) {
    const statement = typeof r.statement === 'string' ? (JSON.parse(r.statement) as Record<string, unknown>) : r.statement;
    const list = out.get(r.deal_id) ?? [];
    list.push({ id: r.id, status: r.status, created_at: r.created_at, statement });
    out.set(r.deal_id, list);
  }
  return out;
}

/**
 * One deal this caller may see with its context (what `dealContexts` reads in up to seven queries),
 * in ONE statement: the deal's own columns as they are, each context part a scalar subquery (a JSON
 * object, a count, the statements as a JSON array). Values come out as `dealContexts` gives them:
 * text and `date` columns as strings, numerics as numbers, counts as integers; only timestamps inside
 * the JSON parts are ISO text, and of those only a statement's `created_at` is read (for its order).
 */
const DEAL_WITH_CONTEXT_SQL = (visible: string) => `
SELECT d.*,
  (SELECT row_to_json(b) FROM (SELECT id, legal_name, dba, entity_type, industry, address, city, state, zip, phone, business_start_date
     FROM businesses WHERE location_id = d.location_id AND id = d.business_id) b) AS ctx_business,
  (SELECT row_to_json(s) FROM (SELECT * FROM pipeline_stages WHERE location_id = d.location_id AND id = d.stage_id) s) AS ctx_stage,
  (SELECT row_to_json(o) FROM (SELECT o.id, o.lender_id, l.name AS lender_name, o.amount, o.factor_rate, o.status
     FROM offers o JOIN lenders l ON l.id = o.lender_id WHERE o.location_id = d.location_id AND o.id = d.primary_offer_id) o) AS ctx_primary_offer,
  (SELECT row_to_json(u) FROM (SELECT id, name FROM users WHERE location_id = d.location_id AND id = d.originator_id) u) AS ctx_originator,
  (SELECT row_to_json(u) FROM (SELECT id, name FROM users WHERE location_id = d.location_id AND id = d.closer_id) u) AS ctx_closer,
  (SELECT count(*)::int FROM submissions WHERE location_id = d.location_id AND deal_id = d.id) AS ctx_submissions_count,
  (SELECT count(*)::int FROM offers WHERE location_id = d.location_id AND deal_id = d.id) AS ctx_offers_count,
  (SELECT coalesce(json_agg(json_build_object('id', id, 'status', status, 'created_at', created_at, 'statement', statement) ORDER BY created_at, id), '[]')
     FROM documents WHERE location_id = d.location_id AND deal_id = d.id AND category = 'bank_statement' AND status <> 'pending_upload') AS ctx_statements
FROM deals d WHERE d.location_id = ? AND d.id = ?${visible}`;
const DEAL_WITH_CONTEXT = { all: DEAL_WITH_CONTEXT_SQL(''), own: DEAL_WITH_CONTEXT_SQL(' AND d.created_by_user_id = ?') };

type ContextColumns = {
  ctx_business: DealContext['business'];
  ctx_stage: StageRow;
  ctx_primary_offer: DealContext['primary_offer'];
  ctx_originator: DealContext['originator'];
  ctx_closer: DealContext['closer'];
  ctx_submissions_count: number;
  ctx_offers_count: number;
  ctx_statements: StatementDoc[] | string;
};

/** `findDeal` and `dealContexts` for one deal, in one round trip (the visibility rule of `dealsQuery`: role user sees only its own). */
export async function findDealWithContext(db: Db, scope: Scope, id: string): Promise<{ row: WireTimes<DealRow>; ctx: DealContext } | undefined> {
  if (scope.role === 'user' && !scope.userId) return undefined;
  // Two fixed texts: prepared once per connection (its eight subplans cost more to plan than to run).
  // The deal's timestamps come back as wire text (src/db/wire-time.ts): no Date per value.
  type Rows = { rows: (WireTimes<DealRow> & ContextColumns)[] };
  const { rows } = await wireTimes(scope.role === 'user'
    ? prepared<Rows>(db as Knex, DEAL_WITH_CONTEXT.own, [scope.locationId, id, scope.userId!])
    : prepared<Rows>(db as Knex, DEAL_WITH_CONTEXT.all, [scope.locationId, id]));
  const r = rows[0];
  if (!r) return undefined;
  const { ctx_business, ctx_stage, ctx_primary_offer, ctx_originator, ctx_closer, ctx_submissions_count, ctx_offers_count, ctx_statements, ...row } = r;
  const statements = (typeof ctx_statements === 'string' ? JSON.parse(ctx_statements) : ctx_statements) as StatementDoc[];
  return {
    row: row as WireTimes<DealRow>,
    ctx: {
      business: ctx_business,
      stage: ctx_stage,
      primary_offer: row.primary_offer_id ? ctx_primary_offer : null,
      originator: row.originator_id ? ctx_originator : null,
      closer: row.closer_id ? ctx_closer : null,
      submissions_count: ctx_submissions_count,
      offers_count: ctx_offers_count,
      statements,
    },
  };
}

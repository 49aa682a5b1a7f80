import type { components, operations } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { invalid, notFound } from '../../http/errors';
import { decodeCursor, encodeCursor, type Page } from '../../http/pagination';
import type { Scope } from '../../http/types';
import { toCents } from '../../lib/money';
import { statementDocsByDeal } from '../deals/deals.service';
import { activeLenders, existingPositions, findVisibleDeal, lendersById, primaryOwnerCreditScore, submissionsByLender, type Db } from './lender-matches.repository';
import { matchFigures, monthlyRevenueCents, monthsSince, normalizeCriteria, parseCreditScore, scoreDeal, type DealFacts, type MatchFigures, type MatchReason } from './scoring';
import { statementEvidence } from './statement-figures';

// What submissions read of a deal through lender matching's visibility (a feature never imports another's repository).
export { findVisibleDeal };

type LenderMatch = components['schemas']['LenderMatch'];
type ListQuery = NonNullable<operations['listDealLenderMatches']['parameters']['query']>;

/**
 * Measures a deal the caller may see (404 otherwise): monthly revenue, time in business, state,
 * industry, existing positions, the primary owner's credit score, amount, product and paper grade,
 * and what its bank statements read so far show (./statement-figures.ts).
 */
export async function loadDealFacts(db: Db, scope: Scope, dealId: string, now: Date): Promise<DealFacts> {
  const deal = await findVisibleDeal(db, scope, dealId);
  if (!deal) throw notFound('deal', dealId);
  // Sequential on purpose: callers may pass a transaction (one connection).
  const credit = await primaryOwnerCreditScore(db, scope, deal.business_id);
  const positions = await existingPositions(db, scope, deal.business_id, deal.id);
  const statements = statementEvidence((await statementDocsByDeal(db, scope, [deal.id])).get(deal.id) ?? []);
  return {
    monthlyRevenueCents: monthlyRevenueCents(deal.annual_revenue),
    timeInBusinessMonths: monthsSince(deal.business_start_date, now),
    state: deal.state,
    industry: deal.industry,
    positions,
    creditScore: parseCreditScore(credit),
    requestedAmountCents: deal.requested_amount == null ? null : toCents(deal.requested_amount),
    productType: deal.product_type,
    paperGrade: deal.paper_grade,
    statements,
  };
}

/**
 * For the submissions feature: the match snapshot (match_score, match_eligible) of a deal against
 * the given lenders of the location, active or not, taken inside the caller's transaction, with the
 * figures it was computed from (match_figures: the same for every lender).
 */
export interface MatchSnapshot {
  score: number;
  eligible: boolean;
  figures: MatchFigures;
  /** The criteria the deal does not meet, in the order of the lender's reasons; `hard` for a hard gate. */
  failed: { criterion: MatchReason['criterion']; hard: boolean }[];
}

export async function matchSnapshots(db: Db, scope: Scope, dealId: string, lenderIds: string[], now: Date): Promise<Map<string, MatchSnapshot>> {
  const facts = await loadDealFacts(db, scope, dealId, now);
  const figures = matchFigures(facts);
  const lenders = await lendersById(db, scope, lenderIds);
  return new Map(lenders.map((l) => {
    const r = scoreDeal(facts, normalizeCriteria(l.criteria));
    const failed = r.reasons.filter((x) => !x.passed).map((x) => ({ criterion: x.criterion, hard: x.hard_gate }));
    return [l.id, { score: r.score, eligible: r.eligible, figures, failed }];
  }));
}

/** Best score first, ties by lender name (case-insensitive), then id: a total order for the cursor. */
type SortKey = { score: number; name: string; id: string };
function compareMatches(a: SortKey, b: SortKey): number {
  if (a.score !== b.score) return b.score - a.score;
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// Matches are computed on read, so the cursor is a keyset position (score, name, id) in the sorted
// list, signed like every other cursor: a lender rescored between two pages is neither repeated nor
// skipped unless its own position moved.
const EPOCH = new Date(0).toISOString();
const listName = (dealId: string) => `lender-matches:${dealId}`;

function cursorPosition(key: string, dealId: string, cursor: string): SortKey {
  const body = decodeCursor(key, listName(dealId), cursor);
  let pos: unknown;
  try {
    pos = JSON.parse(body.i);
  } catch {
    pos = null;
  }
  if (!Array.isArray(pos) || typeof pos[0] !== 'number' || typeof pos[1] !== 'string' || typeof pos[2] !== 'string') {
    throw invalid('The cursor is not valid; pass meta.next_cursor unchanged', 'cursor', 'invalid_cursor');
  }
  return { score: pos[0], name: pos[1], id: pos[2] };
}

export async function listDealLenderMatches(deps: Deps, scope: Scope, dealId: string, query: ListQuery): Promise<Page<LenderMatch>> {
  const db = deps.db.knex;
  const facts = await loadDealFacts(db, scope, dealId, deps.clock.now());
  const lenders = await activeLenders(db, scope);
  const submitted = await submissionsByLender(db, scope, dealId);
  let matches: LenderMatch[] = lenders.map((l) => {
    const r = scoreDeal(facts, normalizeCriteria(l.criteria));
    const submissionId = submitted.get(l.id) ?? null;
    return { lender_id: l.id, lender_name: l.name, score: r.score, eligible: r.eligible, reasons: r.reasons, already_submitted: submissionId !== null, submission_id: submissionId };
  });
  if (query.eligible !== undefined) matches = matches.filter((m) => m.eligible === query.eligible);
  const key = (m: LenderMatch): SortKey => ({ score: m.score, name: m.lender_name, id: m.lender_id });
  matches.sort((a, b) => compareMatches(key(a), key(b)));
  if (query.cursor) {
    const after = cursorPosition(deps.cursorKey, dealId, query.cursor);
    matches = matches.filter((m) => compareMatches(key(m), after) > 0);
  }
  const limit = query.limit ?? 25;
  const page = matches.slice(0, limit);
  const hasMore = matches.length > limit;
  const last = page[page.length - 1];
  return {
    data: page,
    meta: {
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(deps.cursorKey, { l: listName(dealId), t: EPOCH, i: JSON.stringify([last.score, last.lender_name, last.lender_id]) }) : null,
    },
  };
}

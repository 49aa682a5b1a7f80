import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import type { Scope } from '../../http/types';
import { logOffer, type OfferTerms } from '../offers/offers.service';
import { applySubmissionResponse, markSubmissionSent, type SubmissionRow } from '../submissions/submissions.service';
import { ATTEMPT_STATE, type FunderAnswer } from './adapter';
import type { AttemptRow } from './attempt-state';

// What the funder said, mapped onto the submission (attempts.ts): its state followed (ATTEMPT_STATE),
// its offers logged once each, under the deal-then-submission lock order.

const systemScope = (locationId: string): Scope => ({ locationId, role: 'admin', userId: null, scopes: [] });

export async function lockSubmission(trx: Knex.Transaction, locationId: string, submissionId: string): Promise<SubmissionRow | undefined> {
  const s = (await trx('submissions').where({ id: submissionId, location_id: locationId }).first('deal_id')) as { deal_id: string } | undefined;
  if (!s) return undefined;
  // The deal first, then the submission: the order every other writer takes them in.
  await trx('deals').where({ id: s.deal_id, location_id: locationId }).forUpdate().first('id');
  return (await trx('submissions as s').leftJoin('lenders as l', 'l.id', 's.lender_id').where({ 's.id': submissionId }).forUpdate('s').first('s.*', 'l.name as lender_name')) as SubmissionRow;
}

export async function isLatest(trx: Knex.Transaction, a: AttemptRow): Promise<boolean> {
  const r = (await trx('api_submissions').where({ submission_id: a.submission_id }).max('attempt_number as n').first()) as { n: number | string | null };
  return Number(r.n) === a.attempt_number;
}

const offerKey = (o: OfferTerms) =>
  [Number(o.amount).toFixed(2), Number(o.factor_rate).toFixed(4), o.term, o.term_unit ?? 'days', o.payment_frequency ?? 'daily', o.payment_amount ?? '', o.position ?? 1].join('|');

/** The submission follows the funder's state; the funder's offers are logged (collapsed, never twice). */
export async function followFunder(trx: Knex.Transaction, deps: Deps, a: AttemptRow, sub: SubmissionRow, answer: FunderAnswer): Promise<string[]> {
  const scope = systemScope(a.location_id);
  const target = ATTEMPT_STATE[answer.state].submission;
  let current = sub;
  if (current.submitted_at === null || current.status === 'queued') current = await markSubmissionSent(trx, deps, current, deps.clock.now());
  if (current.status === 'withdrawn' || current.status === 'funded') return [];
  if (target !== current.status && target !== 'sent') {
    if (target === 'approved' || target === 'declined' || target === 'needs_info') {
      const response_type = target === 'needs_info' ? 'more_info' : target;
      await applySubmissionResponse(trx, deps, scope, current, {
        response_type,
        response_notes: answer.message ?? (answer.funder_status ? `Funder status: ${answer.funder_status}` : undefined),
        ...(target === 'declined' && answer.message ? { decline_reason: answer.message.slice(0, 500) } : {}),
        ...(target === 'needs_info' ? { requested_items: (answer.requested_items ?? []).slice(0, 50).map((i) => i.slice(0, 500)) } : {}),
      }, { offerSource: 'funder_api' });
    } else {
      // funded / expired: the funder's word, recorded as such.
      const now = deps.clock.now();
      await trx('submissions').where({ id: current.id }).update({ status: target, updated_at: now, ...(current.responded_at ? {} : { responded_at: now }) });
      await recordActivity(trx, deps.clock, scope, {
        businessId: ((await trx('deals').where({ id: a.deal_id }).first('business_id')) as { business_id: string }).business_id,
        dealId: a.deal_id, entityType: 'submission', entityId: current.id, entityName: current.lender_name ?? '',
        action: 'submission.status_changed', description: `${current.lender_name ?? 'The funder'} reports ${answer.funder_status ?? target}`,
        data: { status: target, funder_status: answer.funder_status, source: 'funder_api' },
      });
    }
  }
  return logFunderOffers(trx, deps, a, current, answer.offers ?? []);
}

async function logFunderOffers(trx: Knex.Transaction, deps: Deps, a: AttemptRow, sub: SubmissionRow, offers: OfferTerms[]): Promise<string[]> {
  if (!offers.length) return [];
  const deal = (await trx('deals').where({ id: a.deal_id, location_id: a.location_id }).first('id', 'business_id', 'status')) as { id: string; business_id: string; status: string };
  if (deal.status === 'funded') return [];
  const known = new Set(a.offer_keys);
  const ids: string[] = [];
  for (const terms of offers) {
    const key = offerKey(terms);
    if (known.has(key)) continue;
    known.add(key);
    try {
      // A savepoint per offer: one the funder got wrong (a negative amount) is skipped, not fatal.
      const offer = await trx.transaction((sp) => logOffer(sp, deps, systemScope(a.location_id), { deal, lender: { id: a.lender_id, name: sub.lender_name ?? '' }, submissionId: a.submission_id, source: 'funder_api', terms: { ...terms, status: 'pending' } }));
      ids.push(offer.id);
    } catch (err) {
      deps.logger.warn({ attempt_id: a.id, err_code: (err as { code?: string }).code }, 'an offer from the funder could not be logged');
    }
  }
  a.offer_keys = [...known];
  return ids;
}

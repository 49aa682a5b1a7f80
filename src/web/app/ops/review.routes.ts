import express, { type Request, type Response, type Router } from 'express';
import type { components } from '../../../../generated/schema';
import type { Deps } from '../../../deps';
import { notFound } from '../../../http/errors';
import { assignInboundEmail, dismissInboundEmail, getInboundEmail, listInboundEmails, type InboundEmail } from '../../../features/inbound/inbound.service';
import { submissionsQuery } from '../../../features/submissions/submissions.repository';
import { html, type Safe } from '../../html';
import type { AppContext } from '../context';
import { formBody, isId, money, page, postForm, sendPage, when } from './common';
import { contractProblem } from './contract-body';
import { once, ONCE_FIELD } from './once';
import { ANSWERS, REPLY_TYPES, REVIEW_REASONS, SUBMISSION_STATUS } from './words';

// The review queue: lender replies that wait for a person (status unmatched or unclassified), each
// with why it waits, what the classifier read (type, offers, the evidence it went by), and two
// actions through the /v1 operations' own services: assign it to one of the location's open
// submissions with the answer (assignInboundEmail: the answer recorded on the submission, its
// offers logged, the activity line and events written, exactly as POST /v1/inbound-emails/{id}/assign)
// or dismiss it (dismissInboundEmail). A body the form builds is checked against the contract's
// schema first (./contract-body.ts).

type S = components['schemas'];
export const REVIEW_PATH = '/review';
const BASE = `/app${REVIEW_PATH}`;
const ACTIVE = 'review';
const PAGE = 25;
/** Submissions offered in the picker: the location's most recent open ones. */
const PICKER_MAX = 200;
const CLOSED = ['funded', 'withdrawn', 'expired'];

const DONE: Record<string, string> = {
  assigned: 'The reply was assigned and its answer recorded on the submission.',
  dismissed: 'The reply was dismissed. It no longer waits for review.',
};

const LABELS: Record<string, string> = {
  amount: 'The offer amount', factor_rate: 'The factor rate', term: 'The term', payment_frequency: 'The payment frequency',
  response_notes: 'The notes', response_type: 'The answer', decline_reason: 'The decline reason', requested_items: 'The requested items',
};

interface OpenSubmission {
  id: string;
  status: string;
  lender_name: string | null;
  legal_name: string;
  trace_code: string | null;
  submitted_at: Date | null;
}

async function openSubmissions(deps: Deps, ctx: AppContext): Promise<OpenSubmission[]> {
  return (await submissionsQuery(deps.db.knex, ctx.scope)
    .join('businesses as b', 'b.id', 'd.business_id')
    .whereNotIn('s.status', CLOSED)
    .clearSelect()
    .select('s.id', 's.status', 'l.name as lender_name', 'b.legal_name', 's.trace_code', 's.submitted_at')
    .orderBy('s.created_at', 'desc')
    .limit(PICKER_MAX)) as OpenSubmission[];
}

function offerLine(o: S['ExtractedOfferTerms']): Safe {
  const parts = [
    money(o.amount),
    o.factor_rate !== null ? `factor ${o.factor_rate}` : 'no factor rate',
    o.term !== null ? `${o.term} ${o.term_unit ?? 'days'}` : 'no term',
    o.payment_frequency ? `${o.payment_frequency} payments` : null,
    o.payment_amount !== null ? `of ${money(o.payment_amount)}` : null,
  ].filter(Boolean).join(', ');
  return html`<li>${parts}${o.missing.length ? html` <span class="warn">(incomplete: ${o.missing.map((m) => m.replace('_', ' ')).join(' and ')} not stated)</span>` : ''}</li>`;
}

function reading(c: S['InboundEmailClassification']): Safe {
  return html`<dl class="facts">
  <dt>What we read</dt><dd>${REPLY_TYPES[c.type] ?? c.type} (${Math.round(c.confidence * 100)}% sure)</dd>
  ${c.decline_reason || c.decline_category ? html`<dt>Decline reason</dt><dd>${c.decline_reason ?? ''}${c.decline_category ? ` (${c.decline_category.replace(/_/g, ' ')})` : ''}</dd>` : ''}
  ${c.requested_items.length ? html`<dt>Asks for</dt><dd>${c.requested_items.join('; ')}</dd>` : ''}
  ${c.offers.length ? html`<dt>Offers found</dt><dd><ul class="plain">${c.offers.map(offerLine)}</ul></dd>` : ''}
</dl>
${c.reasons.length ? html`<details><summary>Why we read it this way</summary><ul>${c.reasons.map((r) => html`<li class="wrap">${r}</li>`)}</ul></details>` : ''}`;
}

function submissionLabel(s: OpenSubmission): string {
  return `${s.legal_name} → ${s.lender_name ?? 'unknown lender'}${s.trace_code ? ` (ref ${s.trace_code})` : ''}, ${SUBMISSION_STATUS[s.status] ?? s.status}`;
}

function replyCard(ctx: AppContext, e: InboundEmail, subs: OpenSubmission[]): Safe {
  const c = e.classification;
  const p = `r-${e.id}`;
  const excerpt = e.text.length > 1500 ? `${e.text.slice(0, 1500)}…` : e.text;
  const known = e.submission_id && subs.some((s) => s.id === e.submission_id);
  return html`<article class="card" data-inbound-id="${e.id}" aria-labelledby="${p}-t">
  <h2 id="${p}-t" class="wrap">${e.subject || '(no subject)'}</h2>
  <p class="muted wrap">From ${e.from.name ? `${e.from.name} <${e.from.address}>` : e.from.address}, received ${when(e.received_at)}</p>
  <p class="reason"><strong>Why it waits:</strong> ${e.review_reason ? REVIEW_REASONS[e.review_reason] ?? e.review_reason : 'It needs a person to look at it.'}</p>
  ${reading(c)}
  <details><summary>The message</summary><pre class="message">${excerpt}</pre>${e.attachments.length ? html`<p>Attachments: ${e.attachments.map((a) => a.filename ?? 'unnamed').join(', ')}</p>` : ''}</details>
  ${postForm(`${BASE}/${e.id}/assign`, html`
    <h3>Assign to a submission</h3>
    <label for="${p}-sub">Submission</label>
    <select id="${p}-sub" name="submission_id" required>
      <option value="">Choose the submission this reply answers</option>
      ${subs.map((s) => html`<option value="${s.id}"${s.id === e.submission_id ? html` selected` : ''}>${submissionLabel(s)}</option>`)}
    </select>
    ${e.submission_id && !known ? html`<p class="hint">It was matched to a submission that is no longer open.</p>` : ''}
    <label for="${p}-ans">The lender's answer</label>
    <select id="${p}-ans" name="answer">
      <option value="read">As we read it (${REPLY_TYPES[c.type] ?? c.type})</option>
      ${ANSWERS.map(([v, l]) => html`<option value="${v}">${l}</option>`)}
    </select>
    <fieldset class="offer-fields">
      <legend>Offer (for an approval or counter-offer; leave empty to use the offers we found)</legend>
      <div class="row">
        <div><label for="${p}-amt">Amount ($)</label><input id="${p}-amt" name="amount" inputmode="decimal" autocomplete="off"></div>
        <div><label for="${p}-fr">Factor rate</label><input id="${p}-fr" name="factor_rate" inputmode="decimal" autocomplete="off"></div>
        <div><label for="${p}-term">Term (days)</label><input id="${p}-term" name="term" inputmode="numeric" autocomplete="off"></div>
        <div><label for="${p}-freq">Payments</label><select id="${p}-freq" name="payment_frequency"><option value="daily">Daily</option><option value="weekly">Weekly</option><option value="bi-weekly">Every two weeks</option><option value="monthly">Monthly</option></select></div>
      </div>
    </fieldset>
    <label for="${p}-notes">Notes (optional)</label>
    <textarea id="${p}-notes" name="notes" rows="2"></textarea>
    <button type="submit" class="primary">Assign and record the answer</button>`, ctx, { className: 'assign', label: 'Assign to a submission' })}
  ${postForm(`${BASE}/${e.id}/dismiss`, html`
    <h3>Or dismiss it</h3>
    <label for="${p}-why">Why (optional)</label>
    <input id="${p}-why" name="reason" autocomplete="off">
    <button type="submit">Dismiss</button>`, ctx, { className: 'dismiss', label: 'Dismiss' })}
</article>`;
}

async function queuePage(deps: Deps, req: Request, res: Response, ctx: AppContext, extra: { notice?: string; error?: string; status?: number } = {}) {
  const [unmatched, unclassified] = await Promise.all([
    listInboundEmails(deps, ctx.scope, { status: 'unmatched', limit: PAGE }),
    listInboundEmails(deps, ctx.scope, { status: 'unclassified', limit: PAGE }),
  ]);
  const waiting = [...unmatched.data, ...unclassified.data].sort((a, b) => b.received_at.localeCompare(a.received_at));
  const subs = waiting.length ? await openSubmissions(deps, ctx) : [];
  const more = unmatched.meta.has_more || unclassified.meta.has_more;
  const body = html`<p class="lead">Lender replies we could not match or read with confidence wait here for a person. For each one, pick the submission it answers and the answer, or dismiss it.</p>
${waiting.length ? html`<p id="waiting-count">${waiting.length === 1 ? '1 reply waits.' : `${waiting.length}${more ? '+' : ''} replies wait.`}</p>${waiting.map((e) => replyCard(ctx, e, subs))}`
    : html`<p id="waiting-count">No replies wait for review.</p>`}
${more ? html`<p>More replies wait: handle these first and the next ones appear.</p>` : ''}`;
  sendPage(res, ctx, { title: 'Replies to review', active: ACTIVE, body, notice: extra.notice, error: extra.error }, extra.status ?? 200);
}

const num = (v: unknown): number | undefined => {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const n = Number(v.trim().replace(/[$,\s]/g, ''));
  return Number.isFinite(n) ? n : NaN;
};

/** The assign body, as POST /v1/inbound-emails/{id}/assign takes it. */
function assignBody(b: Record<string, unknown>, found: S['InboundEmailClassification'] | null): S['AssignInboundEmailRequest'] {
  const body: S['AssignInboundEmailRequest'] = { submission_id: String(b.submission_id ?? '') };
  const answer = typeof b.answer === 'string' ? b.answer : 'read';
  const notes = typeof b.notes === 'string' && b.notes.trim() ? b.notes.trim() : undefined;
  if (answer === 'read' && !notes) return body;
  if (answer === 'read' && !found?.response_type) return body; // nothing was read: the notes alone are no answer
  const type = (answer === 'read' ? found!.response_type : answer) as S['RecordSubmissionResponseRequest']['response_type'];
  const response: S['RecordSubmissionResponseRequest'] = { response_type: type, ...(notes ? { response_notes: notes } : {}) };
  if (type === 'approved' || type === 'counter') {
    const amount = num(b.amount);
    const factor = num(b.factor_rate);
    const term = num(b.term);
    if (amount !== undefined || factor !== undefined || term !== undefined) {
      response.offers = [{ amount: amount as number, factor_rate: factor as number, term: term as number, term_unit: 'days', payment_frequency: String(b.payment_frequency ?? 'daily') as never }];
    } else if (found) {
      const complete = found.offers.filter((o) => !o.missing.length && o.factor_rate !== null && o.term !== null);
      if (complete.length) {
        response.offers = complete.slice(0, 10).map((o) => ({
          amount: o.amount, factor_rate: o.factor_rate!, term: o.term!, term_unit: o.term_unit ?? 'days',
          ...(o.payment_frequency ? { payment_frequency: o.payment_frequency } : {}), ...(o.payment_amount !== null ? { payment_amount: o.payment_amount } : {}),
        }));
      }
    }
  }
  if (type === 'declined' && found?.type === 'declined') {
    if (found.decline_reason) response.decline_reason = found.decline_reason.slice(0, 1000);
    if (found.decline_category) response.decline_category = found.decline_category;
  }
  if (type === 'more_info' && found?.requested_items.length) response.requested_items = found.requested_items.slice(0, 50).map((i) => i.slice(0, 500));
  body.response = response;
  return body;
}

export function reviewRouter(deps: Deps): Router {
  const router = express.Router();
  router.use(formBody);
  const again = (req: Request, res: Response, ctx: AppContext, e: { status: number; message: string }) => queuePage(deps, req, res, ctx, { error: e.message, status: e.status });
  const idOf = (req: Request): string => {
    if (!isId(req.params.id)) throw notFound('inbound email', '?');
    return req.params.id as string;
  };

  router.get('/', page(async (req, res, ctx) => {
    const why = typeof req.query.why === 'string' ? REVIEW_REASONS[req.query.why] : undefined;
    const notice = req.query.done === 'unread'
      ? `The reply is now tied to the submission, but no answer was recorded${why ? `: ${why.replace(/\.$/, '')}` : ''}. It still waits here: choose the lender's answer yourself.`
      : typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    await queuePage(deps, req, res, ctx, { notice });
  }, again));

  router.post('/:id/assign', page(async (req, res, ctx) => {
    const id = idOf(req);
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!isId(b.submission_id)) return queuePage(deps, req, res, ctx, { error: 'Choose the submission this reply answers.', status: 400 });
    const email = await getInboundEmail(deps, ctx.scope, id);
    const body = assignBody(b, email.classification);
    const problem = contractProblem('AssignInboundEmailRequest', body, LABELS);
    if (problem) return queuePage(deps, req, res, ctx, { error: problem, status: 400 });
    const { value } = await once(deps, ctx, b[ONCE_FIELD], `assign ${id} ${JSON.stringify(body)}`, (d) => assignInboundEmail(d, ctx.scope, id, body));
    if (value.status === 'processed') return res.redirect(303, `${BASE}?done=assigned`);
    res.redirect(303, `${BASE}?done=unread&why=${encodeURIComponent(value.review_reason ?? '')}`);
  }, again));

  router.post('/:id/dismiss', page(async (req, res, ctx) => {
    const id = idOf(req);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const reason = typeof b.reason === 'string' && b.reason.trim() ? b.reason.trim() : undefined;
    const problem = contractProblem('DismissInboundEmailRequest', reason === undefined ? {} : { reason }, { reason: 'The reason' });
    if (problem) return queuePage(deps, req, res, ctx, { error: problem, status: 400 });
    await once(deps, ctx, b[ONCE_FIELD], `dismiss ${id}`, (d) => dismissInboundEmail(d, ctx.scope, id, reason));
    res.redirect(303, `${BASE}?done=dismissed`);
  }, again));

  return router;
}

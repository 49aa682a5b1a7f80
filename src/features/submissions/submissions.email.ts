import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { invalid } from '../../http/errors';
import { registerAttachmentSource } from '../../mail/attachments';
import { registerEmailDeadHook, registerEmailSentHook } from '../../mail/sent-hooks';
import { businessNameOfDeal, submissionFailedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { usd } from '../deals/deals.mapper';
import { MAX_DOCUMENT_BYTES } from '../documents/documents.service';
import { buildSubmissionPackageIsolated } from './package.isolated';
import { type PackageDocument, type PackageOwner, type SubmissionPackageInput } from './package';
import type { SubmissionRow } from './submissions.repository';
import { markSubmissionSent } from './submissions.service';

// The email side of a submission: the message (the location's default template or the request's
// overrides, variables rendered and HTML-escaped), the package attached at send time (rebuilt from
// the submission, byte-identical on every retry), and what happens once the SMTP server accepted
// it (the submission becomes `sent`, `submission.sent` fires, the deal moves), in one transaction.

export const SUBMISSION_EMAIL_KIND = 'submission_package';

const DEFAULT_SUBJECT = 'New submission: {{business_name}} ({{requested_amount}})';
const DEFAULT_BODY = [
  'Hello {{lender_name}} team,',
  '',
  'Please find attached a new funding request from {{location_name}} for {{business_name}}: {{requested_amount}}.',
  '',
  'Reference {{trace_code}} is printed on every page of the attached package. Reply to this email with your',
  'decision or your offer: {{offer_submission_link}}',
  '',
  'Thank you,',
  '{{location_name}}',
].join('\n');

export const TEMPLATE_VARIABLES = [
  'business_name', 'dba', 'industry', 'state', 'lender_name', 'location_name', 'requested_amount', 'product_type',
  'use_of_funds', 'trace_code', 'offer_submission_link',
] as const;
type Variable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Record<Variable, string>;

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** 400 naming the first unknown `{{variable}}` of a template text. */
export function checkTemplate(text: string, param: string): void {
  for (const m of text.matchAll(VARIABLE)) {
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1])) {
      throw invalid(`Unknown template variable {{${m[1].slice(0, 60)}}}; known: ${TEMPLATE_VARIABLES.join(', ')}`, param);
    }
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const render = (text: string, values: TemplateValues, escape: (s: string) => string) => text.replace(VARIABLE, (_, name: Variable) => escape(values[name] ?? ''));
const looksLikeHtml = (s: string) => /<\/?[a-z][^>]*>/i.test(s);
const htmlToText = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** Subject, text and HTML of one lender's email. Values are escaped in HTML; the subject is one line. */
export function renderSubmissionEmail(opts: { subject?: string; message?: string }, values: TemplateValues): { subject: string; text: string; html: string } {
  const subject = render(opts.subject ?? DEFAULT_SUBJECT, values, (s) => s).replace(/[\r\n]+/g, ' ').slice(0, 998);
  const body = opts.message ?? DEFAULT_BODY;
  if (looksLikeHtml(body)) {
    const html = render(body, values, escapeHtml);
    return { subject, html, text: htmlToText(html) };
  }
  const text = render(body, values, (s) => s);
  return { subject, text, html: `<div>${render(escapeHtml(body), values, escapeHtml).replace(/\n/g, '<br>\n')}</div>` };
}

/** `ops+svc7k3m9q2p@example.com`: the mailbox address, tagged with the submission's trace code. */
export function replyAddress(fromAddress: string, traceCode: string): string {
  const at = fromAddress.lastIndexOf('@');
  const local = fromAddress.slice(0, at).split('+')[0];
  return `${local}+${traceCode.replace(/-/g, '').toLowerCase()}@${fromAddress.slice(at + 1)}`;
}

export function templateValues(v: { businessName: string; dba: string | null; industry: string | null; state: string | null; lenderName: string; locationName: string; requestedAmount: number | null; productType: string | null; useOfFunds: string | null; traceCode: string; replyTo: string }): TemplateValues {
  return {
    business_name: v.businessName,
    dba: v.dba ?? '',
    industry: v.industry ?? '',
    state: v.state ?? '',
    lender_name: v.lenderName,
    location_name: v.locationName,
    requested_amount: v.requestedAmount === null ? 'amount to be discussed' : usd(Number(v.requestedAmount)),
    product_type: v.productType ?? '',
    use_of_funds: v.useOfFunds ?? '',
    trace_code: v.traceCode,
    offer_submission_link: `mailto:${v.replyTo}?subject=${encodeURIComponent(`Offer ${v.traceCode}`)}`,
  };
}

/** The package's input, read from the submission's location only. */
async function packageInput(deps: Deps, locationId: string, submissionId: string): Promise<SubmissionPackageInput> {
  const db = deps.db.knex;
  const s = (await db('submissions').where({ id: submissionId, location_id: locationId }).first()) as SubmissionRow | undefined;
  if (!s || !s.trace_code) throw new Error('submission not found or without a trace code');
  const deal = await db('deals').where({ id: s.deal_id, location_id: locationId }).first();
  const business = await db('businesses').where({ id: deal.business_id, location_id: locationId }).first();
  const lender = await db('lenders').where({ id: s.lender_id, location_id: locationId }).first('name');
  const location = await db('locations').where({ id: locationId }).first('name');
  const owners = (await db('business_people as bp')
    .join('people as p', 'p.id', 'bp.person_id')
    .where({ 'bp.business_id': business.id, 'bp.location_id': locationId, 'bp.active': true })
    .orderBy([{ column: 'bp.created_at' }, { column: 'bp.id' }])
    .select('p.first_name', 'p.last_name', 'bp.role', 'bp.ownership_percent')) as { first_name: string; last_name: string; role: string; ownership_percent: number | null }[];
  return {
    traceCode: s.trace_code,
    generatedAt: new Date(s.created_at),
    location: { name: location?.name ?? '' },
    lender: { name: lender?.name ?? '' },
    business: {
      legal_name: business.legal_name, dba: business.dba, entity_type: business.entity_type, industry: business.industry, ein: business.ein,
      address: business.address, city: business.city, state: business.state, zip: business.zip, phone: business.phone,
      business_start_date: business.business_start_date,
    },
    deal: {
      requested_amount: deal.requested_amount === null ? null : Number(deal.requested_amount), product_type: deal.product_type,
      use_of_funds: deal.use_of_funds, desired_term_months: deal.desired_term_months, desired_frequency: deal.desired_frequency,
      annual_revenue: deal.annual_revenue === null ? null : Number(deal.annual_revenue), state_incorporated: deal.state_incorporated,
    },
    owners: owners.map((o): PackageOwner => ({ first_name: o.first_name, last_name: o.last_name, role: o.role, ownership_percent: o.ownership_percent === null ? null : Number(o.ownership_percent) })),
    documents: await packageDocuments(deps, locationId, s.document_ids ?? []),
  };
}

/** The chosen documents' bytes, in the order given (the package stamps and merges them). */
async function packageDocuments(deps: Deps, locationId: string, ids: string[] | string): Promise<PackageDocument[]> {
  const list: string[] = typeof ids === 'string' ? JSON.parse(ids) : ids;
  if (!list.length) return [];
  const rows: { id: string; filename: string; category: string; storage_key: string }[] = await deps.db.knex('documents')
    .where({ location_id: locationId }).whereIn('id', list).select('id', 'filename', 'category', 'storage_key');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: PackageDocument[] = [];
  for (const id of list) {
    const r = byId.get(id);
    if (!r) continue; // deleted since: the package goes without it
    out.push({ filename: r.filename, category: r.category, content: new Uint8Array(await deps.storage.read(r.storage_key, { maxBytes: MAX_DOCUMENT_BYTES })) });
  }
  return out;
}

/** The email became `sent`: the submission follows (only from `queued`: a withdrawn one stays withdrawn). */
async function onSubmissionEmailSent(trx: Knex.Transaction, deps: Deps, email: { id: string; location_id: string; sent_at: Date }): Promise<void> {
  const link = (await trx('outgoing_emails').where({ id: email.id }).first('attachments')) as { attachments: { source: { ref: string } }[] } | undefined;
  const submissionId = link?.attachments?.[0]?.source?.ref;
  if (!submissionId) return;
  const row = (await trx('submissions as s').leftJoin('lenders as l', 'l.id', 's.lender_id').where({ 's.id': submissionId, 's.location_id': email.location_id }).first('s.*', 'l.name as lender_name')) as SubmissionRow | undefined;
  if (row) await markSubmissionSent(trx, deps, row, email.sent_at);
}

/** The email was given up for good while its submission still waited for it: the deal's originator is told. */
async function onSubmissionEmailDead(trx: Knex.Transaction, deps: Deps, email: { id: string; location_id: string; last_error: string }): Promise<void> {
  const link = (await trx('outgoing_emails').where({ id: email.id }).first('attachments')) as { attachments: { source: { ref: string } }[] } | undefined;
  const submissionId = link?.attachments?.[0]?.source?.ref;
  if (!submissionId) return;
  const row = (await trx('submissions as s').leftJoin('lenders as l', 'l.id', 's.lender_id').where({ 's.id': submissionId, 's.location_id': email.location_id }).first('s.id', 's.deal_id', 's.status', 'l.name as lender_name')) as
    | { id: string; deal_id: string; status: string; lender_name: string | null }
    | undefined;
  if (!row || row.status !== 'queued') return;
  const message = submissionFailedMessage({ business: await businessNameOfDeal(trx, email.location_id, row.deal_id), lender: row.lender_name ?? '', submissionId: row.id, how: 'email', reason: email.last_error });
  await notify(trx, deps, { locationId: email.location_id, kind: 'submission_failed', dealId: row.deal_id, actorUserId: null, ...message });
}

/** Registers the package source and the sent hook; call once where the worker is wired. */
export function registerSubmissionMail(): void {
  registerAttachmentSource(SUBMISSION_EMAIL_KIND, async (deps, ref, ctx) => buildSubmissionPackageIsolated(await packageInput(deps, ctx.locationId, ref), { signal: ctx.signal }));
  registerEmailSentHook(SUBMISSION_EMAIL_KIND, onSubmissionEmailSent);
  registerEmailDeadHook(SUBMISSION_EMAIL_KIND, onSubmissionEmailDead);
}

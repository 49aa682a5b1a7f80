import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { registerAttachmentSource } from '../../mail/attachments';
import { queueEmail } from '../../mail/mail.outbox';
import { getMailbox, parseFromAddress } from '../../mail/mailbox';
import { registerEmailDeadHook, registerEmailSentHook } from '../../mail/sent-hooks';
import { businessNameOfDeal, submissionFailedMessage } from '../notifications/messages';
import { notify } from '../notifications/notifications.service';
import { MAX_DOCUMENT_BYTES } from '../documents/documents.service';
import { buildSubmissionPackageIsolated } from './package.isolated';
import type { PackageDocument, PackageOwner, SubmissionPackageInput } from './package';
import { registerSubmissionChannel, type ChannelBatch } from './channels';
import type { SubmissionRow } from './submissions.repository';
import { markSubmissionSent } from './submissions.service';
import { renderSubmissionEmail, replyAddress, SUBMISSION_EMAIL_KIND, templateValues } from './submissions.template';

// The email channel of a submission (channels.ts): one email per lender queued in the creating
// transaction (the message: submissions.template.ts), the package attached at send time (rebuilt from
// the submission, byte-identical on every retry), and what happens once the SMTP server accepted
// it (the submission becomes `sent`, `submission.sent` fires, the deal moves), in one transaction.

/** Queues one email per new submission to an email lender (in the creating transaction). */
async function sendEmails(trx: Knex.Transaction, deps: Deps, { scope, dealId, body, items }: ChannelBatch): Promise<void> {
  const mailbox = (await getMailbox(trx, scope.locationId))!; // a submission is `queued` by email only when there is one
  const dealRow = (await trx('deals').where({ id: dealId, location_id: scope.locationId }).first('business_id', 'requested_amount', 'product_type', 'use_of_funds'))!;
  const business = (await trx('businesses').where({ id: dealRow.business_id, location_id: scope.locationId }).first('legal_name', 'dba', 'industry', 'state'))!;
  const locationName = ((await trx('locations').where({ id: scope.locationId }).first('name')) as { name: string }).name;
  const from = parseFromAddress(mailbox.from).address;
  for (const { row, lender } of items) {
    const replyTo = replyAddress(from, row.trace_code!);
    const values = templateValues({
      businessName: business.legal_name, dba: business.dba, industry: business.industry, state: business.state, lenderName: lender.name,
      locationName, requestedAmount: dealRow.requested_amount, productType: dealRow.product_type, useOfFunds: dealRow.use_of_funds,
      traceCode: row.trace_code!, replyTo,
    });
    const msg = renderSubmissionEmail({ subject: body.subject_override, message: body.message_override }, values);
    await queueEmail(trx, deps.clock, {
      locationId: scope.locationId,
      kind: SUBMISSION_EMAIL_KIND,
      to: [lender.submission_email!],
      cc: (lender.cc_emails ?? []).filter((c) => c !== lender.submission_email),
      replyTo,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
      attachments: [{ filename: `submission-${row.trace_code}.pdf`, contentType: 'application/pdf', source: { kind: SUBMISSION_EMAIL_KIND, ref: row.id } }],
    });
  }
}

/** An email of this submission that has not gone out is cancelled: nothing reaches the lender after a withdrawal. */
async function cancelQueuedEmail(trx: Knex.Transaction, scope: { locationId: string }, submissionId: string, now: Date): Promise<void> {
  await trx('outgoing_emails')
    .where({ location_id: scope.locationId, kind: SUBMISSION_EMAIL_KIND })
    .whereIn('status', ['queued', 'failed'])
    .whereRaw('attachments @> ?::jsonb', [JSON.stringify([{ source: { ref: submissionId } }])])
    .update({ status: 'dead', last_error: 'Cancelled: the submission was withdrawn', updated_at: now });
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

/** Registers the email channel, the package source and the sent and dead hooks (src/background.ts, at start). */
export function registerSubmissionMail(): void {
  registerSubmissionChannel('email', { send: sendEmails, withdrawn: (trx, scope, id, now) => cancelQueuedEmail(trx, scope, id, now) });
  registerAttachmentSource(SUBMISSION_EMAIL_KIND, async (deps, ref, ctx) => buildSubmissionPackageIsolated(await packageInput(deps, ctx.locationId, ref), { signal: ctx.signal }));
  registerEmailSentHook(SUBMISSION_EMAIL_KIND, onSubmissionEmailSent);
  registerEmailDeadHook(SUBMISSION_EMAIL_KIND, onSubmissionEmailDead);
}

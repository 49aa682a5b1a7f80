import { invalid } from '../../http/errors';
import { usd } from '../deals/deals.mapper';

// A submission email's words: the location's default template or the request's overrides, variables
// rendered and HTML-escaped, and the reply address tagged with the trace code. Pure: the state
// machine (submissions.service.ts) checks a request's templates with it, and the email channel
// (submissions.email.ts) renders each lender's message.

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

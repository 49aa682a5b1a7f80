// The lender-reply classifier: deterministic rules over the text the lender wrote (quotes and
// forwarded headers cut by reply-text.ts). It answers what the lender said (approved, declined with a
// category, needs_info with the items asked for, counter, or unclassified for auto-replies and
// anything unclear) and extracts offer terms. No network, no model: every decision lists the cues
// that fired in `reasons`, so a reviewer can see why.
//
// Class names: the contract's `response_type` says `more_info` where this says `needs_info`; use
// `toResponseType`. `counter` records as `counter` (status approved). `unclassified` is never sent:
// the reply is kept for review.
import { CHAIN_LATEST, POINTS_BELOW, type ReplyInput, normalizeText, quotedColleague, replyParts, ticketDeskReply } from '../reply-text';
import type { Classification, ExtractedOffer, ReplyContext } from './types';
import { otherAgendaItem, sentenceAround } from './text';
import { add } from './cues';
import { extractOffers } from './offers';
import { NO_AMOUNT, otherAmountNamed } from './ask';
import { type Analysis, type Decision, analyse } from './analyse';
import { decide } from './decide';
import { foreignDecision, otherDeals, papersForOther, splitDeals } from './deals';
export { digestEntries } from './deals';
import { lowerCaseOtherBusiness } from './decision-doubts';
import { scanFacts } from './facts';
import { quotedAskedFrequency } from './money';
import { changeRecordNow } from './change-record';

// The classifier's public surface (what importers of './classifier' use); the stages live beside this file:
// text.ts (normalising, numbers in words), cues.ts (phrase cues and their scores), decline-category.ts,
// requested-items.ts (stips), money.ts (amounts, frequencies, the asked term), facts.ts (figures in a
// line), offers.ts (facts grouped into offers, tables), ask.ts (the deal's ask named or refused),
// analyse.ts (all cues of one reply), decide.ts (the rules of the trade over them), deals.ts (replies
// about several files or another one).
export {
  CLASSIFIER_REVIEW_REASONS,
  DECLINE_CATEGORIES,
  toResponseType,
  type Classification,
  type ClassifierReviewReason,
  type DeclineCategory,
  type ExtractedOffer,
  type PaymentFrequency,
  type ReplyContext,
  type ReplyType,
  type TermUnit,
} from './types';
export { blankBoilerplate, wordsToDigits } from './text';
export { askedFrequency, askedTerm, termDiffers } from './money';
export { extractOffers } from './offers';
export { MIN_CONFIDENCE, isoNumbers } from './decide';

// ---------------------------------------------------------------- attached PDFs

/**
 * Offer terms from the text of the reply's PDF attachments (offer letters, term sheets; read by
 * attachments.ts). The body decides, the attachment only completes it:
 * - its complete offers stand in for the body's when the body states no complete offer itself
 *   (before `decide`, so that they are weighed as the body's would be), and are kept only for an
 *   approval or a counter: a body that declines or asks for items keeps no offer, whatever term
 *   sheet is attached; an automatic reply's attachment is not read for terms;
 * - they count as evidence of an approval only when the body decides nothing on its own, points at
 *   the attachment ("see attached offer") and has no decline, request, auto-reply or acknowledgement
 *   cue at all.
 */
function attachmentOffers(a: Analysis, attachmentText: string, reasons: string[], context?: ReplyContext): ExtractedOffer[] {
  if (a.offers.some((o) => o.missing.length === 0) || a.auto.score >= 4) return [];
  const offers = extractOffers(attachmentText, context)
    .filter((o) => o.missing.length === 0)
    .map((o): ExtractedOffer => ({ ...o, from_attachment: true }));
  if (!offers.length) return [];
  reasons.push(`${offers.length} offer(s) with terms in the attached PDF`);
  const pointsAtIt = /\battach(ed|ment|ments)?\b|\benclosed\b|\bpdf\b|\bterm sheet\b|\boffer letter\b/.test(a.lower);
  if (pointsAtIt && a.ownDecision < 2 && a.declined.score === 0 && a.needs.score < 1 && a.auto.score === 0 && a.pending.score === 0) {
    add(a.approved, 2.5, 'offer terms in the attachment the reply points at');
  }
  return offers;
}

/**
 * The reason that marks an approval or counter whose text prices the deal (a factor, a payback, a payment, a term, a
 * count of payments) without any offer read from it: reply-outcome.ts sends it to a person (`incomplete_offer`), never
 * applied without the offer the lender stated (issue 26 item 1).
 */
export const PRICING_NOT_READ = 'pricing in the reply not turned into an offer';

/** The pricing cues of a text: an amount written in figures, a factor, a payback, a payment, a term or a count of payments (not "as submitted", which names the ask). */
export function pricingCues(text: string, context?: ReplyContext): string[] {
  return scanFacts(text, 0, context)
    .filter((f) => f.kind === 'factor' || f.kind === 'term' || f.kind === 'count' || (f.kind === 'money' && (f.money === 'payback' || f.money === 'payment' || f.money === 'funded') && /\d/.test(f.text)))
    .map((f) => f.text.trim());
}

/** (rfix23) A message that says of itself it is not the lender's ("Internal, not from the funder", "not a reply from the lender"). */
const SELF_NOT_LENDER = /\b(?:internal|this is(?: just)?(?: an?)?(?: internal)? (?:note|memo)|(?:our|my) own (?:note|notes|memo))\b[^.!?\n]{0,30}?\bnot (?:from|sent by|written by|a reply from|an? (?:email|reply|message) from) (?:the|our|any) (?:funder|lender|underwriter|underwriting|bank)\b|\bnot an? (?:funder|lender)(?:'s)? (?:reply|response|email|decision)\b/i;
/** A decision written into the subject line of a reply ("... - APPROVED 70K", "... - DECLINED (TIB)", "... counter 50k"). */
const SUBJECT_ANSWER = /\b(approved|approval|appr|declined?|decl|counter(ed)?|pass(ing)?|funded|no go)\b/i;

/**
 * Classifies a lender's reply. `text` is the text part, `html` the HTML part when there is one; the
 * quoted thread is cut before any rule runs. A forwarded message is read when the sender's own text
 * decides nothing ("see below from UW"). `attachmentText`, the text of its PDF attachments, is read
 * for offer terms only (`attachmentOffers`). `context` is what the hook knows of the submission (the
 * deal's requested amount above all): with it, counters are read from the terms, not only the words.
 */
/** The reason noted when a reply's only part is a document request naming another business than the deal's. */
export const REQUEST_FOR_OTHER_BUSINESS = "a document request naming another business than this deal's: which file the items are for is a person's call";

/**
 * (rfix24) The sender itself cannot tell which of two files the reply is for ("wait, is this the Morristown one or the Maryville
 * place?", "I can't tell which file UW pulled", "not sure which of your two deals this is"): whatever it decides or asks may be the
 * other file's; a person checks (multiple_deals). Never a choice between offers ("is it the 6 month one or the 9 month one", "let
 * me know which one the merchant prefers").
 */
export const FILE_IN_DOUBT =
  /\b(?:is|was) (?:this|it|that) (?:for )?the (?![^.!?\n]{0,40}?\b(?:\d|daily|weekly|monthly|month|months|week|weeks|option|offer|term|factor|rate|payment)\b[^.!?\n]{0,16}?\bor the\b)[a-z'&.\- ]{2,40}? (?:one|file|deal|place|shop|store|account|merchant|submission|location) or the\b|\b(?:can't|cannot|can not|couldn't|could not|don't|do not|not sure|unsure|no idea)(?: (?:tell|know|say|figure out|remember))? which (?:of (?:the|your|these|those|our) (?:two |2 |three |both )?)?(?:file|deal|submission|merchant|account|business)s?\b|\b(?:mixed|mixing) up (?:the |two |your |these )?(?:files|deals|submissions|merchants)\b/;
/**
 * (revH) Another file's news that bears on this deal: it points back at this file ("a duplicate of this one", "same owner as",
 * "same EIN"), so it is not news alone (see newsOnly).
 */
const SAME_FILE_NEWS = /\b(?:this (?:one|file|deal|merchant|submission|business)|same (?:owner|owners|merchant|guarantor|principal|ein|tax id|business|account|bank account)|duplicates?|dupes?|dupl?icate submission)\b/;
/** (rfix31) A live matter on another file: an offer, a quote or terms, a deadline, a contract or stips, a decision. */
const LIVE_MATTER = /\b(?:quotes?|offers?|terms|expires?|expiring|expiry|deadline|renewal|contracts?|stips?|approv\w*|declin\w*|counter\w*)\b/;
/** The reason noted when the sender cannot tell which file the reply is for. */
export const FILE_IN_DOUBT_REASON = "the sender cannot tell which of two files it answers: a person checks which file it is for";

/** The reason noted when a reply names a business close to the deal's but not it (see nearName in deals.ts). */
export const NEAR_NAME = "names a business close to this deal's but not it: which file it answers is a person's call";

/** The reason noted when a counter offers another product priced by a fee or interest, not a factor (see otherProductByInterest). */
export const INTEREST_PRICED_PRODUCT = 'another product priced by a fee or an interest rate, no factor: no advance offered, no offer to log';
/** A fee or an interest rate pricing a product: "2.2% monthly fee on the outstanding balance", "at 14% APR", "prime + 3". */
const INTEREST_PRICE = /\b\d+(?:\.\d+)?\s?%\s*(?:(?:monthly|annual|annually|weekly|a month|per month|per year|simple)\s+)?(?:fee|interest|apr|rate|draw fee)\b|\b\d+(?:\.\d+)?\s?%\s*(?:apr|interest)\b|\bprime\s*\+\s*\d/;
/** Another product than an advance (a line of credit, a term loan, equipment finance) offered, priced by a fee or interest and by no factor. */
function otherProductByInterest(a: Analysis): boolean {
  return (
    a.product.score >= 3 &&
    /line of credit|credit line|\bloc\b|term loan|equipment/.test(a.product.hits.join(' ')) &&
    a.offers.every((o) => o.factor_rate === null) &&
    !scanFacts(a.own, 0).some((f) => f.kind === 'factor') &&
    INTEREST_PRICE.test(a.lower)
  );
}

/** (rfix27) The reason noted when a reply came through our own ticket desk (reply-text.ts ticketDeskReply). */
export const TICKET_DESK = "a ticket desk's update: only the blocks the lender wrote are read, not the desk's status fields, notes or footer";
/**
 * (rfix27) The reply pointing at a picture for its answer ("see attached image", "it's in the screenshot", an inline "[image: ...]"):
 * when the rules find nothing decisive in its words and no word of a decision at all, the answer is in a picture no reader here reads; the statistical reader does not
 * guess it from the words around the picture ("here's where we landed"), the reply stays unclassified for a person.
 */
export const ANSWER_IN_IMAGE = 'the answer is in a picture (an image or screenshot) and the words decide nothing: nothing read, for a person';
const POINTS_AT_IMAGE = /\b(?:image|images|screenshot|screenshots|screen shot|screen ?grab|screen ?cap|picture|pic|pics|photo|snip|snapshot|\.png|\.jpe?g)\b|\[image:[^\]\n]*\]/i;
/** (rfix27) A word of the decision beside the picture ("the offer is in the screenshot, a little under what you asked"): the words say something, the model may read them. */
const DECISION_WORD = /\b(?:offers?|approv\w*|declin\w*|counter\w*|pass(?:ing|ed)?|fund\w*|terms?|factor|rate|amount|ask|asked|under|less|lower|short|need\w*|stips?|missing|send|no go|sorry|unfortunately|congrats)\b/i;
/** (rfix27) The reasons noted for a digest of several files' entries (deals.ts digestEntries). */
export const DIGEST_OURS = "a digest of several files' entries: only the entry naming this deal is read";
export const DIGEST_NONE = "a digest of several files' entries, none naming this deal: no entry is read as this deal's answer";

/** (rfix31) The reasons noted for a pasted change record (change-record.ts). */
export const CHANGE_RECORD = "a change record: read at its new values and its last stage, not the old ones";
export const RECORD_WITHDRAWN = 'the record takes an approval back (its stage from approved to declined or withdrawn): a person confirms';

/** The reading of a reply whose only decision is about another business (a reply on the wrong thread). */
export const OTHER_BUSINESS_ONLY = "the decision is about another business than this deal's: kept for a person";

/**
 * (rfix20) The one amount floated in a reply that priced terms naming no amount repay exactly: amount x factor = payment x the
 * payments its term makes on its schedule (to 0.2%, payments rounded to the cent), for every such offer; null when none or
 * more than one fits.
 */
function amountThePaymentsRepay(terms: ExtractedOffer[], floated: number[], lower: string, ask?: number): number | null {
  // ... floated in thousands as a bare number ("50 is the most", "can get to 45"): below the ask, and only where the payments
  // confirm it exactly
  const bare = ask ? [...lower.matchAll(/(?<![\d.,$])(\d{1,3})(?![\d.,%]|\s*(?:k\b|%|x\b|days?|weeks?|wks?|months?|mos?|years?|yrs?|payments?|pmts?|positions?|nsfs?|negs?))/g)].map((m) => Number(m[1]) * 1000).filter((x) => x >= 5000 && x < ask) : [];
  floated = [...floated, ...bare];
  const count = (o: ExtractedOffer): number | null =>
    o.term === null ? null : (o.term_unit === 'days' && o.payment_frequency === 'daily') || (o.term_unit === 'weeks' && o.payment_frequency === 'weekly') || (o.term_unit === 'months' && o.payment_frequency === 'monthly') ? o.term : null;
  const fits = [...new Set(floated)].filter((x) => x >= 1000 && terms.length > 0 && terms.every((o) => {
    const n = count(o);
    return o.factor_rate !== null && o.payment_amount !== null && n !== null && Math.abs(x * o.factor_rate - o.payment_amount * n) <= x * o.factor_rate * 0.002;
  }));
  return fits.length === 1 ? fits[0] : null;
}

/** (rfix26) The sender's words putting a condition on what a colleague decided ("unless ...", "if not, we'll revisit", "her approval holds / stands"). */
const CONDITION_ON_COLLEAGUE = /\bunless\b|\bif not\b|\bif (?:they|he|she|the merchant|the owner) (?:can't|cannot|don't|doesn't|do not|does not|has|have)\b|\b(?:approval|approved|offer|terms|numbers?)(?: [a-z']+){0,2} (?:stands?|holds?|is still good|still stands)\b/;

/** (rfix26) The sender's words keeping a colleague's approval or offer standing ("Priya's approval holds", "the offer still stands"). */
const KEEPS_COLLEAGUE = /\b(?:approval|approved|offer|terms|numbers?)(?: [a-z']+){0,2} (?:stands?|holds?|is still good|still stands)\b/;

export function classifyReply(input: { subject: string; text: string; html?: string | null; attachmentText?: string | null }, context?: ReplyContext): Classification {
  // (rfix32) the schedule the deal asks: the hook's deal field, else the broker's own quoted message ("> owner would much prefer
  // weekly"), so that an offer on another schedule is weighed against it (decide.ts otherFreq)
  if (context && !context.requested_frequency) {
    const quotedFreq = quotedAskedFrequency(input.text ?? '');
    if (quotedFreq) context = { ...context, requested_frequency: quotedFreq };
  }
  const parts = replyParts(input as ReplyInput);
  const reasons: string[] = [`read the ${parts.source} part${parts.markers.length ? `; cut ${parts.quotedLines} quoted line(s) at ${[...new Set(parts.markers)].join(', ')}` : ''}`];
  // (rfix31) a pasted CRM change record is read at what it says now: its new values and its last stage (change-record.ts)
  const record = changeRecordNow(parts.own);
  if (record.changes) {
    parts.own = record.text;
    reasons.push(CHANGE_RECORD);
  }
  // (rfix27) a reply through our own ticket desk: the lender's words are the blocks headed by their author; the desk's status fields,
  // internal notes and footer (signed with our name) are ours, neither the lender's hedges nor our paraphrase of its decision
  const desk = ticketDeskReply(parts.own, input.subject, context?.iso?.names ?? []);
  if (desk !== null) reasons.push(TICKET_DESK);
  const deals = splitDeals(desk ?? parts.own, context);
  if (deals.multiple) reasons.push(deals.picked ? "one reply answering several files: read the lines naming this deal's business" : 'one reply answering several files');
  // (rfix27) a digest of several files' entries: the entry naming this deal is read alone; none naming it, no entry is this deal's
  if (deals.digest === 'ours') reasons.push(DIGEST_OURS);
  if (deals.digest === 'none') return { type: 'unclassified', confidence: 0.9, requested_items: [], offers: [], reasons: [...reasons, DIGEST_NONE, OTHER_BUSINESS_ONLY] };
  // a decision or an aside about another deal than this one (holdout8): not read for this deal
  const elsewhere = deals.multiple ? null : otherDeals(deals.own, context);
  const uncut = deals.own;
  if (elsewhere?.cut) {
    reasons.push(`names another deal than this one (${elsewhere.names.join(', ')}): that part is not read for this deal`);
    deals.own = elsewhere.own;
  }
  // (rfix) a name close to the deal's business but not it ("Sioux City Auto Glass" on the Sioux Falls Auto Glass thread): which file the
  // reply answers is a person's call (multiple_deals below)
  if (elsewhere?.near.length) reasons.push(`${NEAR_NAME} (${elsewhere.near.join(', ')})`);
  let a = analyse(deals.own, input.subject, context);
  // the answer typed into the subject line, the body only a signature ("RE: Submission ... - APPROVED 70K @ 1.30 / 9 MOS"):
  // read the subject as the first line of the reply
  const subjectLine = input.subject.replace(/^\s*((re|fwd?|fw|aw|tr|wg)\s*:\s*)+/i, '').trim();
  // (never when the body leans anywhere itself, nor on a question: "Re: Pinecrest - approved?")
  if (a.ownDecision < 1 && a.pending.score === 0 && a.auto.score < 4 && !parts.forwarded && SUBJECT_ANSWER.test(subjectLine) && !/\?\s*$/.test(subjectLine)) {
    const s = analyse(`${subjectLine}\n${deals.own}`, input.subject, context);
    if (s.ownDecision >= 2.5) {
      reasons.push('own text decides nothing: the answer is in the subject line');
      a = s;
    }
  }
  // the sender points at the forwarded message for the decision ("see below from UW. They'll go 45, not the 60"):
  // its terms are the answer, read together with the sender's own words (holdout9)
  const pointsBelow = POINTS_BELOW.test(a.lower);
  const both = parts.forwarded && a.auto.score < 4 && !a.offers.some((o) => o.missing.length === 0) ? analyse(`${deals.own}\n\n${parts.forwarded}`, input.subject, context) : null;
  // (holdout20) ... and so do they when the sender's words carry no terms, neither decline nor take anything back, and the
  // forwarded message prices the deal ("can do the amount but not the bi-weekly, see if the owner takes weekly" over the
  // underwriter's "$40,000 at 1.35 on weekly debits: 30 payments of $1,800.00"): the sender relays those terms
  let fwdAlone: Analysis | null = null;
  const relays = a.withdrawal.score === 0 && a.declined.score < 2 && a.pending.score === 0;
  if (both && both.offers.some((o) => o.missing.length === 0) && (pointsBelow || relays)) {
    reasons.push(pointsBelow ? 'the sender points at the forwarded message: read with it' : "the sender's words carry no terms, the forwarded message does: read with it");
    a = both;
  } else if (both && (pointsBelow || (a.needs.score >= 3 && a.ownDecision === a.needs.score)) && relays && a.approved.score < 2 && !a.items.items.length && both.items.items.length) {
    // (rfix2) ... and so does a request in the sender's words naming no item ("Beth needs a couple of things on the file
    // before she can price it") over the underwriter's list
    // (holdout20) ... for a request: "one item Priya needs on this file, see below" over the underwriter's "I need a zero
    // balance letter from Rapid": the items are the forwarded message's, the request the sender's own words relay
    reasons.push('the sender points at the forwarded request: read with it');
    a = both;
  } else if (parts.forwarded && a.ownDecision < 2.5 && a.auto.score < 4) {
    const f = analyse(parts.forwarded, input.subject, context);
    if (f.ownDecision > a.ownDecision) {
      reasons.push('own text decides nothing: read the forwarded message');
      a = f;
      fwdAlone = f;
    }
  }
  // (rfix26) a reply-all whose quoted message right below is a colleague's at the lender (its writer's domain not the broker's
  // submission's; see quotedColleague): that message is the lender's word too. The sender's own words deciding little ("Agree
  // with Ray ... Sorry Dana", "And the lease too, please", "Confirming Kelsey's numbers, $420.00 a day") are read with it when
  // the two together decide as the colleague did; otherwise the colleague's decision is kept to be weighed against the
  // sender's below (a person decides when they differ)
  let colleague: { a: Analysis; d: Decision } | null = null;
  let colleagueRead = false;
  const quoted = !parts.forwarded && !deals.multiple && !elsewhere && a.auto.score < 4 ? quotedColleague(input.text, context?.iso?.names ?? []) : null;
  if (quoted) {
    const qa = analyse(quoted.text, input.subject, context);
    const qd = decide(qa, context);
    if (qd.type !== 'unclassified' && !qd.review) {
      colleague = { a: qa, d: qd };
      // never when the sender's words read alone decide otherwise, or put a condition, a decline cue or a hold on the colleague's
      // approval or offer ("We don't close over a lien unless ...; if there is one, her approval holds"): that is for a person
      const ownType = decide(a, context).type;
      const doubtsOffer = (qd.type === 'approved' || qd.type === 'counter') && (CONDITION_ON_COLLEAGUE.test(a.lower) || a.declined.score > 0 || a.hold.score > 0 || a.needs.score > 0);
      // (a confirmation of a colleague's counter reads as an approval alone: "Confirming her numbers, good for 7 days")
      const confirms = ownType === 'approved' && qd.type === 'counter' && !a.offers.some((o) => o.missing.length === 0);
      if ((ownType === 'unclassified' || ownType === qd.type || confirms) && !doubtsOffer && a.ownDecision < 2.5 && a.withdrawal.score === 0 && a.pending.score === 0 && a.tentative.score === 0) {
        const c = analyse(`${deals.own}\n\n${quoted.text}`, input.subject, context);
        const cd = decide(c, context);
        if (cd.type === qd.type && !cd.review) {
          reasons.push("reply-all: the sender's words decide little, a colleague's message at the lender quoted below decides: read with it");
          a = c;
          colleagueRead = true;
        }
      }
    }
  }
  // the other alternative can carry terms the chosen one lost (e.g. a table flattened in the text part)
  if (!a.offers.some((o) => o.missing.length === 0) && parts.alternate?.own && !deals.multiple) {
    const alt = extractOffers(parts.alternate.own, context);
    if (alt.some((o) => o.missing.length === 0)) {
      a.offers = alt;
      reasons.push('offer terms read from the other alternative');
    }
  }
  // The body decides: a reply whose own words decline keeps its attachment's terms out of the
  // reading (a stale term sheet would otherwise make "declined, offered other terms" a counter).
  const bodyDeclines = a.declined.score > a.approved.score + a.counter.score;
  const attached = input.attachmentText && !bodyDeclines ? attachmentOffers(a, input.attachmentText, reasons, context) : [];
  if (input.attachmentText && bodyDeclines) reasons.push('offer terms in the attachment not used: the reply itself is not an approval');
  if (attached.length) {
    a.offers = attached;
    a.offersAttached = true;
  }
  const d = decide(a, context);
  // (rfix31) ... and one whose stage went from approved to declined or withdrawn takes an approval back: for a person
  if (record.withdrawn && d.type !== 'unclassified' && !d.review) {
    d.review = 'approval_withdrawn';
    d.reasons.push(RECORD_WITHDRAWN, 'review: approval_withdrawn');
  }
  // (rfix26) ... a colleague's decision quoted below that the sender's own words do not take up as it is (another type, other
  // terms, or a condition on it: "if they have one, Kelsey's approval stands. If not, we'll have to revisit"): two people at
  // the lender answer differently, a person decides. A decline whose words only put a condition on the colleague's approval or
  // offer ("... unless", "if not", "the approval stands") is the colleague's approval, held for a person, never a decline applied
  let colleagueOffers: ExtractedOffer[] | null = null;
  if (colleague && !colleagueRead && (d.type !== 'unclassified' || CONDITION_ON_COLLEAGUE.test(a.lower))) {
    const q = colleague.d.type;
    const sameOffers = (x: ExtractedOffer[], y: ExtractedOffer[]) => x.length === y.length && x.every((o) => y.some((p) => p.amount === o.amount && p.factor_rate === o.factor_rate));
    const differs = q !== d.type || ((q === 'approved' || q === 'counter') && !sameOffers(colleague.a.offers, a.offers));
    if (differs) {
      // the sender's words keep the colleague's decision standing on a condition ("her approval holds if ...", "if they have one,
      // his offer stands"), never taking it back
      const conditional = a.withdrawal.score === 0 && KEEPS_COLLEAGUE.test(a.lower) && CONDITION_ON_COLLEAGUE.test(a.lower);
      if ((d.type === 'declined' || d.type === 'unclassified') && (q === 'approved' || q === 'counter') && conditional && colleague.a.offers.some((o) => o.missing.length === 0)) {
        d.type = q;
        colleagueOffers = colleague.a.offers;
        d.reasons.push(`the sender's words put a condition on a colleague's ${q} quoted below: that ${q}, held for a person`);
      }
      d.review ??= 'conflicting_cues';
      d.reasons.push(`a colleague at the lender quoted below decides otherwise (${q}) than the sender's words (${d.type})`, 'review: conflicting_cues');
    }
  }
  // (rfix23) a note that says at its top it is no lender's reply ("fwd for the file. Internal, not from the funder", "our own note,
  // not from the lender"): whatever it relays of a call is nobody's written answer; no decision, for a person
  if (SELF_NOT_LENDER.test(normalizeText(a.own).slice(0, 300))) {
    Object.assign(d, { type: 'unclassified', confidence: 0.6, review: undefined });
    d.reasons.push('the note says it is not from the lender: no decision of the lender\'s');
  }
  // (revr) a relayer restating the funder's terms differently from the funder's own paper attached (another amount or factor, a
  // letter for another deal): which is right is for a person, never the relayer's figures applied on the strength of the paper
  if (input.attachmentText && !attached.length && !d.review && (d.type === 'approved' || d.type === 'counter') && a.relayed.hits.length) {
    const paper = extractOffers(input.attachmentText, context).filter((o) => o.missing.length === 0);
    const same = (x: ExtractedOffer, y: ExtractedOffer) => x.amount === y.amount && (x.factor_rate == null || y.factor_rate == null || Math.abs(x.factor_rate - y.factor_rate) < 0.005);
    if (paper.length && a.offers.some((o) => o.missing.length === 0) && !a.offers.some((o) => paper.some((p) => same(o, p)))) {
      d.review = 'tentative_terms';
      d.reasons.push("relayed terms differ from the funder's attached paper", 'review: tentative_terms');
    }
  }
  // (revs) a chain of forwards read at a later message than its first (rfix18), the first forward deciding otherwise itself (the
  // funder's counter at 60k first, a later note in the chain "approved 80k at 1.32" from someone else, the broker's own side or a
  // colleague): which message is the funder's answer is a person's call, never the later note's figures applied
  if (!d.review && (a === both || a === fwdAlone) && parts.markers.includes(CHAIN_LATEST) && parts.forwardChain?.length) {
    const first = decide(analyse(parts.forwardChain[0].text, input.subject, context), context);
    const firstOffers = first.type === 'approved' || first.type === 'counter' ? analyse(parts.forwardChain[0].text, input.subject, context).offers : [];
    const sameOffer = (x: ExtractedOffer, y: ExtractedOffer) => x.amount === y.amount && x.factor_rate === y.factor_rate;
    const decides = first.type === 'approved' || first.type === 'declined' || first.type === 'counter';
    if (decides && (first.type !== d.type || !firstOffers.every((o) => a.offers.some((x) => sameOffer(o, x))))) {
      d.review = 'conflicting_cues';
      d.reasons.push(`the first forward of the chain decides otherwise (${first.type}) than its latest message`, 'review: conflicting_cues');
    }
  }
  // (revs) "You got it." (rfix17) grants whatever the quoted message asked: with no terms anywhere in the reply and no other word
  // of approval, the ask may have been to resend the contract or extend a deadline, not to approve; a person reads which
  if (!d.review && d.type === 'approved' && !a.offers.length && !a.termsWithoutAmount.length && a.approved.hits.length && a.approved.hits.every((h) => /^"(?:you have|you've got|you got) it"/i.test(h))) {
    d.review = 'low_confidence';
    d.reasons.push('"you got it" with no terms grants whatever was asked, maybe no approval', 'review: low_confidence');
  }
  // priced terms that name no amount: an approval names the ask; otherwise a person completes the offer
  let unnamed: ExtractedOffer[] = [];
  let repaid: number | null = null;
  if ((d.type === 'approved' || d.type === 'counter') && !a.offers.length && a.termsWithoutAmount.length) {
    if (d.type === 'approved' && a.termsWithoutAmount.every((o) => o.amount !== NO_AMOUNT) && !otherAmountNamed(a.lower, a.termsWithoutAmount[0].amount)) {
      unnamed = a.termsWithoutAmount;
      d.reasons.push(`priced terms naming no amount in an approval: the ask ($${unnamed[0].amount.toLocaleString('en-US')})`);
    } else if (d.type === 'counter' && (repaid = amountThePaymentsRepay(a.termsWithoutAmount, a.floated, a.lower, context?.requested_amount ?? undefined)) !== null) {
      // (rfix20) a counter's amount said on its own ("50 is the most"), its pricing on another line with the payments: the one
      // amount floated that the factor and the payments repay to the cent is the offer's amount
      const x = repaid;
      unnamed = a.termsWithoutAmount.map((o) => ({ ...o, amount: x, conflict: undefined }));
      d.reasons.push(`priced terms naming no amount: the $${x.toLocaleString('en-US')} named, which the factor and the payments repay`);
    } else if (!d.review) {
      d.review = 'low_confidence';
      d.reasons.push('priced terms naming no amount, and no ask they could be: a person completes the offer', 'review: low_confidence');
    }
  }
  if (elsewhere?.cut && !elsewhere.mine && a.ownDecision < 2.5) {
    // the only decision in the reply is about another business: a reply on the wrong thread, never this deal's answer
    // (rfix) ... unless it only asks for documents: the items may be this deal's under another name (a person checks which
    // file they are for); the request is kept as read, for a person (multiple_deals), never applied
    const whole = decide(analyse(uncut, input.subject, context), context);
    if (whole.type === 'needs_info' && !whole.review) {
      const w = analyse(uncut, input.subject, context);
      return { type: 'needs_info', confidence: whole.confidence, requested_items: w.items.items, offers: [], reasons: [...reasons, ...whole.reasons, REQUEST_FOR_OTHER_BUSINESS, 'review: multiple_deals'], review_reason: 'multiple_deals' };
    }
    return { type: 'unclassified', confidence: 0.9, requested_items: [], offers: [], reasons: [...reasons, ...d.reasons, OTHER_BUSINESS_ONLY] };
  }
  // ... beside this deal's own answer: a person records the other deal's part where it belongs
  // (holdout11 gate) a decision sentence naming another business than this deal's ("Approved 50k at 1.35 ... for Harbor
  // Bakery"), or the reply speaking of "your other deal": which deal the decision is for is a person's call
  // (holdout41) ... and so is a forwarded decision read as this deal's answer that names another business ("Good news, approval
  // below" over the underwriter's "Approved Pend Oreille Log Homes for 30k" on another merchant's thread): the forward may be
  // another file's, a person checks
  // (holdout42) ... and so is one the sender points at for its decision while deciding in its own words ("Sorry, credit passed on
  // this one. Renee's notes below." over a credit note declining another business): the note may be another file's
  const fwdRead = parts.forwarded && (a === both || a === fwdAlone || pointsBelow) ? parts.forwarded : null;
  const fwdElse = fwdRead && !deals.multiple ? otherDeals(fwdRead, context) : null;
  const fwdOther = fwdRead && !deals.multiple && d.type !== 'unclassified' ? (fwdElse?.names[0] ?? fwdElse?.near[0] ?? foreignDecision(fwdRead, context)) : null;
  // (rfix22) ... and so is an approval whose papers are named for another business ("Please DocuSign: Purchase Agreement - <another
  // business> Inc" on this deal's thread)
  const papers = d.type === 'approved' || d.type === 'counter' ? (papersForOther(input.subject, context) ?? papersForOther(deals.own, context)) : null;
  // (rcond) ... and so is a subject line the lender wrote with a decision naming another business ("APPROVED - Harbor Bakery",
  // "Harbor Bakery - Declined") over terms on this deal's thread: the terms may be that file's
  const subjectOther = d.type !== 'unclassified' && subjectLine ? foreignDecision(subjectLine, context) : null;
  // (rfix28) ... and so is a decision opening on a business in lower case sharing no word with this deal's (decision-doubts.ts)
  const lowerOther = d.type === 'approved' || d.type === 'counter' || d.type === 'declined' ? lowerCaseOtherBusiness(a.lower, context?.business_name, a.own) : null;
  const foreign = d.type !== 'unclassified' && !deals.multiple && !elsewhere ? (foreignDecision(deals.own, context) ?? fwdOther ?? subjectOther ?? papers ?? lowerOther) : null;
  if (foreign && !d.review) d.reasons.push(`a decision naming another business than this deal's (${foreign})`);
  // (rfix24) another file's news only, the reply answering this deal by its name ("Quick update on the <other> file: it funded Friday,
  // your comp hits on the 15th. On <this deal>, it's a no from us ..."): what was cut decides, asks and offers nothing, no word of
  // approval, decline or request to be misread as this deal's; the answer is this deal's alone. Never when the cut part names
  // an amount, an item or any decision cue.
  const newsOnly = (() => {
    if (!elsewhere?.cut || !elsewhere.mine || deals.multiple || elsewhere.near.length || d.type === 'unclassified') return false;
    // (rfix31) sentence by sentence: otherDeals may cut only the sentences naming the other file out of a paragraph answering this one
    const sentences = (t: string) => normalizeText(t).split(/\n\s*\n/).flatMap((p) => p.split(/(?<=[.!?])\s+/)).map((x) => x.replace(/\s+/g, ' ').trim()).filter(Boolean);
    const kept = new Set(sentences(elsewhere.own));
    const cutText = sentences(uncut).filter((x) => !kept.has(x)).join('\n\n');
    if (!cutText || /\$\s?\d|\d\s?k\b|\b\d{2,3},\d{3}\b/i.test(cutText)) return false;
    // (revH) ... nor news tied to this deal (it names this deal, "this one", "same owner", "a duplicate of"), nor news naming a
    // decline reason ("Lakeside defaulted last week"): read beside this deal's answer, it would be taken for this deal's reason
    if (SAME_FILE_NEWS.test(normalizeText(cutText).toLowerCase())) return false;
    // (rfix31) ... nor a live matter on the other file, now that a sentence alone may be cut ("Separately, for Brightwater - their quote
    // expires Monday"): an offer, a deadline or papers on it are that file acted on, a person routes it
    if (LIVE_MATTER.test(normalizeText(cutText).toLowerCase())) return false;
    const c = analyse(cutText, '', context);
    // (rfix31) ... congratulations on the other file ("congrats on the Rochester grill deal that funded last week") are news too:
    // no approval of anything on this thread
    const congratsOnly = c.approved.hits.length > 0 && c.approved.hits.every((h) => /congrat/i.test(h)) && c.declined.score === 0 && c.needs.score === 0 && c.counter.score === 0;
    return (c.ownDecision === 0 || congratsOnly) && c.tentative.score === 0 && !c.items.items.length && !c.offers.length && c.pending.score === 0 && !c.namesDeal && !c.category.hits.length;
  })();
  if (newsOnly) d.reasons.push("another file's news only (no decision, request or figure of its own): not this deal's answer, and no doubt which file it is");
  const inDoubt = d.type !== 'unclassified' && FILE_IN_DOUBT.test(normalizeText(uncut).toLowerCase());
  if (inDoubt && !d.review) d.reasons.push(FILE_IN_DOUBT_REASON);
  // (revM) minutes whose agenda lists another item beside this deal ("Agenda: 1. Bayou Roofing 2. Copper Kettle Catering"): the
  // outcome's "Item 1: APPROVED $45,000" may be another file's, a person checks
  const agendaOther = d.type !== 'unclassified' && !d.review ? otherAgendaItem(normalizeText(uncut), context?.business_name) : null;
  if (agendaOther) d.reasons.push(`meeting minutes whose agenda lists another item than this deal (${agendaOther.slice(0, 60)})`);
  const review = d.review ?? ((deals.multiple || (elsewhere && !newsOnly) || foreign || inDoubt || agendaOther) && d.type !== 'unclassified' ? 'multiple_deals' : undefined);
  if (review === 'multiple_deals') d.reasons.push('review: multiple_deals');
  const result: Classification = { type: d.type, confidence: d.confidence, requested_items: [], offers: [], reasons: [...reasons, ...d.reasons] };
  if (review) result.review_reason = review;
  if (d.type === 'approved' || d.type === 'counter') result.offers = unnamed.length ? unnamed : a.offers;
  if (colleagueOffers) result.offers = colleagueOffers;
  // (rfix) a counter offering another product priced by a fee or an interest rate (a line of credit at "2.2% monthly fee on
  // the balance", a term loan at an APR), no factor anywhere: no advance is offered, so there is no offer to log (an offer
  // is priced by its factor); the counter is recorded with the lender's words
  const interestPriced = d.type === 'counter' && otherProductByInterest(a);
  if (interestPriced) {
    result.offers = [];
    result.reasons.push(INTEREST_PRICED_PRODUCT);
  }
  if ((d.type === 'approved' || d.type === 'counter') && !result.offers.length && !interestPriced) {
    // (holdout22) the decision's own text, or the message it relays, prices the deal and no offer came of it: a person reads it
    // (rfix18) ... and so does any message of a chain of forwards ("scroll all the way down" to committee's terms): an approval is
    // never applied without the terms a forward further down the chain states
    const chain = (parts.forwardChain ?? []).flatMap((c) => pricingCues(c.text, context));
    const cues = [...new Set([...pricingCues(a.own, context), ...(parts.forwarded && a !== both ? pricingCues(parts.forwarded, context) : []), ...chain])];
    if (cues.length) result.reasons.push(`${PRICING_NOT_READ}: ${cues.slice(0, 4).map((c) => `"${c}"`).join(', ')}`);
  }
  else if (attached.length) result.reasons.push('offer terms in the attachment not used: the reply itself is not an approval');
  if (d.type === 'approved' || d.type === 'counter' || d.type === 'needs_info') result.requested_items = a.items.items;
  if (d.type === 'declined') {
    // (holdout17) a decline whose own words name no reason, over a forwarded note that does ("see credit's notes below ...
    // sorry, nothing I can do" over "Open federal tax lien ... Default judgment"): the note's reason is the decline's
    let why = a;
    if (a.category.category === 'other' && parts.forwarded && a !== both) {
      const f = analyse(parts.forwarded, input.subject, context);
      if (f.category.category !== 'other' && f.declined.score >= f.approved.score + f.counter.score) {
        why = f;
        result.reasons.push('the decline names no reason of its own: the reason of the forwarded note');
      }
    }
    // (rfix20) a decline whose own words name no reason, the reason written in the part naming another business ("have to pass
    // on <another merchant>. 19 negative days ..."): which file it is for is a person's call (multiple_deals), and the reason
    // given is the one on record, never `other` beside it
    if (why.category.category === 'other' && elsewhere?.cut && review === 'multiple_deals') {
      const u = analyse(uncut, input.subject, context);
      if (u.category.category !== 'other' && u.declined.score > u.approved.score + u.counter.score) {
        why = u;
        result.reasons.push("the decline names no reason of its own: the reason given beside the other business's name");
      }
    }
    result.decline_category = why.category.category;
    const anchor = why.category.index >= 0 ? why.category.index : why.lower.search(/declin|pass|no go|unable|not approved|unfortunately|sorry|remove/);
    const reason = anchor >= 0 ? sentenceAround(normalizeText(why.own), anchor) : '';
    if (reason) result.decline_reason = reason.slice(0, 1000);
    if (why.category.hits.length) result.reasons.push(`decline category ${why.category.category}: ${why.category.hits.slice(0, 4).join(', ')}`);
  }
  if (a.items.hits.length && result.requested_items.length) result.reasons.push(`items: ${a.items.hits.join('; ')}`);
  if (result.type === 'unclassified' && result.reasons.includes('no decisive cue') && POINTS_AT_IMAGE.test(deals.own) && !DECISION_WORD.test(deals.own.replace(/\[image:[^\]\n]*\]|\S+\.(?:png|jpe?g|gif)\b/gi, ' '))) result.reasons.push(ANSWER_IN_IMAGE);
  return result;
}

import type { ReplyContext } from './types';
import { offerText, round2 } from './text';
import { CEILING_CUES, CORRECTION_CUES, type Fired, score } from './cues';
import { scanFacts } from './facts';
import { moneyKind, termDiffers } from './money';
import { refusedAskByName, refusesAsk, refusesAskOnTheTerms } from './ask';
import { type Analysis, type Decision, byCues } from './analyse';
import * as V from '../vocabulary';
import { GLOSS_CONTRADICTED } from '../reply-html';
import { approvedAsAskedBelowAsk, ceilingBelowOffer, confirmedCorrection, offersOnUnmetCondition, spanishThousands } from './decision-doubts';

/** (rfix31) The correction (from its first cue to the end) read against the one offer. */
function provenCorrection(a: Analysis, offer: import('./types').ExtractedOffer, ctx?: ReplyContext) {
  // from the start of the sentence or line of the first correction cue to the end: what the correction restates (never the
  // figures it corrects, in the sentences before it)
  const text = offerText(a.own);
  const hits = score(text, CORRECTION_CUES).hits.map((h) => text.indexOf(h.replace(/^"|"$/g, ''))).filter((i) => i >= 0);
  if (!hits.length) return null;
  const cue = Math.min(...hits);
  const raw = a.own.toLowerCase();
  const before = [...text.slice(0, cue).matchAll(/[.!?](?=\s)|\n/g)].pop();
  // the offer text joins a wrapped line: a line break in the writer's own text before the cue counts as a start too
  const rawCue = raw.indexOf(text.slice(cue, cue + 12));
  const lineStart = rawCue >= 0 ? raw.lastIndexOf('\n', rawCue) : -1;
  const fromLine = lineStart >= 0 ? text.indexOf(raw.slice(lineStart + 1, rawCue).trim().slice(0, 12)) : -1;
  const start = Math.max(before ? before.index + 1 : 0, fromLine >= 0 && fromLine <= cue ? fromLine : 0);
  const line = text.slice(start);
  const facts = scanFacts(line, 0, ctx).filter((f) => f.kind === 'money');
  const payments = offer.term === null ? null : offer.term_unit === 'days' && offer.payment_frequency === 'daily' ? offer.term : offer.term_unit === 'weeks' && offer.payment_frequency === 'weekly' ? offer.term : null;
  return confirmedCorrection(line, offer, payments, { payback: facts.filter((f) => f.money === 'payback').map((f) => f.value), payment: facts.filter((f) => f.money === 'payment').map((f) => f.value) });
}

/** (rfix31) The offer text's sentences, Spanish thousands as figures, each with the funded amounts it names. */
function ceilingSentences(own: string, ctx?: ReplyContext): Array<{ text: string; funded: number[] }> {
  const text = spanishThousands(offerText(own));
  const facts = scanFacts(text, 0, ctx).filter((f) => f.kind === 'money' && (f.money === 'funded' || f.money === 'other' || f.money === 'unknown'));
  const out: Array<{ text: string; funded: number[] }> = [];
  let start = 0;
  for (const piece of text.split(/(?<=[.!?;\n])(?!\d)/)) {
    const end = start + piece.length;
    out.push({ text: piece, funded: facts.filter((f) => f.pos >= start && f.pos < end).map((f) => f.value) });
    start = end;
  }
  return out;
}

const SHOWN_LATER = new RegExp(`\\b(?:${V.SHOWN_LATER})\\b`);
/** A factor rate named ("~40 / 1.42"): a figure put forward, even where no amount is read. */
const FACTOR_NAMED = /(?<![\d.$,])[12]\.\d{2,3}(?![\d%])/;

/** Every decline cue of the reply sits in a refusal of a term ("12 mo is a no for us"): the term refused, not the deal. */
function declinesOnlyTheTerm(a: Analysis): boolean {
  return a.declined.hits.every((h) => {
    const q = /^"(.*)"/.exec(h)?.[1];
    if (!q) return false;
    const esc = q.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    return new RegExp(`(?<![\\w.$,])\\d{1,3}\\s*-?\\s*(?:business days?|days?|weeks?|wks?|months?|mos?|mths?)( term)?\\s+(?:[a-z']+\\s+){0,3}${esc}`).test(a.lower);
  });
}

/** A decline of the file as it was sent, not of the merchant: "as submitted this is a decline", "declined as it stands". */
const DECLINED_AS_SUBMITTED = /\b(?:as submitted|as (?:it|this|the file) stands|as presented|in its current form)\b[^.!?\n]{0,30}\bdeclin|\bdeclin\w*\b[^.!?\n]{0,60}\bas (?:submitted|presented|it stands)\b/;
/** The file taken back to the one who decides: "I'll take it back to committee", "run it back through credit", "another look". */
const BACK_TO_DECIDER = /\b(?:take|bring|put|send|run) (?:it|this|the file|the deal) back (?:to|in front of|through)\b|\b(?:take|have|give (?:it|this|the file)) another look\b|\b(?:reconsider|revisit|re-?review)\b/;

/** (holdout35) Final terms said to follow the items: "final terms will be issued once underwriting receives the stipulations". */
/**
 * (rfix24) The decision word inside its own condition, the decision not yet made: "if aprvd, we'd be at 40k/1.30/6 mos", "once
 * it's approved we'd do 50k at 1.35", "assuming credit signs off, 45k" (never "approved, if the merchant wants it": the
 * merchant's choice after an approval made).
 */
/** (revH) A "no on <deal>" whose line asks for something first (rfix25 reads it as a request). */
const NO_ON_FIRST = /(?:^|[.!?\n]\s*|^(?:hi|hey|hello|sorry)[ ,]+[a-z]*[ ,]*)(?:it's |that's |a )?no on [^.!?\n;]*\b(?:need|needs|want|wants|waiting (?:on|for)|send)\b[^.!?\n;]*\bfirst\b/;
/** (revH) A kind of deal refused whatever comes: "we don't do vet clinics anyway", "we can't fund that industry regardless". */
const REFUSED_ANYWAY = /\b(?:we|i) (?:don't|do not|can't|cannot|won't|will not) (?:do|fund|touch|work with|take|go near)\b[^.!?\n]{0,60}?\b(?:anyway|anyways|regardless|either way|in any case)\b/;
/** (revH) The file read only so far: "reviewed it on a preliminary basis", "looked at the file at a prelim level". */
const PRELIMINARY_READ = /\b(?:reviewed|looked at|looked over|screened|read|considered)(?: it| this| that| the (?:file|submission|deal|application))? (?:on|at) a (?:preliminary|prelim) (?:basis|level|look|review)\b/;
const DECISION_IF = /\b(?:if|once|when|assuming|provided|in case)\s+(?:(?:it|this|that|the (?:file|deal)|they|he|she|we|uw|credit|underwriting|committee)\s+)?(?:(?:is|gets?|got|are|were|was|comes? back|'s)\s+)?(?:approved|aprvd|apprvd|aprovd|approvd|appr'?d|app'd|approves?|signs? off|passes)\b/g;
/** (rfix24) An approval said outright, once every conditional one is taken out. */
const APPROVAL_OUTRIGHT = /\b(?:approved|aprvd|apprvd|aprovd|approvd|appr'?d|app'd|approval|good to go|signed off|we can do|can offer|we'?ll do|we can go|offer(?:ing)? is)\b/;
/**
 * (rfix24) A decline on a condition stated after it: "Declined if so.", "a pass if that's the case", "decline if the NSFs are
 * confirmed", "no go if they have another position" (the lender still checking; never "declined, if you want to resubmit ...").
 */
const DECLINE_IF = /\b(?:declined?|a (?:decline|pass|no)|pass(?:ing)?|no go|no-go)\b[^.!?\n]{0,20}?\bif (?:so|that'?s (?:the case|so|true|right|it)|(?:it|they|he|she|that|this|there)(?:'s| is| are| does| do| has| have| shows?| comes? back| turns? out)|(?:the |any )?[a-z]+s? (?:is|are) (?:confirmed|true|verified|there)|confirmed|true|verified)\b/g;
/** (rfix24) A decline said outright, once every conditional one is taken out. */
const DECLINE_OUTRIGHT = /\b(?:declined?|declining|pass(?:ing)?|can't do|cannot do|unable to|no go|turn(?:ed|ing)? (?:it |this )?down|it's a no|is a no)\b/;
const TERMS_AFTER_ITEMS = /\b(?:final |firm |actual )?(?:terms|pricing|offer|numbers)\b[^.!?\n]{0,40}\b(?:once|when|after|upon)\b[^.!?\n]{0,60}\b(?:stips|stipulations|documents|docs|items|conditions|statements)\b/;
/** (rfix18) A clause putting a withdrawal under a condition: "if ... not", "unless", "should ... fail", "withdrawn if", "by 11/6 or". */
const CONDITION = /\b(if|unless|should|otherwise|failing|in the event|in case)\b/;
const WITHDRAWN_ON_CONDITION = /\b(withdrawn|pulled|rescinded|revoked|cancell?ed|void(ed)?|off the table)\s+(if|unless|should|in the event|in case)\b/;
/** Every withdrawal in the reply stated under a condition (in a clause opened by "if", "unless" ..., or "withdrawn if ..."). */
function conditionalWithdrawal(a: Analysis): boolean {
  const clauses = a.lower.split(/(?<=[.!?;\n])/);
  return a.withdrawal.hits.length > 0 && a.withdrawal.hits.every((q) => {
    const h = q.replace(/^"|"(\s*\(.*\))?$/g, '');
    const c = clauses.find((x) => x.includes(h));
    if (!c) return false;
    const at = c.indexOf(h);
    return CONDITION.test(c.slice(0, at)) || WITHDRAWN_ON_CONDITION.test(c.slice(at));
  });
}

/**
 * (rfix21) A revision that says it replaces the earlier offer ("This replaces the offer we sent yesterday; the earlier offer is
 * withdrawn", "Offer summary - revised (supersedes offer dated 11/03)"): the earlier terms are withdrawn, the deal is not.
 */
const REPLACES_EARLIER = /\b(?:replac(?:es|e|ing)|supersed(?:es|e|ing)|takes? the place of|(?:is|are) in place of)\b[^.!?;]{0,40}\b(?:offer|approval|terms|quote|pricing|summary)\b/;
const EARLIER = /\b(?:earlier|prior|previous|original|old|first|last|yesterday'?s?|replac(?:es|e|ing)|supersed(?:es|e|ing)|in place of)\b/;
/**
 * Every withdrawal the reply states is of the earlier terms it says it replaces, and the reply prices its own terms in full (and
 * only those): the revised terms stand, read as any other offer. Not when it also declines, or takes back an approval sent for
 * another merchant.
 */
function revisionReplacesEarlier(a: Analysis, complete: readonly unknown[]): boolean {
  if (!REPLACES_EARLIER.test(a.lower) || !complete.length || complete.length !== a.offers.length || a.declined.score >= 3 || MISSENT_APPROVAL.test(a.lower)) return false;
  const sentences = a.lower.replace(/\s+/g, ' ').split(/(?<=[.!?])\s/);
  return a.withdrawal.hits.every((q) => {
    const h = q.replace(/^"|"(\s*\(.*\))?$/g, '');
    const c = sentences.find((x) => x.includes(h));
    return !!c && EARLIER.test(c);
  });
}

/** (rfix24) A tentative cue that guesses at a figure: "probably somewhere around", "ballpark", "in the neighborhood of". */
const GUESSED_FIGURE = /\b(?:somewhere (?:around|near|in the|between)|ballpark|in the (?:neighborhood|neighbourhood|range|area) of|roughly|give or take)\b/;
/** A tentative cue that is only a pre-approval ceiling ("pre-approved", "approved up to"). */
const PREAPPROVAL = /^"(?:pre-?approved|approved (?:for )?up to|pre-?approved (?:for )?up to)"$/;

/** (rfix11) Terms the lender says it has not sent, held back until something comes in (vocabulary.ts HELD_BACK). */
const HELD_BACK = new RegExp(`\\b(?:${V.HELD_BACK.join('|')})\\b`);

/** (rfix14) A product cue that names a consolidation (vocabulary.ts PRODUCTS rows `consolidation`): the word, or positions taken out into one. */
const CONSOLIDATION_HIT = /consolidat|\b(?:take|takes|taking|buy|buys|buying|pay|pays|paying) (?:out|off)\b/;
/** (rfix14) "approved" in words, not negated nor a pre-approval. */
const APPROVED_WORD = /(?<!\b(?:not|never|pre-?|n't be|be) ?)\bapproved\b/;
/** Below this, a decided class goes to a person (`low_confidence`). */
export const MIN_CONFIDENCE = 0.35;

/**
 * The rules of the trade, over the cue scores and the offer terms compared with the ask:
 * - an approval taken back is a decline that a person confirms (`approval_withdrawn`);
 * - counter is about terms: less money than the deal asked, or other terms or another product in
 *   words, is a counter however it is worded; the full ask is an approval;
 * - a no and a priced offer in one answer ("declined at 150k. Approved at 50k") is a counter when
 *   the offer is on other terms; a no and an offer at the ask is a conflict for a person;
 * - tentative terms ("waiting on final sign-off", "up to", a floated amount with no pricing) and
 *   ties go to a person; nothing is applied on a tie-break.
 */
/** An approval sent in error for someone else: "it went to the wrong ISO", "that was for a different merchant", "wrong file". */
const MISSENT_APPROVAL = /\b(sent|went|forwarded|emailed|mailed) (out )?to the wrong (iso|broker|partner|rep|person|address|thread)\b|\b(was|were|it's|it is|that's|that was|meant) (for|about) (a |an )?(different|another|other) (merchant|business|client|file|deal|account)\b|\bwrong (merchant|file|deal|business)\b/;

const SIGNER_DOUBT = new RegExp(`\\b(?:${V.SIGNER_DOUBT.join('|')})`);
const OTHER_ISO = /\biso\s*(?:#|no\.?|number)\s*:?\s*(\d{2,})/g;

/** The ISO numbers a text names ("ISO #4471", "ISO no. 4471", "ISO number: 4471"), digits only. */
export function isoNumbers(text: string): string[] {
  return [...text.toLowerCase().matchAll(OTHER_ISO)].map((m) => m[1]);
}

/**
 * (rfix) The ISO numbers a reply names that are not shown to be ours: ours when our own submission email gave that number
 * (`ctx.iso.numbers`), or when our name (the location's) stands right before it ("through Red Mesa Merchant Partners (ISO
 * #4471)" from Red Mesa Merchant Partners). Without what the hook knows of us, every number named is unknown.
 */
function unknownIsoNumbers(lower: string, ctx?: ReplyContext): string[] {
  const numbers = ctx?.iso?.numbers ?? [];
  const names = (ctx?.iso?.names ?? []).map((n) => n.toLowerCase().replace(/\s+/g, ' ').trim()).filter((n) => n.length >= 3);
  const unknown: string[] = [];
  for (const m of lower.matchAll(OTHER_ISO)) {
    if (numbers.includes(m[1])) continue;
    const at = m.index ?? 0;
    const before = lower.slice(Math.max(0, at - 120), at).replace(/\s+/g, ' ').replace(/[\s(,:-]+$/, '');
    if (names.some((n) => before.endsWith(n))) continue;
    unknown.push(m[1]);
  }
  return unknown;
}
/**
 * (rfix21) The submitting ISO a reply's field names ("ISO: Canyon Ridge Funding Group (Tony Alcaraz)", "Broker: ...", "ISO
 * Partner: ..."), when it is not ours (our names, the location's, `ctx.iso.names`): the decision is written about another ISO's
 * submission, a person checks. Without what the hook knows of us, every firm named is unknown.
 */
const ISO_FIELD = /^[ \t>]*(?:submitting |referring )?(?:iso|broker|iso partner|iso name|broker name|partner)[ \t]*:[ \t]*([^\n]*[a-z][^\n]*)$/gm;
export function unknownIsoFirms(lower: string, ctx?: ReplyContext): string[] {
  const names = (ctx?.iso?.names ?? []).map((n) => n.toLowerCase().replace(/\s+/g, ' ').trim()).filter((n) => n.length >= 3);
  const unknown: string[] = [];
  for (const m of lower.matchAll(ISO_FIELD)) {
    const value = m[1].replace(/\s+/g, ' ').trim();
    if (!names.some((n) => value.includes(n))) unknown.push(value);
  }
  return unknown;
}
const TERMS_ELSEWHERE = /\b(?:per|as per|from|on) (?:our|the|my|your|this morning's|today's) (?:phone )?(?:call|conversation|discussion|chat|talk)\b|\bas (?:we )?discussed\b|\bas (?:we )?(?:talked|spoke) about\b/;
/** Little but figures: at most four words besides the units and the terms' own labels (a deal's name, a dash). */
const FIGURE_WORDS = new Set(['k', 'x', 'd', 'day', 'days', 'biz', 'business', 'wk', 'wks', 'week', 'weeks', 'weekly', 'wkly', 'mo', 'mos', 'month', 'months', 'monthly', 'daily', 'a', 'at', 'per', 'factor', 'buy', 'rate', 'term', 'payment', 'pmt', 'on', 'for', 'the', 'over', 'and']);
function bareFigures(lower: string): boolean {
  return (lower.match(/[a-z][a-z']*/g) ?? []).filter((w) => !FIGURE_WORDS.has(w)).length <= 4;
}
const DECISION_VERB = /\b(?:ok|okay|yes|good|options?|either|max|maximum|cap|capped|most|land|stretch|comfortable|approv\w*|offer\w*|can do|could do|can go|will do|we do|counter\w*|funds?|fund(?:ed|ing)|decline\w*|pass|good for|works?|best)\b/;

/**
 * (rfix19) Our own name (the location's, `ctx.iso.names`) on a line of the reply's sign-off (its last block, a few short lines
 * after the last blank line, or the lines after a "-- " separator): the reply was written by the broker, not the lender. A
 * line thanking or greeting us by name ("Thanks, Northstar team") is no signature of ours.
 */
export function signedByUs(own: string, ctx?: ReplyContext): string | null {
  const names = (ctx?.iso?.names ?? []).map((n) => n.toLowerCase().replace(/\s+/g, ' ').trim()).filter((n) => n.length >= 5);
  if (!names.length) return null;
  const blocks = own.replace(/\r/g, '').trim().split(/\n[ \t]*\n/);
  if (blocks.length < 2) return null;
  const sign = blocks[blocks.length - 1].split('\n').map((l) => l.trim()).filter(Boolean);
  if (sign.length > 6) return null;
  for (const line of sign) {
    const l = line.toLowerCase().replace(/\s+/g, ' ');
    if (/^(?:thanks|thank you|thx|hi|hello|hey|dear|cheers|best|regards)\b/.test(l) && !/^(?:best|regards|cheers|thanks),?$/.test(l)) continue;
    // (rfix21) ... nor a field of the lender's naming us as the submitting ISO ("Broker: Summit Valley Capital / Dana")
    if (/^(?:submitting |referring )?(?:iso|broker|iso partner|iso name|broker name|partner)\s*:/.test(l)) continue;
    if (names.some((n) => l.includes(n))) return line;
  }
  return null;
}

export function decide(a: Analysis, ctx?: ReplyContext): Decision {
  const reasons: string[] = [];
  const fmt = (name: string, f: Fired) => `${name} ${round2(f.score)}: ${f.hits.join(', ')}`;
  for (const [name, f] of [
    ['approved', a.approved], ['declined', a.declined], ['needs_info', a.needs], ['counter', a.counter], ['auto-reply', a.auto], ['no-decision', a.pending],
    ['withdrawal', a.withdrawal], ['tentative', a.tentative], ['other product', a.product], ['correction', a.correction], ['relayed', a.relayed],
  ] as const) {
    if (f.hits.length) reasons.push(fmt(name, f));
  }
  if (a.fixed.length) reasons.push(`misspellings and boilerplate: ${a.fixed.join(', ')}`);
  const complete = a.offersAttached ? [] : a.offers.filter((o) => o.factor_rate !== null && o.term !== null);
  if (a.auto.score >= 4 && !complete.length) return { type: 'unclassified', confidence: Math.min(0.99, 0.6 + a.auto.score / 20), reasons: [...reasons, 'automatic reply'] };
  // (holdout17) a funder's marketing to its brokers, naming no deal of ours: never a decision, whatever it advertises
  if (a.marketing.score >= 4 && !a.namesDeal) {
    return { type: 'unclassified', confidence: Math.min(0.99, 0.6 + a.marketing.score / 20), reasons: [...reasons, `marketing to brokers (${a.marketing.hits.join(', ')}), about no deal: no decision`] };
  }
  // (rfix18) an approval only said to be withdrawn on a condition not yet met ("if the licence is not confirmed by Friday,
  // approval is withdrawn", "approval will be pulled unless the UCC comes back clean"): still an approval, its condition for a
  // person (tentative_terms), never a decline
  if (a.withdrawal.score >= 3 && conditionalWithdrawal(a) && a.approved.score >= 3 && a.approved.score > a.declined.score + a.counter.score) {
    return { type: 'approved', confidence: 0.6, reasons: [...reasons, 'an approval to be withdrawn only on a condition not yet met: an approval a person confirms'], review: 'tentative_terms' };
  }
  const replaced = a.withdrawal.score >= 3 && revisionReplacesEarlier(a, complete);
  if (replaced) reasons.push('a revision replacing the earlier offer, which it withdraws: the revised terms stand');
  if (a.withdrawal.score >= 3 && !replaced) {
    // (rfix17) the approval taken back was never this deal's (sent to the wrong broker, for another merchant), and the reply
    // asks for something on this deal: this deal is still waiting on it. Still for a person (approval_withdrawn)
    if (MISSENT_APPROVAL.test(a.lower) && a.needs.score > a.declined.score) {
      return { type: 'needs_info', confidence: 0.6, reasons: [...reasons, 'an approval sent for another merchant taken back; this deal waits on items: a person confirms'], review: 'approval_withdrawn' };
    }
    // (holdout35) the approval taken back and priced terms for less put in its place ("scratch the approval below ... where
    // I can get to now is $30,000 @ 1.40"): a counter, the reversal still for a person (approval_withdrawn)
    const ask0 = ctx?.requested_amount ?? null;
    if (complete.length && ask0 !== null && ask0 > 0 && complete.every((o) => o.amount < ask0 - 0.5)) {
      return { type: 'counter', confidence: 0.6, reasons: [...reasons, 'an approval withdrawn and less offered in its place: a counter a person confirms'], review: 'approval_withdrawn' };
    }
    return { type: 'declined', confidence: 0.6, reasons: [...reasons, 'an approval withdrawn: a decline a person confirms'], review: 'approval_withdrawn' };
  }
  const d = byCues(a);
  reasons.push(...d.reasons);
  let { type, confidence } = d;
  let review = d.review;
  // (holdout35) a pre-approval with no terms whose final terms the lender says wait on the items ("pre-approved up to
  // $80,000. Final terms will be issued once underwriting receives the stipulations below"): its words are no approval,
  // the request is the decision (needs_info, nothing priced to set expectations on)
  const preapprovalAwaitingItems =
    (type === 'needs_info' || (type === 'approved' && !/(?<!pre-?)approv/.test(a.lower))) && !review && a.items.items.length > 0 &&
    !complete.length && !FACTOR_NAMED.test(a.lower) && TERMS_AFTER_ITEMS.test(a.lower) && a.tentative.hits.length > 0 && a.tentative.hits.every((h) => PREAPPROVAL.test(h));
  if (preapprovalAwaitingItems) {
    type = 'needs_info';
    confidence = Math.max(confidence, 0.6);
    reasons.push('a pre-approval with no terms, final terms once the items come in: a request for items');
  }

  // (rfix11) priced terms the lender says it held back, no approval in words, and items asked for before it will do anything
  // ("was about to send the approval on X, 70 @ 1.35 ... then saw a wire ... get me a balance letter ... holding til then"):
  // nothing was approved; the request is the answer, the terms for a person (tentative_terms below)
  const heldBack = (type === 'approved' || type === 'counter') && !review && a.approvalWords < 2 && a.counter.score < 3 && a.items.items.length > 0 && HELD_BACK.exec(a.lower);
  if (heldBack) {
    type = 'needs_info';
    confidence = Math.max(confidence, 0.6);
    reasons.push(`terms held back ("${heldBack[0]}"), items asked first: a request for items`);
  }

  // counter is about terms: what is offered against what was asked
  const ask = ctx?.requested_amount ?? null;
  const amounts = a.offers.map((o) => o.amount);
  const less = ask !== null && ask > 0 && amounts.length > 0 && amounts.every((x) => x < ask - 0.5);
  const atAsk = ask !== null && amounts.some((x) => Math.abs(x - ask) < 0.5);
  // options below the ask beside one at (or above) it: a menu of other terms unless the lender approved in words
  const someLess = ask !== null && ask > 0 && amounts.some((x) => x < ask - 0.5);
  const mixed = someLess && !less;
  // a menu with an option at (or above) the ask, approved in words, nothing refused or limited, and the
  // only counter evidence a payoff condition on every option ("approved. Options: the full 60 / 50k ...
  // Bitty paid off at funding on either"): an approval with a menu and a condition (README, menus). A
  // single offer at the ask on a payoff stays a counter (holdout5: "approved at 40k ... but close out Fora first").
  const conditionOnly =
    mixed && a.structure.score > 0 && a.approvalWords >= 3 && a.declined.score < 1 && a.tentative.score < 2 && a.product.score < 3 &&
    a.counter.score - a.structure.score < 1.5 && !refusedAskByName(a.lower, ask!) && !refusesAsk(a.lower, ask!);
  // a ceiling with every offer at the full ask ("we top out at 55k, so the full 55k works"): the ask is the most, not less
  const ceilingAtAsk = !conditionOnly && atAsk && !someLess && a.ceiling.score > 0 && !refusedAskByName(a.lower, ask!) && !refusesAsk(a.lower, ask!);
  if (ceilingAtAsk) reasons.push('a ceiling on the amount at the full ask: not other terms');
  // (holdout21) the deal approved as submitted in words, nothing less offered: a schedule the lender does not run is a remark
  // about its program ("approved as submitted ... we don't offer a weekly option"), not other terms
  // (holdout22 follow-up) ... unless the schedule it refuses is the one the deal asked ("approved as submitted, but we don't
  // do weekly" on a deal asking weekly): the approval and the refusal disagree, so a person decides
  const refusesAskedSchedule = a.asSubmitted && a.schedule.score > 0 && !!ctx?.requested_frequency && a.askedFreq === ctx.requested_frequency;
  const asSubmittedWins = a.asSubmitted && a.schedule.score > 0 && !someLess && a.declined.score < 1 && !refusesAskedSchedule;
  if (asSubmittedWins) reasons.push('approved as submitted in words: the schedule remark is about the program, not other terms');
  const counterScore0 = conditionOnly ? round2(a.counter.score - a.structure.score) : ceilingAtAsk ? round2(a.counter.score - a.ceiling.score) : a.counter.score;
  const counterScore = asSubmittedWins ? round2(counterScore0 - a.schedule.score) : counterScore0;
  if (conditionOnly) reasons.push('a payoff condition beside an option at the ask approved in words: a condition of the approval, not other terms');
  // another term than asked: the term the reply says was asked, else the deal's (the hook's `requested_term`)
  const termAsked = a.askedTerm ?? ctx?.requested_term ?? null;
  const otherTerm = termAsked !== null && complete.length > 0 && complete.every((o) => termDiffers(o, termAsked));
  if (otherTerm) reasons.push(`offered ${complete.map((o) => `${o.term} ${o.term_unit}`).join(', ')} against ${termAsked.term} ${termAsked.unit} asked: another term`);
  // another payment frequency than asked (holdout9): "weekly over 6 months isn't something we offer ... all 40 on dailies"
  // (rfix32) ... the schedule the reply says was asked, else the deal's (the hook's `requested_frequency`, or the broker's quoted ask),
  // as the term is: "Yes, 60 is fine ... daily only on contractors" on a deal asking weekly is the full amount on another schedule
  const freqAsked = a.askedFreq ?? ctx?.requested_frequency ?? null;
  const otherFreq = !asSubmittedWins && freqAsked !== null && complete.length > 0 && complete.every((o) => o.payment_frequency !== null && o.payment_frequency !== freqAsked);
  if (otherFreq) reasons.push(`offered ${complete.map((o) => o.payment_frequency).join(', ')} payments against ${freqAsked} asked: another structure`);
  const otherTerms = counterScore >= 3 || a.product.score >= 3 || otherTerm || otherFreq;
  if (less) reasons.push(`offered ${amounts.map((x) => `$${x.toLocaleString('en-US')}`).join(', ')} against a $${ask!.toLocaleString('en-US')} ask: less money`);
  if (a.product.score >= 3) reasons.push('another product than asked');

  if (type === 'approved' || type === 'counter') {
    if (mixed && type === 'approved' && !otherTerms) {
      if (a.declined.score >= 1 || counterScore >= 1.5 || a.tentative.score >= 2) {
        // "We can't sit 3rd for 150. Option 1: the full 150 with a buyout. Option 2: 60k in 3rd": other terms
        type = 'counter';
        reasons.push('options below the ask beside one at it, with a refusal or a limit: a counter');
        // ... and an approval in words as well: which one stands is for a person
        if (a.approvalWords >= 2.5) {
          review = 'conflicting_cues';
          reasons.push('approved in words beside the refusal');
        }
      } else reasons.push('smaller options beside the full ask, nothing refused: an approval with a menu');
    }
    if (less || otherTerms) type = 'counter';
    // "Approved for 45k" on a 60k ask, no pricing: less money is a counter, its terms for a person to complete
    else if (type === 'approved' && !complete.length && ask !== null && a.floated.length > 0 && a.floated.every((x) => x < ask - 0.5)) {
      type = 'counter';
      review ??= 'tentative_terms';
      reasons.push(`approved for $${a.floated.map((x) => x.toLocaleString('en-US')).join(', $')} against a $${ask.toLocaleString('en-US')} ask, no pricing: a counter a person completes`);
    }
    else if (type === 'counter' && atAsk && counterScore < 3 && !mixed) type = 'approved';
    else if (type === 'counter' && conditionOnly) type = 'approved';
    else if (type === 'counter' && asSubmittedWins && counterScore < 1.5 && !otherTerm) type = 'approved';
    // the terms themselves decide a counter: the cue balance matters less
    if (less) confidence = Math.max(confidence, 0.75);
    // (holdout15) ... and so do another term or schedule than asked, measured on complete offers, when the lender also
    // says the ask is not what they do ("12 months weekly is not something we do ... best I have is 8 months daily")
    else if (type === 'counter' && (otherTerm || otherFreq) && counterScore >= 3) confidence = Math.max(confidence, 0.75);
    // (holdout22) ... or when the reply's only no is the asked term itself, refused ("18 mo is a hard no from credit ... 10 mo at
    // 1.34 works"): the refusal is of the term, the offer on another term is the answer
    // (holdout27) ... and so does another product offered with its own terms ("we can't do an MCA on them. What we CAN do
    // is our 12-month term loan" over its priced row): the product is the counter, the refusal is of the one asked
    else if (type === 'counter' && a.product.score >= 3 && complete.length > 0 && a.withdrawal.score === 0) {
      confidence = Math.max(confidence, 0.6);
      reasons.push('another product offered with its terms: a counter');
    }
    else if (type === 'counter' && otherTerm && a.askedTerm !== null && a.declined.score >= 1 && declinesOnlyTheTerm(a)) {
      confidence = Math.max(confidence, 0.75);
      reasons.push('the only refusal is of the term asked: a counter on another term');
    }
  } else if (type === 'declined' && complete.length) {
    // a no and a priced offer in one answer
    if (less || otherTerms || someLess) {
      type = 'counter';
      confidence = Math.max(confidence, 0.6);
      reasons.push('declined the ask, offered other terms: a counter');
      // (holdout31) a tie between the no and the offer, where the no is of the product asked and another product is offered
      // in its place for less, priced ("committee declined the term loan as requested. What we can offer instead is a $60,000
      // line of credit ..."): the refusal and the offer are one counter, not two readings
      if (review === 'conflicting_cues' && d.review === 'conflicting_cues' && less && a.product.score >= 3 && complete.length === a.offers.length && a.tentative.score < 2 && a.withdrawal.score === 0) {
        review = undefined;
        reasons.push('the product asked declined, another offered in its place for less, priced: a counter');
      }
      // (holdout40) ... or at the full amount, the no only a reason said in passing (no clear refusal: "we stopped buying
      // receivables on pharmacies ... They'll do the full amount as a loan instead"): the other product is the counter
      else if (review === 'conflicting_cues' && d.review === 'conflicting_cues' && a.product.score >= 3 && a.declined.score < 3 && complete.length > 0 && complete.length === a.offers.length && a.tentative.score < 2 && a.withdrawal.score === 0 && a.correction.score === 0) {
        review = undefined;
        reasons.push('another product offered in place of the one asked, priced, the no only its reason: a counter');
      }
      // (rfix2) ... or where the lender says in words that it countered ("came in under the ask") and the no is the reason the
      // ask cannot be done ("the existing position eats too much of the deposit to do $30k"), every offer priced, for less:
      // the reason and the smaller offer are one counter
      else if (review === 'conflicting_cues' && d.review === 'conflicting_cues' && less && a.counter.score >= 2 && complete.length === a.offers.length && a.tentative.score < 2 && a.withdrawal.score === 0 && a.correction.score === 0) {
        review = undefined;
        reasons.push('a counter said in words, the no its reason, every offer priced for less: a counter');
      }
      // "Decline as submitted ... we could do the 250 if they let us pay Fora off": a no, and the full ask on a condition
      // (holdout22) ... unless its only no is the term asked ("18 mo is a hard no from credit ... 50k at 1.34 over 10 months")
      if (otherTerm && a.askedTerm !== null && declinesOnlyTheTerm(a)) reasons.push('the only refusal is of the term asked: a counter on another term');
      else if (atAsk && !less && a.declined.score >= 3) {
        review = 'conflicting_cues';
        reasons.push('a decline beside an offer at the full ask on other terms: a person picks');
      }
    } else {
      type = a.approved.score >= a.declined.score ? 'approved' : 'declined';
      review = 'conflicting_cues';
      reasons.push('a decline and an offer at the ask in one answer');
    }
  } else if ((type === 'declined' || type === 'unclassified') && !complete.length && a.category.category !== 'other' && a.declined.score >= 3 && /\bdeclin/.test(a.lower) && SHOWN_LATER.test(a.lower)) {
    // (holdout18) "declined at 45k, too many neg days ... if the owner can show nov is clean i could maybe look at 20ish":
    // a decline given with its reason, and a smaller number only if the merchant later shows better, is a decline now;
    // the floated number is for a person to follow up
    type = 'declined';
    review = 'tentative_terms';
    reasons.push('declined with its reason; a smaller number floated only on what the merchant may show later: a decline a person follows up');
  } else if ((type === 'declined' || type === 'unclassified') && a.counter.score >= 3 && a.tentative.score >= 2) {
    // "declined it at 30, but my manager would look at 15": a counter without terms yet
    type = 'counter';
    reasons.push('declined the ask, floated other terms');
  } else if (type === 'declined' && a.product.score >= 3 && a.declined.hits.filter((h) => !h.startsWith('decline reason')).length <= 1 && !/\bdeclin/.test(a.lower) && a.withdrawal.score === 0 && a.auto.score < 4 && a.pending.score < 3) {
    // (holdout27) one refusal, of the product asked, and another product offered in its place ("we can't do an MCA on
    // them ... what we CAN do is our 12-month term loan"): the refusal is of the product, the offer is the answer
    type = 'counter';
    confidence = Math.max(confidence, 0.6);
    reasons.push('the product asked refused, another offered in its place: a counter');
  } else if (type === 'unclassified' && a.product.score >= 3 && a.auto.score < 4 && a.pending.score < 3) {
    // "What I could do is a $25k LOC": another product offered in place of the one asked for
    type = 'counter';
    reasons.push('another product offered in place of the one asked for');
  } else if (type === 'unclassified' && a.items.items.length > 0 && a.tentative.score - a.hold.score >= 3 && a.auto.score < 4 && a.pending.score < 3 && !(ask !== null && a.floated.some((x) => x < ask - 0.5))) {
    // "should be approvable at 35, send bank login and I'll firm it up": a request beside a floated decision
    type = 'needs_info';
    reasons.push('items asked for beside a floated decision');
  } else if (type === 'unclassified' && !complete.length && a.tentative.score >= 2 && ask !== null && a.floated.some((x) => x < ask - 0.5) && a.auto.score < 4 && a.pending.score < 3) {
    // "I might squeeze 25 out of it, no pricing yet": less money floated without terms; a person follows up
    type = 'counter';
    reasons.push(`floated $${a.floated.filter((x) => x < ask - 0.5).map((x) => x.toLocaleString('en-US')).join(', $')} against a $${ask.toLocaleString('en-US')} ask, not priced`);
  }
  if (type === 'counter' && complete.length && d.type !== 'counter' && !less && !otherTerms && a.declined.score >= 3) review ??= 'conflicting_cues';

  // a decline in words and the full ask offered on another structure ("Decline as submitted ... we could do the 250
  // if they let us pay Fora off"): which one stands is for a person
  if (!review && type === 'counter' && atAsk && !someLess && complete.length && a.declined.score >= 3 && /\bdeclin/.test(a.lower)) {
    review = 'conflicting_cues';
    reasons.push('a decline beside the full ask on another structure');
  }
  // (rfix14) the full ask approved in words as a consolidation, nothing refused or cut ("Full 80 approved as a consolidation, all
  // three positions we pay direct at funding"): a consolidation is an advance that pays the merchant's others off, and merchants
  // often ask for exactly that; whether this deal did, its product does not say, so the approval stands for a person to confirm,
  // never applied as a counter on the product's word alone (its payoffs at funding are what a consolidation is, no other terms)
  const consolidationOnly = a.product.hits.length > 0 && a.product.hits.every((h) => CONSOLIDATION_HIT.test(h));
  if (
    !review && type === 'counter' && consolidationOnly && atAsk && !someLess && !otherTerm && !otherFreq && counterScore - a.structure.score < 3 && APPROVED_WORD.test(a.lower) &&
    a.declined.score < 3 && a.withdrawal.score === 0 && a.tentative.score < 2 && !refusedAskByName(a.lower, ask!) && !refusesAsk(a.lower, ask!)
  ) {
    type = 'approved';
    review = 'conflicting_cues';
    reasons.push('the full ask approved in words as a consolidation: whether the deal asked for one is for a person');
  }
  // doubt goes to a person
  if (!review && !preapprovalAwaitingItems && a.tentative.score >= 2 && (type === 'approved' || type === 'counter' || (type === 'declined' && a.tentative.score >= 3))) review = 'tentative_terms';
  // (rfix24) an approval only inside its own condition, or a decline on a condition stated after it: nothing decided yet
  // (revH) terms given on a file read only on a preliminary basis ("we reviewed it on a preliminary basis and can offer 60k at
  // 1.35", "reviewed on a preliminary basis - 60k looks doable"): a preliminary decision, a person confirms (the rfix24 exemption
  // of that wording is for a preliminary read that asks for items and decides nothing)
  if (!review && (type === 'approved' || type === 'counter') && PRELIMINARY_READ.test(a.lower)) {
    review = 'tentative_terms';
    reasons.push('terms on a file read only on a preliminary basis: no final decision yet');
  }
  if (!review && (type === 'approved' || type === 'counter') && a.lower.match(DECISION_IF) && !APPROVAL_OUTRIGHT.test(a.lower.replace(DECISION_IF, ' '))) {
    review = 'tentative_terms';
    reasons.push('the approval word only inside its own condition ("if approved"): no decision yet');
  }
  if (!review && type === 'declined' && a.lower.match(DECLINE_IF) && !DECLINE_OUTRIGHT.test(a.lower.replace(DECLINE_IF, ' '))) {
    review = 'tentative_terms';
    reasons.push('a decline on a condition stated after it ("declined if so"): no decision yet');
  }
  // (revH) a no for now that asks for something first ("no on pinecrest today - need the November statement first", rfix25's request)
  // beside a reason the lender declines on ("... and we don't do vet clinics anyway", "need to see 12 months in business first"):
  // a decline, never the request alone; a person confirms. So is a kind of deal refused whatever comes ("we don't do vet clinics anyway")
  if (!review && type === 'needs_info' && NO_ON_FIRST.test(a.lower) && (a.category.hits.length > 0 || REFUSED_ANYWAY.test(a.lower))) {
    type = 'declined';
    review = 'conflicting_cues';
    reasons.push(`a no for now asking for something first, beside a decline reason (${a.category.category}): a decline, a person confirms`);
  }
  // a request for items next to a floated decision ("looks approvable around 60 ... I need"): a person sets expectations
  // (holdout35) ... unless the only doubt is a pre-approval with no terms whose final terms the lender says wait on the items
  // ("pre-approved up to $80,000. Final terms will be issued once underwriting receives the stipulations below"): a request
  // for items, nothing priced to set expectations on
  if (!review && type === 'needs_info' && a.tentative.score - a.hold.score >= 3 && !preapprovalAwaitingItems) review = 'tentative_terms';
  // (rfix24) ... and a request beside a figure guessed at ("probably somewhere around forty maybe forty five but I can't say for
  // sure until I see more"): any hedge with an amount floated; recording the request alone hides the figure the merchant may
  // have heard, a person sets expectations
  if (!review && type === 'needs_info' && a.tentative.score >= 2 && (a.floated.length > 0 || a.tentative.hits.some((h) => GUESSED_FIGURE.test(h))) && !preapprovalAwaitingItems) {
    review = 'tentative_terms';
    reasons.push('a request beside an amount guessed at: a person sets expectations');
  }
  // (holdout24) ... and a request beside a figure held for its recheck ("penciled at ~40 / 1.42 ... till I see October's
  // statement"): the hold is no mere process when it holds an amount put forward; a person sets expectations
  if (!review && type === 'needs_info' && a.hold.score > 0 && (a.floated.length > 0 || FACTOR_NAMED.test(a.lower))) {
    review = 'tentative_terms';
    reasons.push('a request beside a figure held until the items come in: a person sets expectations');
  }
  // (holdout36) ... and a request beside terms written out in full (an amount, a factor and a term: "once I get the docs
  // I'm thinking ..."): priced terms the lender will not stand behind until the items come in; recording the request alone
  // would drop the price, recording the price would be an offer not yet made. A person sets expectations
  if (!review && type === 'needs_info' && complete.length > 0) {
    review = 'tentative_terms';
    reasons.push('a request beside terms priced in full ahead of the items: a person sets expectations');
  }
  // terms relayed by another broker, or heard on a call or a voicemail and passed on (holdout27), not the lender's own
  // written word: a person decides
  // (rfix16) ... unless the relayer says only where it placed the file and passes on the funder's decision in writing (an approval
  // attached, no call, no markup of its own), or reports that none of its funders would do it: its own answer, not hearsay
  const placedOnly = a.relayed.hits.length > 0 && a.relayed.hits.every((h) => V.RELAYED_PLACED.test(h));
  // (revr) ... never with the desk's own pricing, terms it says differ from the paper, or a paper for another merchant
  const relayOwnAnswer = placedOnly && !V.RELAYED_NOT_AS_WRITTEN.test(a.lower) && ((type === 'approved' && V.RELAYED_IN_WRITING.test(a.lower)) || (type === 'declined' && V.RELAYED_ALL_PASSED.test(a.lower) && !V.RELAYED_STILL_OUT.test(a.lower)));
  // (rfix24) ... nor a voicemail the lender's own rep left on our line, delivered by a voice system as its notification ("New
  // voicemail from <caller> ... Transcription: ..."), the message opening on that notification: the lender's word to us, spoken,
  // not a call or a voicemail someone else heard and passes on ("Bo asked me to send you the voicemail", "left me this VM")
  // (revH) ... nor a caller who passes on what someone else said, is the merchant, or takes back what was said (see
  // VOICEMAIL_NOT_OWN_WORD): anyone can leave a voicemail on our line, a person hears it
  const directVoicemail = a.relayed.hits.length > 0 && a.relayed.hits.every((h) => V.VOICEMAIL_NOTICE_HIT.test(h)) && V.VOICEMAIL_NOTICE_OPENING.test(a.lower.trimStart()) && !V.VOICEMAIL_NOT_OWN_WORD.test(a.lower);
  if (directVoicemail) reasons.push('a voicemail notification to our line: the caller speaks to us, nothing passed on');
  if (!review && type !== 'unclassified' && a.relayed.score >= 3 && !relayOwnAnswer && !directVoicemail) {
    review = 'tentative_terms';
    reasons.push("terms relayed (another broker's, or a call or voicemail passed on), not the lender's own written reply");
  }
  // (rfix19) the reply signed by us, the broker (our name, the location's, on a line of its sign-off): our own note atop a
  // forward, a paraphrase of the lender's decision, never the lender's written word; a person reads the lender's own message
  const ours = !review && type !== 'unclassified' ? signedByUs(a.own, ctx) : null;
  if (ours) {
    review = 'tentative_terms';
    reasons.push(`signed by the broker itself ("${ours}"): its own paraphrase of the decision, not the lender's written reply`);
  }
  // a correction of earlier terms: which terms stand is for a person
  // (rfix21) ... unless the reply says the revised terms replace the earlier ones, withdrawn: those stand
  // (rfix31) ... unless the correction names what it replaces and its restated payback or payment proves the corrected terms
  // ("correction 1.38 not 1.40 ... 82,800 back 591.43 dly rest same"): the corrected offer stands (decision-doubts.ts)
  if (!review && (type === 'approved' || type === 'counter') && a.correction.score >= 3 && !replaced && complete.length === 1 && a.offers.length === 1) {
    const fixed = provenCorrection(a, complete[0], ctx);
    if (fixed) {
      Object.assign(complete[0], fixed, { conflict: undefined });
      reasons.push(`a correction naming the figure it replaces, its restated payback or payment repaying the corrected terms: $${fixed.amount.toLocaleString('en-US')} at ${fixed.factor_rate}`);
    }
    else review = 'conflicting_cues';
  }
  if (!review && (type === 'approved' || type === 'counter') && a.correction.score >= 3 && !replaced && !reasons.some((r) => r.startsWith('a correction naming'))) review = 'conflicting_cues';
  // "can't do 70" and an option at the full 70: the lender's no and its offer disagree
  // (holdout36) ... unless the no is only of the terms the ask came with ("can't do 60 on our standard terms. A) 45k ... B) 60k at
  // 1.42 over 160 days") and the options are more than one: the full amount on other terms is one of the counter's options
  const onTheTerms = ask !== null && complete.length >= 2 && someLess && refusesAskOnTheTerms(a.lower, ask);
  if (onTheTerms) reasons.push('the ask refused only on the terms it came with, options offered: a counter with the full amount on other terms');
  if (!review && type === 'counter' && atAsk && ask !== null && refusesAsk(a.lower, ask) && !onTheTerms) {
    review = 'conflicting_cues';
    reasons.push('refuses the ask in words, yet offers it');
  }
  if (!review && (type === 'approved' || type === 'counter') && a.declined.score >= 3 && !less && !otherTerms && a.counter.score < 3) review = 'conflicting_cues';
  // (holdout21) a schedule only said to be kept for other files ("weekly is only offered on renewals"), none refused, and
  // nothing else making a counter: whether it was the one asked is not said, so a person decides
  if (!review && (type === 'approved' || type === 'counter') && a.scheduleKeptOnly && !asSubmittedWins && !less && !otherTerm && !someLess && counterScore - a.schedule.score < 1.5 && a.product.score < 3) {
    review = 'conflicting_cues';
    reasons.push('a schedule kept for other files, none refused: whether it was the one asked is for a person');
  }
  // (holdout11) the offer's own figures disagree (amount x factor is not the payback, the payments do not repay it, the
  // term is not the payments counted): one of them is not the lender's, so nothing is applied
  const disagree = complete.filter((o) => o.conflict);
  if (!review && (type === 'approved' || type === 'counter') && disagree.length) {
    review = 'conflicting_cues';
    reasons.push(`the offer's figures disagree: ${disagree.map((o) => o.conflict).join('; ')}`);
  }
  // (holdout11) an approval at the full ask while the reply puts a smaller amount forward ("where i landed: 42 ... if he
  // wants the full 50 ..."): the smaller one may be the offer, so a person picks
  // (rfix8) ... never the shares of a syndicated approval, lines that add up to the amount approved ("Lead $60,000 50% /
  // Participant $36,000 30% / Participant $24,000 20%"): they split the approval, no other amount is offered
  const shares = ask !== null && atAsk ? sharesOf(a.lower, ask) : new Set<number>();
  const smaller = ask !== null && atAsk ? a.floatedFirm.filter((x) => x < ask - 0.5 && x >= ask / 10 && !amounts.some((y) => Math.abs(y - x) < 0.5) && !shares.has(x)) : [];
  if (!review && type === 'approved' && smaller.length) {
    review = 'conflicting_cues';
    reasons.push(`an approval at the $${ask!.toLocaleString('en-US')} ask beside $${smaller.map((x) => x.toLocaleString('en-US')).join(', $')} put forward: which stands is for a person`);
  }
  // (rcond) two amounts where which one is funded is unclear: a figure said to reach the merchant (net, in hand, wired) that the
  // lender puts as a limit ("we can only fund 70k net"), or that no fee, payoff or gross figure explains ("we can fund 70k
  // net"), or an amount approved beside a smaller one the lender says it will only fund ("Approved 90k but we can only fund
  // 70k"): the offer would be logged at a figure that may not be the funded one, so a person reads it. A net after a named
  // fee or payoff beside the gross stays the corpus convention: the gross is the amount ("$90k gross / $70k net after payoff").
  const unclearFunded = (type === 'approved' || type === 'counter') && complete.length ? unclearFundedAmount(a.lower, complete.map((o) => o.amount)) : null;
  if (!review && unclearFunded) {
    review = 'conflicting_cues';
    reasons.push(unclearFunded);
  }
  if (!review && (type === 'approved' || type === 'counter') && refusesAskedSchedule) {
    review = 'conflicting_cues';
    reasons.push(`approved as submitted, yet the ${ctx!.requested_frequency} schedule the deal asks is refused: a person decides`);
  }
  // (holdout28) a decline only "as submitted", with the items that would take the file back to the one who decides ("As
  // submitted this is a decline ... If you can get me the 2025 tax return and a letter on the $22k, I'll take it back to
  // committee"): whether the file is dead or waiting on the items is for a person
  if (!review && type === 'declined' && a.items.items.length > 0 && DECLINED_AS_SUBMITTED.test(a.lower) && BACK_TO_DECIDER.test(a.lower)) {
    review = 'conflicting_cues';
    reasons.push('declined only as submitted, items asked to take it back: dead or waiting on the items is for a person');
  }
  // (rfix11) ... and so is one "as submitted" beside an approval held out on a condition ("We are declining X as submitted ...
  // If the merchant is able to retire the balance, or you can obtain a payoff letter we could fund against, we would
  // anticipate an approval somewhere in the range of $90,000 to $110,000"): dead, or waiting on the payoff, is for a person
  if (!review && type === 'declined' && DECLINED_AS_SUBMITTED.test(a.lower) && (a.approved.score > 0 || a.tentative.score > 0)) {
    review = 'conflicting_cues';
    reasons.push('declined only as submitted, an approval held out on a condition: dead or waiting on it is for a person');
  }
  if (!review && type === 'declined' && (a.approved.score >= 3 || complete.length > 0) && a.approved.score >= a.declined.score - 1) review = 'conflicting_cues';
  // (holdout33) a decision written to another ISO or broker ("sending X over through Red Mesa Merchant Partners (ISO
  // #4471)"): a submitting ISO named by a number not shown to be ours (rfix: ours are the numbers our own submission email
  // gave and our name right before the number, from the hook's context); whose deal it is, a person decides
  const otherIso = type !== 'unclassified' ? unknownIsoNumbers(a.lower, ctx) : [];
  if (!review && otherIso.length) {
    review = 'conflicting_cues';
    reasons.push(`names a submitting ISO by a number not shown to be ours (#${otherIso.join(', #')}): the decision may be written to another ISO, a person checks`);
  } else if (!otherIso.length && type !== 'unclassified' && isoNumbers(a.lower).length) reasons.push('names our ISO number, or our name beside it: written to us');
  const otherFirm = type !== 'unclassified' ? unknownIsoFirms(a.lower, ctx) : [];
  if (!review && otherFirm.length) {
    review = 'conflicting_cues';
    reasons.push(`names a submitting ISO not shown to be ours ("${otherFirm[0]}"): the decision may be written to another ISO, a person checks`);
  }
  // (holdout33) an approval that points to terms given elsewhere ("approved per our call", "as discussed") with none in
  // writing: what was approved is not in the message, so a person confirms it
  if (!review && (type === 'approved' || type === 'counter') && !complete.length && TERMS_ELSEWHERE.test(a.lower)) {
    review = 'tentative_terms';
    reasons.push('an approval pointing to terms given elsewhere (a call, a conversation), none in writing');
  }
  // (holdout33) bare figures with no decision word at all ("18k / 1.42 / 80 days / 319.50"): an offer, a competitor's
  // numbers or what was declined? Nothing says; a person decides
  if (!review && (type === 'approved' || type === 'counter') && complete.length === 1 && a.approvalWords === 0 && a.counter.score === 0 && a.declined.score === 0 && a.needs.score === 0 && !DECISION_VERB.test(a.lower) && bareFigures(a.lower)) {
    review = 'low_confidence';
    reasons.push('figures with no decision word: an offer or not is for a person');
  }
  // (rfix) a decision taken back later in the same message ("Approved 50k at 1.35 ... Disregard the above, still pending",
  // "strike that, I hit send too early"): which word stands, if any, is for a person; the first one is never applied
  if (!review && type !== 'unclassified' && a.takenBack) {
    review = 'conflicting_cues';
    reasons.push(`a decision taken back in the same message ("${a.takenBack}"): a person reads which stands`);
  }
  // (holdout34) a doubt about who signed the application (the signer is not the owner on file, "who signed, and are they an
  // owner?"): an authority or identity question, perhaps fraud, beside whatever the reply asks or decides; a person checks
  // it before anything is recorded. A decline stands on its own.
  const signer = type !== 'declined' && type !== 'unclassified' ? SIGNER_DOUBT.exec(a.lower) : null;
  if (!review && signer) {
    review = 'conflicting_cues';
    reasons.push(`a doubt about who signed the application ("${signer[0]}"): a person checks the signer's authority`);
  }
  // (rfix9) the lender's own subject line states one decision and the body another ("Decision: APPROVED" over "Declined.
  // 22 negative days"): a template filled in wrong, or a body pasted from another file; which stands is for a person. An
  // approval and a counter agree ("Approved with Modified Terms" over reduced terms); a reply's old subject never counts
  const subjectAgainst = a.subjectDecision === 'positive' ? type === 'declined' : a.subjectDecision === 'negative' ? type === 'approved' || type === 'counter' : false;
  if (!review && subjectAgainst) {
    review = 'conflicting_cues';
    reasons.push(`the subject line says ${a.subjectDecision === 'positive' ? 'approved' : 'declined'}, the body reads ${type}: which stands is for a person`);
  }
  // (rfix28) the full ask approved in words over less money, offers hanging on items not yet in (decision-doubts.ts): a person
  // reads them
  if (!review && (type === 'approved' || type === 'counter')) {
    const doubt = approvedAsAskedBelowAsk(a.lower, amounts, ask) ?? offersOnUnmetCondition(a.lower, complete.length);
    if (doubt) {
      review = doubt.startsWith('terms hanging') ? 'tentative_terms' : 'conflicting_cues';
      reasons.push(doubt);
    }
  }
  // (rfix31) a ceiling stated below the amount offered, in any language or in words ("lo máximo es cuarenta mil" over "45k at
  // 1.45"): one figure is wrong, a person reads which
  if (!review && (type === 'approved' || type === 'counter') && complete.length) {
    const doubt = ceilingBelowOffer(ceilingSentences(a.own, ctx), (x) => score(x, CEILING_CUES).score > 0, complete.map((o) => o.amount));
    if (doubt) {
      review = 'conflicting_cues';
      reasons.push(doubt);
    }
  }
  // (stop 54) a word in another script glossed in English with the opposite decision ("거절 (approved)"; reply-html.ts): one of
  // the two is a slip, a person reads which
  if (!review && type !== 'unclassified' && a.own.includes(GLOSS_CONTRADICTED)) {
    review = 'conflicting_cues';
    reasons.push('a word in another script and its English gloss say opposite decisions: which stands is for a person');
  }
  if (!review && type !== 'unclassified' && confidence < MIN_CONFIDENCE) review = 'low_confidence';
  if (review) reasons.push(`review: ${review}`);
  return { type, confidence: round2(confidence), reasons, review };
}

/** (rcond) An amount as written ("$70,000", "70k", "$70K"), a thousand or more. */
const AMOUNT = /\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?\s?(k\b)?/g;
/** A limit put on the figure just before it, in its clause: "only", "just", "max", "at most", "no more than", "capped at". */
const LIMIT_BEFORE = /\b(?:only|just|max(?:imum)?|at most|no more than|capped at|limited to|cap (?:it |this )?at)\b[^.!?;\n]{0,40}$/;
/** A funding verb after that limit: "can only fund", "will just wire", "max we can release". */
const FUND_VERB_BEFORE = /\b(?:only|just|max(?:imum)?|at most|no more than)\b[^.!?;\n]{0,25}\b(?:fund|wire|release|disburse|advance|send|put out|put)\b[^.!?;\n]{0,15}$/;
/** What makes a net smaller than the amount: a fee, a payoff, a balance netted out, or the gross named beside it. */
// (rfix25) ... a consolidation in a phone's shorthand too: "or consol the other funder + net ~31k"
const DEDUCTION = /\b(?:fees?|orig\w*|commission|points?|pts|closing costs?|pay ?offs?|pay(?:s|ing)? off|paid off|buy ?outs?|buying out|takes? out|taking out|balance|renewal|consolidat\w*|consol|consoll?(?:ing|ed)|less|minus|deduct\w*|netted|netting out|nets? out|gross|holdback|reserve)\b/;
/** (revF) The merchant said to get the figure after it: "merchant receives", "the client will get", "they'll see". */
const MERCHANT_GETS_BEFORE = /\b(?:merchant|client|customer|business|owner|borrower|they|he|she)(?:'ll| will| would| should)? (?:only )?(?:gets?|receives?|sees?|walks? away with|takes? home)(?: (?:about|around|roughly|approx\w*|just|only))?\s*$/;
/** An amount approved in words: "approved 90k", "approved for $90,000", "approval at the 90". */
const APPROVED_AMOUNT = /\bapprov(?:ed|al)(?: (?:for|at|of))?(?: the)?\s*(\$?\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?\s?(?:k\b)?)/g;

function amountValue(raw: string): number {
  const m = /(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s?(k)?/i.exec(raw);
  if (!m) return 0;
  const v = Number(m[1].replace(/,/g, '') + (m[2] ?? ''));
  return m[3] ? v * 1000 : v;
}

/** (rcond) Why the funded amount of a reply is unclear beside the offers read (see decide), or null. */
export function unclearFundedAmount(lower: string, offered: number[]): string | null {
  const isOffered = (x: number) => offered.some((y) => Math.abs(y - x) < 0.5);
  const approvedAmounts = [...lower.matchAll(APPROVED_AMOUNT)].map((m) => amountValue(m[1])).filter((x) => x >= 1000);
  for (const line of lower.split('\n')) {
    AMOUNT.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = AMOUNT.exec(line))) {
      const value = amountValue(m[0]);
      if (value < 1000 || isOffered(value) && !approvedAmounts.some((x) => x > value + 0.5)) continue;
      const start = m.index + (m[0].length - m[0].trimStart().length);
      const before = line.slice(Math.max(0, start - 60), start);
      const kind = moneyKind(line, start, m.index + m[0].length);
      // (revF) a sum the merchant is said to get ("merchant receives $70,000", "they'll get 70k") is a net as well
      const toMerchant = MERCHANT_GETS_BEFORE.test(before);
      // (revF) ... a net a few points (up to 8) under an amount offered is that amount less the usual fees ("Net to merchant $87,300" on 90k):
      // nothing left to explain
      const feesOnly = offered.some((y) => value < y && value >= y * 0.92);
      if ((kind === 'net' || toMerchant) && !isOffered(value) && !feesOnly) {
        if (LIMIT_BEFORE.test(before)) return `a net figure put as a limit ($${value.toLocaleString('en-US')}) beside the offer: which amount is funded is for a person`;
        const rest = lower.replace(/\bnet\b/g, ' ');
        if (!DEDUCTION.test(rest)) return `a net figure ($${value.toLocaleString('en-US')}) no fee, payoff or gross explains beside the offer: which amount is funded is for a person`;
      }
      // an amount approved and a smaller one the lender will only fund: which is the advance is unclear
      if (FUND_VERB_BEFORE.test(before) && approvedAmounts.some((x) => x > value + 0.5)) {
        return `approved at $${Math.max(...approvedAmounts).toLocaleString('en-US')} yet only $${value.toLocaleString('en-US')} to be funded: which amount is funded is for a person`;
      }
    }
  }
  return null;
}

/**
 * (rfix8) The amounts of a block of consecutive "label  $amount [share %]" lines (no colon: an allocation or a split, not
 * "Funded: $X" fields), its total line aside, when they add up to the whole: each is a share of it.
 */
export function sharesOf(text: string, whole: number): Set<number> {
  const row = /^[ \t]*([a-z(][^$:\n]{0,60}?)[ \t]+\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{2})?(?:[ \t]+\d{1,3}(?:\.\d+)?[ \t]*%)?[ \t]*$/i;
  const out = new Set<number>();
  let block: Array<{ label: string; amount: number }> = [];
  const close = () => {
    const parts = block.filter((r) => !/^\s*(?:total|sum|grand total)\b/i.test(r.label));
    // (review rev-t) never a list of choices ("Option A  $40,000 / Option B  $20,000"): alternatives offered, not parts of one
    // approval, whatever they add up to
    const choices = parts.some((r) => /\b(?:option|opt|alt|alternative|choice|scenario|structure|plan|offer|or)\b/i.test(r.label));
    if (!choices && parts.length >= 2 && Math.abs(parts.reduce((t, r) => t + r.amount, 0) - whole) < 0.5) for (const r of parts) out.add(r.amount);
    block = [];
  };
  for (const line of text.split('\n')) {
    const m = row.exec(line);
    if (m) block.push({ label: m[1], amount: Number(m[2].replace(/,/g, '')) });
    else close();
  }
  close();
  return out;
}

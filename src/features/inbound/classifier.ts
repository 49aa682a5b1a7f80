// The lender-reply classifier: deterministic rules over the text the lender wrote (quotes and
// forwarded headers cut by reply-text.ts). It answers what the lender said (approved, declined with a
// category, needs_info with the items asked for, counter, or unclassified for auto-replies and
// anything unclear) and extracts offer terms. No network, no model: every decision lists the cues
// that fired in `reasons`, so a reviewer can see why.
//
// Class names: the contract's `response_type` says `more_info` where this says `needs_info`; use
// `toResponseType`. `counter` records as `counter` (status approved). `unclassified` is never sent:
// the reply is kept for review.
import { findTraceCodes } from '../submissions/trace-code';
import { normalizeText, replyParts, type ReplyInput } from './reply-text';
import * as V from './vocabulary';

export type ReplyType = 'approved' | 'declined' | 'needs_info' | 'counter' | 'unclassified';
export type TermUnit = 'days' | 'weeks' | 'months';
export type PaymentFrequency = 'daily' | 'weekly' | 'bi-weekly' | 'monthly';

/**
 * Decline categories (slugs; the contract's `decline_category` is a free slug, these are ours):
 * negative_days, nsf, low_revenue, low_balance, industry, credit_score, time_in_business, stacking
 * (existing positions / holdback), restricted_state, default_history (defaults, judgments, liens,
 * bankruptcy), verification (fraud, altered or unverifiable statements), deal_size (amount outside the
 * lender's range), other (no reason given or none of these).
 */
export const DECLINE_CATEGORIES = [
  'negative_days', 'nsf', 'low_revenue', 'low_balance', 'industry', 'credit_score', 'time_in_business', 'stacking',
  'restricted_state', 'default_history', 'verification', 'deal_size', 'other',
] as const;
export type DeclineCategory = (typeof DECLINE_CATEGORIES)[number];

/** An offer found in a reply. Field names and enums follow the contract's Offer. */
export interface ExtractedOffer {
  amount: number;
  factor_rate: number | null;
  term: number | null;
  term_unit: TermUnit | null;
  payment_frequency: PaymentFrequency | null;
  payment_amount: number | null;
  /** Contract-required fields (`factor_rate`, `term`) that the reply did not state. */
  missing: string[];
  /**
   * Where the offer's own parts disagree (holdout11): the amount times the factor is not the payback the
   * reply states, the payments do not add up to it, or the term is not the number of payments stated.
   * Then one of its figures is not the lender's (the ask's amount paired with the offer's factor, a term
   * from another sentence): such an offer is never applied without a person.
   */
  conflict?: string;
}

/**
 * Why a reading goes to a person rather than being applied: `conflicting_cues` (a decline and an
 * offer, or an approval and a decline, that no rule of the trade settles), `low_confidence` (the
 * winning class barely won), `tentative_terms` (terms before the final sign-off, "up to", a floated
 * amount without pricing), `approval_withdrawn` (an approval pulled back), `multiple_deals` (one
 * reply answering several files). `incomplete_offer` is decided when the offers are logged
 * (reply-outcome.ts), not here; `readers_disagree` (the rules decided, the statistical model
 * confidently reads another type) when the two readers are set side by side (reply-model.ts).
 */
export const CLASSIFIER_REVIEW_REASONS = ['conflicting_cues', 'low_confidence', 'tentative_terms', 'approval_withdrawn', 'multiple_deals', 'readers_disagree'] as const;
export type ClassifierReviewReason = (typeof CLASSIFIER_REVIEW_REASONS)[number];

/**
 * What the inbound hook knows about the submission a reply answers: the deal's requested amount
 * (what an offer is compared with: less money is a counter), the requested term when the
 * submission gives one, the product asked for, and the business name (which of several deals a
 * reply is about). Every field is optional: without context, counters are read from words only.
 */
export interface ReplyContext {
  requested_amount?: number | null;
  requested_term?: { term: number; unit: TermUnit } | null;
  product_type?: string | null;
  business_name?: string | null;
  /** The submission's trace code (`SVC-XXXX-XXXX`): a reply naming another code answers another submission. */
  trace_code?: string | null;
}

export interface Classification {
  type: ReplyType;
  /** How clear the winning reading is, 0-1; its evidence is `reasons`. */
  confidence: number;
  /** Set when a person should decide (see CLASSIFIER_REVIEW_REASONS); absent or null otherwise. */
  review_reason?: ClassifierReviewReason | null;
  decline_category?: DeclineCategory;
  decline_reason?: string;
  requested_items: string[];
  offers: ExtractedOffer[];
  reasons: string[];
}

/** The contract's `response_type` for a class; null for `unclassified` (kept for review, not recorded). */
export function toResponseType(type: ReplyType): 'approved' | 'declined' | 'counter' | 'more_info' | null {
  if (type === 'needs_info') return 'more_info';
  if (type === 'unclassified') return null;
  return type;
}

// ---------------------------------------------------------------- text helpers

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Words lenders misspell often enough to matter, matched within edit distance 1 (2 for long words). */
const FUZZY_WORDS = ['declined', 'decline', 'declining', 'unfortunately', 'negative', 'approved', 'approval', 'restricted'];
/** Correct words one edit away from a cue word, which must stay as they are. */
const REAL_WORDS = new Set([
  'approve', 'approves', 'approving', 'approvals', 'declines', 'decliner', 'negatives', 'negatively', 'restrict', 'restricts',
  'restriction', 'restrictions', 'unfortunate', 'declared', 'reclined', 'derived', 'deprived',
]);

function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** Lowercase, ASCII quotes, and misspelt cue words replaced by the word they are meant to be. */
const CONTRACTION_RE = new RegExp(`\\b(${Object.keys(V.CONTRACTIONS).join('|')})\\b`, 'g');

/** "forty thousand dollars" -> "$40,000", "six months" -> "6 months", "the eighty" -> "the 80" (lower-cased text). */
export function wordsToDigits(lower: string): string {
  const unit = Object.keys(V.NUMBER_WORDS).sort((a, b) => b.length - a.length).join('|');
  const num = `(?:(?:${unit})(?:[- ](?:${unit}))?)`;
  const value = (w: string) => w.split(/[- ]/).reduce((n, p) => n + (V.NUMBER_WORDS[p] ?? 0), 0);
  const digit = Object.keys(V.DIGIT_WORDS).join('|');
  return lower
    .replace(new RegExp(`\\b(${num})(?: (hundred))?(?: (?:and )?(${num}))? (thousand|grand|million)( dollars)?\\b`, 'g'), (_m, a: string, h: string | undefined, b: string | undefined, scale: string) => {
      let n = value(a);
      if (h) n = n * 100 + (b ? value(b) : 0);
      return `$${(n * V.NUMBER_SCALES[scale]).toLocaleString('en-US')}`;
    })
    .replace(new RegExp(`\\b(${num}) ((?:daily |weekly |bi-?weekly |monthly )?(?:payments?|pmts?|debits?|installments?)|business days?|days?|weeks?|months?|mos?|years?)\\b`, 'g'), (_m, a: string, u: string) => `${value(a)} ${u}`)
    // a factor in words: "one point three two" -> "1.32"
    .replace(new RegExp(`\\b(one|two) point ((?:${digit})(?:[- ](?:${digit})){0,3})\\b`, 'g'), (_m, a: string, d: string) => `${V.NUMBER_WORDS[a]}.${d.split(/[- ]/).map((w) => V.DIGIT_WORDS[w]).join('')}`)
    // a factor read out after its label (holdout11): "factor one thirty-eight" -> "factor 1.38", "buy rate of one forty" -> 1.40
    .replace(new RegExp(`\\b(factor(?: rate)?|buy(?: rate)?|sell(?: rate)?|rate)( of| is| at|:)? one[- ](${TENS})(?:[- ](${UNITS}))?\\b`, 'g'), (_m, l: string, j: string | undefined, t: string, u: string | undefined) => `${l}${j ?? ''} ${(1 + (V.NUMBER_WORDS[t] + (u ? V.NUMBER_WORDS[u] : 0)) / 100).toFixed(2)}`)
    .replace(new RegExp(`\\b(the|full) (${num})\\b`, 'g'), (_m, w: string, a: string) => `${w} ${value(a)}`)
    // ... and before the factor it is priced at: "thirty-five at 1.37", "forty on a 1.41"
    .replace(new RegExp(`\\b((?:${TENS})(?:[- ](?:${UNITS}))?)(?= (?:at|@|on an?) [12]\\.\\d)`, 'g'), (a: string) => `${value(a)}`)
    // a round amount in words after a preposition or "all" (holdout11): "couldn't get it to fifty", "a lock for all ninety-five";
    // tens only (20-99), so "for one" or "to two of them" stay words; read as thousands only against the ask (SHORTHAND_AMOUNT)
    .replace(new RegExp(`\\b(to|at|for|all|all of|on|do) ((?:${TENS})(?:[- ](?:${UNITS}))?)\\b(?![- ](?:${unit}))`, 'g'), (_m, w: string, a: string) => `${w} ${value(a)}`);
}
const TENS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const UNITS = 'one|two|three|four|five|six|seven|eight|nine';

function prepare(text: string): { lower: string; fixed: string[] } {
  const fixed: string[] = [];
  // a file name's parts read as words (holdout10): "<DECLINE_NorthStar_2026.pdf>", "Approval-Letter_Kingsway.pdf"
  const lower = normalizeText(text)
    .replace(/[\w.-]+\.(?:pdf|docx?|xlsx?|png|jpe?g|tiff?)\b/gi, (f) => f.replace(/[_]+/g, ' '))
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(CONTRACTION_RE, (w) => V.CONTRACTIONS[w] ?? w)
    .replace(/[a-z]{6,}/g, (w) => {
      if (FUZZY_WORDS.includes(w) || REAL_WORDS.has(w)) return w;
      for (const target of FUZZY_WORDS) {
        if (w[0] !== target[0]) continue;
        const max = target.length >= 9 ? 2 : 1;
        if (editDistance(w, target, max) <= max) {
          fixed.push(`${w}->${target}`);
          return target;
        }
      }
      return w;
    });
  return { lower, fixed };
}

const BOILERPLATE_RE = new RegExp(`\\b(?:${V.BOILERPLATE.join('|')})`, 'g');

/** The sentences that decide nothing (vocabulary.ts BOILERPLATE) blanked, the text keeping its length. */
export function blankBoilerplate(lower: string): { text: string; hits: string[] } {
  const hits: string[] = [];
  let out = lower;
  BOILERPLATE_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BOILERPLATE_RE.exec(lower))) {
    let start = m.index;
    while (start > 0 && !/[.!?\n]/.test(lower[start - 1])) start--;
    let end = m.index + m[0].length;
    if (!/[.!?\n]$/.test(m[0])) while (end < lower.length && !/[.!?\n]/.test(lower[end])) end++;
    out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
    hits.push(m[0].trim());
    if (m[0].length === 0) BOILERPLATE_RE.lastIndex++;
  }
  return { text: out, hits };
}

function sentenceAround(text: string, index: number): string {
  let start = index;
  while (start > 0 && !/[.!?\n]/.test(text[start - 1])) start--;
  let end = index;
  while (end < text.length && !/[.!?\n]/.test(text[end])) end++;
  return text.slice(start, Math.min(text.length, end + 1)).trim();
}

// ---------------------------------------------------------------- cues

interface Cue {
  re: RegExp;
  w: number;
  /** Cue does not count when negated just before ("not approved"). */
  negatable?: boolean;
  /** Cue counts for less inside a conditional or prospective sentence ("once received ... an approval"). */
  modal?: boolean;
}

const NEGATION_BEFORE = /\b(not|never|no|nothing|n't|unable to|cannot|can't be|won't be|wasn't|isn't)\s+(be\s+|get\s+|been\s+|else\s+)?$/;
const MODAL_BEFORE = /\b(once|if|unless|before|pending|until|should be able to|could|would|may|might|hope to|expect to|get you an?|otherwise|will be|files? with)\b[^.!?\n]{0,50}$/;

const APPROVED_CUES: Cue[] = [
  { re: /\b(is|are|been|got|was|were|it's|its|we)\s+approved\b/g, w: 3, negatable: true, modal: true },
  { re: /(^|\n)\s*approved\b/g, w: 3 },
  { re: /\bapproved\s*(for|at|@|\$|\d|-|:|!|,)/g, w: 3, negatable: true, modal: true },
  { re: /\b(conditional|final|full)\s+approval\b/g, w: 3, negatable: true, modal: true },
  // (never "approval is pending the following", "approval is subject to committee": no approval yet)
  { re: /\bapproval\s+(amount|below|attached|terms|letter|is|for)\b(?! (pending|contingent|subject|on hold|waiting|awaiting|not\b))/g, w: 2, negatable: true, modal: true },
  { re: /\bstatus:\s*approved\b/g, w: 3 },
  { re: /\bgood news\b|\bcongrat/g, w: 1 },
  { re: /\bsigned off\b|\b(we're|we are) in (for|at)\b|\bgood to go\b|\bqualifies\b/g, w: 2, negatable: true, modal: true },
  { re: /\bpleased to (inform|approve|offer|let|confirm)\b/g, w: 1.5 },
  { re: /\b((we|i) )?(can|could) (do|offer|fund|go|help)\b/g, w: 1.5, negatable: true, modal: true },
  { re: /\bapproval came back\b|\bcame back (approved|with an approval)\b/g, w: 3 },
  { re: /\b(offers?|options?) (below|attached)\b|\b(two|three|\d) options\b/g, w: 1.5 },
  { re: /\bsend (me |us )?(the )?contract request\b|\bcontract request\b|\brequest contracts\b|\bsend contracts\b/g, w: 1 },
];

const DECLINED_CUES: Cue[] = [
  { re: /\bdecline[ds]?\b|\bdeclining\b/g, w: 3, negatable: true, modal: true },
  { re: /\bnot approved\b|\bcan't (get this |be )?approved\b|\bunable to approve\b/g, w: 3.5 },
  // "we can't approve", never "can't approve it at 40k" or "can't approve the full 50" (a counter's refusal of the ask)
  { re: /\b(can't|cannot|can not|won't|will not|are unable to|aren't able to) approve(?! (it |this |that |the (file|deal|request) )?(at|for|the full|the whole|more|over|above|\$|\d|up to|as))(?![^.;\n]{0,40}\b(at|for) (the )?(full )?\$?\d)/g, w: 3 },
  { re: /\b(we'll|we will|i'll|i will|have to|going to|gonna|must|will)\s+pass\b|\bpass(ing)? on (this|the|it|that)\b|(^|\n|[.!-]\s+)pass\s*([.!]|$|[-:]\s)|(^|\n)\s*pass\b/g, w: 3 },
  { re: /\bno[- ]go\b/g, w: 3 },
  { re: /\b(unable|not able|can't|cannot|can not|won't be able|will not be able) to (fund|approve|help|move forward|do this|proceed|assist|offer on|extend an offer|make an offer|provide an offer|offer terms)\b/g, w: 3, modal: true },
  { re: /\b(will not|won't|not|are not|aren't)\s+(be\s+)?(moving|move|going) forward\b/g, w: 3, modal: true },
  { re: /\bcan'?t touch (it|this)\b/g, w: 2 },
  { re: /\b(don't|do not|doesn't|does not|won't|will not)\s+(fund|finance|work with|touch|lend to)\b/g, w: 2, modal: true },
  { re: /\b(restricted|prohibited|excluded|ineligible)\b/g, w: 1.5 },
  { re: /\b(doesn't|does not|didn't|did not|don't|do not)\s+(meet|qualify|pass|fit)\b/g, w: 2 },
  { re: /\bnot a (fit|match)\b|\boutside (of )?(our )?(guidelines|criteria|box|parameters)\b/g, w: 2.5 },
  { re: /\btoo (small|many|stacked|new|young|risky|much|large|big|low|high|thin|weak)\b/g, w: 1.5 },
  { re: /\bnot a candidate\b|\bnot (something|one) (we|i) can (do|fund|approve|help with|take on|touch|get done)\b|\bnothing (else )?(we|i) can (do|fund|approve)\b|\b(doesn't|does not|won't|will not) work for (us|me)\b|\bnot for us\b/g, w: 3 },
  { re: /\b(hard|easy|quick|a) pass\b/g, w: 3 },
  { re: /\bunfortunately\b|\bsorry\b|\bregret\b/g, w: 1 },
  { re: /\bminimum\b|\bmin\.? (is|of)\b/g, w: 1 },
  { re: /\bauto(matic)? dq\b|\bdq\b|\bdisqualif\w*/g, w: 2.5 },
  { re: /\brevisit\b|\btake another look\b|\bsend it back\b|\bresubmit\b/g, w: 1 },
  // the firm closing its doors to submissions ("Titan is no longer accepting broker submissions"); a person's
  // "remove me from your list" is no decision (vocabulary.ts UNSUBSCRIBE)
  { re: /\bno longer (accepting|taking|working with)\b/g, w: 2.5 },
  { re: /\bstatus:\s*declined\b|\bdecline reason\b/g, w: 3 },
];

const NEEDS_CUES: Cue[] = [
  { re: /\b(we|i|still|also|will|uw|underwriting)\s+needs?\b|\bneeds?\b/g, w: 1 },
  { re: /\bbefore (we|i) can\b/g, w: 1.5 },
  { re: /\b(please|pls|can you|could you|kindly)\s+(send|resend|re-send|provide|upload|forward|get|have|email|submit)\b/g, w: 2 },
  { re: /\b(didn't|did not|never) (come through|arrive|get (it|them|the))\b|\b(attachment|package|file|docs?) (is |was )?(missing|blank|corrupt|incomplete)\b|\bis incomplete\b/g, w: 1.5 },
  { re: /\bsend (over|me|us)\b/g, w: 1 },
  { re: /\bmissing\b/g, w: 1.5 },
  {
    re: /\bstips? (needed|required|outstanding|missing|to complete)\b|\boutstanding (items|stips)\b|\bitems (needed|requested|required)\b|\badditional (information|info|documents|docs|items)\b/g,
    w: 2.5,
  },
  { re: /\bthe following\b/g, w: 1 },
  // holdout8: "send those over and I'll get you numbers", "a few things first:", "once I have those"
  { re: /\b(send|get|shoot|email|upload) (me |us )?(those|these|them|that|everything|the (docs|items|above|rest)) (over|along|in|through|my way|to (me|us))\b|\b(once|when|after) (i|we) (have|get|receive|see) (those|these|them|the (docs|items|above))\b|\ba (few|couple( of)?) (things|items|docs|documents) (first|before|needed|to (start|begin|get started))\b/g, w: 1 },
  { re: /\bbefore (final|funding|a decision|we can|pricing|we price)\b|\bto complete (the )?review\b|\bgo to final\b/g, w: 1 },
  { re: /\b(what('s| is| are)|who('s| is| are)|how (much|long|many))\b[^?\n]{3,80}\?/g, w: 1.5 },
  // "UW is asking for the 2024 tax return", "credit wants to see a P&L"
  { re: /\b(is|are|also|still) (asking for|requesting)\b|\b(uw|underwriting|credit|the underwriter|committee) (wants|would like|needs|requires)( to see)?\b/g, w: 2 },
];

const COUNTER_CUES: Cue[] = [
  { re: /\bcounter(ed|ing|s)?\b|\bcounter[- ]?offer\b/g, w: 4 },
  { re: /\bbest (we|i) can do\b|\b(max|maximum|most) (we|i) can (do|go|offer)\b/g, w: 3 },
  { re: /\b(can't|cannot|can not|couldn't|unable to)\s+(get to|do|go|get|approve|fund|reach)\s+((at|for)\s+)?(the\s+)?(full\b|requested\b|that much\b|\$?\d)/g, w: 3 },
  { re: /\bcan do\b[^.\n]{0,40}\bbut\b/g, w: 2 },
  { re: /\b(shorten|shorter|reduce|lower|cut)\b[^.\n]{0,20}\b(term|amount|it|the)\b/g, w: 1.5 },
  { re: /\bnot (at )?the (full|requested) (amount|request)\b|\bcouldn't support the full\b|\bnot the full\b/g, w: 3 },
  { re: /\binstead of\b|\brather than\b/g, w: 1.5 },
  { re: /\b(than|not) the full\b|\bcame in (lower|under|at)\b|\b(vs\.?|versus) (the )?\$?\d/g, w: 2 },
  { re: /\bbut not (at|for)\b/g, w: 2 },
  { re: /\bhas to be\b|\bwould (need|have) to be\b/g, w: 1 },
  { re: /\b(lower|reduced|smaller) (amount|offer|approval)\b|\bwe'?re lower\b/g, w: 2 },
  { re: /\bnot \$?\d/g, w: 1.5 },
  { re: /\b(doesn't|does not) support the\b/g, w: 1.5 },
];

/** Cues that the message is an automatic reply or receipt, not an answer. */
const AUTO_CUES: Cue[] = [
  { re: /\b(i am|i'm|i will be|i'll be)\s+(currently\s+)?(out of (the )?office|away|on (vacation|pto|leave|holiday|maternity leave))\b/g, w: 4 },
  { re: /\bout of (the )?office\b/g, w: 2 },
  { re: /\bcurrently (on )?(pto|vacation|leave|away|out)\b|\bwhile i('m| am) (out|away)\b/g, w: 3 },
  { re: /\blimited access to (e-?mail|email)\b/g, w: 3 },
  { re: /\b(will|i'll) (return|be back|respond)[^.\n]{0,40}\bwhen i return\b|\bwhen i return\b|\breturning (on )?\d/g, w: 2 },
  { re: /\b(address not found|couldn't be delivered|could not be delivered|wasn't delivered|undeliverable|delivery has failed|recipient address rejected|user unknown|mailbox unavailable)\b/g, w: 4 },
  { re: /\bthis (message|email) confirms\b|\bwe have received your (submission|file|email|message|application|deal)\b|\bthank you for your submission\b/g, w: 3 },
  { re: /\bautomated (reply|response)\b|\bauto-?reply\b/g, w: 3 },
];

const AUTO_SUBJECT =
  /^(automatic reply|auto(matic)?[ -]?(reply|response)|autoreply|out of (the )?office|ooo\b|away from (the )?office|undeliverable|delivery status notification|mail delivery (failed|subsystem)|returned mail|delivery (has )?failed|submission received|we('ve| have) received)/i;

/** A person acknowledging or asking to talk: no decision yet. */
const PENDING_CUES: Cue[] = [
  { re: /\bgot it\b|\breceived,? thanks\b/g, w: 2 },
  { re: /\b(will|i'll|we'll)\s+(have \w+ )?(take a look|review|look at|get back)\b/g, w: 2 },
  { re: /\b(still )?in underwriting\b|\bunder review\b|\breviewing (it|this|now)\b|\bshould have an answer\b|\bwill update\b/g, w: 2 },
  { re: /\bcall me\b|\bgive me a (call|ring)\b|\bcan we (talk|hop on)\b|\b(couple|few|some) questions\b/g, w: 2.5 },
];

// the trade's vocabulary (vocabulary.ts), compiled into cues
const fromRows = (rows: V.PhraseRow[]): Cue[] =>
  rows.map((r) => ({ re: new RegExp(`\\b(?:${r.phrase})\\b`, 'g'), w: r.w, negatable: r.negatable, modal: r.modal }));
APPROVED_CUES.push(...fromRows(V.APPROVAL));
DECLINED_CUES.push(...fromRows(V.DECLINE));
NEEDS_CUES.push(...fromRows(V.NEEDS_INFO));
COUNTER_CUES.push(...fromRows(V.COUNTER));
PENDING_CUES.push(...fromRows(V.PENDING));
AUTO_CUES.push(...fromRows(V.AUTO_REPLY));
PENDING_CUES.push(...fromRows(V.UNSUBSCRIBE));
// a negative decision about the deal, from its parts (vocabulary.ts DECLINE_DECISION)
const DD = V.DECLINE_DECISION;
DECLINED_CUES.push(
  { re: new RegExp(`\\b(?:${DD.refusal}) (?:be able to )?(?:${DD.verbs})(?: (?:${DD.objects}))?(?=${DD.tails})`, 'g'), w: 3, modal: true },
  { re: new RegExp(`\\b(?:${DD.inversion}) (?:(?:comfortable|interested) (?:with |in )?)?(?:${DD.verbs}|${DD.gerunds})\\b`, 'g'), w: 3, modal: true },
  { re: new RegExp(`\\b(?:not|never|no longer) (?:comfortable|interested|prepared) (?:in |with )?(?:${DD.gerunds})(?: (?:${DD.objects}))?(?=${DD.tails})`, 'g'), w: 3, modal: true },
  // the refusal in the progressive: "we will not be extending an offer", "we're not funding this one"
  { re: new RegExp(`\\b(?:won't|will not|wouldn't|would not|are not|aren't|am not|i'm not|we're not|not) (?:be )?(?:${DD.gerunds})(?: (?:${DD.objects}))?(?=${DD.tails})`, 'g'), w: 3, modal: true },
  {
    re: new RegExp(`\\b(?:${DD.deferral.verbs})(?: (?:${DD.deferral.objects}))?(?: again)? (?:in|after|next|come|once|by|around|closer to|at|until|till|when|for) (?:${DD.deferral.time})\\b(?! (?:for|about|on) (?:a |the |an )?(?:renewal|re-?up|top[- ]?up|increase|add-?on|second position))`, 'g'),
    w: 3,
    modal: true,
  },
  { re: new RegExp(`\\b(?:can't|cannot|can not|won't|will not) be (?:re-?submitted|reconsidered|re-?reviewed|re-?presented) (?:for|until|before|within|in) (?:${DD.deferral.time})\\b`, 'g'), w: 3 },
  { re: new RegExp(`\\b(?:won't|will not|don't|doesn't|do not|does not) (?:have|qualify|meet|be eligible|get there|be ready)(?: for)?(?: (?:that|it|this|those|these|one))? (?:until|till|before) (?:${DD.deferral.time})\\b`, 'g'), w: 2 },
  { re: new RegExp(`\\b(?:${DD.verdicts})\\b`, 'g'), w: 3, modal: true },
);
const WITHDRAWAL_CUES = fromRows(V.WITHDRAWAL);
const CORRECTION_CUES = fromRows(V.CORRECTION);
const TENTATIVE_CUES = fromRows(V.TENTATIVE);
const HOLD_CUES = fromRows(V.TENTATIVE.filter((r) => r.hold));
const RELAYED_CUES = fromRows(V.RELAYED);
const STRUCTURE_CUES = fromRows(V.COUNTER.filter((r) => r.structure));
const CEILING_CUES = fromRows(V.COUNTER.filter((r) => r.ceiling));
const CLOSING_CUES = fromRows(V.CLOSING_STIPS);
const PRODUCT_CUES = V.PRODUCTS.map((r) => ({ ...fromRows([r])[0], product: r.product }));

interface Fired {
  score: number;
  hits: string[];
}

function score(lower: string, cues: Cue[]): Fired {
  let total = 0;
  const hits: string[] = [];
  for (const cue of cues) {
    cue.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let count = 0;
    while ((m = cue.re.exec(lower)) && count < 2) {
      const before = lower.slice(Math.max(0, m.index - 60), m.index);
      const sentenceStart = Math.max(before.lastIndexOf('.'), before.lastIndexOf('\n'), before.lastIndexOf('!'), before.lastIndexOf('?'));
      const inSentence = before.slice(sentenceStart + 1);
      if (cue.negatable && NEGATION_BEFORE.test(before.slice(-25))) continue;
      let w = cue.w;
      if (cue.modal && MODAL_BEFORE.test(inSentence)) w *= 0.3;
      total += w;
      hits.push(`"${m[0].trim()}"${w !== cue.w ? ' (conditional)' : ''}`);
      count++;
      if (m[0].length === 0) cue.re.lastIndex++;
    }
  }
  return { score: total, hits };
}

// ---------------------------------------------------------------- decline category

const CATEGORY_CUES: Array<{ cat: DeclineCategory; re: RegExp; w: number }> = [
  { cat: 'negative_days', re: /\bneg[a-z]*\.?\s+(balance\s+)?days?\b|\bnegative (balances?|ending balances?)\b|\bnegatives\b|\boverdra(wn|fts?)\b|\bin the red\b/g, w: 3 },
  { cat: 'nsf', re: /\bnsfs?\b|\bnon[- ]sufficient\b|\binsufficient funds\b|\breturned (items|payments|ach)\b|\bbounced\b/g, w: 3 },
  { cat: 'low_revenue', re: /\b(low|insufficient|not enough|minimum)\s+(monthly\s+)?(revenue|deposits|sales|volume|gross)\b|\brevenue (is |was )?(too low|requirement)\b|\b(revenue|deposits|sales) (are|is) (too )?(low|down|declining)\b|\btrue deposits\b|\b(revenue|deposits|sales|volume)\b[^.\n]{0,20}\b(dropped|drop|declin\w*|decreas\w*|fell|falling|trending down)\b/g, w: 3 },
  { cat: 'low_balance', re: /\b(low|average)\s+(average\s+)?(daily\s+)?balances?\b|\badb\b|\bbalances? (are|is) too low\b/g, w: 3 },
  { cat: 'industry', re: /\bindustry\b|\bindustries\b|\brestricted (list|industr\w*)\b|\bprohibited (list|industr\w*|business\w*)\b|\bsic code\b|\bnaics\b/g, w: 3 },
  {
    cat: 'industry',
    re: /\b(bars|nightclubs?|night ?life|lounges?|liquor stores?|vape|smoke shops?|cannabis|cbd|dispensar\w*|firearms?|guns?|adult|gambling|casino|trucking|construction|contractors?|auto sales|car dealers?|non-?profit|real estate|law firms?|attorneys?|travel agenc\w*|crypto\w*|pawn)\b/g,
    w: 1.5,
  },
  { cat: 'credit_score', re: /\bfico\b|\bcredit scores?\b|\bbeacon\b|\bcredit (is |was )?(too )?(low|thin|weak|poor|bad)\b|\bpersonal credit\b/g, w: 3 },
  { cat: 'credit_score', re: /\bcredit\b/g, w: 1 },
  { cat: 'time_in_business', re: /\btib\b|\btime in business\b|\btoo (new|young|green|fresh)\b|\bopened (its|their|the) doors\b|\b(full |whole )?(year|\d{1,2} months) of (bank )?history\b|\bin business (for )?(only |less than|under)\b|\bstart[- ]?up\b|\b(1|one|2|two) (yr|year)s? (minimum|min|in business)\b|\b\d{1,2} (months?|mos?) (in business|old|tib)\b|\b(open|in business|operating) (for )?(only )?\d{1,2} (months?|mos?)\b/g, w: 3 },
  {
    cat: 'stacking',
    re: /\bstack(ed|ing)?\b|\b(\d+(st|nd|rd|th)|second|third|fourth|fifth) position\b|\b(open|existing|too many|active) (positions|advances|mcas?|lenders|funders)\b|\bholdback\b|\bover[- ]?leveraged\b|\bdaily debits\b/g,
    w: 3,
  },
  {
    cat: 'restricted_state',
    re: /\b(located|based|businesses) in (new york|california|new jersey|texas|florida|[a-z]{2})\b|\b(restricted|excluded) states?\b|\bstates? (we|that we) (don't|do not|can't)\b|\blicensing\b|\bnot licensed\b/g,
    w: 3,
  },
  { cat: 'restricted_state', re: /\b(location|state)\b/g, w: 1 },
  { cat: 'default_history', re: /\bdefault(s|ed)?\b|(?<!\b(new|fresh|another|recent|additional|second|undisclosed) )\bucc\b|\bjudgments?\b|\b(tax )?liens?\b|\bbankrupt(cy|cies)?\b|\bchapter (7|11|13)\b|\bbk\b|\bcollections\b|\bcharge[- ]?offs?\b|\bwritten off\b/g, w: 3 },
  {
    cat: 'verification',
    re: /\bfraud\w*\b|\baltered\b|\bfake\b|\bdoctored\b|\b(unable to|could(n't| not)|can't|cannot) verify\b|\bverification (failed|call failed)\b|\bfailed (the )?(bank )?verification\b|\b(don't|doesn't|do not|does not) tie\b|\bmismatch\b|\bflagged\b/g,
    w: 3,
  },
  { cat: 'deal_size', re: /\btoo (small|large|big)\b|\b(minimum|min|maximum|max) (funding|deal|advance|amount|size)\b|\bbelow our (min|minimum)\b|\babove our (max|maximum)\b/g, w: 3 },
];

// decline reasons, states and industries from the vocabulary
for (const r of V.DECLINE_REASONS) CATEGORY_CUES.push({ cat: r.category, re: new RegExp(`\\b(?:${r.phrases.join('|')})\\b`, 'g'), w: r.w });
const STATE_WORDS = [...V.STATES.map(([name]) => name), ...V.STATES.map(([, code]) => code).filter((c) => !V.AMBIGUOUS_STATE_CODES.has(c))];
CATEGORY_CUES.push({
  cat: 'restricted_state',
  re: new RegExp(`\\b(?:${V.STATE_CONTEXT.join('|')})\\s+(?:the state of\\s+)?(?:${STATE_WORDS.join('|')})\\b`, 'g'),
  w: 3,
});
// a state named before its restriction: "Vermont is on our excluded list", "ND is restricted for us"
CATEGORY_CUES.push({
  cat: 'restricted_state',
  re: new RegExp(`\\b(?:${STATE_WORDS.join('|')})\\b (?:is|are) (?:on (?:our|the) )?(?:excluded|restricted|prohibited|blocked|off[- ]limits|no[- ]fund|do[- ]not[- ]fund)`, 'g'),
  w: 3,
});
CATEGORY_CUES.push({ cat: 'industry', re: new RegExp(`\\b(?:${V.INDUSTRIES.join('|')})\\b`, 'g'), w: 1 });
CATEGORY_CUES.push({ cat: 'stacking', re: new RegExp(`\\b(?:${V.HOLDBACK.join('|')})\\b`, 'g'), w: 1.5 });

/** A reason set aside in the sentence is not the reason (holdout10): "irrespective of its state licensing", "regardless of the FICO". */
const WAIVED_REASON = /\b(?:irrespective of|regardless of|no matter|notwithstanding|setting aside|leaving aside)\b[^.;:!?\n]*/g;

function declineCategory(text: string): { category: DeclineCategory; index: number; hits: string[] } {
  const lower = text.replace(WAIVED_REASON, (w) => ' '.repeat(w.length));
  const totals = new Map<DeclineCategory, { score: number; first: number; hits: string[]; strong: number }>();
  for (const c of CATEGORY_CUES) {
    c.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = c.re.exec(lower))) {
      const t = totals.get(c.cat) ?? { score: 0, first: m.index, hits: [], strong: -1 };
      t.score += c.w;
      t.first = Math.min(t.first, m.index);
      // where a cue that names the reason on its own (weight 3) first occurs; a sector word in the business's name is not one
      if (c.w >= 3 && (t.strong < 0 || m.index < t.strong)) t.strong = m.index;
      t.hits.push(m[0]);
      totals.set(c.cat, t);
    }
  }
  let best: { category: DeclineCategory; index: number; hits: string[]; score: number } = { category: 'other', index: -1, hits: [], score: 0 };
  // with two reasons, the first one named (the corpus labels' rule): among the categories named by a
  // cue that names a reason on its own, the one named first; otherwise the strongest of the weaker ones
  const clear = [...totals].filter(([, t]) => t.strong >= 0).sort((x, y) => x[1].strong - y[1].strong)[0];
  if (clear) return { category: clear[0], index: clear[1].strong, hits: clear[1].hits };
  for (const [cat, t] of totals) {
    if (t.score < 2) continue;
    if (t.score > best.score || (t.score === best.score && t.first < best.index)) best = { category: cat, index: t.first, hits: t.hits, score: t.score };
  }
  return best;
}

// ---------------------------------------------------------------- requested items

const DOC_WORDS =
  /statement|\bmtd\b|month[- ]to[- ]date|voided? check|\bvoid\b|driver'?s?'? licen[cs]e|\bdl\b|photo id|\bid\b|passport|\bssn\b|social security|landlord|lease|mortgage|tax returns?|\bp&l\b|profit (and|&) loss|balance sheet|application|\bapp\b|ownership|articles|\bk-1\b|\bein\b|\bw-?9\b|\bss-?4\b|processing|payoff|zero balance|verification|bank login|decision ?logic|plaid|photos?|pictures?|inspection|references?|invoices?|\ba\/r\b|receivables|aging|licen[cs]e|utility bill|insurance|debt schedule|balance|contact|phone number|interview|form\b|signature|signed|attachment|package|\bfile\b|\bdocs\b|\bdob\b|proof of|\bstmts?\b|receipts|\b(last|past|most recent) \d{1,2} months\b|password|unlocked|unprotected|login credentials|\b(january|february|march|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\b|\bauthority\b|\bauthori[sz]ation\b|\bvins?\b|equipment (list|schedule)|\bifta\b|\breturns\b|\bquarters?\b|\btitles?\b|\bregistrations?\b|\bpermits?\b|\bcertificates?\b|\bcoi\b|\b(mc|dot|usdot) (number|#|authority)/i;

const BULLET = /^\s*(?:[-*\u2022\u00b7\u25aa\u25ba>o]|\d{1,2}[.)]|\(\d{1,2}\)|\(?[a-h][.)])\s+(.+)$/;
const LIST_TRIGGER = /\b(need|needs|needed|send|provide|missing|stips?|stipulations|required|requires|following|items|outstanding|conditions|before|requested|please|things|docs|documents|first)\b/i;

const STILL_OPEN = /^(outstanding|missing|needed|required|open|pending|not received)$/i;

function cleanItem(s: string): string {
  return s
    .replace(/^\s*(?:and|also|plus|then)\s+/i, '')
    .replace(/^\s*(?:the|a|an|us|me|over|your|their|its|all)\s+/i, '')
    .replace(/^\s*(?:the|a|an)\s+/i, '')
    .replace(/[\s.;,:!]+$/, '')
    .trim();
}

function splitList(s: string): string[] {
  // numbered inline: "(1) voided check (2) 3 months statements (3) DL", "1) signed app 2) voided check"
  const numbered = s.split(/(?:^|\s+)\(?\d{1,2}[).]\s+/);
  if (numbered.length >= 3) return numbered.map(cleanItem).filter((p) => p.length > 1);
  const parts = s.includes(';') ? s.split(/\s*;\s*/) : s.split(/\s*,\s*(?:and\s+)?|\s+and\s+(?=(?:a|an|the|copy|signed|last|most|current|payoff|\d)\b)|\s+&\s+|\s+\+\s+|\s+plus\s+/i);
  return parts.map(cleanItem).filter((p) => p.length > 1);
}

function requestedItems(own: string): { items: string[]; hits: string[] } {
  const lines = own.split('\n').map((l) => {
    const c = splitCells(l);
    return c.length === 2 && c[0] && c[1] ? `${c[0]}: ${c[1]}` : l;
  });
  const items: string[] = [];
  const hits: string[] = [];
  const inList = new Set<number>();
  // 0. a stip table with a status column: the rows still outstanding ("2 | Driver's license | Outstanding")
  for (let i = 0; i < lines.length; i++) {
    const c = splitCells(own.split('\n')[i] ?? '');
    if (c.length < 2 || !c.some((x) => STILL_OPEN.test(x))) continue;
    const doc = c.find((x) => !STILL_OPEN.test(x) && !/^#?\d{0,3}$/.test(x) && DOC_WORDS.test(x));
    if (!doc) continue;
    inList.add(i);
    items.push(cleanItem(doc));
    hits.push(`open row "${doc}"`);
  }
  // 1. bulleted / numbered lists, introduced by a request or made of documents
  for (let i = 0; i < lines.length; i++) {
    if (!BULLET.test(lines[i]) || inList.has(i)) continue;
    const block: number[] = [];
    let j = i;
    while (j < lines.length) {
      if (BULLET.test(lines[j])) block.push(j++);
      else if (!lines[j].trim() && j + 1 < lines.length && BULLET.test(lines[j + 1])) j++; // one blank line between items
      else break;
    }
    let k = i - 1;
    while (k >= 0 && !lines[k].trim()) k--;
    const intro = k >= 0 ? lines[k] : '';
    const entries = block.map((n) => (BULLET.exec(lines[n])?.[1] ?? '').trim());
    const docs = entries.filter((e) => DOC_WORDS.test(e)).length;
    const looksLikeTerms = entries.filter((e) => /\$\s?\d|\b1\.\d{2}\b/.test(e)).length > entries.length / 2;
    if (!looksLikeTerms && ((LIST_TRIGGER.test(intro) && /[:-]\s*$|need|following/i.test(intro)) || docs * 2 >= entries.length)) {
      for (const n of block) inList.add(n);
      for (const e of entries) items.push(cleanItem(e));
      hits.push(`list of ${entries.length} after "${intro.trim().slice(0, 60)}"`);
    }
    i = j - 1;
  }
  // 2. "Items requested: a; b; c" / "Stips: a, b, c" on one line
  const inlineRe = /\b(items? (?:requested|needed|required)|stips?(?: needed| required| to fund| outstanding)?|stipulations|missing(?: items)?|need(?:ed)?(?: \w+)?|item \d{1,2}|required(?: \d{1,2}| documents)?|conditions(?: prior to funding)?|pending(?: the following| receipt of)?|awaiting(?: the following| receipt of)?|before (?:we|i) (?:can )?(?:price|fund|approve|decide|move|go|issue|send)(?: it| this| that| the (?:file|deal|offer|contracts?))?)\s*:\s*(\S.+)$/i;
  // (holdout11) a request sentence ending in a colon before the items: "UW wants two things before they will give me a
  // number: a payoff letter on the Rapid position, and the last 2 months of Square reports (she runs ...)"
  const askColonRe = /\b((?:needs?|wants?|requires?|asking for|is missing|are missing|provide|send|upload|submit|forward|share|(?:pending|open|outstanding|remaining|missing) (?:items|stips|conditions|documents|docs))\b[^:\n]{0,60}?)\s*:\s*(\S.+)$/i;
  for (let i = 0; i < lines.length; i++) {
    if (inList.has(i)) continue;
    const m = inlineRe.exec(lines[i]) ?? askColonRe.exec(lines[i]);
    if (!m) continue;
    const parts = splitList(m[2].replace(/\s*\((?:[^()\s]+\s+){3,}[^()]*\)\s*/g, ' ').trim()).filter((p) => DOC_WORDS.test(p) && !/\$\s?\d/.test(p));
    if (parts.length) {
      inList.add(i);
      items.push(...parts);
      hits.push(`inline list after "${m[1]}:"`);
    }
  }
  // 3. prose: "can you send over the MTD and a signed app", "also need a payoff letter for ..."
  const prose = lines.filter((_, i) => !inList.has(i)).join('\n');
  // (after holdout11: "requires", "without", "share", "connect", "sign")
  const verbRe = /\b(?:(?:still )?waiting (?:on|for)|need(?:s|ed)?|requires?|without|send(?: over| us| me)?|resend|provide|upload|forward|complete|connect|share|sign|get (?:us|me)|email us|submit|missing|asking for|requesting|wants to see|would like to see)\s+(.+?)(?=[.?!\n:]|\s+(?:before|once|so that|so we|in order|to complete|and (?:we|i|then)|if)\b|$)/gi;
  let m: RegExpExecArray | null;
  while ((m = verbRe.exec(prose))) {
    // an explanation in brackets after the item ("... account (the one the lease payments come out of)") is not part of it
    for (const p of splitList(m[1]).map((x) => x.replace(/\s*\((?:[^()\s]+\s+){3,}[^()]*\)?\s*$/, ''))) {
      // (not an explanation beside the item: "a signed authorization, the app in the package isn't signed")
      if (DOC_WORDS.test(p) && !/^(following|these|them|it|this|that|everything|anything)\b/i.test(p) && !/\$\s?\d/.test(p) && p.split(/\s+/).length <= 12 && !/\b(isn't|wasn't|aren't|weren't|didn't|doesn't|don't|is not|was not|are not|did not|does not)\b/i.test(p)) {
        items.push(p);
        hits.push(`asked for "${p}"`);
      }
    }
  }
  // 4. questions: "What's the merchant's current balance with Mantis?"
  const qRe = /\b(?:what(?:'s| is| are)|who(?:'s| is)|how much is|can you confirm|((?:is|are|does|do|did|has|have) (?:the |this |that |your )?(?:merchant|owner|business|client|customer|he|she|they)\b))\s+(?:the\s+)?([^?\n]{3,100})\?/gi;
  while ((m = qRe.exec(prose))) {
    const p = cleanItem(m[1] ? `${m[1]} ${m[2]}` : m[2]);
    // "Who's the landlord? Need landlord name and phone": the question names an item already asked for
    const head = p.toLowerCase().split(/[^a-z0-9']+/)[0] ?? '';
    if (!m[1] && head.length >= 4 && items.some((it) => new RegExp(`\\b${head}\\b`, 'i').test(it))) continue;
    if (p) {
      items.push(p);
      hits.push(`question "${p}"`);
    }
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const it of items) {
    const key = it.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(it.slice(0, 500));
  }
  return { items: out.slice(0, 50), hits };
}

// ---------------------------------------------------------------- offer extraction

type MoneyKind = 'funded' | 'payment' | 'payback' | 'fee' | 'net' | 'requested' | 'other' | 'unknown';

interface Fact {
  pos: number;
  kind: 'money' | 'factor' | 'sell' | 'term' | 'freq' | 'count' | 'same';
  value: number;
  money?: MoneyKind;
  unit?: TermUnit;
  freq?: PaymentFrequency;
  text: string;
  /** An amount read from a bare number in thousands ("can do 40"): it does not make the other amounts "labelled". */
  shorthand?: boolean;
}

const PRE_KINDS: Array<[Exclude<MoneyKind, 'unknown'>, RegExp]> = [
  ['payback', /\b(pay ?back|rtr|right to receive|purchased amount|purchased receivables|receivables purchased|specified amount|amount (sold|purchased)|receivables sold|total (re)?pay\w*|total due|repayment amount|total cost)\b/g],
  ['fee', /\b(fees?|orig\w*|commission|points?|pts|closing costs?|cost of (capital|funds|the advance|financing)|finance charge)\b/g],
  ['net', /\b(net|disburse\w*|after fees|wired?)\b/g],
  ['requested', /\b(request\w*|asked( for)?|asking( for)?|submitted (for|at)|looking for|instead of|not the|rather than|wanted|(if|unless) (he|she|they|the (merchant|client|owner|customer)) (really |still )?(wants?|needs?|insists? on)( the)?( full| whole| entire)?\s*$|(can't|cannot|couldn't|unable to|not able to|won't|will not|pass|passing|declined?)( \w+){0,3} (at|for|on|do))\b/g],
  ['other', /\b(revenue|deposits?|sales|balances?|payoffs?|liens?|judgments?|minimum|min|max\w*|owe[sd]?|positions?|credit|income|adb|gross|volume|up to|verified|tax)\b/g],
  ['payment', /\b(payments?|pmts?|debits?|remit\w*|installments?|daily|weekly|bi-?weekly|monthly|dly|wkly|pagos?|cuotas?|semanal|diari[oa]s?|mensual|quincenal)\b/g],
  ['funded', /\b(approv\w*|fund\w*|advance|purchase price|offer\w*|amount|can do|could do|counter\w*|we're at|landed|options?|loan|capital|stretch\w*|bump\w*|go (up )?to|increase\w*( it)? to|as high as)\b/g],
];
const POST_KINDS: Array<[Exclude<MoneyKind, 'unknown'>, RegExp]> = [
  ['payback', /^\s*(back\b|pay ?back|rtr|purchased amount|total)/],
  ['fee', /^\s*(fees?|orig\w*|in points)/],
  ['net', /^\s*net\b/],
  ['requested', /^\s*(requested|request|ask)/],
  ['other', /^\s*(in (true )?(deposits|revenue|sales)|(of )?(revenue|deposits|balance)|\/mo(nth)?\b|per month in|adb\b|minimum|balance)/],
  ['payment', /^\s*(daily|weekly|bi-?weekly|monthly|dly|wkly|\/\s*(day|d|wk|week|mo|month)\b|per (day|week|month|payment)|a (day|week|month)|each)/],
  ['funded', /^\s*(purchase( price)?|advance|funding|funded|offer|approval)\b|^\s*(at|@|\/|x)\s*[1-2]\.\d/],
];

function moneyKind(line: string, start: number, end: number): MoneyKind {
  // the clause before the number (back to ';', '|' or a sentence end) and a short window after it
  let pre = line.slice(Math.max(0, start - 50), start);
  const cut = Math.max(pre.lastIndexOf(';'), pre.lastIndexOf('|'), pre.search(/[.!?]\s[^.!?]*$/));
  if (cut >= 0) pre = pre.slice(cut + 1);
  const prevNumber = pre.search(/\d[\d,.]*\s?(k|m)?\b[^\d]*$/);
  if (prevNumber >= 0) pre = pre.slice(pre.slice(prevNumber).search(/[^\d,.km\s]/) + prevNumber);
  const post = line.slice(end, end + 22).split(/[,;.|](\s|$)/)[0];
  const found: Array<{ kind: Exclude<MoneyKind, 'unknown'>; dist: number }> = [];
  for (const [kind, re] of PRE_KINDS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let last = -1;
    while ((m = re.exec(pre))) last = m.index + m[0].length;
    if (last >= 0) found.push({ kind, dist: pre.length - last });
  }
  // "approved for $X", "we're at $X", "best we can do is $X": a weak hint, beaten by any real word nearby
  if (/\b(at|for|is)\s*~?\s*$/.test(pre)) found.push({ kind: 'funded', dist: 8 });
  for (const [kind, re] of POST_KINDS) {
    const m = re.exec(post);
    if (m) found.push({ kind, dist: m[0].length - m[0].trimStart().length });
  }
  // an amount followed straight by a factor ("$60,000, 1.49, 6 months", "85k / 1.37") is what is funded,
  // whatever context came before it ("3rd position, no payoffs: $60,000, 1.49")
  const factorNext = /^\s*[,/|]?\s*(@|at|x)?\s*[1-2]\.\d{1,3}(?![\d%.])(?!\s*(%|pts?\b|points?\b|percent|k\b|m\b|mm\b|million|years?|yrs?))/.test(line.slice(end, end + 16));
  // "up to 55k at the same rate and term", "55k works at the same terms": an amount offered on the pricing before it
  const sameNext = /^\s*(works |is fine |is ok |is doable |also works )?(at|on|with|for) (the )?same (rate|factor|terms?|pricing|structure)/.test(line.slice(end, end + 40));
  if (sameNext && (!found.length || found.every((f) => f.kind === 'other' || f.kind === 'funded'))) return 'funded';
  if (!found.length) return factorNext ? 'funded' : 'unknown';
  const order: MoneyKind[] = ['payback', 'fee', 'net', 'requested', 'other', 'payment', 'funded'];
  const best = found.sort((a, b) => a.dist - b.dist || order.indexOf(a.kind) - order.indexOf(b.kind))[0];
  // ... and a payment is never multiplied by a factor: "if he wants lighter payments 20k x 1.42 = 28,400" offers 20k
  if (factorNext && (best.kind === 'other' || best.kind === 'payment')) return 'funded';
  if (best.kind === 'funded' || best.kind === 'payment') {
    // a compound label: "Payback Amount", "Net Funding", "Requested Amount", "Minimum funding"
    const label = /\b(pay ?back|total|net|requested|minimum|min|maximum|max|average|orig\w*|sell|specified|purchased|payment|pmt|installment|debit|remittance)\s+(\w+\s+)?(amount|funding|funded|payment|advance)\b[^a-z]*$/.exec(pre);
    if (label) {
      const w = label[1];
      if (/^(payment|pmt|installment|debit|remittance)$/.test(w)) return 'payment';
      return /pay ?back|total|specified|purchased/.test(w) ? 'payback' : w === 'net' ? 'net' : w === 'requested' ? 'requested' : /orig/.test(w) ? 'fee' : 'other';
    }
  }
  return best.kind;
}

const FREQ_RE = /\b(bi-?weekly|every (?:other|two) weeks?|semi-?monthly|daily|weekly|monthly|m-f|dly|wkly|mthly|semanal|diari[oa]s?|mensual|quincenal)\b|(?:\/\s*|\bper |\ba )(day|wk|week|mo|month)\b/gi;

function normFreq(s: string): PaymentFrequency {
  const l = s.toLowerCase();
  if (/bi-?weekly|every (other|two) week/.test(l)) return 'bi-weekly';
  if (/semi-?monthly|quincenal/.test(l)) return 'bi-weekly';
  // Spanish, as bilingual reps write it: "pago semanal", "pagos diarios", "mensual"
  if (/semanal/.test(l)) return 'weekly';
  if (/diari/.test(l)) return 'daily';
  if (/mensual/.test(l)) return 'monthly';
  if (/daily|m-f|day|dly/.test(l)) return 'daily';
  if (/week|wk/.test(l)) return 'weekly';
  return 'monthly';
}

function parseMoney(num: string, cents: string | undefined, suffix: string | undefined): number {
  let v = Number(num.replace(/,/g, '')) + (cents ? Number(cents) : 0);
  const s = (suffix ?? '').toLowerCase();
  if (s === 'k') v *= 1000;
  else if (s === 'm' || s === 'mm') v *= 1_000_000;
  return round2(v);
}

/** "can do 40", "good for the 80", "at 60 it's 1.45": a bare number meaning thousands (vocabulary.ts). */
const SHORTHAND_RE = new RegExp(
  // (a time of day, "at 11:40", and a hyphenated unit, "the 12-month", are no amounts)
  `\\b(?:${V.SHORTHAND_AMOUNT.before.join('|')})\\s+(?<n>\\d{1,3}(?:\\.\\d)?)(?![\\d,%]|\\.\\d|:\\d|k\\b|\\s*%|[\\s-]*(?:${V.SHORTHAND_AMOUNT.notBefore.filter((w) => w !== '%').join('|')})\\b)`,
  'gi',
);
// not when an amount follows: "Requested amount: $80,000" restates the ask, it offers nothing
const ASK_AS_AMOUNT_RE = new RegExp(`\\b(?:${V.ASK_AS_AMOUNT.join('|')})\\b(?!\\s*[:|]?\\s*(\\$|\\d{1,3}(,\\d{3})+|\\d+\\s?k\\b|\\d{4,}))`, 'g');
const SAME_TERMS_RE = new RegExp(`\\b(?:${V.SAME_TERMS})\\b`, 'g');
const SHORTHAND_NEGATED = /\b(can't|cannot|couldn't|not|isn't|won't|instead of|rather than|versus|vs\.?|asked for|\d+\s?k? of|(?<!(at|for) the )requested|(?:if|unless) (?:he|she|they|the (?:merchant|client|owner|customer)) (?:really |still )?(?:wants?|needs?|insists? on|is set on|holds? out for|wanted))\s+(get\s+)?(you\s+)?(to\s+)?(do\s+)?(at\s+)?(the\s+)?(full\s+|whole\s+|entire\s+)?$/;

const TERM_CAP_RE = new RegExp(`\\b(?:${V.TERM_CAP}) (?<n>\\d{1,3})[- ]?(?<u>business days?|days?|weeks?|wks?|months?|mos?)\\b`);
/** "the application asks for ", "requested term of ": the number after it is the term asked, not one offered (vocabulary.ts ASKED_TERM). */
/**
 * The ask restated with its amount before its term (holdout9): "you came in asking for 120k over 9 months",
 * "the merchant requested $50,000 for 12 months": the term in that clause is the ask's, never the offer's.
 */
// (holdout11: also a label, "Requested: $50,000 / 12 months")
const ASKED_CLAUSE = `\\b(?:${V.ASKED_TERM.clause})\\s*\\$?(?![12]\\.\\d{1,3}(?![\\d,]))\\d[\\d,.]*\\s?k?\\s*(?:[/,|]\\s*|-\\s+|\\s)(?:(?:over|for|on|at|across|paid over|spread over)\\s+)?(?:(?:a|an|the)\\s+)?`;
const ASKED_CLAUSE_BEFORE = new RegExp(`${ASKED_CLAUSE}$`);
const ASKED_TERM_BEFORE = new RegExp(`\\b(?:${V.ASKED_TERM.before})\\s*$`);
const ASKED_TERM_NUMBER = '(?<n>\\d{1,3})[- ]?(?<u>business days?|biz days?|days?|weeks?|wks?|months?|mos?|mths?|years?|yrs?)';
const ASKED_TERM_RES = [
  new RegExp(`\\b(?:${V.ASKED_TERM.before})\\s*${ASKED_TERM_NUMBER}(?![\\w])`, 'g'),
  new RegExp(`(?<![\\w.$,])${ASKED_TERM_NUMBER}(?:${V.ASKED_TERM.after})\\b`, 'g'),
  new RegExp(`(?<![\\w.$,])${ASKED_TERM_NUMBER}(?:${V.ASKED_TERM.refused})\\b`, 'g'),
  new RegExp(`${ASKED_CLAUSE}${ASKED_TERM_NUMBER}(?![\\w])`, 'g'),
];

/** A payment frequency named in a sentence that restates or refuses the asked term: the frequency asked, not offered. */
const FREQ_WORD = /\b(bi-?weekly|semi-?monthly|daily|weekly|monthly|dailies|weeklies)\b/;

/** The sentence spans (in `line`) that restate or refuse the asked term ("Weekly over 6 months isn't something we offer"). */
function askedSentences(lower: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const re of ASKED_TERM_RES) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(lower))) {
      const before = lower.slice(0, m.index);
      const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('! '), before.lastIndexOf('? '), before.lastIndexOf(';')) + 1;
      const restM = /[.!?;](\s|$)|:/.exec(lower.slice(m.index + m[0].length));
      const end = restM ? m.index + m[0].length + restM.index : lower.length;
      spans.push([start, end]);
    }
  }
  return spans;
}

/** The payment frequency the reply says was asked ("you asked for 9 months, weekly"), if it says one. */
export function askedFrequency(own: string): PaymentFrequency | null {
  for (const line of offerText(own).toLowerCase().split('\n')) {
    for (const [s, e] of askedSentences(line)) {
      const f = FREQ_WORD.exec(line.slice(s, e));
      if (f) return f[1].startsWith('dail') ? 'daily' : f[1].startsWith('weekl') ? 'weekly' : normFreq(f[1]);
    }
  }
  return null;
}
/** Right after a term: words refusing it ("is beyond what our guidelines allow"): the term asked, not one offered. */
const ASKED_TERM_REFUSED_AFTER = new RegExp(`^(?:${V.ASKED_TERM.refused})\\b`);
/** Right after a term: who asked for it ("the 12 months the owner asked for"): the term asked, not one offered. */
const ASKED_TERM_AFTER = new RegExp(`^(?:${V.ASKED_TERM.after})\\b`);

/** The term the reply says the merchant asked for ("the application asks for 12 months"), if it says one. */
export function askedTerm(own: string): { term: number; unit: TermUnit } | null {
  const text = offerText(own);
  for (const re of ASKED_TERM_RES) {
    re.lastIndex = 0;
    const m = re.exec(text);
    if (!m) continue;
    const u = m.groups!.u;
    const years = /^y/.test(u);
    return { term: Number(m.groups!.n) * (years ? 12 : 1), unit: years || /^m/.test(u) ? 'months' : /^w/.test(u) ? 'weeks' : 'days' };
  }
  return null;
}

/**
 * An offered term against the term asked: the same unit must match exactly; across units (9 months
 * against 39 weeks) a tenth either way is the same term, days counted as business or calendar days.
 */
export function termDiffers(offer: { term: number | null; term_unit: TermUnit | null }, asked: { term: number; unit: TermUnit }): boolean {
  if (offer.term === null || offer.term_unit === null) return false;
  if (offer.term_unit === asked.unit) return offer.term !== asked.term;
  const inMonths = (t: number, u: TermUnit): number[] => (u === 'months' ? [t] : u === 'weeks' ? [t / 4.345] : [t / 21.7, t / 30.4]);
  const a = inMonths(asked.term, asked.unit);
  return !inMonths(offer.term, offer.term_unit).some((x) => a.some((y) => Math.abs(x - y) <= y * 0.1));
}

function scanFacts(text: string, offset: number, ctx?: ReplyContext): Fact[] {
  const facts: Fact[] = [];
  const lines = text.split('\n');
  let base = offset;
  for (const line of lines) {
    const lower = line.toLowerCase();
    const taken: Array<[number, number]> = [];
    const overlaps = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);
    // money: $ amounts, 75k, 1,250,000
    // (a currency named after the number, "287.50 USD", "25000 dollars", is a dollar sign)
    // (and a dollar sign written after it, as some reps do: "30,000$", "396.00$")
    const moneyRe = /(?<![\w.,$])(\$\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s?(k|mm|m)?(?![\w%])(?:\s?(usd|us dollars|dollars)\b|(\$)(?!\s?\d))?/gi;
    let m: RegExpExecArray | null;
    while ((m = moneyRe.exec(line))) {
      const [whole, sign, num, cents, suffix, currency, after] = m;
      const dollar = sign ?? currency ?? after;
      const hasComma = num.includes(',');
      if (!dollar && !suffix && !hasComma) continue;
      if (!dollar && !suffix && hasComma && /^\d{1,3},\d{3}$/.test(num) && /\d\s*$/.test(line.slice(0, m.index))) continue;
      const start = m.index + (whole.length - whole.trimStart().length);
      const end = m.index + whole.length;
      const value = parseMoney(num, cents, suffix);
      if (!(value > 0)) continue;
      taken.push([start, end]);
      facts.push({ pos: base + start, kind: 'money', value, money: moneyKind(lower, start, end), text: whole.trim() });
    }
    // (holdout11) a payment written bare with its period: "504/day", "1,900 a week", "396.00 per day" (not a month:
    // "9000 a month" is revenue)
    const perRe = /(?<![\w.,$])(\d{2,3}(?:,\d{3})?|\d{2,5})(\.\d{2})?\s?(?:\/\s?(?:day|d|wk|week)\b|(?:a|per|each) (?:day|week)\b)/gi;
    while ((m = perRe.exec(line))) {
      const end = m.index + m[1].length + (m[2]?.length ?? 0);
      if (overlaps(m.index, end)) continue;
      taken.push([m.index, end]);
      facts.push({ pos: base + m.index, kind: 'money', value: parseMoney(m[1], m[2], undefined), money: 'payment', text: m[0].trim() });
    }
    // amounts in thousands before "@ 1.35": "could do 50 @ 1.35"; (holdout11) with a half ("27.5 at 1.40"), a word of
    // time between ("27.5 now at 1.40") or "on a" ("42 on a 1.44"): the amount the factor prices
    const thousandsRe = /(?<![\w.,$])(\d{1,3}(?:\.\d)?)\s*(?:(?:now|today|up front|upfront|flat|even|total)\s+)?(?:@|at|on a|on an?)\s*(?=[1-2]\.\d)/gi;
    while ((m = thousandsRe.exec(line))) {
      const n = Number(m[1]);
      if (n < 5 || overlaps(m.index, m.index + m[1].length)) continue;
      // the new forms only where the figure could be this deal's amount (a tenth to four times the ask)
      const plain = /^\d+\s*(@|at)\s*$/.test(m[0]);
      if (!plain && ctx?.requested_amount && (n * 1000 < ctx.requested_amount / 10 || n * 1000 > ctx.requested_amount * 4)) continue;
      taken.push([m.index, m.index + m[1].length]);
      facts.push({ pos: base + m.index, kind: 'money', value: n * 1000, money: 'funded', text: m[0].trim() });
    }
    // amounts in thousands without a "k", read against the deal's ask: "can do 40" on a 75k ask is $40,000
    const ask = ctx?.requested_amount;
    if (ask && ask > 0) {
      SHORTHAND_RE.lastIndex = 0;
      while ((m = SHORTHAND_RE.exec(line))) {
        const n = m.groups!.n;
        const start = m.index + m[0].length - n.length;
        // "I'm at 12.5 max": thousands with a decimal, never a factor (1.05-2.5)
        if (n.includes('.') && Number(n) < 3) continue;
        const value = Number(n) * 1000;
        if (value < ask / 10 || value > ask * 4 || overlaps(start, start + n.length)) continue;
        const negated = SHORTHAND_NEGATED.test(lower.slice(Math.max(0, start - 40), start));
        taken.push([start, start + n.length]);
        facts.push({ pos: base + start, kind: 'money', value, money: negated ? 'requested' : 'funded', text: m[0].trim(), shorthand: true });
      }
    }
    // a fraction of the ask: "we can do half the ask"
    if (ask && ask > 0) {
      const fracRe = new RegExp(`\\b(${Object.keys(V.ASK_FRACTIONS).join('|')}) (the )?(ask|request|requested amount|amount (requested|asked))\\b`, 'gi');
      while ((m = fracRe.exec(line))) {
        if (overlaps(m.index, m.index + m[0].length)) continue;
        taken.push([m.index, m.index + m[0].length]);
        facts.push({ pos: base + m.index, kind: 'money', value: round2(ask * V.ASK_FRACTIONS[m[1].toLowerCase()]), money: 'funded', text: m[0], shorthand: true });
      }
    }
    // the ask named as the amount: "Approved as requested." (vocabulary.ts ASK_AS_AMOUNT)
    if (ask && ask > 0) {
      ASK_AS_AMOUNT_RE.lastIndex = 0;
      while ((m = ASK_AS_AMOUNT_RE.exec(lower))) {
        if (overlaps(m.index, m.index + m[0].length)) continue;
        // "can't do the full amount", "not the full ask": a refusal, not an amount offered
        if (SHORTHAND_NEGATED.test(lower.slice(Math.max(0, m.index - 40), m.index)) || /\b(not|can't|cannot|unable|won't)\b[^.;\n]{0,25}$/.test(lower.slice(Math.max(0, m.index - 30), m.index))) continue;
        taken.push([m.index, m.index + m[0].length]);
        facts.push({ pos: base + m.index, kind: 'money', value: ask, money: 'funded', text: m[0], shorthand: true });
      }
    }
    // "at the same rate and term": the pricing of the offer before it
    SAME_TERMS_RE.lastIndex = 0;
    while ((m = SAME_TERMS_RE.exec(lower))) facts.push({ pos: base + m.index, kind: 'same', value: 0, text: m[0] });
    // factor rates: "1.35 factor", "factor rate of 1.35", "@ 1.49", "(1.39)", "buy rate 1.28"
    const factorRe = /(?<![\w.$,])([1-2]\.\d{1,3})(?![\d.,]*\d)(?!\s?(%|pts?\b|points?\b|percent|k\b|m\b|mm\b|million))/gi;
    while ((m = factorRe.exec(line))) {
      const v = Number(m[1]);
      if (v < 1.05 || v > 2.5 || overlaps(m.index, m.index + m[0].length)) continue;
      // "I'm at 12.5 max - 1.42": a ceiling on the amount, not a sell-rate label
      const pre = (lower.slice(Math.max(0, m.index - 18), m.index).split(/[,;|]/).pop() ?? '').replace(/\d[\d,.]*k?\s+(max|cap|tops)\b/g, (x) => ' '.repeat(x.length));
      const post = lower.slice(m.index + m[0].length, m.index + m[0].length + 12).split(/[,;|)]/)[0];
      const lastSell = Math.max(...V.RATE_LABELS.sell.map((w) => pre.lastIndexOf(w)));
      const lastBuy = Math.max(...[...V.RATE_LABELS.buy, '@', ' at '].map((w) => pre.lastIndexOf(w)));
      // "the factor is 1.38, not 1.28": a value corrected or refused is no factor
      if (/\bnot\s*$/.test(pre)) {
        taken.push([m.index, m.index + m[0].length]);
        continue;
      }
      // a label written after the rate is its own and wins over one before it (holdout10): "1.42 buy / 1.52 top",
      // "1.38 buy, 1.48 ceiling" (the label before 1.52 is the buy's)
      const postSell = /^\s*(sell|max|top|ceiling|cap|high)\b/.test(post);
      const postBuy = /^\s*(buy|factor)\b/.test(post);
      const sell = postSell || postBuy ? postSell && !postBuy : lastSell >= 0 && lastSell > lastBuy;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: sell ? 'sell' : 'factor', value: v, text: m[0] });
    }
    // a bare term in a slash line after the factor: "75k / 1.35 / 180 / 562.50" (business days)
    const slashTermRe = /(?<=[1-2]\.\d{1,3}\s*\/\s*)(\d{2,3})(?=\s*(?:\/|$))/g;
    while ((m = slashTermRe.exec(line))) {
      const n = Number(m[1]);
      if (n < 20 || n > 400 || overlaps(m.index, m.index + m[1].length)) continue;
      taken.push([m.index, m.index + m[1].length]);
      facts.push({ pos: base + m.index, kind: 'term', value: n, unit: 'days', text: m[1] });
    }
    // payment counts: "39 pmts", "132 daily payments", "(210 payments)"
    // "Number of Payments: 140", "# of debits: 26"
    const countLabelRe = /\b(?:number of|no\.? of|# of|#|total)\s*(?:(daily|weekly|bi-?weekly|monthly)\s+)?(?:payments|pmts|debits|installments|remittances)\s*[:|]?\s*(\d{1,3})(?![\d,.])/gi;
    while ((m = countLabelRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[2]), freq: m[1] ? normFreq(m[1]) : undefined, text: m[0] });
    }
    // a term in years, only where it is named as the term: "term 1 year", "a 2-year term"
    const yearRe = /\b(?:term|length|duration)\s*(?:of|:|is|\|)?\s*(\d)\s*(?:years?|yrs?)\b|\b(\d)[- ](?:year|yr) term\b/gi;
    while ((m = yearRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'term', value: Number(m[1] ?? m[2]) * 12, unit: 'months', text: m[0] });
    }
    const countRe = /(?<![\w.$])(\d{1,3})\s*(?:(daily|weekly|bi-?weekly|monthly|(?:business|biz|banking|working)[- ]day)\s+)?(?:(?:ach|electronic|auto(?:matic)?|bank)\s+)?(payments|pmts|debits|installments|remittances)\b/gi;
    while ((m = countRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      // "80 business-day payments": daily debits
      const cf = m[2] ? (/day$/i.test(m[2]) ? 'daily' : normFreq(m[2])) : undefined;
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: cf, text: m[0] });
    }
    // a count of payments without the word: "20 weekly @ 2,130", "28 weekly at $1,750", "120 dailies of $450", "24 weeklies"
    const bareCountRe = /(?<![\w.$,])(\d{1,3})\s+(?:(daily|weekly|bi-?weekly|monthly)(?=\s*(?:@|at|of|x|-)\s*\$?\d)|(dailies|weeklies))/gi;
    while ((m = bareCountRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: normFreq(m[2] ?? (m[3].startsWith('d') ? 'daily' : 'weekly')), text: m[0] });
    }
    // terms: "180 business days", "6 months", "24 wks", "12 month term"
    const termRe = /(?<![\w.$,])(\d{1,3})\s*-?\s*(business days?|biz days?|bus\.? days?|working days?|banking days?|days?|weeks?|wks?|months?|mos?\.?|mths?|semanas?|meses|mes|d[i\u00ed]as(?: h[a\u00e1]biles)?|d)(?![\w\u00e0-\u00ff])/gi;
    while ((m = termRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      const pre = lower.slice(Math.max(0, m.index - 24), m.index);
      const post = lower.slice(m.index + m[0].length, m.index + m[0].length + 24);
      if (/\b(last|past|within|good for|valid for|available for|expires?( in)?|in the|neg\w*|nsf\w*|tib|only has|next|after|not at|not for|instead of|revisit|every|for the|from|up to|over the last|clean up for|hit|first|least|activity for|than|not on|not on the|(?<!(paid|repaid|back|off|remitted|collected) )in)\s*\(?$/.test(pre) && !/[12]\.\d{1,3}\s+for the\s*$/.test(pre)) continue;
      // the term the merchant asked for, restated: "the application asks for 12 months" (askedTerm compares it with the offer)
      if (ASKED_TERM_BEFORE.test(pre)) continue;
      // ... with its amount before it: "you came in asking for 120k over 9 months"
      if (ASKED_CLAUSE_BEFORE.test(lower.slice(Math.max(0, m.index - 70), m.index).split(/[.!?;]\s/).pop() ?? '')) continue;
      // ... or the term asked, refused: "a 12-month weekly structure is beyond what our guidelines allow"
      if (ASKED_TERM_REFUSED_AFTER.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 80))) continue;
      // ... or said to be the one asked for: "the 12 months the owner asked for"
      if (ASKED_TERM_AFTER.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 80))) continue;
      if (/^\s*\)?\s*(tib|in business|old|of (statements|history|bank|activity|tib)|(bank )?statements|mtd|ago|from now|to fund|notice|neg|negative|nsf|alone|minimum|min\b|of (clean|consecutive)|(you|they|he|she|we)? ?(asked|requested|wanted)|(won't|will not|doesn't|does not|isn't|is not) work)/.test(post)) continue;
      const u = m[2].toLowerCase();
      const unit: TermUnit = /^(w(?!orking)|sem)/.test(u) ? 'weeks' : /^(m)/.test(u) ? 'months' : 'days';
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'term', value: Number(m[1]), unit, text: m[0] });
    }
    // payment frequency (not one named where the asked term is restated or refused)
    const asked = askedSentences(lower);
    FREQ_RE.lastIndex = 0;
    while ((m = FREQ_RE.exec(line))) {
      const at = m.index;
      if (asked.some(([s, e]) => at >= s && at < e)) continue;
      const post = lower.slice(m.index + m[0].length, m.index + m[0].length + 16);
      if (/^\s*(revenue|deposits?|sales|balances?|gross|volume|income|rent|average|debits? to)/.test(post)) continue;
      if (overlaps(m.index, m.index + m[0].length) && !/^\//.test(m[0])) continue;
      facts.push({ pos: base + m.index, kind: 'freq', value: 0, freq: normFreq(m[0]), text: m[0] });
    }
    base += line.length + 1;
  }
  return facts.sort((a, b) => a.pos - b.pos);
}

interface Draft {
  amount?: number;
  factor?: number;
  term?: number;
  unit?: TermUnit;
  freq?: PaymentFrequency;
  payment?: number;
  count?: number;
  countFreq?: PaymentFrequency;
  /** Total repaid ("payback", "RTR", "purchased amount", "$99,000 back"): the factor is payback / amount when no factor is stated. */
  payback?: number;
  /** "at the same rate and term": takes the pricing of the offer before it. */
  same?: boolean;
  /** A second, different term met before the offer was priced (see offerConflict). */
  otherTerm?: string;
}

function groupFacts(facts: Fact[]): Draft[] {
  const labelled = facts.some((f) => f.kind === 'money' && f.money === 'funded' && !f.shorthand);
  const drafts: Draft[] = [];
  let cur: Draft | null = null;
  const fresh = () => {
    cur = {};
    drafts.push(cur);
    return cur;
  };
  for (const f of facts) {
    const c: Draft = cur ?? fresh();
    switch (f.kind) {
      case 'money': {
        // right after "same rate and term on": the amount that takes that pricing
        const kind = f.money === 'unknown' ? (c.same && c.amount === undefined ? 'funded' : labelled ? 'ignore' : f.value >= 1000 ? 'funded' : 'payment') : f.money;
        if (kind === 'funded') {
          if (c.amount !== undefined) fresh().amount = f.value;
          else c.amount = f.value;
        } else if (kind === 'payment') {
          if (c.payment === undefined) c.payment = f.value;
        } else if (kind === 'payback') {
          if (c.payback === undefined) c.payback = f.value;
        }
        break;
      }
      case 'factor':
        if (c.factor !== undefined) fresh().factor = f.value;
        else c.factor = f.value;
        break;
      case 'term':
        if (c.term === undefined) {
          c.term = f.value;
          c.unit = f.unit;
        } else if (c.amount !== undefined && (c.factor !== undefined || c.payback !== undefined)) {
          // a menu whose lines start with the term ("6 mo: 45k @ 1.30 / 9 mo: 45k @ 1.38"): the next offer's term
          const n = fresh();
          n.term = f.value;
          n.unit = f.unit;
        } else if (termDiffers({ term: c.term, term_unit: c.unit ?? 'days' }, { term: f.value, unit: f.unit ?? 'days' })) {
          // (holdout11) a second, different term before the offer is priced ("ask was 50 over 12 months; approved 50 over
          // 6 months at 1.30"): which one is the offer's is not clear from the order
          c.otherTerm ??= `${f.value} ${f.unit ?? 'days'}`;
        }
        break;
      case 'count':
        if (c.count === undefined) {
          c.count = f.value;
          c.countFreq = f.freq;
        }
        break;
      case 'freq':
        if (c.freq === undefined) c.freq = f.freq;
        break;
      case 'same':
        // said of an amount already priced ("40 at 1.38 ... at the same rate, 55k"): the next amount takes it
        if (c.factor !== undefined && c.term !== undefined) fresh().same = true;
        else c.same = true;
        break;
      default:
        break;
    }
  }
  // the pricing of the offer before: factor, term and schedule, not the payment (another amount pays another sum)
  for (let i = 1; i < drafts.length; i++) {
    const d = drafts[i];
    if (!d.same) continue;
    const prev = drafts.slice(0, i).reverse().find((p) => p.amount !== undefined && p.factor !== undefined);
    if (!prev) continue;
    d.factor ??= prev.factor;
    if (d.term === undefined) {
      d.term = prev.term;
      d.unit = prev.unit;
    }
    d.freq ??= prev.freq;
  }
  // the same amount named twice, in prose and again in the terms block ("credit approved the full $150,000 on the
  // 10-month setup ... Amount: $150,000 / Factor: 1.35"): one offer, its parts from both (holdout11)
  for (let i = drafts.length - 2; i >= 0; i--) {
    const a = drafts[i];
    const b = drafts[i + 1];
    if (a.amount === undefined || a.amount !== b.amount || a.factor !== undefined || a.payback !== undefined) continue;
    if (b.factor === undefined && b.payback === undefined) continue;
    if (a.term !== undefined && b.term !== undefined && (a.term !== b.term || a.unit !== b.unit)) continue;
    if (b.term === undefined) {
      b.term = a.term;
      b.unit = a.unit;
    }
    b.freq ??= a.freq;
    if (b.count === undefined) {
      b.count = a.count;
      b.countFreq = a.countFreq;
    }
    b.payment ??= a.payment;
    drafts.splice(i, 1);
  }
  return drafts;
}

/** The payments a term in its own unit makes on a matching schedule (120 days daily: 120), else null. */
function ownCount(term: number | null, unit: TermUnit | null, freq: PaymentFrequency | null): number | null {
  if (term === null || unit === null || freq === null) return null;
  if ((unit === 'days' && freq === 'daily') || (unit === 'weeks' && freq === 'weekly') || (unit === 'months' && freq === 'monthly')) return term;
  if (unit === 'weeks' && freq === 'bi-weekly' && term % 2 === 0) return term / 2;
  return null;
}

/** Where an offer's stated parts disagree (see ExtractedOffer.conflict), or undefined. */
function offerConflict(d: Draft, amount: number, factor: number | null, term: number | null, unit: TermUnit | null, freq: PaymentFrequency | null, payment: number | null): string | undefined {
  const notes: string[] = [];
  // amount x factor against the payback stated (1% for rounding)
  if (d.factor !== undefined && d.payback !== undefined && Math.abs(amount * d.factor - d.payback) > d.payback * 0.01) {
    notes.push(`$${amount.toLocaleString('en-US')} at ${d.factor} is not the $${d.payback.toLocaleString('en-US')} payback stated`);
  }
  // the payments against what is repaid (2%: payments are rounded to the cent or the dollar), counted as stated or
  // as the term runs on its schedule; one reading that adds up is enough
  const total = factor !== null ? amount * factor : null;
  const repays = (n: number | null) => total !== null && payment !== null && n !== null && Math.abs(payment * n - total) <= total * 0.02;
  const counts = [d.count ?? null, ownCount(term, unit, freq)].filter((n): n is number => n !== null);
  if (total !== null && payment !== null && counts.length && !counts.some(repays)) {
    notes.push(`${counts[0]} payments of $${payment.toLocaleString('en-US')} do not repay $${amount.toLocaleString('en-US')} at ${factor}`);
  }
  // the term stated against the payments counted, unless the payments confirm the term (a count elsewhere in the
  // reply, "50% paid in (8 weekly payments)", is about something else)
  if (d.term !== undefined && d.count !== undefined && (d.countFreq ?? freq) && !repays(ownCount(term, unit, freq))) {
    const f = (d.countFreq ?? freq)!;
    const counted = { term: f === 'bi-weekly' ? d.count * 2 : d.count, unit: (f === 'daily' ? 'days' : f === 'monthly' ? 'months' : 'weeks') as TermUnit };
    if (termDiffers({ term: d.term, term_unit: d.unit ?? 'days' }, counted)) notes.push(`a ${d.term}-${d.unit ?? 'day'} term is not ${d.count} ${f} payments`);
  }
  // two different terms for one offer, the payments confirming neither
  if (d.otherTerm && !repays(ownCount(term, unit, freq))) notes.push(`two terms for one offer (${d.term} ${d.unit ?? 'days'}, ${d.otherTerm})`);
  return notes.length ? notes.join('; ') : undefined;
}

function finishOffers(drafts: Draft[], globalFreq: PaymentFrequency | undefined, fill?: number): ExtractedOffer[] {
  const out: ExtractedOffer[] = [];
  for (const d of drafts) {
    // `fill`: the amount of priced terms that name none (an approval of the ask: "Approved. 1.33 factor, 9 months")
    if (d.amount === undefined && fill !== undefined && d.factor !== undefined && (d.term !== undefined || d.count !== undefined)) d.amount = fill;
    if (d.amount === undefined || d.amount < 1000 || d.amount > 100_000_000) continue;
    // (holdout11) a count of payments is a term too: "Approved $50,000, 180 daily payments of $375.00" is an offer
    if (d.factor === undefined && d.term === undefined && d.payback === undefined && d.count === undefined) continue;
    const freq = d.freq ?? d.countFreq ?? globalFreq ?? null;
    let term = d.term ?? null;
    let unit = d.unit ?? null;
    if (term === null && d.count !== undefined && freq) {
      term = freq === 'bi-weekly' ? d.count * 2 : d.count;
      unit = freq === 'daily' ? 'days' : freq === 'monthly' ? 'months' : 'weeks';
    }
    if (term !== null && unit === null) unit = 'days';
    let payment = d.payment ?? null;
    if (payment !== null && payment >= d.amount) payment = null;
    // the factor as stated, else derived from the payback (2-4 decimals, as the contract takes it); (holdout11) with no
    // payback stated, the payments counted are the payback ("180 daily payments of $375.00" on $50,000: 1.35), when that
    // gives a factor the trade writes (1.05 to 2)
    const n = d.count ?? ownCount(term, unit, freq);
    const paidBack = d.payback ?? (d.factor === undefined && payment !== null && n !== null && payment * n >= d.amount * 1.05 && payment * n <= d.amount * 2 ? round2(payment * n) : undefined);
    const stated = d.factor ?? (paidBack !== undefined && paidBack > d.amount ? Math.round((paidBack / d.amount) * 10000) / 10000 : undefined);
    const factor = stated !== undefined && stated >= 1 && stated <= 5 ? stated : null;
    const missing = [factor === null ? 'factor_rate' : null, term === null ? 'term' : null].filter((x): x is string => x !== null);
    const conflict = offerConflict(d, d.amount, factor, term, unit, freq, payment);
    out.push({ amount: d.amount, factor_rate: factor, term, term_unit: unit, payment_frequency: freq, payment_amount: payment, missing, ...(conflict ? { conflict } : {}) });
  }
  const seen = new Set<string>();
  return out.filter((o) => {
    const k = `${o.amount}|${o.factor_rate}|${o.term}|${o.term_unit}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const FIELD_WORD = /amount|fund|advance|purchase|approv|factor|rate|buy|sell|term|length|duration|payment|pmt|debit|payback|rtr|frequency|freq|remit/i;

function splitCells(line: string): string[] {
  if (line.includes(' | ') || /^\|| \|$/.test(line)) return line.split('|').map((c) => c.trim());
  if (line.includes('\t')) return line.split(/\t+/).map((c) => c.trim());
  const parts = line.trim().split(/\s{2,}/);
  return parts.length >= 3 ? parts.map((c) => c.trim()) : [line];
}

/** A header cell's unit hint ("Term (days)") appended to a bare number. */
function withUnit(label: string, value: string): string {
  if (/^\d{1,3}$/.test(value.trim())) {
    const u = /\b(days|weeks|months)\b/i.exec(label);
    if (u) return `${value} ${u[1]}`;
    if (/term|length|duration/i.test(label)) return `${value} days`;
    // a column counting the payments ("Weekly Payments | 40", "# of Debits | 120"): a count, not an amount (holdout9)
    if (/\b(payments|pmts|debits|installments|remittances)\b/i.test(label) && !/amount|\$|size|each|per\b/i.test(label)) {
      const f = /\b(daily|weekly|bi-?weekly|monthly)\b/i.exec(label);
      return `${value} ${f ? `${f[1].toLowerCase()} ` : ''}payments`;
    }
  }
  return value;
}

/**
 * Offer tables, in two shapes: a header row of field names with one offer per row, or field names
 * down the first column with one offer per column. Each offer becomes a small "label: value"
 * document scanned like prose. Returns the documents and the line numbers they used.
 */
function tableDocuments(lines: string[]): { docs: string[]; used: Set<number> } {
  const docs: string[] = [];
  const used = new Set<number>();
  const cells = lines.map(splitCells);
  for (let i = 0; i < lines.length; i++) {
    const row = cells[i];
    if (used.has(i) || row.length < 3) continue;
    // header row: several field names, no digits
    const fieldCells = row.filter((c) => FIELD_WORD.test(c)).length;
    if (fieldCells >= 2 && !row.some((c) => /\d/.test(c))) {
      let j = i + 1;
      const rows: number[] = [];
      while (j < lines.length && cells[j].length >= row.length - 1 && cells[j].length >= 2 && cells[j].some((c) => /\d/.test(c))) rows.push(j++);
      if (rows.length) {
        used.add(i);
        for (const r of rows) {
          used.add(r);
          docs.push(row.map((h, k) => (h ? `${h}: ${withUnit(h, cells[r][k] ?? '')}` : '')).filter(Boolean).join('\n'));
        }
        i = j - 1;
        continue;
      }
    }
    // column table: label in the first cell, two or more values
    // (the label cell holds no value: "Approved: $45,000 | Factor 1.34 | 7 months" is one offer on one line)
    const isLabelRow = (r: string[]) => r.length >= 3 && FIELD_WORD.test(r[0]) && !/\$|\d[\d,.]*\d/.test(r[0]) && r.slice(1).filter((c) => /\d/.test(c)).length >= 2;
    if (isLabelRow(row)) {
      let start = i;
      if (i > 0 && cells[i - 1].length >= 3 && !cells[i - 1][0] && !used.has(i - 1)) start = i - 1; // "| Option A | Option B"
      let j = i;
      const block: number[] = [];
      while (j < lines.length && cells[j].length >= 2 && (isLabelRow(cells[j]) || (cells[j].length === 2 && FIELD_WORD.test(cells[j][0])))) block.push(j++);
      // one label row alone is a line of values, not a table
      if (block.length < 2) continue;
      const width = Math.max(...block.map((b) => cells[b].length));
      // a header row of terms ("| 4 mo | 6 mo | 8 mo"): each column's term
      const header = start < i ? cells[start] : null;
      for (let col = 1; col < width; col++) {
        const termHead = header && /^\d{1,3}\s*(mo|mos|months?|wks?|weeks?|days?|d)\b/i.test(header[col] ?? '') ? `Term: ${header[col]}\n` : '';
        docs.push(
          termHead +
          block
            .map((b) => {
              const r = cells[b];
              const v = r.length === 2 ? r[1] : (r[col] ?? '');
              return v ? `${r[0]}: ${withUnit(r[0], v)}` : '';
            })
            .filter(Boolean)
            .join('\n'),
        );
      }
      for (let b = start; b < j; b++) used.add(b);
      i = j - 1;
    }
  }
  return { docs, used };
}

/** Lower case, contractions restored, numbers in words as digits, dot leaders ("Purchase price ...... $30,000") as labels. */
const offerText = (own: string) =>
  wordsToDigits(normalizeText(own).toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(CONTRACTION_RE, (w) => V.CONTRACTIONS[w] ?? w)).replace(/[ \t]*\.{4,}[ \t]*/g, ': ');

/** Amounts put forward as what could be funded, priced or not ("probably around 35", "might squeeze 25"). */
function floatedAmounts(own: string, ctx?: ReplyContext, firm = false): number[] {
  return scanFacts(offerText(own), 0, ctx).filter((f) => f.kind === 'money' && f.money === 'funded' && !(firm && f.shorthand)).map((f) => f.value);
}

/** Offers in a reply's own text: tables first, then the rest as prose / "Label: value" lines. */
export function extractOffers(own: string, ctx?: ReplyContext, fill?: number): ExtractedOffer[] {
  const text = offerText(own);
  const lines = text.split('\n');
  const { docs, used } = tableDocuments(lines);
  // two-cell rows ("Funding Amount | $50,000") read as "Funding Amount: $50,000"
  const rest = lines
    .map((l, i) => {
      if (used.has(i)) return '';
      const c = splitCells(l);
      return c.length === 2 && c[0] && c[1] ? `${c[0]}: ${c[1]}` : l;
    })
    .join('\n');
  const freqs = new Set<PaymentFrequency>();
  for (const f of scanFacts(text, 0, ctx)) if (f.kind === 'freq' && f.freq) freqs.add(f.freq);
  const globalFreq = freqs.size === 1 ? [...freqs][0] : undefined;
  const offers: ExtractedOffer[] = [];
  for (const doc of docs) offers.push(...finishOffers(groupFacts(scanFacts(doc, 0, ctx)), globalFreq, fill));
  offers.push(...finishOffers(groupFacts(scanFacts(rest, 0, ctx)), globalFreq, fill));
  return offers;
}

// ---------------------------------------------------------------- the classifier

interface Analysis {
  own: string;
  lower: string;
  approved: Fired;
  declined: Fired;
  needs: Fired;
  counter: Fired;
  auto: Fired;
  pending: Fired;
  /** An approval taken back ("have to pull the approval"). */
  withdrawal: Fired;
  /** Terms before the final word ("waiting on final sign-off", "approved up to", "no pricing yet"). */
  tentative: Fired;
  /** Another product than the advance asked for ("reverse consolidation"). */
  product: Fired;
  /** A correction of terms sent earlier ("Correction on Lucky 7: the factor is 1.38"). */
  correction: Fired;
  /** Terms relayed by another broker with its own points, not written by the lender ("one came back ... 2 pts on top for my side"). */
  relayed: Fired;
  /** The part of `counter` that is a payoff or position condition (vocabulary.ts COUNTER rows marked `structure`). */
  structure: Fired;
  /** A ceiling on the amount ("tops out at", "I'm at 40 max"): a counter below the ask, nothing at it. */
  ceiling: Fired;
  /** An approval held for a recheck (TENTATIVE rows marked `hold`): doubt about an approval, not about a request. */
  hold: Fired;
  offers: ExtractedOffer[];
  items: { items: string[]; hits: string[] };
  category: ReturnType<typeof declineCategory>;
  fixed: string[];
  /** The strongest decision cue in the text itself, before subject and offer evidence. */
  ownDecision: number;
  /** The offers come from an attached PDF, not the body: they never turn the body's decline into a conflict. */
  offersAttached?: boolean;
  /** The approval in words alone (before offer terms and the subject count for it). */
  approvalWords: number;
  /** Amounts put forward, priced or not. */
  floated: number[];
  /** The same, written as amounts (a dollar sign, "k", thousands separators) or right before a factor, not bare shorthand. */
  floatedFirm: number[];
  /** Priced terms that name no amount ("Approved. 1.33 factor, 9 months"), completed with the ask when it is known (amount 0 when not). */
  termsWithoutAmount: ExtractedOffer[];
  /** The term the reply says was asked for ("the application asks for 12 months"), if it says one. */
  askedTerm: { term: number; unit: TermUnit } | null;
  /** The payment frequency the reply says was asked ("you asked for 9 months, weekly"), if it says one. */
  askedFreq: PaymentFrequency | null;
}

function analyse(own: string, subject: string, ctx?: ReplyContext): Analysis {
  const prepared = prepare(own);
  const { fixed } = prepared;
  const boiler = blankBoilerplate(prepared.lower);
  const lower = boiler.text;
  if (boiler.hits.length) fixed.push(...boiler.hits.map((h) => `"${h}" (boilerplate, not read)`));
  const subj = prepare(subject.replace(/^\s*((re|fwd?|fw|aw|tr|wg)\s*:\s*)+/i, '')).lower;
  const offers = extractOffers(own, ctx);
  const items = requestedItems(normalizeText(own));
  // a bare stip ask on its own ("MTD pls")
  const first = normalizeText(own).trim().split('\n')[0] ?? '';
  let bareAsk = false;
  if (!items.items.length && first.split(/\s+/).length <= 4 && DOC_WORDS.test(first) && /\b(pls|please|plz|need|asap)\b/i.test(first)) {
    const item = first.replace(/\b(pls|please|plz|asap)\b[.!]*/gi, '').replace(/\bneed\b/gi, '').trim();
    if (item) {
      items.items.push(item);
      items.hits.push(`short request "${first.trim()}"`);
      bareAsk = true;
    }
  }
  const category = declineCategory(lower);
  const approved = score(lower, APPROVED_CUES);
  const declined = score(lower, DECLINED_CUES);
  const needs = score(lower, NEEDS_CUES);
  if (bareAsk) add(needs, 2, 'a bare stip request');
  const counter = score(lower, COUNTER_CUES);
  const auto = score(lower, AUTO_CUES);
  const pending = score(lower, PENDING_CUES);
  const withdrawal = score(lower, WITHDRAWAL_CUES);
  const tentative = score(lower, TENTATIVE_CUES);
  const hold = score(lower, HOLD_CUES);
  const correction = score(lower, CORRECTION_CUES);
  const relayed = score(lower, RELAYED_CUES);
  const structure = score(lower, STRUCTURE_CUES);
  const ceiling = score(lower, CEILING_CUES);
  // another product than the one asked for (an advance when the deal does not say)
  const asked = ctx?.product_type ?? 'mca';
  const product = score(lower, PRODUCT_CUES.filter((c) => c.product !== asked));
  // the ask refused by name: "not 50", "declined for the full 110", "instead of the $80,000"
  const askNamed = ctx?.requested_amount ? refusedAskByName(lower, ctx.requested_amount) : null;
  if (askNamed) add(counter, 3, `the ask refused by name ("${askNamed}")`);
  // "half the ask", "two thirds of the request": less money than asked by its own words, whatever the ask
  const fraction = new RegExp(`\\b(${Object.keys(V.ASK_FRACTIONS).join('|')}) (the )?(ask|request|requested amount|amount (requested|asked))\\b`).exec(lower);
  if (fraction) add(counter, 3, `a fraction of the ask ("${fraction[0]}")`);
  // an offer at the lender's cap on the term ("our longest term for salons is 5 months: 1.31, 5 months"): the term was cut to it
  const cap = TERM_CAP_RE.exec(wordsToDigits(lower));
  if (cap) {
    const capTerm = { term: Number(cap.groups!.n), unit: (/^w/.test(cap.groups!.u) ? 'weeks' : /^m/.test(cap.groups!.u) ? 'months' : 'days') as TermUnit };
    if (offers.some((o) => o.factor_rate !== null && o.term !== null && !termDiffers(o, capTerm))) add(counter, 3, `an offer at the lender's cap on the term ("${cap[0]}")`);
  }
  const approvalWords = approved.score;
  const ownDecision = Math.max(approved.score, declined.score, needs.score, counter.score, withdrawal.score);
  // the subject of a decision notification ("Deal Status Update: APPROVED", "Counter Offer - ...")
  if (/\bapproved\b|\bapproval\b/.test(subj) && !/\bnot approved\b/.test(subj)) add(approved, 1.5, 'subject says approved');
  if (/\bdeclined?\b/.test(subj)) add(declined, 1.5, 'subject says declined');
  if (/\bcounter/.test(subj)) add(counter, 3, 'subject says counter');
  if (/\b(additional (information|info|documents)|items needed|stips|information required|missing|action required)\b/.test(subj)) add(needs, 1.5, 'subject asks for items');
  if (AUTO_SUBJECT.test(subj) || AUTO_SUBJECT.test(subject.trim())) add(auto, 4, 'auto-reply subject');
  const complete = offers.filter((o) => o.factor_rate !== null && (o.term !== null || o.payment_amount !== null));
  if (complete.length) add(approved, 2.5, `${complete.length} offer(s) with terms`);
  // a factor and a term with no amount named ("Best I can do is 40. 1.42, 100 days"): pricing, so a decision
  const termsWithoutAmount = offers.some((o) => o.missing.length === 0) ? [] : extractOffers(own, ctx, ctx?.requested_amount && ctx.requested_amount >= 1000 ? ctx.requested_amount : NO_AMOUNT).filter((o) => o.missing.length === 0);
  if (termsWithoutAmount.length && !complete.length) add(approved, 1.5, 'priced terms naming no amount');
  if (items.items.length) add(needs, Math.min(3, items.items.length), `${items.items.length} requested item(s)`);
  // items asked for to close a deal already priced ("need a signed contract and a voided check to fund"):
  // conditions of the approval, not a request to decide it
  const closing = score(lower, CLOSING_CUES);
  if (closing.score >= 2 && complete.some((o) => o.term !== null) && needs.score > 0) {
    needs.score = round2(needs.score * 0.3);
    needs.hits.push(`closing stips beside priced terms (${closing.hits.join(', ')}): counted for less`);
  }
  if (category.category !== 'other') add(declined, 1, `decline reason: ${category.category}`);
  // "Sorry!" or "unfortunately" with a named reason and no terms: the trade's way of saying no
  if (category.category !== 'other' && !complete.length && /\b(sorry|unfortunately|regret|apologies)\b/.test(lower)) add(declined, 1.5, 'an apology with a decline reason');
  return { own, lower, approved, declined, needs, counter, auto, pending, withdrawal, tentative, product, correction, relayed, structure, ceiling, hold, offers, items, category, fixed, ownDecision, approvalWords, floated: floatedAmounts(own, ctx), floatedFirm: floatedAmounts(own, ctx, true), termsWithoutAmount, askedTerm: askedTerm(own), askedFreq: askedFrequency(own) };
}

function add(f: Fired, w: number, why: string) {
  f.score += w;
  f.hits.push(why);
}

interface Decision {
  type: ReplyType;
  confidence: number;
  reasons: string[];
  review?: ClassifierReviewReason;
}

/** The winning class by cue weight alone (the rules before issue 26), before the terms are compared. */
function byCues(a: Analysis): Decision {
  const ranked = (
    [
      ['approved', a.approved.score],
      ['declined', a.declined.score],
      ['needs_info', a.needs.score],
    ] as Array<[ReplyType, number]>
  ).sort((x, y) => y[1] - x[1]);
  let [top, topScore] = ranked[0];
  const second = ranked[1][1];
  // a counter is an approval on other terms than asked
  if (a.counter.score >= 3 && (a.offers.length > 0 || a.termsWithoutAmount.length > 0 || a.approved.score >= 2) && a.declined.score < a.counter.score + a.approved.score) {
    const conf = Math.min(0.99, (a.counter.score + a.approved.score - a.declined.score + 1) / (a.counter.score + a.approved.score + 3));
    return { type: 'counter', confidence: round2(Math.max(0.3, conf)), reasons: ['counter cues with offer terms'] };
  }
  if (topScore < 2 || a.pending.score > topScore) {
    return { type: 'unclassified', confidence: round2(Math.max(0.3, 1 - topScore / 4)), reasons: [topScore < 2 ? 'no decisive cue' : 'acknowledgement, no decision'] };
  }
  if (top === 'needs_info' && a.items.items.length === 0 && topScore < 3 && a.approved.score < 2 && a.declined.score < 2) {
    return { type: 'unclassified', confidence: 0.5, reasons: ['asks for something, but no item could be named'] };
  }
  if (topScore === second) {
    // a tie: the more specific evidence names the class, but nothing is applied on a tie-break
    const tied = ranked.filter((r) => r[1] === topScore).map((r) => r[0]);
    top = tied.includes('declined') ? 'declined' : tied.includes('needs_info') ? 'needs_info' : tied[0];
    return { type: top, confidence: 0.3, reasons: [`tie between ${tied.join(' and ')}`], review: 'conflicting_cues' };
  }
  const confidence = round2(Math.min(0.99, Math.max(0.2, (topScore - second + 1) / (topScore + 2))));
  return { type: top, confidence, reasons: [] };
}

/** "Can't do 70", "can't fund the $70,000", "unable to approve 70k" where 70k is the deal's ask. */
function refusesAsk(lower: string, ask: number): boolean {
  const k = ask / 1000;
  const amount = `(\\$\\s?${ask.toLocaleString('en-US')}|\\$?${ask}|\\$?${k}\\s?k|${Number.isInteger(k) ? k : 'x^'})`;
  return new RegExp(`\\b(can't|cannot|can not|couldn't|unable to|not able to)\\s+(do|fund|approve|go|get to)\\s+(the\\s+)?(full\\s+)?${amount}(?![\\d.,]*\\d)`).test(lower);
}

/** The deal's ask as a lender writes it: "$150,000", "150,000", "150k", "$150k", a bare "150". */
function askPattern(ask: number): string {
  const k = ask / 1000;
  return `(\\$\\s?${ask.toLocaleString('en-US')}|\\$?${ask}|\\$?${k}\\s?k|${Number.isInteger(k) ? `\\$?${k}` : 'x^'})(?![\\d.,]*\\d)(?!\\s*(%|days?|weeks?|wks?|months?|mos?|payments?|pmts?|positions?|nsfs?|negs?|pts?|points?))`;
}

/** The ask named in a refusal: "35, not 50", "declined for the full 110", "instead of the $80,000", "can't get to 75". */
function refusedAskByName(lower: string, ask: number): string | null {
  const m =
    new RegExp(`\\b(not|instead of|rather than|versus|vs\\.?|(can't|cannot|couldn't|unable to|not able to) (do|fund|approve|go|get to|get you)|declined( it| this| the file)? (for|at))\\s+(the\\s+)?(full\\s+|whole\\s+|requested\\s+)?${askPattern(ask)}`).exec(lower) ??
    // "We can't sit 3rd behind two funders for 150", "won't go out at 110 with Forward on": a refusal of the ask however phrased
    new RegExp(`\\b(can't|cannot|couldn't|won't|will not|unable to|not able to)\\b[^.!?\\n]{0,50}?\\b(for|at)\\s+(the\\s+)?(full\\s+|whole\\s+|requested\\s+)?${askPattern(ask)}`).exec(lower);
  return m ? m[0] : null;
}

/**
 * A number that could be the amount, other than the ask ("approved, but only for 35"): then priced terms
 * without a read amount are not the ask's, and a person completes them. Terms, counts, rates, payments
 * and percentages are not amounts.
 */
function otherAmountNamed(lower: string, ask: number): boolean {
  // (a time of day, "at 11:40", is no amount)
  const re = /(?<![\w.$,:])\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(k|m)?\b(?!:\d|\s*(%|percent|pts?\b|points?\b|x\b|days?|business|biz|weeks?|wks?|months?|mos?|mo\b|mths?|years?|yrs?|payments?|pmts?|debits?|positions?|nsfs?|negs?|\/\s*(day|d|wk|week|mo|month)\b|(a|per) (day|week|month)|daily|weekly|monthly|dly|wkly))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(lower))) {
    if (m[2]) continue; // a decimal: a factor or a payment
    let v = Number(m[1].replace(/,/g, ''));
    if (m[3] === 'k') v *= 1000;
    else if (m[3] === 'm') v *= 1_000_000;
    else if (v < 1000) v *= 1000; // "for 35": thousands
    if (v >= ask / 10 && v <= ask * 4 && Math.abs(v - ask) >= 0.5) return true;
  }
  return false;
}

/** The amount given to priced terms that name none when the ask is not known (never logged: such a reply goes to a person). */
const NO_AMOUNT = 99_999_999;

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
function decide(a: Analysis, ctx?: ReplyContext): Decision {
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
  if (a.withdrawal.score >= 3) {
    return { type: 'declined', confidence: 0.6, reasons: [...reasons, 'an approval withdrawn: a decline a person confirms'], review: 'approval_withdrawn' };
  }
  const d = byCues(a);
  reasons.push(...d.reasons);
  let { type, confidence } = d;
  let review = d.review;

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
  const counterScore = conditionOnly ? round2(a.counter.score - a.structure.score) : ceilingAtAsk ? round2(a.counter.score - a.ceiling.score) : a.counter.score;
  if (conditionOnly) reasons.push('a payoff condition beside an option at the ask approved in words: a condition of the approval, not other terms');
  // another term than asked: the term the reply says was asked, else the deal's (the hook's `requested_term`)
  const termAsked = a.askedTerm ?? ctx?.requested_term ?? null;
  const otherTerm = termAsked !== null && complete.length > 0 && complete.every((o) => termDiffers(o, termAsked));
  if (otherTerm) reasons.push(`offered ${complete.map((o) => `${o.term} ${o.term_unit}`).join(', ')} against ${termAsked.term} ${termAsked.unit} asked: another term`);
  // another payment frequency than asked (holdout9): "weekly over 6 months isn't something we offer ... all 40 on dailies"
  const otherFreq = a.askedFreq !== null && complete.length > 0 && complete.every((o) => o.payment_frequency !== null && o.payment_frequency !== a.askedFreq);
  if (otherFreq) reasons.push(`offered ${complete.map((o) => o.payment_frequency).join(', ')} payments against ${a.askedFreq} asked: another structure`);
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
    // the terms themselves decide a counter: the cue balance matters less
    if (less) confidence = Math.max(confidence, 0.75);
  } else if (type === 'declined' && complete.length) {
    // a no and a priced offer in one answer
    if (less || otherTerms || someLess) {
      type = 'counter';
      confidence = Math.max(confidence, 0.6);
      reasons.push('declined the ask, offered other terms: a counter');
      // "Decline as submitted ... we could do the 250 if they let us pay Fora off": a no, and the full ask on a condition
      if (atAsk && !less && a.declined.score >= 3) {
        review = 'conflicting_cues';
        reasons.push('a decline beside an offer at the full ask on other terms: a person picks');
      }
    } else {
      type = a.approved.score >= a.declined.score ? 'approved' : 'declined';
      review = 'conflicting_cues';
      reasons.push('a decline and an offer at the ask in one answer');
    }
  } else if ((type === 'declined' || type === 'unclassified') && a.counter.score >= 3 && a.tentative.score >= 2) {
    // "declined it at 30, but my manager would look at 15": a counter without terms yet
    type = 'counter';
    reasons.push('declined the ask, floated other terms');
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
  // doubt goes to a person
  if (!review && a.tentative.score >= 2 && (type === 'approved' || type === 'counter' || (type === 'declined' && a.tentative.score >= 3))) review = 'tentative_terms';
  // a request for items next to a floated decision ("looks approvable around 60 ... I need"): a person sets expectations
  if (!review && type === 'needs_info' && a.tentative.score - a.hold.score >= 3) review = 'tentative_terms';
  // terms relayed by another broker, not the lender's own word: a person decides
  if (!review && type !== 'unclassified' && a.relayed.score >= 3) {
    review = 'tentative_terms';
    reasons.push("terms relayed by another broker, not the lender's own reply");
  }
  // a correction of earlier terms: which terms stand is for a person
  if (!review && (type === 'approved' || type === 'counter') && a.correction.score >= 3) review = 'conflicting_cues';
  // "can't do 70" and an option at the full 70: the lender's no and its offer disagree
  if (!review && type === 'counter' && atAsk && ask !== null && refusesAsk(a.lower, ask)) {
    review = 'conflicting_cues';
    reasons.push('refuses the ask in words, yet offers it');
  }
  if (!review && (type === 'approved' || type === 'counter') && a.declined.score >= 3 && !less && !otherTerms && a.counter.score < 3) review = 'conflicting_cues';
  // (holdout11) the offer's own figures disagree (amount x factor is not the payback, the payments do not repay it, the
  // term is not the payments counted): one of them is not the lender's, so nothing is applied
  const disagree = complete.filter((o) => o.conflict);
  if (!review && (type === 'approved' || type === 'counter') && disagree.length) {
    review = 'conflicting_cues';
    reasons.push(`the offer's figures disagree: ${disagree.map((o) => o.conflict).join('; ')}`);
  }
  // (holdout11) an approval at the full ask while the reply puts a smaller amount forward ("where i landed: 42 ... if he
  // wants the full 50 ..."): the smaller one may be the offer, so a person picks
  const smaller = ask !== null && atAsk ? a.floatedFirm.filter((x) => x < ask - 0.5 && x >= ask / 10 && !amounts.some((y) => Math.abs(y - x) < 0.5)) : [];
  if (!review && type === 'approved' && smaller.length) {
    review = 'conflicting_cues';
    reasons.push(`an approval at the $${ask!.toLocaleString('en-US')} ask beside $${smaller.map((x) => x.toLocaleString('en-US')).join(', $')} put forward: which stands is for a person`);
  }
  if (!review && type === 'declined' && (a.approved.score >= 3 || complete.length > 0) && a.approved.score >= a.declined.score - 1) review = 'conflicting_cues';
  if (!review && type !== 'unclassified' && confidence < MIN_CONFIDENCE) review = 'low_confidence';
  if (review) reasons.push(`review: ${review}`);
  return { type, confidence: round2(confidence), reasons, review };
}

/** One reply answering several files: decision lines that name different businesses. */
const DEAL_LINE = /^\s*([A-Z][\w&'.]*(?:\s+[A-Z&][\w&'.,]*){0,5})\s+[-:\u2013\u2014]\s+(approved|approval|declined?|decl|pass|counter(ed)?|need|needs|missing|stips)\b/i;

function splitDeals(own: string, ctx?: ReplyContext): { own: string; multiple: boolean; picked: boolean } {
  const lines = normalizeText(own).split('\n');
  const heads = lines.map((l, i) => ({ i, m: DEAL_LINE.exec(l) })).filter((h) => h.m && /^[A-Z]/.test(h.m[1]));
  const names = new Set(heads.map((h) => h.m![1].toLowerCase()));
  const both = /\b(both|all|each) (of )?(your|these|the|two|three) (files|deals|submissions)\b|\banswering (both|all)\b/i.test(own);
  if (names.size < 2 && !(both && names.size >= 1)) return splitDealSentences(own, ctx);
  const key = (ctx?.business_name ?? '').toLowerCase().split(/[^a-z0-9]+/).find((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc'].includes(w));
  const mine = key ? heads.filter((h) => h.m![1].toLowerCase().includes(key)) : [];
  if (!mine.length) return { own, multiple: true, picked: false };
  const keep = new Set<number>();
  for (const h of mine) {
    keep.add(h.i);
    // the lines under it, up to the next file's line or a blank line
    for (let j = h.i + 1; j < lines.length && lines[j].trim() && !heads.some((x) => x.i === j); j++) keep.add(j);
  }
  return { own: lines.filter((_, i) => keep.has(i)).join('\n'), multiple: true, picked: true };
}

// ---------------------------------------------------------------- another deal named

/**
 * Words that name no business in the places a decision names one ("Status: approved", "Update on
 * Friday"): the trade's own nouns, pronouns, days and months, greetings.
 */
const NOT_A_NAME = new Set(
  ('the this that these those your our my their his her its it we you they he she i a an re fwd fw update status decision approved approval declined ' +
    'decline counter offer offers funded final file deal deals submission merchant client owner business good great news hi hello hey thanks thank ' +
    'monday tuesday wednesday thursday friday saturday sunday today tomorrow january february march april may june july august september october ' +
    'november december jan feb mar apr jun jul aug sep sept oct nov dec summary terms term option options note notes stips stip items item portal ' +
    'credit underwriting committee please per new renewal amount factor rate payback payment tier level grade paper program pricing ' +
    'thanksgiving christmas holiday holidays easter memorial labor independence vacation pto ' +
    'docusign plaid decisionlogic ocrolus moneythumb wire ach contracts contract funding') .split(/\s+/),
);
/** Words that name a funder, not a merchant: "Azure Cove Funding", "Seabright Merchant Partners". */
const LENDER_WORDS = new Set(['funding', 'funders', 'funder', 'capital', 'lending', 'lender', 'lenders', 'finance', 'financial', 'advance', 'advances', 'partners', 'merchant', 'bank', 'portal', 'underwriting']);
/** Words of a legal name that say nothing about which business it is. */
const NAME_FILLER = new Set(['llc', 'inc', 'co', 'corp', 'corporation', 'company', 'ltd', 'pllc', 'pc', 'pa', 'lp', 'llp', 'dba', 'and', 'of', 'the']);
/** A run of capitalised words (a business as written): "Dixon Auto Glass", "Magnolia Row Boutique", "Tin Cup Diner & Grill". */
const CAP_RUN = "[A-Z][\\w&'.-]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){0,5}";
/** Where a reply names the business a decision is about. */
const NAMED_BUSINESS: RegExp[] = [
  // "Approved on Dixon Auto Glass", "declining Magnolia Row", "passing on Harbor Bakery", "counter for Red Oak"
  new RegExp(`\\b(?:[Aa]pproved|APPROVED|[Aa]pproval|[Dd]eclined?|DECLINED|[Dd]eclining|[Pp]ass(?:ing)?|[Cc]ounter(?:ed)?|[Ff]unded|[Dd]ecision|[Ss]tips|[Uu]pdate|[Nn]ews|[Bb]ow(?:ing)? out|[Ss]tep(?:ping)? (?:back|aside)|[Rr]eviewed|[Ll]ooked at|[Tt]houghts|us)[ \\t]+(?:on|for|re:?|regarding)[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})`, 'g'),
  // "We reviewed Sprout & Sprig Florals", "We looked at Copperline"
  new RegExp(`\\b(?:[Ww]e|I)[ \\t]+(?:reviewed|looked at|ran|went through|underwrote)[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})`, 'g'),
  // "The Magnolia Row Boutique file", "your Dixon deal"
  new RegExp(`\\b(?:[Tt]he|[Yy]our|[Tt]hat)[ \\t]+(${CAP_RUN})[ \\t]+(?:file|deal|submission|app|application)\\b`, 'g'),
  // "Dixon Auto Glass is approved" at the start of a sentence or line
  // "Dixon Auto Glass looks good": two words at least ("Everything looks good")
  new RegExp(`(?:^|[.!?,][ \\t]+|\\n)[ \\t]*([A-Z][\\w&'.]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})[ \\t]+(?:looks|came in|checks out)[ \\t]+(?:good|great|fine|solid|clean|strong|approvable)\\b`, 'g'),
  new RegExp(`(?:^|[.!?,][ \\t]+|\\n)[ \\t]*(${CAP_RUN})[ \\t]+(?:is|was|has been|got|came back)[ \\t]+(?:[Aa]pproved|APPROVED|[Dd]eclined|DECLINED|a go|a pass|a no|a non-starter|a decline|an approval|[Ff]unded|good to go|cleared|reviewed|approvable|declinable)\\b`, 'g'),
  // "Dixon Auto Glass - APPROVED", "Dixon Auto: declined": two words at least ("Dana - approved" greets the broker)
  new RegExp(`(?:^|[.!?][ \\t]+|\\n)[ \\t]*([A-Z][\\w&'.]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})(?:[ \\t]*:[ \\t]*|[ \\t]+[-\\u2013\\u2014][ \\t]+)(?:[Aa]pproved|APPROVED|[Dd]eclined|DECLINED|[Ff]unded|FUNDED)\\b`, 'g'),
  // a line opening on the file it answers: "For Dixon Auto Glass: ...", "Re Dixon Auto Glass - ..."
  new RegExp(`(?:^|\\n)[ \\t]*(?:[Ff]or|[Rr]e|RE|[Rr]egarding|[Oo]n)[ \\t]*:?[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})[ \\t]*(?::|,|[ \\t][-\\u2013\\u2014][ \\t])`, 'g'),
  // a portal's grid: "Merchant: Dixon Auto Glass", "Business Name | Dixon Auto Glass"
  new RegExp(`\\b(?:[Mm]erchant|[Bb]usiness|DBA|[Ll]egal [Nn]ame|[Cc]ompany)(?:[ \\t]+[Nn]ame)?[ \\t]*[:|][ \\t]*(${CAP_RUN})`, 'g'),
];

/** The distinctive words of a business name (lower case): not legal filler, not the trade's nouns, not an all-caps acronym. */
function nameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length >= 3 && !(w.length <= 5 && /^[A-Z0-9]+$/.test(w)))
    .map((w) => w.toLowerCase())
    .filter((w) => !NAME_FILLER.has(w) && !NOT_A_NAME.has(w));
}

/** A name as written against the deal's business: the same when a distinctive word is shared (or one starts the other: "Chiro"). */
function sameBusiness(written: string[], business: string[]): boolean {
  return written.some((t) => business.some((u) => t === u || (t.length >= 4 && u.startsWith(t)) || (u.length >= 4 && t.startsWith(u))));
}

/** An aside to the reply ("P.S.", "Separately", "Unrelated") about another file than this one. */
const ASIDE_START = /^\s*(?:p\.?\s?p?\.?s\.?(?=[\s:,-])|separately\b|unrelated\b|on (?:a |an )?(?:separate|different|unrelated) (?:note|file|deal)\b|on another (?:note|file|deal)\b|also,? on (?:the )?other\b)/i;
const OTHER_FILE = /\b(?:the|your|that) other (?:file|deal|submission|merchant)\b|\banother (?:file|deal|submission) (?:you|of yours)\b/i;

/**
 * The parts of a reply about another deal than the one it answers (holdout8): a decision that names a
 * business that is not this deal's ("Approved on Dixon Auto Glass" on the Windward thread), another
 * submission's trace code, or an aside ("P.S. the Magnolia file ... we'll let that one go"). A
 * paragraph that names another business and never this one is cut; `mine` says whether the reply
 * names this deal anywhere. Without the deal's business name nothing is compared.
 */
function otherDeals(own: string, ctx?: ReplyContext): { own: string; names: string[]; mine: boolean } | null {
  const business = nameWords(ctx?.business_name ?? '');
  if (!business.length && !ctx?.trace_code) return null;
  const text = normalizeText(own);
  // paragraphs, a P.S. line starting one of its own
  const paras = text.split(/\n\s*\n/).flatMap((p) => p.split(/\n(?=\s*(?:p\.?\s?p?\.?s\.?)[\s:,-])/i));
  const names: string[] = [];
  let mine = business.length > 0 && new RegExp(`\\b(?:${business.map((w) => w.replace(/[^a-z0-9]/g, '')).join('|')})`, 'i').test(text);
  const ours = ctx?.trace_code ?? null;
  // the sender's firm as it signs (the last lines of its text)
  const blocks = text.trim().split(/\n\s*\n/);
  const last = blocks.length >= 2 ? blocks[blocks.length - 1] : '';
  const signs = last.split('\n').length <= 4 && !/\d/.test(last) && !ASIDE_START.test(last) && last.split('\n').every((l) => l.trim().split(/\s+/).length <= 6);
  const signature = signs ? nameWords(last).filter((w) => !business.includes(w)) : [];
  const keep: string[] = [];
  let cut = false;
  for (const p of paras) {
    let other = 0;
    let self = 0;
    for (const re of NAMED_BUSINESS) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(p))) {
        const words = nameWords(m[1]);
        if (!words.length || !business.length) continue;
        if (sameBusiness(words, business)) self++;
        // the lender naming itself ("Azure Cove Funding - Approved", the firm in its signature): no other deal
        else if (m[1].toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w)) || sameBusiness(words, signature)) continue;
        else {
          other++;
          names.push(m[1].trim());
        }
      }
    }
    for (const code of findTraceCodes(p)) {
      if (ours && code === ours) self++;
      else if (ours) {
        other++;
        names.push(code);
      }
    }
    if (self) mine = true;
    const aside = ASIDE_START.test(p) && OTHER_FILE.test(p);
    if ((other > 0 && self === 0) || aside) {
      if (aside && !other) names.push('another file');
      cut = true;
      continue;
    }
    keep.push(p);
  }
  if (!cut) return null;
  return { own: keep.join('\n\n'), names: [...new Set(names)], mine };
}

/** A decision sentence naming its file: "Approved 60k ... for Pinecrest", "Lakeside is declined". */
const DECISION_FOR = /\b(?:approved|approval|declined?|decline|pass(?:ing)?|counter(?:ed)?|denied)\b(?:[^.!?\n]|\.(?=\d)){0,60}?\b(?:for|on)\s+([A-Z][\w&'-]*(?:\s+(?:[A-Z][\w&'-]*|&)){0,3})|\b([A-Z][\w&'-]*(?:\s+(?:[A-Z][\w&'-]*|&)){0,3})\s+(?:is|was|got|has been)\s+(?:approved|declined|denied|countered)\b/gi;
/** Capitalised words after "for"/"on" that name no file: time, states, the lender's own words. */
const NOT_A_FILE = new RegExp(`^(?:${['the', 'a', 'an', 'this', 'that', 'it', 'us', 'you', 'me', 'them', 'him', 'her', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'q1', 'q2', 'q3', 'q4', 'iso', 'isos', 'funding', 'approval', 'approved', 'decline', 'declined', 'we', 'i', 'our', 'your', 'uw', 'credit', 'committee', ...V.STATES.flat()].join('|')})$`, 'i');

/**
 * A decision sentence that names another business than the deal's (a name after "approved ... for", or "X is approved"),
 * or "your other deal / the other file": the name, or null. Only with the deal's business known; the lender's own name,
 * days, months, states and the trade's words are not businesses.
 */
function foreignDecision(own: string, ctx?: ReplyContext): string | null {
  const business = nameWords(ctx?.business_name ?? '');
  if (!business.length) return null;
  const text = normalizeText(own);
  if (OTHER_FILE.test(text) || /\b(?:your|the|that) other (?:deal|file|submission|merchant|one)\b/i.test(text)) return 'another file';
  DECISION_FOR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DECISION_FOR.exec(text))) {
    // the name as capitalised (the match itself ignores case): "DocuSign delivery" is "DocuSign"
    const parts = (m[1] ?? m[2]).trim().split(/\s+/);
    const cut = parts.findIndex((w) => !/^[A-Z&]/.test(w));
    const name = parts.slice(0, cut < 0 ? parts.length : cut).join(' ');
    const first = parts[0];
    if (!name || !/^[A-Z]/.test(first) || NOT_A_FILE.test(first)) continue;
    const words = nameWords(name);
    if (!words.length || sameBusiness(words, business)) continue;
    if (name.toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w))) continue;
    // the lender naming itself ("Approved on Harbor Point ... Kim, Harbor Point Commercial"): its name in the sign-off
    const blocks = text.trim().split(/\n\s*\n/);
    const last = blocks.length >= 2 ? blocks[blocks.length - 1] : '';
    if (last.split('\n').length <= 4 && sameBusiness(words, nameWords(last))) continue;
    return name;
  }
  return null;
}

/**
 * One reply answering several files in running prose ("Approved 60k ... for Pinecrest. Approved 40k ...
 * for Lakeside."): decision sentences naming two different files. The sentences naming the deal's
 * business are read when it is known; otherwise the whole reply, for a person (multiple_deals).
 */
function splitDealSentences(own: string, ctx?: ReplyContext): { own: string; multiple: boolean; picked: boolean } {
  const text = normalizeText(own);
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim());
  const named = sentences.map((sentence) => {
    const found = new Set<string>();
    DECISION_FOR.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = DECISION_FOR.exec(sentence))) {
      const name = (m[1] ?? m[2]).trim();
      const first = name.split(/\s+/)[0];
      // a name is capitalised as written (the match itself ignores case)
      if (/^[A-Z]/.test(first) && !NOT_A_FILE.test(first)) found.add(first.toLowerCase());
    }
    return { sentence, found };
  });
  const names = new Set(named.flatMap((n) => [...n.found]));
  if (names.size < 2) return { own, multiple: false, picked: false };
  const words = (ctx?.business_name ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc'].includes(w));
  const mine = named.filter((n) => [...n.found].some((f) => words.includes(f)));
  if (!mine.length) return { own, multiple: true, picked: false };
  return { own: mine.map((n) => n.sentence).join('\n'), multiple: true, picked: true };
}

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
  const offers = extractOffers(attachmentText, context).filter((o) => o.missing.length === 0);
  if (!offers.length) return [];
  reasons.push(`${offers.length} offer(s) with terms in the attached PDF`);
  const pointsAtIt = /\battach(ed|ment|ments)?\b|\benclosed\b|\bpdf\b|\bterm sheet\b|\boffer letter\b/.test(a.lower);
  if (pointsAtIt && a.ownDecision < 2 && a.declined.score === 0 && a.needs.score < 1 && a.auto.score === 0 && a.pending.score === 0) {
    add(a.approved, 2.5, 'offer terms in the attachment the reply points at');
  }
  return offers;
}

/** A decision written into the subject line of a reply ("... - APPROVED 70K", "... - DECLINED (TIB)", "... counter 50k"). */
/** The sender's words pointing at the message below for the answer: "see below from UW", "per credit's note below", "decision below". */
const POINTS_BELOW = /\b(see|read|per|note|notes|decision|answer|terms|numbers|details|comments?)\b[^.!?\n]{0,30}\bbelow\b|\bbelow (from|is|are)\b/;
const SUBJECT_ANSWER = /\b(approved|approval|appr|declined?|decl|counter(ed)?|pass(ing)?|funded|no go)\b/i;

/**
 * Classifies a lender's reply. `text` is the text part, `html` the HTML part when there is one; the
 * quoted thread is cut before any rule runs. A forwarded message is read when the sender's own text
 * decides nothing ("see below from UW"). `attachmentText`, the text of its PDF attachments, is read
 * for offer terms only (`attachmentOffers`). `context` is what the hook knows of the submission (the
 * deal's requested amount above all): with it, counters are read from the terms, not only the words.
 */
export function classifyReply(input: { subject: string; text: string; html?: string | null; attachmentText?: string | null }, context?: ReplyContext): Classification {
  const parts = replyParts(input as ReplyInput);
  const reasons: string[] = [`read the ${parts.source} part${parts.markers.length ? `; cut ${parts.quotedLines} quoted line(s) at ${[...new Set(parts.markers)].join(', ')}` : ''}`];
  const deals = splitDeals(parts.own, context);
  if (deals.multiple) reasons.push(deals.picked ? "one reply answering several files: read the lines naming this deal's business" : 'one reply answering several files');
  // a decision or an aside about another deal than this one (holdout8): not read for this deal
  const elsewhere = deals.multiple ? null : otherDeals(deals.own, context);
  if (elsewhere) {
    reasons.push(`names another deal than this one (${elsewhere.names.join(', ')}): that part is not read for this deal`);
    deals.own = elsewhere.own;
  }
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
  const both = parts.forwarded && a.auto.score < 4 && !a.offers.some((o) => o.missing.length === 0) && POINTS_BELOW.test(a.lower) ? analyse(`${deals.own}\n\n${parts.forwarded}`, input.subject, context) : null;
  if (both && both.offers.some((o) => o.missing.length === 0)) {
    reasons.push('the sender points at the forwarded message: read with it');
    a = both;
  } else if (parts.forwarded && a.ownDecision < 2.5 && a.auto.score < 4) {
    const f = analyse(parts.forwarded, input.subject, context);
    if (f.ownDecision > a.ownDecision) {
      reasons.push('own text decides nothing: read the forwarded message');
      a = f;
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
  // priced terms that name no amount: an approval names the ask; otherwise a person completes the offer
  let unnamed: ExtractedOffer[] = [];
  if ((d.type === 'approved' || d.type === 'counter') && !a.offers.length && a.termsWithoutAmount.length) {
    if (d.type === 'approved' && a.termsWithoutAmount.every((o) => o.amount !== NO_AMOUNT) && !otherAmountNamed(a.lower, a.termsWithoutAmount[0].amount)) {
      unnamed = a.termsWithoutAmount;
      d.reasons.push(`priced terms naming no amount in an approval: the ask ($${unnamed[0].amount.toLocaleString('en-US')})`);
    } else if (!d.review) {
      d.review = 'low_confidence';
      d.reasons.push('priced terms naming no amount, and no ask they could be: a person completes the offer', 'review: low_confidence');
    }
  }
  if (elsewhere && !elsewhere.mine && a.ownDecision < 2.5) {
    // the only decision in the reply is about another business: a reply on the wrong thread, never this deal's answer
    return { type: 'unclassified', confidence: 0.9, requested_items: [], offers: [], reasons: [...reasons, ...d.reasons, "the decision is about another business than this deal's: kept for a person"] };
  }
  // ... beside this deal's own answer: a person records the other deal's part where it belongs
  // (holdout11 gate) a decision sentence naming another business than this deal's ("Approved 50k at 1.35 ... for Harbor
  // Bakery"), or the reply speaking of "your other deal": which deal the decision is for is a person's call
  const foreign = d.type !== 'unclassified' && !deals.multiple && !elsewhere ? foreignDecision(deals.own, context) : null;
  if (foreign && !d.review) d.reasons.push(`a decision naming another business than this deal's (${foreign})`);
  const review = d.review ?? ((deals.multiple || elsewhere || foreign) && d.type !== 'unclassified' ? 'multiple_deals' : undefined);
  if (review === 'multiple_deals') d.reasons.push('review: multiple_deals');
  const result: Classification = { type: d.type, confidence: d.confidence, requested_items: [], offers: [], reasons: [...reasons, ...d.reasons] };
  if (review) result.review_reason = review;
  if (d.type === 'approved' || d.type === 'counter') result.offers = unnamed.length ? unnamed : a.offers;
  else if (attached.length) result.reasons.push('offer terms in the attachment not used: the reply itself is not an approval');
  if (d.type === 'approved' || d.type === 'counter' || d.type === 'needs_info') result.requested_items = a.items.items;
  if (d.type === 'declined') {
    result.decline_category = a.category.category;
    const anchor = a.category.index >= 0 ? a.category.index : a.lower.search(/declin|pass|no go|unable|not approved|unfortunately|sorry|remove/);
    const reason = anchor >= 0 ? sentenceAround(normalizeText(a.own), anchor) : '';
    if (reason) result.decline_reason = reason.slice(0, 1000);
    if (a.category.hits.length) result.reasons.push(`decline category ${a.category.category}: ${a.category.hits.slice(0, 4).join(', ')}`);
  }
  if (a.items.hits.length && result.requested_items.length) result.reasons.push(`items: ${a.items.hits.join('; ')}`);
  return result;
}

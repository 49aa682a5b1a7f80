import * as V from '../vocabulary';

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
/**
 * (revE) A decision word asked about, not said: "was it aprvd?", "did it get approved?", "has pinecrest been aprvd or not?",
 * "approved? lmk" (the word right before the question mark, or a sentence opened by a question's verb and closed by "?").
 */
const QUESTION_OPEN = /^\s*(?:(?:hi|hey|hello|so|also|and|ok|quick q\w*)\b[^.!?\n]{0,25}?[,:-]?\s+)?(?:was|were|is|are|has|have|had|did|does|do|r)\b/;
function asked(lower: string, end: number, inSentence: string, sentenceKnown: boolean): boolean {
  const rest = /^[^.!?\n]*([.!?\n]|$)/.exec(lower.slice(end));
  if (!rest || rest[1] !== '?') return false;
  return /^\s*\?/.test(lower.slice(end)) || (sentenceKnown && QUESTION_OPEN.test(inSentence));
}
const MODAL_BEFORE = /\b(once|if|unless|before|pending|until|should be able to|should (?:be|get)|hoping to|hopefully|expecting to|could|would|may|might|hope to|expect to|get you an?|otherwise|will be|files? with)\b[^.!?\n]{0,50}$/;

export const APPROVED_CUES: Cue[] = [
  { re: /\b(is|are|been|got|was|were|it's|its|we)\s+approved\b/g, w: 3, negatable: true, modal: true },
  { re: /(^|\n)\s*approved\b/g, w: 3, modal: true },
  { re: /\bapproved\s*(for|at|@|\$|\d|-|:|!|,)/g, w: 3, negatable: true, modal: true },
  { re: /\b(conditional|final|full)\s+approval\b/g, w: 3, negatable: true, modal: true },
  // (never "approval is pending the following", "approval is subject to committee": no approval yet)
  { re: /\bapproval\s+(amount|below|attached|terms|letter|is|for)\b(?! (pending|contingent|subject|on hold|waiting|awaiting|not\b))/g, w: 2, negatable: true, modal: true },
  { re: /\bstatus:\s*approved\b/g, w: 3 },
  // (holdout30) the amount first in a phone's one-liner: "50k approved on gauley river", "$40,000 approved, 1.35" (an amount:
  // "$" or "k" or thousands, never a count: "14 submitted, 9 approved")
  { re: /(?<![\w.$,])(\$\d[\d,]*(\.\d+)?\s?k?|\d{1,3}(\.\d+)?\s?k|\d{1,3}(,\d{3})+)\s+(is\s+)?approved\b/g, w: 3, negatable: true, modal: true },
  // (review) never a step or a paper: "UW approved the stips you sent", "we have approved the payoff letter"
  // (holdout42) who decides, then the verb, then what it approved: "our credit committee approved the full thirty-five thousand",
  // "UW approved it this morning"
  { re: /\b(committee|credit|uw|underwriting|the underwriter|underwriters|management|risk|we've|we have|i've|i have)\s+(has\s+|have\s+|just\s+|officially\s+)?approved\s+(the|it|this|them|him|her|your|their|a|an|our)\b(?!(\s+[\w'-]+){0,3}?\s+(stips?|stipulations?|docs?|documents?|letters?|statements?|exceptions?|applications?|apps?|paperwork|verifications?|ids?|licen[cs]es?|leases?|voided|checks?|invoices?|contracts?|bank|payoffs?|references?|w-?9s?|forms?|uploads?|items?|conditions?|files? (to|for) (move|go|proceed|advance))\b)/g, w: 3, negatable: true, modal: true },
  { re: /\bgood news\b|\bcongrat/g, w: 1 },
  { re: /\bsigned off\b|\b(we're|we are) in (for|at)\b|\bgood to go\b|\bqualifies\b/g, w: 2, negatable: true, modal: true },
  { re: /\bpleased to (inform|approve|offer|let|confirm)\b/g, w: 1.5 },
  { re: /\b((we|i) )?(can|could) (do|offer|fund|go|help)\b/g, w: 1.5, negatable: true, modal: true },
  { re: /\bapproval came back\b|\bcame back (approved|with an approval)\b/g, w: 3 },
  { re: /\b(offers?|options?) (below|attached)\b|\b(two|three|\d) options\b/g, w: 1.5 },
  { re: /\bsend (me |us )?(the )?contract request\b|\bcontract request\b|\brequest contracts\b|\bsend contracts\b/g, w: 1 },
];

export const DECLINED_CUES: Cue[] = [
  { re: /\bdecline[ds]?\b|\bdeclining\b/g, w: 3, negatable: true, modal: true },
  { re: /\bnot approved\b|\bcan't (get this |be )?approved\b|\bunable to approve\b/g, w: 3.5 },
  // "we can't approve", never "can't approve it at 40k" or "can't approve the full 50" (a counter's refusal of the ask)
  { re: /\b(can't|cannot|can not|won't|will not|are unable to|aren't able to) approve(?! (it |this |that |the (file|deal|request) )?(at|for|the full|the whole|more|over|above|\$|\d|up to|as))(?![^.;\n]{0,40}\b(at|for) (the )?(full )?\$?\d)/g, w: 3 },
  { re: /\b(we'll|we will|i'll|i will|have to|going to|gonna|must|will)\s+pass\b|\bpass(ing)? on (this|the|it|that)\b|(^|\n|[.!-]\s+)pass\s*([.!]|$|[-:]\s)|(^|\n)\s*pass\b/g, w: 3 },
  // (rfix2) a sentence that is the pass, for the time being: "sitting overdrawn most of nov. pass for now"
  { re: /(?:^|\n|[.!;]\s+)pass (?:for now|at this time|for the time being|this time|this round|on (?:this|it) for now)\b/g, w: 3 },
  { re: /\bno[- ]go\b/g, w: 3 },
  // (rfix20) a no the decider is leaning to, not yet given: "my UW mgr is leaning no", "credit's leaning towards a pass" (a
  // decline for the type; the same words are TENTATIVE in vocabulary.ts, so it goes to a person)
  { re: /\bleaning(?: (?:toward|towards|to))? (?:a |an )?(?:no|pass|decline|no-go|no go|hard no)\b/g, w: 3 },
  { re: /\b(unable|not able|can't|cannot|can not|won't be able|will not be able) to (fund|approve|help|move forward|do this|proceed|assist|offer on|extend an offer|make an offer|provide an offer|offer terms)\b/g, w: 3, modal: true },
  { re: /\b(will not|won't|not|are not|aren't)\s+(be\s+)?(moving|move|going) forward\b/g, w: 3, modal: true },
  { re: /\bcan'?t touch (it|this)\b/g, w: 2 },
  { re: /\b(don't|do not|doesn't|does not|won't|will not)\s+(fund|finance|work with|touch|lend to)\b/g, w: 2, modal: true },
  { re: /\b(restricted|prohibited|excluded|ineligible)\b/g, w: 1.5 },
  { re: /\b(doesn't|does not|didn't|did not|don't|do not)\s+(meet|qualify|pass|fit)\b/g, w: 2 },
  { re: /\bnot a (fit|match)\b|\boutside (of )?(our )?(guidelines|criteria|box|parameters)\b/g, w: 2.5 },
  { re: /\btoo (small|many|stacked|new|young|risky|much|large|big|low|high|thin|weak)\b/g, w: 1.5 },
  { re: /\bnot a candidate\b|\bnot (something|one) (we|i) can (do|fund|approve|help with|take on|touch|get done)\b|\bnothing (else )?(we|i) can (do|fund|approve)\b|\b(doesn't|does not|won't|will not) work for (us|me)\b|\bnot for us\b/g, w: 3 },
  // (holdout23) modal: "if he insists on a consolidation this is a pass" is a pass only on a condition
  { re: /\b(hard|easy|quick|a) pass\b/g, w: 3, modal: true },
  { re: /\bunfortunately\b|\bsorry\b|\bregret\b/g, w: 1 },
  { re: /\bminimum\b|\bmin\.? (is|of)\b/g, w: 1 },
  { re: /\bauto(matic)? dq\b|\bdq\b|\bdisqualif\w*/g, w: 2.5 },
  { re: /\brevisit\b|\btake another look\b|\bsend it back\b|\bresubmit\b/g, w: 1 },
  // the firm closing its doors to submissions ("Titan is no longer accepting broker submissions"); a person's
  // "remove me from your list" is no decision (vocabulary.ts UNSUBSCRIBE)
  { re: /\bno longer (accepting|taking|working with)\b/g, w: 2.5 },
  { re: /\bstatus:\s*declined\b|\bdecline reason\b/g, w: 3 },
];

export const NEEDS_CUES: Cue[] = [
  { re: /\b(we|i|still|also|will|uw|underwriting)\s+needs?\b|\bneeds?\b/g, w: 1 },
  { re: /\bbefore (we|i) can\b/g, w: 1.5 },
  // (rfix11) ... in a salesman's words: "can you grab the last 3 months of Square statements", "could you pull a MTD printout"
  // (rfix22) never the contracts' signature asked ("please have the merchant sign by Friday", "pls get them to sign the agreement"):
  // the close of an approval, no information wanted
  { re: /\b(please|pls|can you|could you|kindly)\s+(send|resend|re-send|provide|upload|forward|get|have|email|submit|grab|pull)\b(?!\s+(?:the |your |our )?(?:merchant|client|owner|customer|borrower|him|her|them|they|signer)\s+(?:to\s+)?(?:e-?sign|sign|docusign|execute|countersign|review and sign)(?:\s+(?:by|today|tonight|tomorrow|asap|before|it|them|the (?:contracts?|agreements?|docs|documents|envelope|purchase agreement|closing docs))\b|\s*[.!,;]|\s*$))/g, w: 2 },
  { re: /\b(didn't|did not|never) (come through|arrive|get (it|them|the))\b|\b(attachment|package|file|docs?) (is |was )?(missing|blank|corrupt|incomplete)\b|\bis incomplete\b/g, w: 1.5 },
  { re: /\bsend (over|me|us)\b/g, w: 1 },
  // (holdout18) never "nothing missing on your side"
  { re: /\bmissing\b/g, w: 1.5, negatable: true },
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
  // (holdout43) the lender holding its next step until it has something: "Rick won't price it until he sees two things: ...",
  // "we can't look at it without the payoff letter", "credit isn't going to sign off till we have the lease"
  { re: /\b(?:won't|will not|can't|cannot|isn't going to|is not going to|not going to|wouldn't|would not)\s+(?:even\s+)?(?:price|look at|review|approve|fund|decide on|quote|underwrite|move on|sign off on|touch|submit|structure)\b[^.!?\n]{0,60}?\b(?:until|till|til|without)\s+(?:(?:he|she|they|i|we|uw|credit|underwriting|the underwriter)\s+(?:sees?|gets?|has|have|receives?)\b|(?:the|a|an|their|his|her|a signed|signed)\b)/g, w: 2.5 },
];

export const COUNTER_CUES: Cue[] = [
  // (holdout36) not a counter refused: "we are not in a position to counter", "no room to counter", "won't counter"
  // (rfix) ... "we would not be comfortable countering", "not willing to counter", "not interested in countering"
  { re: /(?<!\b(?:not|no|never|won't|will not|can't|cannot|unable to|not able to|not in a position to|no room to|nothing to|no way to|no basis to|no reason to|not (?:be |feel )?(?:comfortable|willing|prepared|interested)(?: in| with| to)?)\s+(?:even\s+|really\s+|going to\s+|be able to\s+)?)(?:\bcounter(ed|ing|s)?\b|\bcounter[- ]?offer\b)/g, w: 4 },
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
  // (holdout42) the broker asked whether the merchant takes the changed terms: "let me know if the owner can live with the
  // shorter term", "if they're ok with the smaller number" (terms other than asked, for the merchant to accept: a counter)
  { re: /\b(live with|accept|take|ok with|okay with|fine with|good with|go for|agree to|on board with) (the |a |our )?(shorter|longer|smaller|lower|reduced|tighter|faster|quicker) (term|amount|number|payback|schedule|advance|offer)\b/g, w: 2 },
];

/** Cues that the message is an automatic reply or receipt, not an answer. */
export const AUTO_CUES: Cue[] = [
  { re: /\b(i am|i'm|i will be|i'll be)\s+(currently\s+)?(out of (the )?office|away|on (vacation|pto|leave|holiday|maternity leave))\b/g, w: 4 },
  { re: /\bout of (the )?office\b/g, w: 2 },
  { re: /\bcurrently (on )?(pto|vacation|leave|away|out)\b|\bwhile i('m| am) (out|away)\b/g, w: 3 },
  { re: /\blimited access to (e-?mail|email)\b/g, w: 3 },
  { re: /\b(will|i'll) (return|be back|respond)[^.\n]{0,40}\bwhen i return\b|\bwhen i return\b|\breturning (on )?\d/g, w: 2 },
  { re: /\b(address not found|couldn't be delivered|could not be delivered|wasn't delivered|undeliverable|delivery has failed|recipient address rejected|user unknown|mailbox unavailable)\b/g, w: 4 },
  { re: /\bthis (message|email) confirms\b|\bwe have received your (submission|file|email|message|application|deal)\b|\bthank you for your submission\b/g, w: 3 },
  { re: /\bautomated (reply|response)\b|\bauto-?reply\b/g, w: 3 },
];

export const AUTO_SUBJECT =
  /^(automatic reply|auto(matic)?[ -]?(reply|response)|autoreply|out of (the )?office|ooo\b|away from (the )?office|undeliverable|delivery status notification|mail delivery (failed|subsystem)|returned mail|delivery (has )?failed|submission received|we('ve| have) received|(updated )?invitation:)/i;

/** A person acknowledging or asking to talk: no decision yet. */
export const PENDING_CUES: Cue[] = [
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
DECLINED_CUES.push(...fromRows(V.SECTOR_FULL));
// a state refused in shorthand (vocabulary.ts STATE_DECLINE): "No NJ, sorry."
const STATE_WORDS = [...V.STATES.map(([name]) => name), ...V.STATES.map(([, code]) => code).filter((c) => !V.AMBIGUOUS_STATE_CODES.has(c))];
export const STATE_DECLINE_RE = new RegExp(V.STATE_DECLINE.map((p) => `(?:${p.replaceAll('{STATE}', `(?:${STATE_WORDS.join('|')})`)})`).join('|'), 'g');
DECLINED_CUES.push({ re: STATE_DECLINE_RE, w: 3 });
NEEDS_CUES.push(...fromRows(V.NEEDS_INFO));
COUNTER_CUES.push(...fromRows(V.COUNTER));
PENDING_CUES.push(...fromRows(V.PENDING));
AUTO_CUES.push(...fromRows(V.AUTO_REPLY));
PENDING_CUES.push(...fromRows(V.UNSUBSCRIBE));
/** A funder's marketing to its brokers, about no deal (vocabulary.ts MARKETING). */
export const MARKETING_CUES: Cue[] = fromRows(V.MARKETING);
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
export const WITHDRAWAL_CUES = fromRows(V.WITHDRAWAL);
export const CORRECTION_CUES = fromRows(V.CORRECTION);
export const TENTATIVE_CUES = fromRows(V.TENTATIVE);
export const HOLD_CUES = fromRows(V.TENTATIVE.filter((r) => r.hold));
export const RELAYED_CUES = fromRows(V.RELAYED);
export const STRUCTURE_CUES = fromRows(V.COUNTER.filter((r) => r.structure));
export const CEILING_CUES = fromRows(V.COUNTER.filter((r) => r.ceiling));
export const SCHEDULE_CUES = fromRows(V.COUNTER.filter((r) => r.schedule));
export const CLOSING_CUES = fromRows(V.CLOSING_STIPS);
export const PRODUCT_CUES = V.PRODUCTS.map((r) => ({ ...fromRows([r])[0], product: r.product }));

export interface Fired {
  score: number;
  hits: string[];
}

export function score(lower: string, cues: Cue[]): Fired {
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
      if (cue.modal && asked(lower, m.index + m[0].length, inSentence, sentenceStart >= 0 || m.index < 60)) continue;
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



export function add(f: Fired, w: number, why: string) {
  f.score += w;
  f.hits.push(why);
}

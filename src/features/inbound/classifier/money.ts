import * as V from '../vocabulary';
import type { PaymentFrequency, TermUnit } from './types';
import { offerText, round2 } from './text';

// ---------------------------------------------------------------- offer extraction

/** The shorthand of vocabulary.ts FREQUENCY_SHORTHAND ("dly", "per wk", "bi-wkly") as alternatives, longest first. */
function freqShorthand(): string {
  return Object.keys(V.FREQUENCY_SHORTHAND).sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|');
}

type MoneyKind = 'funded' | 'payment' | 'payback' | 'fee' | 'net' | 'requested' | 'other' | 'unknown';

export interface Fact {
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

// (holdout19) "up to" is a ceiling (a sell rate's, a limit's) unless it follows an approval: "approved up to $40,000" is the amount
// approved (still tentative: the classifier's TENTATIVE rows send it to a person)
const PRE_KINDS: Array<[Exclude<MoneyKind, 'unknown'>, RegExp]> = [
  ['payback', /\b(pay ?back|pays back|paying back|rtr|right to receive|purchased amount|purchased receivables|receivables purchased|specified amount|amount (sold|purchased)|receivables sold|total (re)?pay\w*|total due|repayment amount|total cost|(?:total|monto|importe) a (?:devolver|pagar|reembolsar|retornar)|a devolver)\b/g],
  ['fee', /\b(fees?|orig\w*|commission|points?|pts|closing costs?|cost of (capital|funds|the advance|financing)|finance charge)\b/g],
  // (holdout15) what the merchant nets after a payoff or fees is no offer: "the merchant nets about $52,300 before fees"
  // (rfix10) ... the net named with its noun ("net funds of", "net funding to the merchant:", "net proceeds"), read as one label
  // ending where the noun does, so the "fund" in it is no funded amount; and what reaches the merchant after the fees or a payoff
  ['net', /\b(net(?:[- ](?:funds?|funding|funded|proceeds|amount|advance|disbursement|disbursed|wire|deposit|cash|payout))?(?: (?:to|for) (?:the )?(?:merchant|client|customer|business|owner))?|nets|netting|netted|disburse\w*|after (?:the )?(?:fees?|origination|payoffs?|buyouts?)|wired?|in hand|take[- ]home)\b/g],
  ['requested', /\b(request\w*|asked( for)?|asking( for)?|submitted (for|at)|looking for|instead of|not the|rather than|wanted|(if|unless) (he|she|they|the (merchant|client|owner|customer)) (really |still )?(wants?|needs?|insists? on)( the)?( full| whole| entire)?\s*$|(can't|cannot|couldn't|unable to|not able to|won't|will not|pass|passing|declined?)( \w+){0,3} (at|for|on|do))\b/g],
  // (holdout25) an amount refused in words before it: "we are not going to do a $100,000 advance on this file"
  ['requested', /\b(?:not going to|aren't going to|are not going to|isn't going to|is not going to|won't be able to|not able to) (?:do|fund|approve|write|offer|go to|go)(?: (?:a|an|the))?(?: full| whole)?\s*$/g],
  // (holdout24) the amount a pass was at ("committee passed on Lafayette Cajun Catering at $65k"): refused, not offered
  ['requested', new RegExp(`\\b(?:${V.PASSED_AT})\\s*(?:the\\s+)?(?:full\\s+|whole\\s+|requested\\s+)?$`, 'g')],
  ['other', /\b(revenue|deposits?|sales|balances?|payoffs?|liens?|judgments?|minimum|min|max\w*|owe[sd]?|positions?|(?<!(?:cleared|passed|through|past) )credit(?! (limit|line|signed|approved|okayed|ok'd|cleared|passed|committee|team|dept|department|officer|manager|signed off|gave|said))|income|adb|gross|volume|(?<!\b(?:approved|approvable|qualif(?:y|ies|ied)|eligible)(?: for)? )up to|verified|tax)\b/g],
  // (holdout33) a threshold or revenue in shorthand: "rev under 15k a month, our floor is 20k" is no amount offered
  ['other', /\b(?:rev|revs|floor)\b/g],
  ['other', /\b(?:still )?in there (?:with|for)|\bstill (?:has|have|carrying|owes?|sitting on)\b/g],
  // (holdout21) a program's threshold, not an amount offered: "weekly is only offered on files over $50k", "deals above 100k go to committee"
  ['other', /\b(files?|deals?|advances?|tickets?|fundings?|anything|amounts?|requests?|approvals?)( that are| that's| sized| of)? (over|above|under|below|north of|south of|more than|less than|bigger than|smaller than|larger than|greater than|at least|upwards of)\b/g],
  ['payment', /\b(payments?|pmts?|pymts?|pulls?|draws?|debits?|remit\w*|installments?|daily|weekly|bi-?weekly|monthly|dailies|weeklies|dly|wkly|pagos?|cuotas?|semanal|diari[oa]s?|mensual|quincenal)\b/g],
  // (holdout19) the lender's own place in the stack, then its amount: "come in as a 2nd position at $30,000", "we'd fund in
  // 3rd position for 20k" (nearer the amount than the "position" that otherwise names an existing advance's balance)
  ['funded', /\b(?:come|comes|coming|go|goes|going|step|sit|fund|funding|be) in (?:as )?(?:an? |the |our )?(?:\d(?:st|nd|rd|th)|first|second|third|fourth|fifth)(?: position| lien| spot)?,? (?:at|for|with)\b/g],
  ['funded', /\b(approv\w*|fund\w*|advance|purchase price|offer\w*|amount|can do|could do|(?:we|i|they|uw|credit)(?:'ll| will) do|counter\w*|we're at|landed|options?|loan|capital|stretch\w*|bump\w*|go (up )?to|increase\w*( it)? to|as high as)\b/g],
];
const POST_KINDS: Array<[Exclude<MoneyKind, 'unknown'>, RegExp]> = [
  // (holdout22) "$35,000.00 to be remitted over 100 business days": the amount paid back
  // (rfix2) "the merchant would repay $99,750.00 in total": the amount repaid, not funded
  ['payback', /^\s*(back\b|pay ?back|rtr|purchased amount|total|(?:in|all) (?:total|told)\b|(to be|will be|is to be|being) (remitted|repaid|paid back|collected|returned|delivered))/],
  ['fee', /^\s*(fees?|orig\w*|in points)/],
  ['net', /^\s*net\b/],
  ['requested', /^\s*(requested|request|ask)/],
  // (holdout18) a figure over a period of money coming in is no payment: "$18k a month of transfers in", "$9k a week in deposits"
  // (holdout28) another funder's balance: "~14k left", "12k remaining on it", "still in there with ~14k"
  ['other', /^\s*(left\b|remaining\b|outstanding\b|still owed\b|owed\b|to go\b)/],
  // (rfix16) a lease's end-of-term option is no amount funded nor paid back: "$1 buyout", "$4,800 purchase option", "$6,000 residual"
  ['other', /^\s*(buy-?outs?|purchase[- ]options?|residual|balloon)\b/],
  ['other', /^\s*(in (true )?(deposits|revenue|sales)|(of )?(revenue|deposits|balance)|\/mo(nth)?\b|per month in|adb\b|minimum|balance|(a|per|each|every) (month|mo|week|wk|day) (of|in) (transfers?|deposits?|revenue|sales|income|credits?|wires?|ach))/],
  // (the shorthand of vocabulary.ts FREQUENCY_SHORTHAND: "dly", "bi-wkly", "per wk")
  ['payment', new RegExp(`^\\s*(daily|weekly|bi-?weekly|monthly|${freqShorthand()}|\\/\\s*(day|d|wk|week|mo|month)\\b|per (day|week|month|payment)|a (day|week|month)|each)`)],
  ['funded', /^\s*(purchase( price)?|advance|funding|funded|offer|approval)\b|^\s*(at|@|\/|x)\s*[1-2]\.\d/],
];

/** (rfix20) A row labelled "gross" alone (or with the advance's own noun), up to its figure: "GROSS: $40,000", "Gross amount - 40,000". */
const GROSS_ROW = /^\s*(?:[-*\u2022]\s*)?gross(?: (?:amount|advance|funding|funded|purchase price))?\s*(?::|\||=|-|\u2013)\s*~?\s*\$?\s*$/;
const ASK_GRANTED_RE = new RegExp(V.ASK_GRANTED_BEFORE);
const LENDER_MAX_IS = /\b(?:max|maximum|most|highest|the best|best)(?: amount)? (?:we|i|they|uw|credit|underwriting)(?:'ll|'d)? (?:can |could |will |would |are able to |am able to )?(?:go|do|fund|offer|approve|get to|write|stretch to)\b[^.!?$]{0,45}\b(?:is|at|=|would be|will be)\s*~?\s*$/;

/** A count of payments right before a figure, naming it each payment's amount: "24 monthly payments of", "120 dailies @", "52 x". */
// (rfix16) ... the noun left out after the schedule: "Payments: 48 monthly at $1,300", "30 weekly @ $1,150"
const COUNTED_PAYMENT_BEFORE = /(?<![\w.$])\d{1,3}\s+(?:(?:(?:daily|weekly|bi-?weekly|monthly)\s+)?(?:payments|pmts|pymts|debits|pulls|draws|installments|remittances|dailies|weeklies)|daily|weekly|bi-?weekly|monthly)\s+(?:of|at|@|x)\s*~?\s*$/;

/** (rfix12) A line labelled by what a consolidation pays off: "Pays off: Rapid Finance (~$12,900) + Bitty Advance (~$8,400)", "Payoffs: ...". */
const PAYOFF_LINE = /^\s*(?:[-*\u2022]\s*)?(?:pays? off|paying off|to pay off|payoffs?|buy ?outs?|buying out|takes? out|taking out)\s*(?::|\||-|\u2013)\s*/i;

/** (rfix29) A sum owed on an advance before its figure: a payoff, a balance, what is still owed, a per-diem. */
// (revL) ... and what is left on it: "their remaining with us is $22,310", "what's left on the first position is ..."
const OWED_BEFORE = /\b(?:payoffs?|pay-?off (?:amount|figure|balance)|balances?|still owe[sd]?|owe[sd]?|outstanding|per[- ]diem|remaining|left (?:with us|on (?:the|their|its|our) (?:advance|position|deal|loan|mca)))\b(?![^]*\b(?:payoffs?|balances?|owe[sd]?|outstanding|per[- ]diem|remaining)\b)/;
/** A word of funding: the amount approved, offered, funded or capped ("they capped us at $55,000" after "the balance still open"). */
const FUNDED_WORD = /\b(?:approv\w*|fund\w*|advance|offer\w*|can do|could do|counter\w*|landed|loan|capped|cap|limit\w*|max\w*|(?:we|us|i)(?:'re| are| am)? at|(?:can|could|will|would) (?:go|do))\b/;
export function moneyKind(line: string, start: number, end: number): MoneyKind {
  // (rfix12) every figure on a line labelled by the advances a consolidation pays off is their balance, none the offer's
  // amount (the funder's name beside it, "Bitty Advance (~$8,400)", names no advance offered)
  const payoff = PAYOFF_LINE.exec(line);
  if (payoff && start >= payoff[0].length) return 'other';
  // the clause before the number (back to ';', '|' or a sentence end) and a short window after it
  let pre = line.slice(Math.max(0, start - 50), start);
  const cut = Math.max(pre.lastIndexOf(';'), pre.lastIndexOf('|'), pre.search(/[.!?]\s[^.!?]*$/));
  if (cut >= 0) pre = pre.slice(cut + 1);
  const clause = pre;
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
  // (rfix29) ... and by a sum owed named in its clause with no word of funding after it: "Payoff as of today is $31,480", "the
  // balance left with us is $12,300" (the figure owed on an advance, never the one offered)
  const owed = OWED_BEFORE.exec(pre);
  const weakBeatenByOwed = owed !== null && !FUNDED_WORD.test(pre.slice(owed.index + owed[0].length));
  if (/\b(at|for|is)\s*~?\s*$/.test(pre) && !weakBeatenByOwed) found.push({ kind: 'funded', dist: 8 });
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
  // (holdout25) "we can do Butte for the requested $90,000": the ask granted, the amount funded (vocabulary.ts ASK_GRANTED_BEFORE)
  if (ASK_GRANTED_RE.test(pre)) return 'funded';
  // (holdout28) the most the lender will go, said as a sentence: "Max we go in a 2nd on this revenue is $20,000", "the most
  // I can get to on this is 30k": the amount offered, whatever reason word ("revenue", "2nd") sits in between
  if (LENDER_MAX_IS.test(clause)) return 'funded';
  if (!found.length) return factorNext ? 'funded' : 'unknown';
  // (rfix20) a row labelled only "gross" (or "gross amount", "gross advance") at the head of its line is the advance before a
  // payoff or fees come off it ("GROSS: $40,000 ... NET TO MERCHANT: $18,900"), unless what follows names it a month's sales
  // or a payment ("Gross: $72,000/mo", "gross $9,000 in deposits")
  if (GROSS_ROW.test(line.slice(0, start)) && !found.some((f) => f.dist < 8 && f.kind !== 'other' && f.kind !== 'funded') && !POST_KINDS.some(([k, re]) => (k === 'other' || k === 'payment') && re.test(post))) return 'funded';
  const order: MoneyKind[] = ['payback', 'fee', 'net', 'requested', 'other', 'payment', 'funded'];
  const best = found.sort((a, b) => a.dist - b.dist || order.indexOf(a.kind) - order.indexOf(b.kind))[0];
  // (rfix17) ... but a figure a count of payments names is each payment, whatever follows it: "$60,000, 24 monthly payments
  // of $3,000, 1.20 factor" pays $3,000 a month, it offers no $3,000
  if (COUNTED_PAYMENT_BEFORE.test(clause)) return 'payment';
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

const FREQ_SHORTHAND = freqShorthand();
// (holdout14) "dailies", "weeklies": the payments by their schedule ("$60,000 / 1.33 / 7 months / dailies")
// (rfix15) the schedule by the days it runs on: "12% of receipts debited each business day", "remitted every banking day"
export const FREQ_RE = new RegExp(`\\b(?:bi-?weekly|every (?:other|two) weeks?|semi-?monthly|daily|weekly|monthly|dailies|weeklies|m-f|semanal|diari[oa]s?|mensual|quincenal|(?:each|every|per) (?:business|banking|working) day|${FREQ_SHORTHAND})\\b|\\/\\s*(?:day|wk|week|mo|month)\\b`, 'gi');

export function normFreq(s: string): PaymentFrequency {
  const l = s.toLowerCase();
  const shorthand = V.FREQUENCY_SHORTHAND[l.replace(/\s+/g, ' ').trim()];
  if (shorthand) return shorthand;
  if (/bi-?weekly|every (other|two) week/.test(l)) return 'bi-weekly';
  if (/semi-?monthly|quincenal/.test(l)) return 'bi-weekly';
  // Spanish, as bilingual reps write it: "pago semanal", "pagos diarios", "mensual"
  if (/semanal/.test(l)) return 'weekly';
  if (/diari/.test(l)) return 'daily';
  if (/mensual/.test(l)) return 'monthly';
  if (/daily|dailies|m-f|day|dly/.test(l)) return 'daily';
  if (/week|wk/.test(l)) return 'weekly';
  return 'monthly';
}

export function parseMoney(num: string, cents: string | undefined, suffix: string | undefined): number {
  let v = Number(num.replace(/,/g, '')) + (cents ? Number(cents) : 0);
  const s = (suffix ?? '').toLowerCase();
  if (s === 'k') v *= 1000;
  else if (s === 'm' || s === 'mm') v *= 1_000_000;
  return round2(v);
}

/** "can do 40", "good for the 80", "at 60 it's 1.45": a bare number meaning thousands (vocabulary.ts). */
export const SHORTHAND_RE = new RegExp(
  // (a time of day, "at 11:40", and a hyphenated unit, "the 12-month", are no amounts)
  `\\b(?:${V.SHORTHAND_AMOUNT.before.join('|')})\\s+(?<n>\\d{1,3}(?:\\.\\d)?)(?![\\d%]|,\\d|\\.\\d|:\\d|k\\b|\\s*%|[\\s-]*(?:${V.SHORTHAND_AMOUNT.notBefore.filter((w) => w !== '%').join('|')})\\b)`,
  'gi',
);
/** A number in thousands named as the lender's amount by what follows it (holdout12): "42.5 is where I land". */
export const SHORTHAND_AFTER_RE = new RegExp(`(?:^|[.,;:!?]\\s+|^\\s*)(?<n>\\d{1,3}(?:\\.\\d)?)(?:\\s+|(?=['\u2019]s\\s))(?:${V.SHORTHAND_AMOUNT.after.join('|')})\\b`, 'gi');
// not when an amount follows: "Requested amount: $80,000" restates the ask, it offers nothing
export const ASK_AS_AMOUNT_RE = new RegExp(`\\b(?:${V.ASK_AS_AMOUNT.join('|')})\\b(?!\\s*[:|]?\\s*(\\$|\\d{1,3}(,\\d{3})+|\\d+\\s?k\\b|\\d{4,}))`, 'g');
export const SAME_TERMS_RE = new RegExp(`\\b(?:${V.SAME_TERMS})\\b`, 'g');
export const SHORTHAND_NEGATED = /\b(can't|cannot|couldn't|not|isn't|won't|instead of|rather than|versus|vs\.?|asked for|\d+\s?k? of|(?<!(at|for) the )requested|(?:if|unless) (?:he|she|they|the (?:merchant|client|owner|customer)) (?:really |still )?(?:wants?|needs?|insists? on|is set on|holds? out for|wanted))\s+(get\s+)?(you\s+)?(to\s+)?(do\s+)?(at\s+)?(the\s+)?(full\s+|whole\s+|entire\s+)?$/;

export const TERM_CAP_RE = new RegExp(`\\b(?:${V.TERM_CAP}) (?<n>\\d{1,3})[- ]?(?<u>business days?|days?|weeks?|wks?|months?|mos?)\\b`);
/** "the application asks for ", "requested term of ": the number after it is the term asked, not one offered (vocabulary.ts ASKED_TERM). */
/**
 * The ask restated with its amount before its term (holdout9): "you came in asking for 120k over 9 months",
 * "the merchant requested $50,000 for 12 months": the term in that clause is the ask's, never the offer's.
 */
// (holdout11: also a label, "Requested: $50,000 / 12 months")
const ASKED_CLAUSE = `\\b(?:${V.ASKED_TERM.clause})\\s*\\$?(?![12]\\.\\d{1,3}(?![\\d,]))\\d[\\d,.]*\\s?k?\\s*(?:[/,|]\\s*|-\\s+|\\s)(?:(?:over|for|on|at|across|paid over|spread over)\\s+)?(?:(?:a|an|the)\\s+)?`;
export const ASKED_CLAUSE_BEFORE = new RegExp(`${ASKED_CLAUSE}$`);
export const ASKED_TERM_BEFORE = new RegExp(`\\b(?:${V.ASKED_TERM.before})\\s*$`);
const ASKED_TERM_NUMBER = '(?<n>\\d{1,3})[- ]?(?<u>business days?|biz days?|days?|weeks?|wks?|months?|mos?|mths?|years?|yrs?)';
const ASKED_TERM_RES = [
  new RegExp(`\\b(?:${V.ASKED_TERM.before})\\s*${ASKED_TERM_NUMBER}(?![\\w])`, 'g'),
  new RegExp(`(?<![\\w.$,])${ASKED_TERM_NUMBER}(?:${V.ASKED_TERM.after})\\b`, 'g'),
  new RegExp(`(?<![\\w.$,])${ASKED_TERM_NUMBER}(?:${V.ASKED_TERM.refused})\\b`, 'g'),
  new RegExp(`${ASKED_CLAUSE}${ASKED_TERM_NUMBER}(?![\\w])`, 'g'),
  // (holdout34) "No 9 month option": the term the lender does not have, the one asked
  new RegExp(`(?:${V.ASKED_TERM.none.before})\\s*${ASKED_TERM_NUMBER}[- ](?:${V.ASKED_TERM.none.after})\\b`, 'g'),
];
/** (holdout34) Right before and after a term: an option the lender does not have ("No 9 month option"): the term asked, not one offered. */
export const NO_TERM_OPTION = { before: new RegExp(`(?:${V.ASKED_TERM.none.before})\\s*$`), after: new RegExp(`^[- ](?:${V.ASKED_TERM.none.after})\\b`) };

/** A payment frequency named in a sentence that restates or refuses the asked term: the frequency asked, not offered. */
const FREQ_WORD = /\b(bi-?weekly|semi-?monthly|daily|weekly|monthly|dailies|weeklies)\b/;

/** The sentence spans (in `line`) that restate or refuse the asked term ("Weekly over 6 months isn't something we offer"). */
export function askedSentences(lower: string): Array<[number, number]> {
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
/**
 * (rfix32) The schedule the broker asked for in its own message, quoted below the reply ("> Owner would much prefer weekly
 * payments", "> can you do weekly?", "> Payment frequency requested: weekly"): the deal's ask, where the reply and the hook's
 * deal name none. Read only on quoted lines ("> "), only where a want, a request or a question carries it; two schedules
 * asked, or none, give null.
 */
const QUOTED_FREQ = '(bi-?weekly|semi-?monthly|daily|weekly|monthly)';
const QUOTED_ASK_RES = [
  new RegExp(`\\b(?:prefers?|preferring|wants?|wanting|would like|'d like|asking for|asked for|asks for|requesting|requested|requests|looking for|hoping for|needs?|rather have)\\s+(?:(?:a|the|to do|to go|to have|to pay|to be on|to stay on|on|only|really|much)\\s+){0,3}${QUOTED_FREQ}\\b`),
  new RegExp(`\\b(?:can|could|would|will)\\s+(?:you|they|we|credit|your team)\\s+(?:do|go|get to|offer|structure(?: it)?(?: as| on)?|make it|put (?:it|them|him|her) on)\\s+(?:a\\s+|on\\s+)?${QUOTED_FREQ}\\b[^\\n?]{0,40}\\?`),
  new RegExp(`\\b(?:payment\\s+)?(?:frequency|schedule)\\s*(?:requested|desired|preferred|wanted)?\\s*:\\s*${QUOTED_FREQ}\\b`),
];
export function quotedAskedFrequency(text: string): PaymentFrequency | null {
  const quoted = text.split(/\r?\n/).filter((l) => /^\s*>/.test(l)).map((l) => l.replace(/^[\s>]+/, '')).join(' ').toLowerCase().replace(/\s+/g, ' ');
  if (!quoted) return null;
  const found = new Set<PaymentFrequency>();
  for (const re of QUOTED_ASK_RES) {
    for (const m of quoted.matchAll(new RegExp(re.source, 'gd'))) {
      // "weekly or daily", "weekly/bi-weekly": either schedule, so none asked
      const either = new RegExp(`^${QUOTED_FREQ}\\s*(?:or|/|and|,)\\s*(?:a\\s+)?${QUOTED_FREQ}\\b`).exec(quoted.slice(m.indices![1][0]));
      for (const f of either ? [either[1], either[2]] : [m[1]]) found.add(f.startsWith('dail') ? 'daily' : f.startsWith('weekl') ? 'weekly' : normFreq(f));
    }
  }
  return found.size === 1 ? [...found][0] : null;
}
/** Right after a term: words refusing it ("is beyond what our guidelines allow"): the term asked, not one offered. */
export const ASKED_TERM_REFUSED_AFTER = new RegExp(`^(?:${V.ASKED_TERM.refused})\\b`);
/** Right after a term: who asked for it ("the 12 months the owner asked for"): the term asked, not one offered. */
export const ASKED_TERM_AFTER = new RegExp(`^(?:${V.ASKED_TERM.after})\\b`);

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

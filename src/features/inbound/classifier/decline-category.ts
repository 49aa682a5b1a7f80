import * as V from '../vocabulary';
import type { DeclineCategory } from './types';

// ---------------------------------------------------------------- decline category

// (holdout28) "daily debits" names a position the merchant carries ("too many daily debits"), never the offer's own
// schedule: a table's column ("Factor | Daily debits | Debit amount"), a count of them ("132 daily debits") or their
// amount ("daily debits of $385.00") is pricing, not a reason
const CATEGORY_CUES: Array<{ cat: DeclineCategory; re: RegExp; w: number }> = [
  // (rfix21) ... and the count after the word, as Spanish puts it ("el balance estuvo negativo 11 días", "negative 11 days in
  // October"), the misspelling step having read "negativo" as "negative"
  { cat: 'negative_days', re: /\bneg(?:ative)?\.?\s+\d{1,3}\s+(?:d[ií]as|days)\b/g, w: 3 },
  { cat: 'negative_days', re: /\bneg[a-z]*\.?\s+(balance\s+)?days?\b|\bnegative (balances?|ending balances?)\b|\bnegatives\b|\boverdra(wn|fts?)\b|\bin the red\b/g, w: 3 },
  { cat: 'nsf', re: /\bnsfs?\b|\bnon[- ]sufficient\b|\binsufficient funds\b|\breturned (items|payments|ach)\b|\bbounced\b/g, w: 3 },
  { cat: 'low_revenue', re: /\b(low|insufficient|not enough|minimum)\s+(monthly\s+)?(revenue|deposits|sales|volume|gross)\b|\brevenue (is |was )?(too low|requirement)\b|\b(revenue|deposits|sales) (are|is) (too )?(low|down|declining)\b|\btrue deposits\b|\b(revenue|deposits|sales|volume)\b[^.\n]{0,20}\b(dropped|drop|declin\w*|decreas\w*|fell|falling|trending down)\b/g, w: 3 },
  // (holdout33) revenue in shorthand under the lender's line: "rev under 15k a month", "revenue below our floor"
  { cat: 'low_revenue', re: /\b(?:rev|revenue|revs|deposits|sales|gross)\s+(?:is |are |was |were |comes in |came in )?(?:under|below|less than|short of)\b/g, w: 3 },
  // (rfix23) the revenue too small for the ask, said of what it cannot carry: "avg deposits $16K/mo cannot support a $20K ask",
  // "sales don't justify that amount", "the volume won't carry the payment" (what the deposits are, never a balance)
  { cat: 'low_revenue', re: /\b(?:rev|revenue|revs|deposits|sales|gross|volume|monthly (?:revenue|deposits|sales))\b[^.!?\n]{0,40}?\b(?:can't|cannot|can not|doesn't|does not|don't|do not|won't|will not|isn't enough to|is not enough to|aren't enough to|are not enough to|not enough to|too (?:light|thin|low|small) to)\s+(?:support|justify|carry|cover|service|handle)\b/g, w: 3 },
  { cat: 'low_balance', re: /\b(low|average)\s+(average\s+)?(daily\s+)?balances?\b|\badb\b|\bbalances? (are|is) too low\b/g, w: 3 },
  { cat: 'industry', re: /\bindustry\b|\bindustries\b|\brestricted (list|industr\w*)\b|\bprohibited (list|industr\w*|business\w*)\b|\bsic code\b|\bnaics\b/g, w: 3 },
  {
    cat: 'industry',
    re: /\b(bars|nightclubs?|night ?life|lounges?|liquor stores?|vape|smoke shops?|cannabis|cbd|hemp|marijuana|kratom|dispensar\w*|tobacco|vap(?:or|ing)|cannabinoids?|firearms?|guns?|adult|gambling|casino|trucking|construction|contractors?|auto sales|car dealers?|non-?profit|real estate|law firms?|attorneys?|travel agenc\w*|crypto\w*|pawn)\b/g,
    w: 1.5,
  },
  // (rfix20) a policy that excludes a kind of business, whatever the kind is called: "the Bank's credit policy excludes
  // businesses whose principal revenue derives from ...", "our guidelines prohibit merchants that sell ..."
  { cat: 'industry', re: /\b(?:excludes?|excluded|excluding|prohibits?|prohibited|bars|restricts?|does not permit|do not permit)\s+(?:all\s+|any\s+)?(?:businesses|merchants|companies|firms|operators|retailers|sellers|accounts)\s+(?:whose|that|which|who|in|selling|operating|engaged|primarily|deriving)\b/g, w: 3 },
  // (rfix23) ... and a kind of business the policy shuts out, in the passive: "oilfield service businesses are excluded under our
  // credit policy", "cannabis-adjacent merchants are not eligible under our guidelines", "that type of business is off-limits" (never a limit on
  // how many: "businesses are restricted to one position")
  { cat: 'industry', re: /\b(?:businesses|business|merchants|companies|operators|shops|firms|industries|sector|verticals?|(?:type|kind|line) of (?:business|work))\s+(?:are|is)\s+(?:(?:currently|all|strictly|simply|just)\s+)?(?:excluded|prohibited|restricted|ineligible|not eligible|off[- ]limits|not permitted|not allowed|on our (?:restricted|prohibited|excluded) list)\b(?![ \t]+to\b)/g, w: 3 },
  { cat: 'credit_score', re: /\bfico\b|\bcredit scores?\b|\bbeacon\b|\bcredit (is |was )?(too )?(low|thin|weak|poor|bad)\b|\bpersonal credit\b/g, w: 3 },
  // (holdout28) never the credit desk itself: "see below from credit", "per credit", "credit says", "Oxbury Credit" signing
  // (rfix8) ... nor a department in a signer's title ("Vice President, Credit Administration")
  // (holdout43) ... nor a line of credit (a product: "Term loans | Lines of credit" in a signature)
  { cat: 'credit_score', re: /(?<!\b(?:from|per|with|by|our|ask|asked|told|sent|send)\s)(?<!\blines? of\s)\bcredit\b(?!(?<=(?:^|\n)[ \t]*[a-z&'.-]+ credit)[ \t]*(?:\n|$))(?!\s+(?:desk|team|dept|department|administration|committee|says|said|wants|needs|approved|signed|came back|officer|manager|analyst|memo|notes?|ok'd|cleared|gave|will|would|polic(?:y|ies)|guidelines|criteria|program)\b)(?!,?\s+(?:llc|inc|corp|co|ltd)\b)/g, w: 1 },
  { cat: 'time_in_business', re: /\btib\b|\btime in business\b|\btoo (new|young|green|fresh)\b|\bopened (its|their|the) doors\b|\b(full |whole )?(year|\d{1,2} months) of (bank )?history\b|\bin business (for )?(only |less than|under)\b|\bstart[- ]?up\b|\b(1|one|2|two) (yr|year)s? (minimum|min|in business)\b|\b\d{1,2} (months?|mos?) (in business|old|tib)\b|\b(open|in business|operating) (for )?(only )?\d{1,2} (months?|mos?)\b/g, w: 3 },
  // (rev-w) a lender that takes the file only in front of the stack ("we are 1st position only", "we only fund in first
  // position", "need to be in 1st position") declines for the advances already on it (a weaker cue: a reason named on its own wins,
  // "We only write 1st position on restaurants, and this one has been open 8 months" is the time in business)
  { cat: 'stacking', re: /\b(?:1st|first)[- ]position only\b|\bonly (?:do|fund|take|go|write|lend|buy|play|deal|work)(?: in)?(?: the)? (?:1st|first)[- ]position\b|\b(?:need|needs|must|have|has|require[sd]?) (?:to be )?(?:in )?(?:the )?(?:1st|first)[- ]position\b/g, w: 2 },
  // (rfix12) debits that stopped ("a funder whose daily debits stop on June 12, with no remittances since") tell of a merchant who
  // quit paying another funder, a default, not of a stack
  // (rfix10) a position after the first names the stack; "1st position" is the lender's own place in front of it ("All options
  // are 1st position"), as "first position" never was one, so it names no stacking
  {
    cat: 'stacking',
    re: /\bstack(s|ed|ing)?\b|\b(?:new|undisclosed|additional) (?:positions?|advances?|mcas?)\b|\b((?!1st\b)\d+(st|nd|rd|th)|second|third|fourth|fifth) position\b|\b(open|existing|too many|active) (positions|advances|mcas?|lenders|funders)\b|\bholdback\b|\bover[- ]?leveraged\b|(?<![\d,.]\s*|\|\s*)\bdaily debits\b(?!\s*(?:\||:|=|of\b|@|at\b|x\b|\$|\d|-\s*\$))(?!\s+(?:stop|stops|stopped|stopping|ceased|ended|halted)\b)/g,
    w: 3,
  },
  {
    cat: 'restricted_state',
    re: /\b(located|based|businesses) in (new york|california|new jersey|texas|florida|[a-z]{2})\b|\b(restricted|excluded) states?\b|\bstates? (we|that we) (don't|do not|can't)\b|\blicensing\b|\bnot licensed\b/g,
    w: 3,
  },
  { cat: 'restricted_state', re: /\b(location|state)\b/g, w: 1 },
  // (rfix21) a U.S. territory the lender does not serve: "businesses in Puerto Rico or other U.S. territories", "we don't fund
  // Guam", "merchants in the Virgin Islands" (a place, as a state is)
  { cat: 'restricted_state', re: /\b(?:u\.?s\.? |us |american )?territor(?:y|ies)\b|\bpuerto rico\b|\bguam\b|\b(?:u\.?s\.? )?virgin islands\b|\busvi\b|\bamerican samoa\b|\bnorthern mariana\b/g, w: 3 },
  // (rfix12) a UCC search or review is a check the lender runs, no default: "reversed after the final UCC and bank review" (what
  // the check found is the reason)
  { cat: 'default_history', re: /\bdefault(s|ed)?\b|(?<!\b(new|fresh|another|recent|additional|second|undisclosed) )\bucc\b(?![ \t]+(?:and [a-z]+[ \t]+)?(?:search|searches|review|reviews|check|checks|pull|pulls|lookup|report)\b)|\bjudgments?\b|\b(tax )?liens?\b|\bbankrupt(cy|cies)?\b|\bchapter (7|11|13)\b|\bbk\b|\bcollections\b|\bcharge[- ]?offs?\b|\bwritten off\b/g, w: 3 },
  // (rfix7) verification in the noun and the passive: "bank verification failure", "statements cannot be verified" (what the lender
  // could not confirm, the same reason as "unable to verify")
  {
    cat: 'verification',
    re: /\bfraud\w*\b|\baltered\b|\bfake\b|\bdoctored\b|\b(unable to|could(n't| not)|can't|cannot) verify\b|\bverification (failed|call failed|failures?)\b|\b(cannot|can't|could(n't| not)|can not) be (verified|confirmed|validated)\b|\bfailed (the )?(bank )?verification\b|\b(don't|doesn't|do not|does not) tie\b|\bmismatch\b|\bflagged\b/g,
    w: 3,
  },
  // (rfix17) what the verification found, the account the merchant showed not the one on the statements ("the login showed a
  // different account than the statements submitted"), and the category the lender names itself ("closed as declined (verification)")
  {
    cat: 'verification',
    re: /\b(?:login|portal|bank|verification|call|it)\b[^.\n]{0,40}\b(?:showed|shows|pulled up|was for|is for|was|is) a (?:different|another) (?:bank )?(?:account|bank|business|owner|name)\b|\bdeclined?\s*[(\[]\s*(?:bank )?verification\s*[)\]]/g,
    w: 3,
  },
  // (rfix14) the ticket against what the lender can place: "25k is below what the desk can syndicate", "our floor is $50k gross",
  // "try a smaller shop for this size" (never a floor on the revenue or the score: "our floor is $50k a month in deposits")
  { cat: 'deal_size', re: /\b(?:below|under|smaller than|less than) what (?:we|i|the desk|our desk|credit|the committee|our (?:shop|program|participants)) (?:can|could|will|would) (?:syndicate|fund|write|lead|place|do|touch|look at)\b|\b(?:our|the desk's|my) (?:floor|minimum|min) (?:is|on (?:a )?(?:deals?|files?|tickets?) is) \$\s?\d[\d,.]*\s?(?:k|mm?)?\b(?!(?:[^.;:!?,\n]|[.,](?=\d)){0,40}?(?:\b(?:revenue|deposits?|sales|balances?|adb|a (?:day|month)|per (?:day|month)|daily|monthly|annual|fico|score|credit|tib|time in business|months?|years?)\b|\/\s?(?:mo|day)))|\bfor (?:this|that|a (?:deal|file|ticket) (?:this|that)) size\b|\b(?:deal|ticket|file) size\b/g, w: 3 },
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
  re: new RegExp(`\\b(?:${STATE_WORDS.join('|')})\\b ?(?:${V.STATE_RESTRICTED_AFTER.join('|')})`, 'g'),
  w: 3,
});
// a state refused in shorthand (holdout25): "No NJ, sorry.", "we don't do NJ", "NJ is off our list"
CATEGORY_CUES.push({
  cat: 'restricted_state',
  re: new RegExp(V.STATE_DECLINE.map((p) => `(?:${p.replaceAll('{STATE}', `(?:${STATE_WORDS.join('|')})`)})`).join('|'), 'g'),
  w: 3,
});
CATEGORY_CUES.push({ cat: 'industry', re: new RegExp(`\\b(?:${V.INDUSTRIES.join('|')})\\b`, 'g'), w: 1 });
// (rfix22) a kind of business the lender names and shrugs off: "urgent care isn't really our thing", "medical w/ insurance
// receivables isnt our thing" (the kind named in the clause is the reason, said on its own)
CATEGORY_CUES.push({ cat: 'industry', re: new RegExp(`\\b(?:${V.INDUSTRIES.join('|')})\\b[^.;!?\\n]{0,40}\\b(?:isn't|is not|aren't|are not|not) (?:really |exactly |quite )?(?:our|my) (?:thing|cup of tea|sweet ?spot|kind of (?:business|merchant|deal)|type of (?:business|merchant|deal))\\b`, 'g'), w: 3 });
// (holdout35) a kind of business, in the plural and no state, put on the lender's list: "Farms and growers are on our
// restricted list", "nail salons are on the excluded list" (an industry, not "our restricted list" of states)
const NOT_STATE = `(?!(?:${STATE_WORDS.join('|')})\\b)`;
CATEGORY_CUES.push({
  cat: 'industry',
  re: new RegExp(`\\b${NOT_STATE}[a-z]+s(?: (?:and|&|or) ${NOT_STATE}[a-z]+s)? are (?:all |both )?(?:on|in) (?:our|the|my) (?:restricted|excluded|prohibited|exclusion|no-go|do-not-fund) list\\b`, 'g'),
  w: 3,
});
CATEGORY_CUES.push({ cat: 'stacking', re: new RegExp(`\\b(?:${V.HOLDBACK.join('|')})\\b`, 'g'), w: 1.5 });

/** A reason set aside in the sentence is not the reason (holdout10): "irrespective of its state licensing", "regardless of the FICO". */
const WAIVED_REASON = /\b(?:irrespective of|regardless of|no matter|notwithstanding|setting aside|leaving aside)\b[^.;:!?\n]*/g;

/**
 * The deal's own business name blanked (holdout12): a name is no reason, "Beacon Hill only has seven months of history"
 * names no credit score ("beacon"), "Texas Roadhouse Grill" no state. The whole name, or its first two words or more
 * as a reply shortens it ("Beacon Hill" for "Beacon Hill Laundromat"), case-insensitive; lengths kept.
 */
export function blankBusinessName(lower: string, name: string | null | undefined, by = ''): string {
  const words = (name ?? '').toLowerCase().replace(/[^a-z0-9&' ]+/g, ' ').split(/\s+/).filter((w) => w && !/^(llc|inc|co|corp|ltd|the|dba)$/.test(w));
  let out = lower;
  for (const re of namePatterns(words)) {
    out = out.replace(re, (w) => (by && w.length >= by.length ? by + ' '.repeat(w.length - by.length) : ' '.repeat(w.length)));
  }
  return out;
}

/** The name's patterns, longest first, kept for the last few names (a reply's passes blank the same name several times). */
const NAME_PATTERNS = new Map<string, RegExp[]>();
function namePatterns(words: string[]): RegExp[] {
  const key = words.join(' ');
  let res = NAME_PATTERNS.get(key);
  if (res) return res;
  res = [];
  for (let k = words.length; k >= Math.min(2, words.length) && k > 0; k--) {
    res.push(new RegExp(`\\b${words.slice(0, k).map((w) => w.replace(/[&']/g, (c) => `\\${c}`)).join('[\\s,.-]+')}\\b`, 'g'));
  }
  if (NAME_PATTERNS.size >= 16) NAME_PATTERNS.delete(NAME_PATTERNS.keys().next().value as string);
  NAME_PATTERNS.set(key, res);
  return res;
}

/**
 * (holdout41) A record the lender found clean is not the reason: "no NSFs", "zero negative days", "0 overdrafts" praise the
 * statements before the real reason ("they're fine, ~61k/mo, no NSFs. But it's a vape shop ..."). Never a limit: "no NSFs
 * allowed", "no more than 3 NSFs" (the number comes between) stay reasons.
 */
const CLEAN_RECORD = /\b(?:no|zero|0|without any|not any|never any|free of)\s+(?:nsfs?|non[- ]sufficient funds|returned items|negative (?:days|balances?)|neg(?:ative)? days|overdrafts?)\b(?!\s+(?:allowed|permitted|accepted|tolerated|please|ever|period)\b)/g;

/**
 * (holdout42) ... nor is what the lender praises before its "but": "The revenue and time in business look great, but the
 * guarantor's FICO (534) is below our floor" (the clause up to "but" is no reason; what follows is).
 */
const PRAISED_BEFORE_BUT = /^[^.!?;:\n]*?\b(?:looks?|looked|are|is|were|was|seems?|seemed)\s+(?:really\s+|very\s+)?(?:great|fine|good|strong|solid|healthy|excellent|ok|okay|clean)\s*,?\s*(?=(?:but|however)\b)/;
/**
 * (rfix15) ... nor what the lender praises in a clause of its own, no "but" needed: "the owner's credit is excellent.
 * Unfortunately our floor is 12 months in business" (the praised subject and its praise are blanked, at most four words
 * before it; "credit is not great" or "credit isn't good enough" praise nothing and stay reasons).
 * (revz) ... nor its figure praised and then set against the lender's minimum ("FICO is good at 680 but our minimum for 60k is
 * 700"): the subject is the reason.
 */
const PRAISED_CLAUSE = /\b(?:[a-z'$\d,.-]+\s+){0,3}[a-z'-]+\s+(?:looks?|looked|are|is|were|was|seems?|seemed)\s+(?:really\s+|very\s+)?(?:great|fine|good|strong|solid|healthy|excellent|clean|spotless|pristine)\b(?!\s+(?:enough|but|except|until|for now)\b)(?!\s+(?:at|with)\s+\$?\d[^.!?;:\n]*\b(?:but|though|however|yet|just not)\b)/g;
/** Each clause (the text between stops) on its own: one anchored pass per clause keeps a crafted body linear (review). */
export const clauseWise = (text: string, re: RegExp): string => text.replace(/[^.!?;:\n]+/g, (clause) => clause.replace(re, (w) => ' '.repeat(w.length)));

/**
 * (holdout43) ... nor a reason the lender says it is not: "It isn't a question of revenue or credit", "this has nothing to do
 * with the FICO", "not because of the NSFs" (the clause up to its end or its "but" is blanked; what follows is read).
 */
// (rfix8) ... or says it does not reflect on: "This decision does not reflect on the merchant's revenue or credit profile",
// "not a reflection of the FICO", "unrelated to the statements" (review rev-t: only "reflect ON": "the statements do not
// reflect the revenue" is the reason itself, the deposits short of what was stated)
const DISCLAIMED_REASON = /\b(?:(?:isn't|is not|wasn't|was not|it's not|it is not|not) (?:a question of|a matter of|an issue of|about the|because of|a reflection (?:on|of)|based on)|(?:has|had|have) nothing to do with|nothing to do with|(?:does|do|did|will) not reflect (?:on|upon)|(?:doesn't|don't|didn't|won't) reflect (?:on|upon)|(?:is |are |was )?unrelated to)\b(?:(?!\bbut\b)[^.;:!?,\n])*/g;

/**
 * (revz) A subject the lender says is not what stops the file ("Deal size isn't the issue, it's the 14 NSFs", "credit is not the
 * problem"): the clause names no reason (the one after it does).
 */
const NOT_THE_ISSUE = /^[^.!?;:\n,]*?\b(?:isn't|is not|wasn't|was not|aren't|are not|weren't|were not|not)\s+(?:really\s+)?(?:the|an?|our|my)\s+(?:issue|problem|concern|hold-?up|hang-?up|reason)\b/;
export function declineCategory(text: string): { category: DeclineCategory; index: number; hits: string[] } {
  const lower0 = clauseWise(clauseWise(text.replace(WAIVED_REASON, (w) => ' '.repeat(w.length)).replace(DISCLAIMED_REASON, (w) => ' '.repeat(w.length)).replace(CLEAN_RECORD, (w) => ' '.repeat(w.length)), PRAISED_BEFORE_BUT), NOT_THE_ISSUE);
  const lower = clauseWise(lower0, PRAISED_CLAUSE);
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

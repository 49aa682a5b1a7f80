// (rfix28, holdout62) Doubts read after the decision (decide.ts calls them last): a reply whose decision words and figures
// disagree, whose offers hang on a condition not yet met, or whose decision opens on another business written in lower case.
// Each only sends a reading to a person; none changes the type read. The last is read where other deals are (index.ts).

/**
 * The full ask approved in words: "approved as requested", "approved as submitted", "approved in full", "approved for the full
 * amount", "full amount approved". Never negated ("not approved as submitted", "can't approve the full amount").
 * (rfix29) Any owner before the ask and any word for it: "approved for your full request", "approved for their entire requested
 * amount", "approved at 100% of the ask", "approved for everything you asked for", "your full request has been approved".
 */
const FULL = '(?:full|entire|whole|complete|total|requested|original)';
const ASK_NOUN = '(?:amount|ask|request|requested[ \\t]+amount|funding(?:[ \\t]+(?:amount|request))?|sum|figure|submission)';
/** After the ask only the words that mean all of it: "Total Amount Approved: $50,000" is a form's field, not the ask. */
const FULL_BEFORE_APPROVED = '(?:full|entire|whole|requested)';
const OWNER = '(?:the|your|their|our|his|her|its|this|that)';
/**
 * (revL) ... and in more words still: the verb in any tense or another word for it ("able to approve the full ask", "approving",
 * "signed off on the full request", "green-lit"), the ask straight after it or after a mark ("approved the full amount", "Approved -
 * full amount"), "at ask" / "at the ask", the amount named after ("for the amount requested", "in the amount requested"), "100% of
 * the ask" after a mark. "Full approval" (the final one, not a pre-approval) names no amount and is left alone.
 */
const APPROVE_VERB = '(?:approv(?:e|ed|es|ing|al)|signed[ \\t]+off[ \\t]+on|green[- ]?lit|green[- ]?lighted|ok(?:ay)?ed|ok\'d)';
const AFTER_MARK = '[ \\t]*[-,:!\\u2013\\u2014]+[ \\t]*';
const AMOUNT_ASKED = '(?:amount|sum|figure)[ \\t]+(?:requested|asked(?:[ \\t]+for)?|applied[ \\t]+for|submitted|(?:you|they|the[ \\t]+merchant)[ \\t]+(?:asked|applied)[ \\t]+for)';
const PERCENT_OF_ASK = `(?:(?:for|at)[ \\t]+)?100[ \\t]*(?:%|percent)[ \\t]+of[ \\t]+(?:${OWNER}[ \\t]+)?(?:${FULL}[ \\t]+)?${ASK_NOUN}`;
const APPROVED_AS_ASKED_MORE = new RegExp(
  `\\b${APPROVE_VERB}(?:[ \\t]+(?:you|them|him|her|it|the[ \\t]+(?:merchant|client|file|deal|renewal)))?(?:[ \\t]+(?:` +
    `(?:(?:for|at|in)[ \\t]+)?(?:${OWNER}[ \\t]+)?(?:${FULL}[ \\t]+){1,2}${ASK_NOUN}` +
    `|(?:(?:for|at|in)[ \\t]+)?(?:${OWNER}[ \\t]+)?(?:${FULL}[ \\t]+)?${AMOUNT_ASKED}` +
    `|(?:for|at)[ \\t]+(?:the[ \\t]+|your[ \\t]+|their[ \\t]+)?ask|${PERCENT_OF_ASK})` +
    // after a mark only the words that mean all of it: "Approved, requested amount $60,000; approved $45,000" restates the ask
    `|${AFTER_MARK}(?:(?:the|your|their)[ \\t]+)?(?:(?:full|entire|whole)[ \\t]+){1,2}${ASK_NOUN}|${AFTER_MARK}${PERCENT_OF_ASK})\\b`,
  'g',
);
const APPROVED_AS_ASKED = new RegExp(
  '\\bapprov(?:ed|al)[ \\t]+(?:(?:you|them|him|her|it|the[ \\t]+(?:merchant|client|file|deal))[ \\t]+)?(?:as[ \\t]+(?:requested|submitted|asked|applied(?:[ \\t]+for)?|presented|proposed)|in[ \\t]+full' +
    `|(?:for|at)[ \\t]+(?:${OWNER}[ \\t]+)?(?:${FULL}[ \\t]+){1,2}${ASK_NOUN}` +
    `|(?:for|at)[ \\t]+100[ \\t]*(?:%|percent)[ \\t]+of[ \\t]+${OWNER}[ \\t]+(?:${FULL}[ \\t]+)?${ASK_NOUN}` +
    '|for[ \\t]+(?:everything|all|the[ \\t]+lot)[ \\t]+(?:that[ \\t]+)?(?:you|they|the[ \\t]+merchant)[ \\t]+(?:asked|requested|applied)(?:[ \\t]+for)?)\\b' +
    `|\\b${FULL_BEFORE_APPROVED}[ \\t]+${ASK_NOUN}[ \\t]+(?:is[ \\t]+|was[ \\t]+|has[ \\t]+been[ \\t]+|got[ \\t]+|were[ \\t]+)?(?:fully[ \\t]+)?approved\\b`,
  'g',
);
const NEGATED_BEFORE = /\b(?:not|never|no|n't|cannot|can't|couldn't|won't|unable to|instead of)\b[^.!?\n]{0,20}$/;

/**
 * (rfix28) The full ask approved in words while every amount offered is below the ask ("DECISION: APPROVED AS REQUESTED" over
 * $85,000 of $120,000): the words or the figures are wrong, a template filled in wrong or terms cut after; a person reads which.
 */
export function approvedAsAskedBelowAsk(lower: string, amounts: number[], ask: number | null): string | null {
  if (ask === null || ask <= 0 || !amounts.length || !amounts.every((x) => x < ask - 0.5)) return null;
  for (const re of [APPROVED_AS_ASKED, APPROVED_AS_ASKED_MORE]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(lower))) {
      if (NEGATED_BEFORE.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      return `"${m[0].replace(/\s+/g, ' ')}" in words, yet every amount offered is below the $${ask.toLocaleString('en-US')} ask: which is right is for a person`;
    }
  }
  return null;
}

/**
 * A condition the lender puts on the broker or the merchant bringing something first: "if you can get us the October statement",
 * "if they can show deposits back above 70k", "if the merchant can provide a payoff letter", "once we see the lease".
 */
const CONDITION_ON_ITEMS =
  /\b(?:if|provided|assuming|as long as)[ \t]+(?:you|they|the[ \t]+(?:merchant|client|owner|customer|borrower)|he|she|we)[ \t]+(?:can[ \t]+|could[ \t]+|are[ \t]+able[ \t]+to[ \t]+|is[ \t]+able[ \t]+to[ \t]+)?(?:get|send|provide|show|bring|produce|upload|forward|supply|see|receive|get[ \t]+(?:us|me))\b|\bonce[ \t]+(?:we|i)[ \t]+(?:see|get|receive|have)\b/;
/**
 * (revK) Where two offers or more are read, any condition put before one of them ("assuming the payoff letter comes in", "with a
 * payoff letter:", "once the October statement shows 90k", "if the owner signs a guarantee") followed by the alternative for when it
 * fails: which offer stands is not yet known either. A menu with no alternative word ("if they'd rather pay weekly ... instead") is
 * left alone.
 */
const CONDITION_ANY = /\b(?:if|provided|assuming|as[ \t]+long[ \t]+as|so[ \t]+long[ \t]+as|once|with|subject[ \t]+to|contingent[ \t]+(?:on|upon)|upon)\b/;
/** The alternative the lender offers when that condition fails: "otherwise", "if not", "failing that", "without it". */
const ALTERNATIVE = /\b(?:otherwise|if[ \t]+not|failing[ \t]+that|without[ \t]+(?:it|that|them|those|one|a|an|the)\b|without(?=[ \t]*[:\u2013\u2014-])|until[ \t]+then|till[ \t]+then|in[ \t]+the[ \t]+meantime|or[ \t]+else|absent[ \t]+(?:a|an|the)\b|absent[ \t]+(?:that|it)|if[ \t]+(?:it|they|that)[ \t]+(?:doesn't|does[ \t]+not|don't|do[ \t]+not|can't|cannot)|if[ \t]+(?:you|they)[ \t]+(?:can't|cannot|can[ \t]+not)|if[ \t]+(?:deposits|revenue|it)[ \t]+(?:stays?|remains?))\b/;

/**
 * (rfix28) Offers hanging on something not yet brought, with another offer for when it is not ("if you can get us the October
 * statement ... 40k at 1.42 ... otherwise 25k at 1.38"): which offer stands depends on what is not yet in; a person reads it.
 * A menu the merchant picks from ("if they want weekly ..., otherwise daily ...") conditions nothing on items and stays a counter.
 */
export function offersOnUnmetCondition(lower: string, offers: number): string | null {
  if (offers < 1) return null;
  const c = CONDITION_ON_ITEMS.exec(lower);
  if (c) {
    const alt = ALTERNATIVE.exec(lower.slice(c.index + c[0].length));
    if (alt) return hanging(c[0], alt[0]);
  }
  return offers >= 2 ? offerOnAnyCondition(lower) : null;
}

const hanging = (c: string, alt: string) => `terms hanging on a condition not yet met ("${c.replace(/\s+/g, ' ')}" ... "${alt.replace(/\s+/g, ' ')}"): which offer stands is for a person`;

/** (revL) A condition said any way, "should the payoff letter come in", "pending the inspection", "in the event ...", as well. */
const CONDITION_ANY_G = new RegExp(`${CONDITION_ANY.source}|(?:^|[.!?;:][ \\t]+|\\n)[ \\t]*should\\b|\\b(?:pending|in[ \\t]+(?:the[ \\t]+)?(?:event|case))\\b`, 'g');
/**
 * (revL) The offer for when the condition fails, said any way: besides the words above, "no PG:", "if it does not", "if the state
 * does not allow it", "if they keep it open" (never a preference: "if they would rather keep payments low"), "Under $90k:" (a
 * label, never "deposits under $40k"), "worst case", or the file as it stands ("as-is", "today", "right now") opening its sentence.
 * Only an alternative whose own sentence names an amount: "we cannot fund without a voided check", "in the meantime send the
 * contract request" offer nothing else.
 */
const ALTERNATIVE_OFFER = new RegExp(
  `${ALTERNATIVE.source}|\\bwithout\\b|\\bif[ \\t]+no\\b|(?:^|\\n)[ \\t]*no[ \\t]+[a-z][a-z'-]*(?:[ \\t]+[a-z][a-z'-]*)?[ \\t]*[:\\u2013\\u2014-]` +
    "|\\bif[ \\t]+(?:(?!(?:would|rather|prefer\\w*|wants?|like|choose|pick|opt)\\b)[a-z'-]+[ \\t]+){1,3}?(?:doesn't|does[ \\t]+not|don't|do[ \\t]+not|can't|cannot|won't|will[ \\t]+not|isn't|is[ \\t]+not|aren't|are[ \\t]+not|fails?|keeps?|stays?|remains?)\\b" +
    '|(?:^|[.!?;][ \\t]+|\\n)[ \\t]*(?:under|below|less[ \\t]+than)[ \\t]+\\$?\\d[\\d,.]*k?[ \\t]*[:,\\u2013\\u2014-]|\\bworst[ \\t]+case\\b' +
    '|(?:^|[.!?;][ \\t]+|\\n)[ \\t]*(?:(?:but|and|so)[ \\t,]+)?(?:as[- ]is|as[ \\t]+(?:it|things)[ \\t]+stand|today|right[ \\t]+now|currently|for[ \\t]+now)\\b',
  'g',
);
/** An amount: "$35,000", "35,000", "35k". */
const SOME_AMOUNT = /\$[ \t]?\d|\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?[ \t]?k\b/;
const SENTENCE_END = /[.!?](?=\s|$)|\n|;/g;

/**
 * (revL) Two offers or more, a condition on one ("if the PG is signed:", "should the payoff letter come in", "if their deposits clear
 * $90k") and, before or after it, another offer for when it fails ("No PG: $40,000", "If it does not, $35,000", "As-is we can do
 * $35,000"): which offer stands is not known yet. The alternative's sentence must name an amount.
 */
function offerOnAnyCondition(lower: string): string | null {
  const conditions = [...lower.matchAll(CONDITION_ANY_G)];
  if (!conditions.length) return null;
  for (const alt of lower.matchAll(ALTERNATIVE_OFFER)) {
    const at = alt.index ?? 0;
    const c = conditions.find((x) => (x.index ?? 0) + x[0].length <= at || (x.index ?? 0) >= at + alt[0].length);
    if (!c) continue;
    // the alternative's own sentence (a match opening on the mark before it starts after that mark)
    const core = at + alt[0].length - alt[0].replace(/^[.!?;\s]+/, '').length;
    let start = 0;
    let end = lower.length;
    for (const b of lower.matchAll(SENTENCE_END)) {
      const i = b.index ?? 0;
      if (i < core) start = i + 1;
      else if (i >= at + alt[0].length) {
        end = i;
        break;
      }
    }
    if (SOME_AMOUNT.test(lower.slice(start, end))) return hanging(c[0].trim(), alt[0].trim());
  }
  return null;
}

/** Words that open a line but name no business: greetings, pronouns, the trade's nouns, hedges. */
const NOT_A_BUSINESS = new Set(
  ('hi hello hey dear thanks thank good great news ok okay so just got this that these those the your our my their it its is was has been be ' +
    'we you they he she i me us all set yes yep yeah fully partially conditionally conditional final finally pre also and but per fyi update ' +
    'deal deals file files merchant merchants client owner business submission application request one ones credit uw underwriting committee ' +
    'amount full ask as submitted requested today now still already officially both not wrong right thread email message here there ' +
    'with for from after before about into over under spoke talked heard checked ran looked came went back boss manager team ' +
    // (revL) an opening said before the decision that names no business: a greeting with the day ("morning marco", "happy friday"),
    // an apology ("sorry dana"), how the lender got there ("after further review", "upon second look", "bank verification done")
    'morning afternoon evening happy monday tuesday wednesday thursday friday weekend sorry apologies heads quick note btw ' +
    'further second another look review reviewed upon again past done verification verified call called promised discussed ' +
    'mentioned re-reviewed rereviewed reran ran took gave sent bank statements deposits numbers everything financials docs stips ' +
    'contract mtd revenue given due because since but however unfortunately based considering tight thin light clean strong weak') .split(/\s+/),
);
/**
 * (revL) What a lower-case opening leads into when it decides: any word of a decision, not only "approved" ("is good to go", "looks
 * good", "is a no", "pass", "we can do 45k", "approval 60k"), or straight into the figures ("... spa 60k 1.40 100 days").
 */
const LOWER_DECISION =
  '(?:approved|approval|approve|declined|decline|denied|funded|countered|passed|pass|passing|good[ \\t]+to[ \\t]+go|a[ \\t]+go|a[ \\t]+no|a[ \\t]+pass|no[ \\t]+go|looks?[ \\t]+good)\\b';
/** ... weaker, as a clause may lead into them too ("given the nsfs we can do 30k"): only after a mark, or a longer name. */
const LOWER_OFFER = '(?:(?:(?:we|i)[ \\t]+can[ \\t]+(?:do|go|offer)|(?:we|i)(?:\'re|\'m|[ \\t]+are|[ \\t]+am)[ \\t]+at|best[ \\t]+(?:we|i)[ \\t]+can)\\b|\\$?\\d[\\d,.]*[ \\t]*k\\b)';
/** Between the name and its decision: nothing, a dash, colon, comma, slash, equals, arrow, bracket, bar or dots. */
const LOWER_MARK = '(?:[:\\u2013\\u2014/=|(>-]|->|=>|\\.{2,}|\\u2026)';
const LOWER_NAME = "([a-z][a-z0-9&'-]*(?:[ \\t]+(?:&|[a-z][a-z0-9&'-]*)){1,5}?)";
const LOWER_VERB = '(?:(?:is|was|are|has[ \\t]+been|got|=)[ \\t]+)?';
const LOWER_LEAD = new RegExp(`^${LOWER_NAME}[ \\t]*(?:(?:${LOWER_MARK}|,)[ \\t]*)?${LOWER_VERB}${LOWER_DECISION}`);
const LOWER_LEAD_OFFER = new RegExp(`^${LOWER_NAME}[ \\t]*(?:${LOWER_MARK}[ \\t]*)?${LOWER_VERB}${LOWER_OFFER}`);
const LOWER_LEAD_OFFER_MARKED = new RegExp(`^${LOWER_NAME}[ \\t]*${LOWER_MARK}`);

/**
 * (rfix28) A decision opening on a business written in lower case that shares no word with this deal's ("elko ruby mtn diner approvd
 * 40k" on a trucking company's thread, a texted reply): the decision may be another file's; a person files it. Two distinctive
 * words at least, neither this deal's (a shortening counts as its word: "mtn" for "mountain"), and this deal named nowhere.
 * Only a first line written all in lower case; `lower` is the reader's normalised text ("approvd" read "approved"). Returns the
 * name, or null.
 */
export function lowerCaseOtherBusiness(lower: string, businessName: string | null | undefined, asWritten: string): string | null {
  if (!businessName) return null;
  // only a line written all in lower case (a text from a phone): a capitalised lead is read where names are (deals.ts)
  const firstWritten = asWritten.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  if (/[A-Z]/.test(firstWritten)) return null;
  const business = businessName.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc', 'corp', 'company'].includes(w));
  if (!business.length) return null;
  const text = lower.toLowerCase();
  const kin = (w: string) => business.some((b) => b === w || (w.length >= 4 && b.startsWith(w)) || (b.length >= 4 && w.startsWith(b)) || shortens(w, b) || shortens(b, w));
  if (text.split(/[^a-z0-9]+/).some((w) => w.length >= 3 && business.includes(w))) return null;
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  const writtenLines = asWritten.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  // (revL) a name on a line of its own as a heading ("harbor view nail spa:"), its decision on the next line (lower case too)
  const heading = lines.length > 1 && /^[a-z][a-z0-9&' -]*[ \t]*[:\u2013\u2014-]?$/.test(lines[0]) && !/[A-Z]/.test(writtenLines[1] ?? 'X');
  const first = heading ? `${lines[0]} ${lines[1]}` : lines[0] ?? '';
  const strong = LOWER_LEAD.exec(first);
  const m = strong ?? LOWER_LEAD_OFFER.exec(first);
  if (!m) return null;
  const words = m[1].split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !NOT_A_BUSINESS.has(w));
  if (words.length < 2 || words.some(kin)) return null;
  // (revL) an offer said straight after a clause ("given the nsfs we can do 30k") is no name: a mark after it, or three words of one
  if (!strong && words.length < 3 && !LOWER_LEAD_OFFER_MARKED.test(first)) return null;
  return m[1];
}

/** A short word written for a longer one ("mtn" for "mountain"): its letters in order, the first the same. */
function shortens(short: string, long: string): boolean {
  if (short.length > 4 || short.length >= long.length || short[0] !== long[0]) return false;
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}

/** (rfix31) Spanish tens and hundreds before "mil" ("cuarenta mil", "cuarenta y cinco mil", "veinticinco mil", "ciento veinte mil"). */
const ES_UNITS: Record<string, number> = { un: 1, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9 };
const ES_TEENS: Record<string, number> = { diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, 'dieciséis': 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veinte: 20 };
const ES_TENS: Record<string, number> = { treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 };
const ES_HUNDREDS: Record<string, number> = { cien: 100, ciento: 100, doscientos: 200, trescientos: 300, cuatrocientos: 400, quinientos: 500 };
const ES_THOUSANDS = new RegExp(
  `\\b(?:(${Object.keys(ES_HUNDREDS).join('|')})\\s+)?(?:(${Object.keys(ES_TENS).join('|')})(?:\\s+y\\s+(${Object.keys(ES_UNITS).join('|')}))?|veinti(${Object.keys(ES_UNITS).join('|')}|s[eé]is|tr[eé]s|d[oó]s)|(${Object.keys(ES_TEENS).join('|')}))?\\s*mil\\b`,
  'g',
);
/** "cuarenta mil" -> "$40,000" (lower-cased text; "mil" alone, "mil gracias", stays). */
export function spanishThousands(lower: string): string {
  return lower.replace(ES_THOUSANDS, (m, h: string | undefined, t: string | undefined, u: string | undefined, v: string | undefined, teen: string | undefined) => {
    const vv = v ? (ES_UNITS[v.normalize('NFD').replace(/[\u0300-\u036f]/g, '')] ?? 0) : 0;
    const n = (h ? ES_HUNDREDS[h] : 0) + (t ? ES_TENS[t] + (u ? ES_UNITS[u] : 0) : v ? 20 + vv : teen ? ES_TEENS[teen] : 0);
    return n > 0 ? `$${(n * 1000).toLocaleString('en-US')}` : m;
  });
}

/** (rfix31) A ceiling in Spanish: "lo máximo (que me dejan) es", "el tope es", "máximo 40". */
const CEILING_ES = /\b(?:lo\s+)?m[aá]ximo\b|\btope\b|\bl[ií]mite\b/;
/** (rfix31) ... and one someone else sets: "the most they'll let me do", "the max credit lets us go", "they capped me at". */
const CEILING_LET = /\b(?:the\s+)?(?:most|max|maximum|highest)\s+(?:(?:they|he|she|credit|uw|underwriting|committee|management|risk|my\s+boss|the\s+desk)\s+)?(?:will\s+|would\s+|'ll\s+|'d\s+)?(?:let|lets|allow|allows)\s+(?:me|us)\b|\b(?:capped|limited|held)\s+(?:me|us)\s+(?:at|to)\b/;

/**
 * (rfix31) The most the lender says it can do, in any language or in words ("lo máximo que me dejan es cuarenta mil", "the most
 * credit will do is forty thousand"), below the amount its offer then names ("45k at 1.45"): one of the two figures is wrong, a
 * person reads which. `text` is the offer text (words as figures), `isCeiling` tells a sentence capping the amount; the amounts
 * are the offers'. A ceiling at or above every offer's amount is no doubt ("the most is 45k: 45k at 1.45").
 */
export function ceilingBelowOffer(sentences: Array<{ text: string; funded: number[] }>, isCeiling: (s: string) => boolean, amounts: number[]): string | null {
  if (!amounts.length) return null;
  const least = Math.min(...amounts);
  for (const s of sentences) {
    if (!s.funded.length || !(isCeiling(s.text) || CEILING_ES.test(s.text) || CEILING_LET.test(s.text))) continue;
    const below = s.funded.find((x) => x >= 1000 && x < least - 0.5 && !amounts.includes(x));
    if (below !== undefined) return `a ceiling of $${below.toLocaleString('en-US')} stated ("${s.text.trim().slice(0, 80)}"), yet the offer names $${least.toLocaleString('en-US')}: which is right is for a person`;
  }
  return null;
}

/** (rfix31) A figure replacing another, said in the correction: "1.38 not 1.40", "1.38 instead of 1.40", "1.40 should be 1.38". */
const FIG = String.raw`(\$?\d[\d,]*(?:\.\d+)?k?)`;
const REPLACES = [
  { re: new RegExp(String.raw`${FIG}\s*,?\s+(?:not|instead of|in place of|rather than|vs\.?)\s+(?:the\s+)?${FIG}(?!\d|[.,]\d)`, 'g'), now: 1, old: 2 },
  { re: new RegExp(String.raw`${FIG}\s+(?:should (?:be|have been|read|say)|s/b|is really|was meant to be|->|=>)\s+${FIG}(?!\d|[.,]\d)`, 'g'), now: 2, old: 1 },
];
const asNumber = (f: string) => {
  const k = /k$/i.test(f);
  const n = Number(f.replace(/[$,k]/gi, ''));
  return k ? n * 1000 : n;
};
export interface CorrectedOffer {
  amount: number;
  factor_rate: number;
  payment_amount: number | null;
}
/**
 * (rfix31) A correction that says what it replaces and proves itself ("appr 60k 1.40 140 dly pymts 84k back 600/day" then "correction
 * 1.38 not 1.40 my bad 82,800 back 591.43 dly rest same"): the one offer read with the replaced factor or amount swapped for the new
 * one, and every payback or payment the correction restates repaying it to the cent (amount x factor = payback; payment x payments =
 * payback). Then the corrected terms stand, nothing is left to a person's guess; otherwise (no replaced figure named, or nothing
 * restated that confirms it: "Correction: make that $45,000") null, and the correction stays for a person.
 * `line` is the correction's own text (the offer text, lower case); `payments` the offer's count of payments.
 */
export function confirmedCorrection(line: string, offer: { amount: number; factor_rate: number | null; payment_amount: number | null }, payments: number | null, restated: { payback: number[]; payment: number[] }): CorrectedOffer | null {
  if (offer.factor_rate === null) return null;
  let amount = offer.amount;
  let factor = offer.factor_rate;
  let swapped = 0;
  for (const { re, now, old } of REPLACES) {
    re.lastIndex = 0;
    for (const m of line.matchAll(re)) {
      const n = asNumber(m[now]);
      const o = asNumber(m[old]);
      if (!(n > 0) || !(o > 0) || n === o) continue;
      if (o < 5 && Math.abs(o - factor) < 0.0005 && n >= 1 && n < 2) {
        factor = n;
        swapped++;
      } else if (o >= 1000 && Math.abs(o - amount) < 0.5 && n >= 1000) {
        amount = n;
        swapped++;
      } else return null; // a figure replaced that is not the offer's factor or amount: for a person
    }
  }
  if (!swapped || (!restated.payback.length && !restated.payment.length)) return null;
  const total = amount * factor;
  if (restated.payback.some((p) => Math.abs(p - total) > Math.max(1, total * 0.002))) return null;
  if (restated.payment.length && (payments === null || restated.payment.some((p) => Math.abs(p * payments - total) > Math.max(1, total * 0.002)))) return null;
  return { amount, factor_rate: factor, payment_amount: restated.payment.length === 1 ? restated.payment[0] : null };
}

import * as V from '../vocabulary';
import type { ReplyContext, TermUnit } from './types';
import { round2 } from './text';
import { ASKED_CLAUSE_BEFORE, ASKED_TERM_AFTER, ASKED_TERM_BEFORE, ASKED_TERM_REFUSED_AFTER, ASK_AS_AMOUNT_RE, FREQ_RE, NO_TERM_OPTION, type Fact, SAME_TERMS_RE, SHORTHAND_AFTER_RE, SHORTHAND_NEGATED, SHORTHAND_RE, askedSentences, moneyKind, normFreq, parseMoney } from './money';

/** (rfix20) A guess right before a figure's schedule: "probably daily", "maybe weekly", "i think it's weekly", "likely on a daily". */
const HEDGED_BEFORE = /\b(?:probably|prob|prolly|maybe|possibly|likely|might be|may be|could be|i think(?: it's| its| it is| it'll be)?|i believe(?: it's| its| it is)?|i guess|not sure(?: if)?)(?: (?:on )?(?:a|an))?\s*$/;

/**
 * (holdout28) The merchant's own debits, not the offer's payments: "cover their 3 daily debits", "on top of 3 dailies",
 * "pays off his 2 weekly payments", "their existing 4 debits". A count after these words is never the offer's count
 * (a bare "their 40 weekly payments" may be the offer's own, paid by the merchant).
 */
const EXISTING_DEBITS_BEFORE = /(?:\b(?:cover|covers|covering|pay off|pays off|paying off|paid off|consolidat\w*|replac\w*|buy out|buys out|buying out|take out|takes out|taking out) (?:all )?(?:of )?(?:their|his|her|the merchant's|the)|\b(?:their|his|her|the merchant's|merchant's) (?:existing|current|other)|\b(?:existing|outstanding|other funders'?|on top of|behind)(?: (?:the|all|their|existing|current|other))?)\s*$/;

/** (holdout36) A cap on the term written before it: "max out at", "our longest term is", "we cap at", "nothing over". */
const TERM_CAP_BEFORE = /\b(?:(?:max|maxes|tops|top|caps|cap) out at|(?:longest|maximum|max) (?:term |length )?(?:is|we (?:do|offer|go|write)|would be)|(?:we |they )?cap (?:it |them |terms )?at|no (?:longer|more) than|nothing (?:over|longer than|past|beyond)|(?:won't|will not|can't|cannot|don't|do not) go (?:past|beyond|over|longer than))\s*$/;

/** (holdout36) The merchant's existing debits right before a payment: "3 positions eating 2,300/day", "his MCAs pulling about 1,900". */
const OTHER_DEBITS_BEFORE = /\b(?:positions?|mcas?|advances?|funders?|lenders?|loans?|dailies|weeklies|stack)\s+(?:are\s+|is\s+)?(?:already\s+)?(?:eating|taking|pulling|debiting|hitting|costing|draining|totaling|totalling|combined(?:\s+(?:at|of))?)(?:\s+(?:him|her|them|the merchant|it|up|out))?(?:\s+(?:about|around|roughly|~|over|nearly|almost))?\s*$/;

/** The asked term granted (holdout12): "on the", "at the", "over the" right before it, no refusal earlier in its sentence. */
function askedTermGranted(before: string): boolean {
  const sentence = before.split(/[.!?;]\s/).pop() ?? '';
  return /\b(?:on|at|over) the\s*$/.test(sentence) && !/\b(?:not|no|can't|cannot|won't|unable|couldn't|isn't|instead of|rather than)\b/.test(sentence);
}

// (holdout21) ... or kept for other files: "weekly is only offered on files over $50k", "bi-weekly is reserved for renewals"
const REFUSED_FREQ_AFTER = /^( payments?| debits?| ach| schedule| remittances?| remits?| structure| pulls?)? ((isn't|is not|aren't|are not|won't|will not|doesn't|does not|can't|cannot|wasn't|was not)\b|(is|are) (only|reserved|kept|saved) (offered |available |done |allowed |written )?(on|for|above|over|with|to|at)\b)/;
// (holdout20) ... or a schedule the lender has no product for, or one excepted: "we don't have a bi-weekly product",
// "we don't run weekly", "can do the amount but not the bi-weekly"
const REFUSED_FREQ_BEFORE = /\b(can't|cannot|won't|don't|do not|doesn't|does not|not able to|unable to) (do|offer|go|approve|write|have|carry|run|support)( it| this| them| that)?( on)?( a| an| any)?\s*$|\b(but|just|only|and) not (on )?(the |a |an )?\s*$/;

/** (holdout41) The amount reduced to, on a condition: "the approved amount reduces to", "it drops to", "would be cut to". */
const CONDITIONAL_REDUCTION_BEFORE = /\b(?:reduces?|reduced|drops?|dropped|falls?|goes down|go down|comes down|come down|steps? down|is cut|gets cut|be cut|be reduced|lowers?|be lowered|decreases?|be decreased|reverts?|adjusts? down|be adjusted)(?: back)? to\s*$/;
/** How far a condition is looked for around a reduced amount, within its sentence (bounded: a long line is not re-split per amount). */
export const CONDITION_REACH = 300;
const end0 = (m: RegExpExecArray) => m.index + m[0].length;

/**
 * A term or a count of payments later in the line, itself no label of the next option ("6 mo: 45k @ 1.30 / 9 mo: 45k
 * @ 1.38" names two options by their terms): the length of the option a term heading the line only names (holdout20).
 */
const LENGTH_AFTER_LABEL_RE = /(?<![\w.$,])\d{1,3}\s*(?:-\s*)?(?:(?:daily|weekly|bi-?weekly|monthly)\s+)?(?:business days?|biz days?|bus\.? days?|working days?|banking days?|days?|weeks?|wks?|months?|mos?|payments|pmts|pymts|debits|installments|dailies|weeklies)\b(?!\s*(?:option|structure|plan|term|program)?\s*[:\-\u2013]\s)/g;
function lengthAfterLabel(rest: string): boolean {
  LENGTH_AFTER_LABEL_RE.lastIndex = 0;
  return LENGTH_AFTER_LABEL_RE.test(rest);
}

/** Points named earlier in the same clause (no sentence break between): the number after them counts points too. */
const POINTS_CLAUSE_BEFORE = /\b(pts?|points?)\b[^.;!?\n]*$/;

/** (holdout42) A term wrapped by the line break inside its unit ("over 130 business\ndays"): one line, the same length. */
const WRAPPED_TERM_UNIT = /(\d{1,3}[ \t]+(?:business|biz|working|banking))\n(?=days?\b)/gi;

// Built once (they depend on the vocabulary only), not per line or per call.
/** A fraction of the ask: "we can do half the ask" (global: lastIndex reset before each scan). */
const ASK_FRACTION_RE = new RegExp(`\\b(${Object.keys(V.ASK_FRACTIONS).join('|')}) (the )?(ask|request|requested amount|amount (requested|asked))\\b`, 'gi');
const PRICE_LABEL_RE = new RegExp(`^\\W*(?:${V.PRICE_AS_PAYBACK.price})\\b[^\\d$]*$`);
const FUNDING_LABEL_RE = new RegExp(`^\\W*(?:${V.PRICE_AS_PAYBACK.funding})\\b[^\\d$]*$`);

export function scanFacts(text: string, offset: number, ctx?: ReplyContext): Fact[] {
  // a reading scans the same offer text several times (the offers, the floated amounts firm and not, the terms without an
  // amount): pure in the text, the offset and the ask, so the last few scans are kept and each caller gets its own copy
  const ask = ctx?.requested_amount;
  const hit = SCANNED.find((e) => e.text === text && e.offset === offset && e.ask === ask);
  if (hit) return hit.facts.map((f) => ({ ...f }));
  const facts = scanFactsOnce(text, offset, ctx);
  if (SCANNED.length >= 8) SCANNED.shift();
  SCANNED.push({ text, offset, ask, facts: facts.map((f) => ({ ...f })) });
  return facts;
}
const SCANNED: Array<{ text: string; offset: number; ask: number | null | undefined; facts: Fact[] }> = [];

function scanFactsOnce(text: string, offset: number, ctx?: ReplyContext): Fact[] {
  const facts: Fact[] = [];
  const lines = text.replace(WRAPPED_TERM_UNIT, '$1 ').split('\n');
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
      // (holdout40) ... unless what follows names it the payback: "45 @ 1.38  72,500 back  7 mo daily"
      if (!dollar && !suffix && hasComma && /^\d{1,3},\d{3}$/.test(num) && /\d\s*$/.test(line.slice(0, m.index)) && !/^\s*(back|pay ?back|rtr|total (back|payback|repaid))\b/i.test(line.slice(m.index + whole.length))) continue;
      // (holdout41) a count of businesses or people, no dollar sign: "funded for 14,000+ small businesses since 2009" in a footer
      if (!dollar && !suffix && /^\+?\s*(?:[a-z-]+\s+)?(?:businesses|merchants|clients|customers|deals|files|companies|owners|partners|brokers|isos|employees|locations|members|reviews)\b/i.test(line.slice(m.index + whole.length))) continue;
      const start = m.index + (whole.length - whole.trimStart().length);
      const end = m.index + whole.length;
      // (holdout14 probes) "9m" beside the factor or the schedule is a term in months, not $9 million: "90k 1.36 9m weekly"
      if (!dollar && !cents && suffix?.toLowerCase() === 'm' && !hasComma && Number(num) >= 1 && Number(num) <= 36) {
        const before = line.slice(0, m.index);
        const after = line.slice(end0(m));
        if (/(?<![\d.])[12]\.\d{1,3}\s*[,/|x]?\s*$/.test(before) || /^\s*[,/|]?\s*(daily|weekly|bi-?weekly|dly|wkly|dailies|weeklies|term)\b/i.test(after)) {
          const start = m.index + (whole.length - whole.trimStart().length);
          taken.push([start, end0(m)]);
          facts.push({ pos: base + start, kind: 'term', value: Number(num), unit: 'months', text: whole.trim() });
          continue;
        }
      }
      const value = parseMoney(num, cents, suffix);
      if (!(value > 0)) continue;
      taken.push([start, end]);
      // (holdout41) an amount the approval falls to on a condition, not an option offered: "If filed gross revenue is under
      // $1.5MM the approved amount reduces to $75,000 at the same factor" (the approval stands at its own amount; a person
      // weighs the condition)
      const fallsTo =
        CONDITIONAL_REDUCTION_BEFORE.test(lower.slice(Math.max(0, start - 40), start)) &&
        /\b(?:if|unless|should|in case|in the event)\b/.test(`${lower.slice(Math.max(0, start - CONDITION_REACH), start).split(/[.;!?]\s/).pop()} ${lower.slice(end, end + CONDITION_REACH).split(/[.;!?](?:\s|$)/)[0]}`);
      facts.push({ pos: base + start, kind: 'money', value, money: fallsTo ? 'other' : moneyKind(lower, start, end), text: whole.trim() });
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
    // (holdout28) a payment written bare before its schedule in shorthand: "1.35 / 30 wks / 1800 wkly", "2,150 weekly", "450.00
    // daily" (four digits or more, or cents: "120 daily" is a count of payments)
    const beforeFreqRe = /(?<![\w.,$])(\d{1,3}(?:,\d{3})|\d{4,5}|\d{2,5}(?=\.\d{2}))(\.\d{2})?\s+(?:daily|weekly|bi-?weekly|dly|wkly)\b(?!\s*(?:payments?|pmts?|pymts?|debits?|pulls?|draws?|installments?|remittances?|deposits?|revenue|sales|in\b|of\b))/gi;
    while ((m = beforeFreqRe.exec(line))) {
      const end = m.index + m[1].length + (m[2]?.length ?? 0);
      if (overlaps(m.index, end)) continue;
      taken.push([m.index, end]);
      facts.push({ pos: base + m.index, kind: 'money', value: parseMoney(m[1], m[2], undefined), money: 'payment', text: m[0].trim() });
    }
    // a payment labelled, its figure bare with cents: "Daily payment 388.57", "weekly debit: 2,280.00"
    // ... or after its schedule: "5 months daily 470.22" (not "monthly": a month's figure is revenue)
    // (review rev-t) the spaces after the label matched once, before and after its optional "of"/":" (two runs side by side
    // tried every split of a crafted run of spaces: quadratic)
    const labelPaymentRe = /\b(?:payments?|pmts?|pymts?|debits?|remit(?:tance)?s?|installments?|draws?|daily|weekly|bi-?weekly|dly|wkly)(?: amount)?\s*(?:(?:of|:|=|is|-)\s*)?(\d{1,3}(?:,\d{3})|\d{2,5})(\.\d{2})(?![\d,%]|\.\d|\s?k\b)/gi;
    while ((m = labelPaymentRe.exec(line))) {
      const start = m.index + m[0].length - m[1].length - m[2].length;
      const end = m.index + m[0].length;
      if (overlaps(start, end)) continue;
      taken.push([start, end]);
      facts.push({ pos: base + start, kind: 'money', value: parseMoney(m[1], m[2], undefined), money: 'payment', text: m[1] + m[2] });
    }
    // (holdout25) a bare figure right after its schedule, ending the clause: "1.32, daily 660. lmk", "wkly 1,775" (never a
    // count: "weekly 26 payments"; never under 50)
    const freqBareRe = /\b(?:daily|weekly|bi-?weekly|dly|wkly)\s+(\d{1,3}(?:,\d{3})|\d{2,5})(?=\s*(?:[.;,!)]|$))/gi;
    while ((m = freqBareRe.exec(line))) {
      const start = m.index + m[0].length - m[1].length;
      const end = m.index + m[0].length;
      const value = parseMoney(m[1], undefined, undefined);
      if (value < 50 || overlaps(start, end)) continue;
      taken.push([start, end]);
      facts.push({ pos: base + start, kind: 'money', value, money: 'payment', text: m[1] });
    }
    // a payment written bare after its count: "120 pymts of 690 daily", "26 weekly debits at 2750", (holdout14) "120 dailies of 355" (a count of payments
    // names what follows it as each payment's amount; a full stop after it ends the sentence: "of 355. contracts ...")
    const countPaymentRe = /(?<![\w.$])\d{1,3}\s+(?:(?:daily|weekly|bi-?weekly|monthly)\s+)?(?:payments|pmts|pymts|debits|pulls|draws|installments|remittances|dailies|weeklies)\s+(?:of|at|@|x)\s+(\d{2,3}(?:,\d{3})|\d{2,5})(\.\d{2})?(?![\d,%]|\.\d|\s?k\b)/gi;
    while ((m = countPaymentRe.exec(line))) {
      const start = m.index + m[0].length - m[1].length - (m[2]?.length ?? 0);
      const end = m.index + m[0].length;
      if (overlaps(start, end)) continue;
      taken.push([start, end]);
      facts.push({ pos: base + start, kind: 'money', value: parseMoney(m[1], m[2], undefined), money: 'payment', text: m[1] + (m[2] ?? '') });
    }
    // amounts in thousands before "@ 1.35": "could do 50 @ 1.35"; (holdout11) with a half ("27.5 at 1.40"), a word of
    // time between ("27.5 now at 1.40") or "on a" ("42 on a 1.44"): the amount the factor prices; (holdout22) times the
    // factor ("45 x 1.35 = 60,750")
    const thousandsRe = /(?<![\w.,$])(\d{1,3}(?:\.\d)?)\s*(?:(?:now|today|up front|upfront|flat|even|total)\s+)?(?:@|at|on a|on an?|x|\u00d7)\s*(?=[1-2]\.\d)/gi;
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
        // (holdout23) a broker's points, not thousands: "up to 10 pts upfront (capped at 12 total)"
        if (Number(n) <= 20 && POINTS_CLAUSE_BEFORE.test(lower.slice(Math.max(0, start - 50), start))) continue;
        const negated = SHORTHAND_NEGATED.test(lower.slice(Math.max(0, start - 40), start));
        taken.push([start, start + n.length]);
        facts.push({ pos: base + start, kind: 'money', value, money: negated ? 'requested' : 'funded', text: m[0].trim(), shorthand: true });
      }
      SHORTHAND_AFTER_RE.lastIndex = 0;
      while ((m = SHORTHAND_AFTER_RE.exec(line))) {
        const n = m.groups!.n;
        const start = m.index + m[0].indexOf(n);
        if (n.includes('.') && Number(n) < 3) continue;
        const value = Number(n) * 1000;
        if (value < ask / 10 || value > ask * 4 || overlaps(start, start + n.length)) continue;
        taken.push([start, start + n.length]);
        facts.push({ pos: base + start, kind: 'money', value, money: 'funded', text: m[0].trim(), shorthand: true });
      }
    }
    // a fraction of the ask: "we can do half the ask"
    if (ask && ask > 0) {
      const fracRe = ASK_FRACTION_RE;
      fracRe.lastIndex = 0;
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
        // (holdout41) the ask as what may be looked at again later, not what is offered now: "if the owner would like to
        // revisit the full amount, we could look again after two more months"
        const later = /\b(?:revisit|re-visit|reconsider|look again at|take another look at|come back for|circle back on|re-?apply for|resubmit for)\s*$/.test(lower.slice(Math.max(0, m.index - 30), m.index));
        facts.push({ pos: base + m.index, kind: 'money', value: ask, money: later ? 'requested' : 'funded', text: m[0], shorthand: true });
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
      // (a label in the sentence before is not this rate's: "40's my max on this. 1.40, 7 months")
      const pre = (lower.slice(Math.max(0, m.index - 18), m.index).split(/[,;|]|[.!?]\s/).pop() ?? '').replace(/\d[\d,.]*k?\s+(max|cap|tops)\b/g, (x) => ' '.repeat(x.length));
      const post = lower.slice(m.index + m[0].length, m.index + m[0].length + 12).split(/[,;|)]/)[0];
      const lastSell = Math.max(...V.RATE_LABELS.sell.map((w) => pre.lastIndexOf(w)));
      const lastBuy = Math.max(...[...V.RATE_LABELS.buy, '@', ' at '].map((w) => pre.lastIndexOf(w)));
      // "the factor is 1.38, not 1.28": a value corrected or refused is no factor
      // (holdout31) a bank's debt service coverage ("about 1.05x against our 1.25x minimum", "DSCR of 1.20") is no factor
      const coverage = /\b(debt[- ]service|dscr?|coverage)\b/.test(line.toLowerCase()) && (/^x\b/i.test(line.slice(m.index + m[0].length)) || /\b(dscr?|coverage)( ratio)?( of| is| at| was)?\s*$/.test(pre));
      if (/\bnot\s*$/.test(pre) || coverage) {
        taken.push([m.index, m.index + m[0].length]);
        continue;
      }
      // a label written after the rate is its own and wins over one before it (holdout10): "1.42 buy / 1.52 top",
      // "1.38 buy, 1.48 ceiling" (the label before 1.52 is the buy's)
      // (holdout16) ... unless it introduces the next rate: in "buy 1.32 sell 1.42" the "sell" is 1.42's, not 1.32's
      const nextOwnsLabel = /^\s*(sell|max|top|ceiling|cap|high|buy|factor)( rate)?\s*[:=]?\s*@?\s*[12]\.\d/.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 30));
      const postSell = !nextOwnsLabel && /^\s*(sell|max|top|ceiling|cap|high)\b/.test(post);
      const postBuy = !nextOwnsLabel && /^\s*(buy|factor)\b/.test(post);
      const sell = postSell || postBuy ? postSell && !postBuy : lastSell >= 0 && lastSell > lastBuy;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: sell ? 'sell' : 'factor', value: v, text: m[0] });
    }
    // a bare term in a slash line after the factor: "75k / 1.35 / 180 / 562.50" (business days)
    const slashTermRe = /(?=\d)(?<=[1-2]\.\d{1,3}\s*\/\s*)(\d{2,3})(?=\s*(?:\/|$))/g;
    while ((m = slashTermRe.exec(line))) {
      const n = Number(m[1]);
      if (n < 20 || n > 400 || overlaps(m.index, m.index + m[1].length)) continue;
      taken.push([m.index, m.index + m[1].length]);
      facts.push({ pos: base + m.index, kind: 'term', value: n, unit: 'days', text: m[1] });
    }
    // payment counts: "39 pmts", "132 daily payments", "(210 payments)"
    // "Number of Payments: 140", "# of debits: 26"
    const countLabelRe = /\b(?:number of|no\.? of|# of|#|total)\s*(?:(daily|weekly|bi-?weekly|monthly)\s+)?(?:payments|pmts|pymts|debits|pulls|installments|remittances)\s*[:|]?\s*(\d{1,3})(?![\d,.])/gi;
    while ((m = countLabelRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[2]), freq: m[1] ? normFreq(m[1]) : undefined, text: m[0] });
    }
    // (holdout20) a label naming the payments counted, alone on its line with a bare count: "Installments: 28",
    // "Payments | 142", "Debits - 120" (a portal's key/value rows; the count's schedule is the offer's frequency)
    const countRowRe = /^\s*(?:(?:number of|no\.? of|# of|#|total)\s*)?(?:payments|pmts|pymts|debits|pulls|instal+ments|remittances|remits)\s*(?::|\||=|-)\s*(\d{1,3})\s*$/i;
    if ((m = countRowRe.exec(line)) && !overlaps(m.index, m.index + m[0].length)) {
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), text: m[0].trim() });
    }
    // (holdout22) a payment times its count, on a line naming the schedule or the payment: "Weekly debit: $2,400.00 x 30",
    // "remit 455 x 120 daily" (the count after "x" is the number of payments; not a term nor a multiple written with a unit)
    // (rfix) ... also with the schedule between the payment and its count: "Remittance: $1,380.00 weekly x 40", "$450/day x 120"
    if (/\b(daily|weekly|bi-?weekly|dly|wkly|payments?|pmts?|pymts?|debits?|remits?|remittances?|installments?|draws?|pulls?)\b/.test(lower)) {
      const timesCountRe = /(?<![\w.,])\$?\d{1,3}(?:,\d{3})*(?:\.\d{2})?\s*(?:(?:daily|weekly|bi-?weekly|monthly|dly|wkly|(?:a|per|each) (?:day|week|month)|\/\s?(?:day|d|wk|week|mo|month))\s*)?(?:x|\u00d7)\s*(\d{1,3})(?![\d,.%\w]|\s*(?:k|mm?|months?|mos?|weeks?|wks?|days?|business|biz|%)\b)/gi;
      while ((m = timesCountRe.exec(line))) {
        const start = m.index + m[0].length - m[1].length;
        const n = Number(m[1]);
        if (n < 2 || overlaps(start, start + m[1].length)) continue;
        taken.push([start, start + m[1].length]);
        facts.push({ pos: base + start, kind: 'count', value: n, text: m[0].trim() });
      }
    }
    // a term in years, only where it is named as the term: "term 1 year", "a 2-year term"
    // (rfix17) ... a bank's term loan in two digits too ("Term: 10 years, fully amortizing", "a 10-year term"), and its years
    // with the rate right after them ("$75,000 over 7 years at about 10.75%"; never years in business)
    const yearRe = /\b(?:term|length|duration)\s*(?:of|:|is|\|)?\s*(\d{1,2})\s*(?:years?|yrs?)\b|\b(\d{1,2})[- ](?:year|yr) term\b|\bover\s+(\d{1,2})\s*(?:years?|yrs?)(?=\s*(?:at|@)\s*(?:about\s+|around\s+|roughly\s+)?\d{1,2}(?:\.\d{1,3})?\s*%)/gi;
    while ((m = yearRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'term', value: Number(m[1] ?? m[2] ?? m[3]) * 12, unit: 'months', text: m[0] });
    }
    const countRe = /(?<![\w.$])(\d{1,3})\s*(?:(daily|weekly|bi-?weekly|monthly|dly|wkly|bi-?wkly|mthly|(?:business|biz|banking|working)[- ]day)\s+)?(?:(?:ach|electronic|auto(?:matic)?|bank)\s+)?(payments|pmts|pymts|debits|pulls|draws|installments|remittances)\b/gi;
    while ((m = countRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      if (EXISTING_DEBITS_BEFORE.test(line.slice(Math.max(0, m.index - 30), m.index).toLowerCase())) continue;
      // "80 business-day payments": daily debits
      const cf = m[2] ? (/day$/i.test(m[2]) ? 'daily' : normFreq(m[2])) : undefined;
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: cf, text: m[0] });
    }
    // (rfix12) a count of payments in Spanish, as bilingual reps write it: "140 pagos diarios de $607.14", "24 cuotas
    // semanales", "120 débitos" (the schedule after the count, as Spanish puts it)
    const countEsRe = /(?<![\w.$])(\d{1,3})\s+(?:pagos|cuotas|d[e\u00e9]bitos)(?:\s+(diari[oa]s|semanales|quincenales|mensuales))?(?![\w\u00e0-\u00ff])/gi;
    while ((m = countEsRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: m[2] ? normFreq(m[2]) : undefined, text: m[0] });
    }
    // a count of payments without the word: "20 weekly @ 2,130", "28 weekly at $1,750", "120 dailies of $450", "24 weeklies"
    // (holdout21) ... in the shorthand too, the payment after it bare or per period: "120 dly @ 450", "140 dly 500/day",
    // "30 wkly at 1,150", "90 dly 443.33" (a bare figure with cents); (rfix7) ... the shorthand's fields split by slashes,
    // "40k / 1.41 / 140 dly / 402.86": the figure with cents in the next field (10 or more, so never a factor) is each payment
    const bareCountRe = /(?<![\w.$,])(\d{1,3})\s+(?:(daily|weekly|bi-?weekly|monthly|dly|wkly|bi-?wkly)(?=\s*(?:@|at|of|x|-)\s*\$?\d|\s+\$?\d[\d,]*(?:\.\d{2})?\s?(?:\/\s?(?:day|d|wk|week)\b|(?:a|per|each) (?:day|week)\b)|\s+\$?\d{1,3}(?:,\d{3})?\.\d{2}(?![\d%])|\s*\/\s*\$?(?:\d{1,3},\d{3}|[1-9]\d{1,2})\.\d{2}(?![\d%]))|(dailies|weeklies))/gi;
    while ((m = bareCountRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      if (EXISTING_DEBITS_BEFORE.test(line.slice(Math.max(0, m.index - 30), m.index).toLowerCase())) continue;
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: normFreq(m[2] ?? (m[3].startsWith('d') ? 'daily' : 'weekly')), text: m[0] });
      // "120 dly @ 450": the bare figure after the count is each payment
      const pay = /^\s*(?:@|at|of|x|(?=\s\d{1,3}(?:,\d{3})?\.\d{2})|\/(?=\s*\$?(?:\d{1,3},\d{3}|[1-9]\d{1,2})\.\d{2}))\s*\$?(\d{1,3}(?:,\d{3})|\d{2,5})(\.\d{2})?(?![\d,%]|\.\d|\s?k\b|\s*\/)/i.exec(line.slice(m.index + m[0].length));
      if (m[2] && pay) {
        const start = m.index + m[0].length + pay[0].length - pay[1].length - (pay[2]?.length ?? 0);
        const end = m.index + m[0].length + pay[0].length;
        if (!overlaps(start, end) && !/\$/.test(pay[0])) {
          taken.push([start, end]);
          facts.push({ pos: base + start, kind: 'money', value: parseMoney(pay[1], pay[2], undefined), money: 'payment', text: pay[1] + (pay[2] ?? '') });
        }
      }
    }
    // (holdout17) a count of payments after a label naming the payments, the word left out after the number:
    // "Payments: 36 weekly", "Remittances | 120 daily", "Debits - 24 bi-weekly" (nothing priced after it)
    const labelCountRe = /(?=\d)(?<=\b(?:payments?|pmts?|pymts?|debits?|remittances?|remits?|installments?|pulls?|payment schedule|schedule)\s*(?::|\||=|-)?\s*)(\d{1,3})\s+(daily|weekly|bi-?weekly|monthly)\b(?!\s*(?:@|at|of|x|-)?\s*\$?\d)(?!\s*(?:payments?|pmts|pymts|debits|pulls|draws|installments|remittances|revenue|deposits|sales)\b)/gi;
    while ((m = labelCountRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: normFreq(m[2]), text: m[0] });
    }
    // (holdout13) a count of payments right after the factor, the word "payments" left out: "55 @ 1.39, 120 daily",
    // "60 @ 1.44 on 140 daily", "1.45 / 90 wkly"
    const afterFactorCountRe = /(?=\d)(?<=(?<![\d.])[12]\.\d{1,3}\s*(?:,|\/|x|on|over|for)?\s*)(\d{2,3})\s+(daily|weekly|dly|wkly)\b(?!\s*(?:@|at|of|x|-)?\s*\$?\d)/gi;
    while ((m = afterFactorCountRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      taken.push([m.index, m.index + m[0].length]);
      facts.push({ pos: base + m.index, kind: 'count', value: Number(m[1]), freq: normFreq(m[2]), text: m[0] });
    }
    // terms: "180 business days", "6 months", "24 wks", "12 month term"
    // (review rev-t) "\s*(?:-\s*)?" here and in LENGTH_AFTER_LABEL_RE: the same reading as "\s*-?\s*", whose two runs side by
    // side tried every split of a crafted run of spaces after a figure (quadratic)
    const termRe = /(?<![\w.$,])(\d{1,3})\s*(?:-\s*)?(business (?:days?|dys)|biz (?:days?|dys)|bus\.? (?:days?|dys)|working days?|banking days?|bds?|days?|dys|weeks?|wks?|months?|mos?\.?|mths?|semanas?|meses|mes|d[i\u00ed]as(?: h[a\u00e1]biles)?|d)(?![\w\u00e0-\u00ff])/gi;
    while ((m = termRe.exec(line))) {
      if (overlaps(m.index, m.index + m[0].length)) continue;
      const pre = lower.slice(Math.max(0, m.index - 24), m.index);
      const post = lower.slice(m.index + m[0].length, m.index + m[0].length + 24);
      // (holdout15) how long an approval stands is no term: "APPROVAL VALID 14 DAYS"; (holdout27) "both structures are live
      // for 10 days", "offer stays open for 5 business days", "we'll hold it for 7 days"
      if (/\b((live|open|held|hold (it|this|them|these|the (offer|approval|terms))|holds|stands?|standing) for|last|past|within|good for|valid( for)?|available for|expires?( in)?|in the|neg\w*|nsf\w*|tib|only has|next|after|not at|not for|instead of|revisit|every|for the|from|up to|over the last|clean up for|hit|first|least|activity for|than|not on|not on the|(?<!(paid|repaid|back|off|remitted|collected) )in)\s*\(?$/.test(pre) && !/[12]\.\d{1,3}\s+for the\s*$/.test(pre)) continue;
      // the term the merchant asked for, restated: "the application asks for 12 months" (askedTerm compares it with the offer)
      if (ASKED_TERM_BEFORE.test(pre)) continue;
      // (holdout36) the lender's longest term stated as a rule, its sentence pricing nothing: "Breweries max out at 6 months
      // with us." (the offer is priced elsewhere; "max term is 6 months at 1.35" keeps its term)
      if (TERM_CAP_BEFORE.test(pre) && !/(?<![\d.])[12]\.\d{2}|\$\s?\d|\d\s?k\b/.test(`${lower.slice(0, m.index).split(/[.!?](?:\s|$)/).pop()} ${lower.slice(m.index + m[0].length).split(/[.!?](?:\s|$)/)[0]}`)) continue;
      // (holdout34) ... or named as an option the lender does not have: "No 9 month option"
      if (NO_TERM_OPTION.before.test(pre) && NO_TERM_OPTION.after.test(lower.slice(m.index + m[0].length))) continue;
      // ... with its amount before it: "you came in asking for 120k over 9 months"
      if (ASKED_CLAUSE_BEFORE.test(lower.slice(Math.max(0, m.index - 70), m.index).split(/[.!?;]\s/).pop() ?? '')) continue;
      // ... or the term asked, refused: "a 12-month weekly structure is beyond what our guidelines allow"
      if (ASKED_TERM_REFUSED_AFTER.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 80))) continue;
      // ... or said to be the one asked for: "the 12 months the owner asked for"
      // (holdout12) unless the lender grants it: "signed off at the full $100K, on the 12 months they asked for" is the
      // offer's term (a refusal before it, "can't do it on the 12 months they asked for", is caught above)
      const granted = askedTermGranted(lower.slice(0, m.index));
      if (ASKED_TERM_AFTER.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 80)) && !granted) continue;
      // (holdout28) how long the approval stands, counted from its date: "Good 14 days from today", "valid 10 days from issue"
      // (rfix22) ... nor months of records read: "six months of business bank statements", "4 months of processing history"
      if (/^\s*\)?\s*of (the )?(business |operating |checking |merchant |processing |card |deposit |account |company |corporate )+(statements|history|bank|activity|records|deposits|volume|data)/.test(post)) continue;
      // (revE) ... the kind of records alone after "of": "4 months of processing", "six months of deposits", "3 months of financials"
      if (/^\s*\)?\s*of (the )?(processing|deposits|records|financials|transactions|card sales|merchant processing|bank data)\b/.test(post)) continue;
      // (rfix24) ... nor the statements counted in a desk's shorthand: "4 mo stmts reviewed", "3 mos bank stmnts"
      if (/^\s*\)?\s*(bank |biz |business )?(stmts?|stmnts?|bank stmts?)\b/.test(post)) continue;
      // (rfix24) ... nor a stretch with no money coming in: "then nothing for 11 days", "no deposits for 2 weeks", "dry for a 9 day stretch"
      if (/\b(?:nothing|no (?:deposits?|activity|revenue|sales|credits?|income|wires?)|(?:went |goes |go |ran )?(?:dry|quiet|dead|silent)|zero(?: deposits)?) for(?: (?:a|an|about|around|roughly|nearly|almost|over))?\s*$/.test(pre)) continue;
      // (rfix25) ... nor the business's age, in Spanish as in English: "solo tiene 7 meses operando", "8 meses en el negocio", "7 months operating"
      if (/^\s*(?:operando|operating|in operation|funcionando|abiert[oa]s?|en (?:el )?negocio|de operaci[o\u00f3]n)\b/.test(post)) continue;
      // (rfix25) ... nor a checklist's months of statements with no "of": "Four months business bank statements", "3 mos biz stmts"
      if (/^\s*\)?\s*(?:(?:business|biz|operating|checking|merchant|company|corporate|personal|recent|most recent|latest|consecutive|full) )+(?:bank )?(?:statem|stmt)/.test(post)) continue;
      if (/^\s*\)?\s*(tib|in business|old|of (statements|history|bank|activity|tib)|(bank )?statements|mtd|ago|from (now|today|the date|date of|this (email|notice|letter|approval)|receipt|issue|issuance|approval)|to fund|notice|neg|negative|nsf|alone|minimum|min\b|of (clean|consecutive)|(won't|will not|doesn't|does not|isn't|is not) work)/.test(post)) continue;
      // (holdout13) a threshold, not a term: "we only run weekly remits at 12 months and up", "terms of 6 months or longer"
      if (/^\s*(and (up|over|above|longer|more)|or (more|longer|over|above)|\+|plus\b)/.test(post)) continue;
      // (holdout17) months of statements, not a term: "two of the four months had double-digit negative days"
      // (rfix25) ... whatever the months are said to hold: "two of the four months include a one-time equipment sale", "3 of the 6
      // months contain transfers", "one of the 4 months reflects a loan deposit"; (revH) and what is said of them after "that", "we":
      // "over the 3 of the 6 months that are strongest we see 20k avg", "2 of the 4 months we looked at"
      if (/\b(?:\w+|\d+) of the\s*$/.test(pre) && /^\s*(had|have|has|showed|show|shows|came in|were|was|are|is|include[sd]?|including|contain(?:s|ed)?|reflect(?:s|ed)?|carr(?:y|ies|ied)|inflated?|skew(?:s|ed)?|that|which|where|when|with|we|they|you|averag\w*|avg)\b/.test(post)) continue;
      if (!granted && /^\s*\)?\s*(you|they|he|she|we)? ?(asked|requested|wanted)/.test(post)) continue;
      // (holdout20) a term heading a line as the option's name, the line giving its own length after the colon
      // ("6 month: 1.28 factor, 120 business days at $640.00/day", "9 mo option - 39 weekly payments of ..."): a label,
      // the count or term after it is the offer's
      if (/^[\s\-*\u2022>]*(?:(?:option|structure|plan)\s+)?(?:[a-z0-9][).]\s*)?$/.test(pre) && /^\s*(?:option|structure|plan|term|program)?\s*[:\-\u2013]\s/.test(post) && lengthAfterLabel(lower.slice(m.index + m[0].length))) continue;
      // (holdout41) the term just stated, restated in another unit in brackets: "78 weeks (about 18 months)" is one term
      // (never "(or 9 months at 1.42)": an alternative is an option of its own)
      if (/\d\s*(?:-\s*)?(?:business |biz |calendar )?(?:days?|weeks?|wks?|months?|mos?)\s*\(\s*(?:about|approximately|approx\.?|roughly|around|nearly|~|i\.e\.,?)?\s*$/.test(pre)) continue;
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
      // (holdout18) ... nor money coming in over that period: "$12k a month of deposits", "a week in transfers"
      if (/^\s*((of|in) )?(revenue|deposits?|sales|balances?|gross|volume|income|rent|average|debits? to|transfers?|credits?|wires?)/.test(post)) continue;
      // (holdout12) a schedule refused is not the offer's: "Weekly isn't in our toolbox ... on a daily remit", "can't do weekly"
      if (REFUSED_FREQ_AFTER.test(lower.slice(m.index + m[0].length, m.index + m[0].length + 40)) || REFUSED_FREQ_BEFORE.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      // (holdout40) ... or one named with "no" before it for a kind of file: "no wkly on hvac guys only daily", "no weekly for restaurants"
      if (/(?<![\w'])no\s*$/.test(lower.slice(Math.max(0, m.index - 8), m.index)) && /^( payments?| debits?| ach| remits?| remittances?| pmts?)? ?(on|for|with|options?|programs?|products?|structures?|[,;.!]|$)/.test(post)) continue;
      if (overlaps(m.index, m.index + m[0].length) && !/^\//.test(m[0])) continue;
      // (rev-w) ... nor events counted over that period, or a file reviewed on that schedule: "max 3 negative days in a
      // month", "no more than 2 NSFs per month", "renewal eligibility reviewed monthly" (a 120-business-day offer was logged monthly)
      if (/\b(?:neg(?:ative)?s?(?: days?| balances?)?|days? negative|nsfs?|overdrafts?|returns?|returned items?|bounced (?:items?|payments?))(?: allowed)?(?: (?:in|per|a|each|every)(?: a| an| the| any)?)?\s*$|\b(?:reviewed|re-?reviewed|checked|audited|re-?verified|monitored|reported|updated|reconciled)\s*$/.test(lower.slice(Math.max(0, m.index - 40), m.index))) continue;
      // (rfix20) ... nor a schedule guessed at: "probably daily", "maybe weekly", "I think it's weekly" (no schedule stated; the
      // offer's frequency stays unknown, for a person)
      if (HEDGED_BEFORE.test(lower.slice(Math.max(0, m.index - 24), m.index))) continue;
      facts.push({ pos: base + m.index, kind: 'freq', value: 0, freq: normFreq(m[0]), text: m[0] });
    }
    base += line.length + 1;
  }
  // (holdout25) a funding amount and a larger "purchase price" both labelled: the price is the payback (vocabulary.ts PRICE_AS_PAYBACK)
  const labelOf = (f: Fact) => {
    const at = f.pos - offset;
    return text.slice(text.lastIndexOf('\n', at - 1) + 1, at).toLowerCase();
  };
  const priceRe = PRICE_LABEL_RE;
  const fundingRe = FUNDING_LABEL_RE;
  const funding = facts.filter((f) => f.kind === 'money' && f.money === 'funded' && fundingRe.test(labelOf(f)));
  for (const f of facts) {
    if (f.kind !== 'money' || f.money !== 'funded' || !priceRe.test(labelOf(f))) continue;
    if (funding.some((g) => f.value >= g.value * 1.05 && f.value <= g.value * 1.8)) f.money = 'payback';
  }
  // (holdout36) a payment that is not the offer's: the merchant's existing debits ("3 positions eating 2,300/day", "his MCAs
  // are pulling about 1,900 a week")
  const before = (f: Fact) => text.slice(Math.max(0, f.pos - offset - 48), f.pos - offset).toLowerCase();
  const notOffers = facts.filter((f) => f.kind === 'money' && f.money === 'payment' && OTHER_DEBITS_BEFORE.test(before(f)));
  // (the debits' own schedule goes with them: "2,300/day")
  const theirSchedule = (f: Fact) => f.kind === 'freq' && notOffers.some((d) => d.money === 'payment' && f.pos >= d.pos && f.pos - d.pos <= d.text.length + 2);
  return facts.filter((f) => !notOffers.includes(f) && !theirSchedule(f)).sort((a, b) => a.pos - b.pos);
}

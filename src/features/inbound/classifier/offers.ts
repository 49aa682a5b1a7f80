import type { ExtractedOffer, PaymentFrequency, ReplyContext, TermUnit } from './types';
import { offerText, round2, splitCells } from './text';
import { type Fact, termDiffers } from './money';
import { scanFacts } from './facts';

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
  /** (rfix11) Sell rates named with the offer ("buy rate 1.29 / sell 1.39"): see soldAt. */
  sells?: number[];
  /** (rev-w) A payback or payment named as the ceiling ("max payback"): see soldAt. */
  ceilingFigure?: boolean;
  /** A second, different term met before the offer was priced (see offerConflict). */
  otherTerm?: string;
  /** The sentence its schedule was named in, and whether that came before any of its figures (see groupFacts). */
  freqSentence?: number;
  freqEarly?: boolean;
  termSentence?: number;
  countSentence?: number;
  /** (rfix20) The term stated as an approximation ("approx 6 mos", "about 6 months", "~6 mo"): see finishOffers. */
  termApprox?: boolean;
  /** (revr) A balloon owed at the end beside the payments ("Balloon payment: $12,000 at month 36"): see finishOffers. */
  balloon?: boolean;
  /** (revr) The payment quoted before tax ("48 monthly at $1,300 plus tax"): see offerConflict. */
  paymentPlusTax?: boolean;
  /** (rfix27) An amount of no stated role priced by a factor and a term of its own, left out because other amounts are labelled: see groupFacts. */
  dropped?: number;
}

/** (rev-w) The words before a figure naming it the most that could be paid: "max payback", "payback up to", "if sold at max". */
const CEILING_FIGURE = /\b(?:max(?:imum)?|up to|cap(?:ped)?|ceiling|top|highest|if (?:sold|you sell|it sells) at)\b/;

/** (rfix20) Words right before a term marking it a rounding of the schedule: "approx 6 mos", "about 6 months", "~6 mo". */
const TERM_APPROX_BEFORE = /(?:\bapprox\w*\.?|\babout|\baround|\broughly|\bjust (?:over|under)|\bclose to|\bcirca|~)\s*$/i;
/** (rfix31) ... and right after it, in English or Spanish: "8 meses aprox", "(8 months approx.)", "6 mos or so", "8 meses más o menos". */
const TERM_APPROX_AFTER = /^[^\S\n]*(?:\bapprox\w*\.?|\baprox\w*\.?|\bor so\b|\bgive or take\b|\bm[a\u00e1]s o menos\b|\bmore or less\b|\bish\b)/i;

function groupFacts(facts: Fact[], text = ''): Draft[] {
  // the sentence a fact is in (a full stop before a space or the line's end, or a new line, ends one)
  const breaks: number[] = [];
  for (const m of text.matchAll(/[.!?](?=\s|$)|\n/g)) breaks.push(m.index);
  const sentenceOf = (pos: number) => breaks.filter((b) => b < pos).length;
  const labelled = facts.some((f) => f.kind === 'money' && f.money === 'funded' && !f.shorthand);
  // (holdout13) the approved amount restated at the head of each structure of a menu ("approved for the whole 50k ...
  // A) $50,000 / payback $64,500 / 25 weekly ... B) $50,000 / payback $69,000 / 40 weekly"): each is an offer's amount
  const fundedValues = new Set(facts.filter((f) => f.kind === 'money' && f.money === 'funded').map((f) => f.value));
  // (holdout27) an amount of no stated role that the text's own factor turns into its own stated payback ("we can buy
  // $50,000.00 of receivables ... Purchased amount $68,000.00 (1.36)"): the amount funded, however it was worded
  const paybacks = facts.filter((f) => f.kind === 'money' && f.money === 'payback').map((f) => f.value);
  const factors = facts.filter((f) => f.kind === 'factor').map((f) => f.value);
  for (const f of facts) {
    if (f.kind === 'money' && f.money === 'unknown' && f.value >= 1000 && paybacks.some((p) => factors.some((x) => Math.abs(f.value * x - p) <= Math.max(1, p * 0.002)))) fundedValues.add(f.value);
  }
  // (holdout36) a figure read as the payback ("60k total") that the text's own factor turns into what its own payments repay
  // ("60k total, 1.42 ... 2,130/wk x 40 wks": 60,000 x 1.42 = 85,200 = 2,130 x 40): the amount funded, not the payback
  const payments = facts.filter((f) => f.kind === 'money' && f.money === 'payment').map((f) => f.value);
  const counts = facts.filter((f) => f.kind === 'term' || f.kind === 'count').map((f) => f.value);
  const repaidBy = (v: number) => factors.some((x) => payments.some((p) => counts.some((n) => Math.abs(v * x - p * n) <= Math.max(1, v * x * 0.002))));
  const paybackIsAmount = new Set(facts.filter((f) => f.kind === 'money' && f.money === 'payback' && f.value >= 1000 && repaidBy(f.value)).map((f) => f.value));
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
        const kind = f.money === 'unknown' ? (c.same && c.amount === undefined ? 'funded' : labelled ? (fundedValues.has(f.value) ? 'funded' : 'ignore') : f.value >= 1000 ? 'funded' : 'payment') : f.money === 'payback' && paybackIsAmount.has(f.value) ? 'funded' : f.money;
        if (kind === 'funded') {
          if (c.amount !== undefined) fresh().amount = f.value;
          else c.amount = f.value;
        } else if (kind === 'payment') {
          if (c.payment === undefined) {
            c.payment = f.value;
            if (PLUS_TAX_AFTER.test(text.slice(f.pos + f.text.length, f.pos + f.text.length + 40))) c.paymentPlusTax = true;
          }
        } else if (kind === 'payback') {
          if (c.payback === undefined) c.payback = f.value;
        }
        // (rev-w) a payback or payment said to be the most the merchant could pay ("Max payback $72,500", "payback up to
        // $70,000", "if sold at max the payback would be ..."): priced at the broker's ceiling, not at a rate the deal is sold at
        if ((kind === 'payback' || kind === 'payment') && CEILING_FIGURE.test(text.slice(Math.max(0, f.pos - 40), f.pos).toLowerCase().split(/[.;!?\n]/).pop() ?? '')) c.ceilingFigure = true;
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
          c.termSentence = sentenceOf(f.pos);
          c.termApprox = TERM_APPROX_BEFORE.test(text.slice(Math.max(0, f.pos - 16), f.pos)) || TERM_APPROX_AFTER.test(text.slice(f.pos + f.text.length, f.pos + f.text.length + 24));
        } else if (c.factor !== undefined || c.payback !== undefined) {
          // (holdout21) ... also when the options name no amount ("approved at the requested 60. 6 mo - 1.29 - daily /
          // 9 mo - 1.36 - daily / 12 mo - 1.45 - weekly"): a priced option with its term is done
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
          c.countSentence = sentenceOf(f.pos);
        }
        break;
      case 'freq':
        if (c.freq === undefined) {
          c.freq = f.freq;
          c.freqSentence = sentenceOf(f.pos);
          c.freqEarly = c.amount === undefined && c.factor === undefined && c.term === undefined && c.payback === undefined;
        } else if (c.freqEarly && c.term !== undefined && c.freqSentence !== sentenceOf(f.pos) && c.termSentence === sentenceOf(f.pos)) {
          // (rfix17) a schedule named in a sentence of its own before the offer ("the other funder's daily is eating them
          // alive"), then the offer's own in the sentence that states its term ("$100,000 at 1.42, 11 months weekly"): the
          // offer's is the one beside its terms
          c.freq = f.freq;
          c.freqSentence = sentenceOf(f.pos);
          c.freqEarly = false;
        }
        break;
      case 'sell':
        (c.sells ??= []).push(f.value);
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
  // (revr) a balloon owed at the end of a lease: the payments alone are not what is paid back
  if (/\bballoon\b/i.test(text)) for (const d of drafts) d.balloon = true;
  // (rfix27) an amount of no stated role left out because other amounts are labelled, yet priced by a factor and a term of its own
  // before the next amount ("~~$110,000~~ -> $85,000 / Factor rate: 1.30 / Term: 10 months" above "Clean copy: Amount $80,000 |
  // Factor 1.30 | ..."): the reply states the offer's amount twice and the two disagree; which stands is for a person, never the
  // labelled one taken silently
  if (labelled) {
    for (let i = 0; i < facts.length; i++) {
      const f = facts[i];
      if (f.kind !== 'money' || f.money !== 'unknown' || f.value < 1000 || fundedValues.has(f.value)) continue;
      let factor = false;
      let term = false;
      for (let j = i + 1; j < facts.length; j++) {
        const g = facts[j];
        if (g.kind === 'money' && g.money !== 'payment' && g.money !== 'payback') break;
        if (g.kind === 'factor') factor = true;
        if (g.kind === 'term' || g.kind === 'count') term = true;
      }
      if (factor && term) for (const d of drafts) d.dropped ??= f.value;
    }
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

/** (revr) A figure followed by the tax on top of it: "$1,300 plus tax", "$1,300 + applicable sales tax". */
const PLUS_TAX_AFTER = /^\s*(?:\/\s*(?:mo|month)\s*)?(?:\+|plus)\s*(?:applicable\s+|sales\s+|use\s+|state\s+|local\s+)*tax(?:es)?\b/i;

/** Where an offer's stated parts disagree (see ExtractedOffer.conflict), or undefined. */
function offerConflict(d: Draft, amount: number, factor: number | null, term: number | null, unit: TermUnit | null, freq: PaymentFrequency | null, payment: number | null): string | undefined {
  const notes: string[] = [];
  // (revr) a payment quoted before tax is not what the merchant pays, nor the payments a factor could be counted from
  if (d.paymentPlusTax && payment !== null) notes.push(`the $${payment.toLocaleString('en-US')} payment is quoted before tax`);
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

/**
 * (rfix11) A buy rate and a sell rate named together, the payback or the payments stated at the sell ("Buy rate 1.29 / sell
 * 1.39 ... At the 1.39 sell: $55,600 payback, 28 weekly debits of $1,985.71"): the figures the merchant signs for are
 * priced at the sell rate, so it is the offer's factor. The sell rate, when the stated figures agree with it and not with
 * the buy rate; else undefined (the buy rate stays the factor: payback "at buy", or no figures to tell).
 */
function soldAt(d: Draft, amount: number, payment: number | null, n: number | null): number | undefined {
  // (rev-w) figures stated at the most the broker may sell at ("max sell 1.45. Max payback $72,500") price no sale: which
  // rate the merchant signs for is still open (the buy rate stays, and the figures that disagree with it go to a person)
  if (d.factor === undefined || !d.sells?.length || d.ceilingFigure) return undefined;
  const agrees = (x: number): boolean | null => {
    if (d.payback !== undefined) return Math.abs(amount * x - d.payback) <= d.payback * 0.01;
    if (payment !== null && n !== null) return Math.abs(payment * n - amount * x) <= amount * x * 0.02;
    return null;
  };
  if (agrees(d.factor) !== false) return undefined;
  return d.sells.find((x) => agrees(x) === true);
}

/**
 * (revC) A fee said to be in or on top of a payment ("$450 a day (includes a $25 daily ACH fee)", "$450/day plus a $15 processing
 * fee"): the payment is not the advance's share alone, so no count of payments is made from it.
 */
const FEE_WITH_PAYMENT = /\b(?:includ(?:es|ing|ed)|incl\.?|inclusive of|plus|\+)[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:\$[\d,.]+[ \t]+)?(?:[a-z/-]+[ \t]+){0,3}?fees?\b|\bfees?\b[^.\n]{0,20}\b(?:included|built in|baked in|added (?:to|on))\b/i;

function finishOffers(drafts: Draft[], globalFreq: PaymentFrequency | undefined, fill?: number, feeWithPayment = false): ExtractedOffer[] {
  const out: ExtractedOffer[] = [];
  // (holdout17) a menu of structures under one amount ("good for the full fifty. A) 1.29 / 120 business days ... B) 1.35 /
  // 36 weeks ..."): priced terms naming no amount after a priced offer are another structure for that offer's amount.
  // Priced terms that still name no amount beside offers that do are an offer nobody can read surely: every offer read
  // beside them carries the doubt (a person completes it; never logged short of one).
  let dangling = 0;
  if (fill === undefined) {
    let last: number | undefined;
    for (const d of drafts) {
      const priced = d.factor !== undefined && (d.term !== undefined || d.count !== undefined);
      if (d.amount !== undefined) {
        if (d.factor !== undefined || d.payback !== undefined) last = d.amount;
      } else if (priced) {
        if (last !== undefined) d.amount = last;
        else dangling++;
      }
    }
  }
  // (rfix25) a term and a payment stated after an offer was priced, naming no amount, factor or payback of their own ("two of
  // the four months ... Advance $75,000 / Factor 1.33 / Term: 36 weeks, weekly ACH of $2,770.83" with the "four months" read
  // first): a schedule the offer read left out; an offer with no payment of its own beside it is not read surely (a person)
  const looseSchedules = drafts.filter((d) => d.amount === undefined && d.factor === undefined && d.payback === undefined && d.payment !== undefined && (d.term !== undefined || d.count !== undefined));
  for (const d of drafts) {
    // `fill`: the amount of priced terms that name none (an approval of the ask: "Approved. 1.33 factor, 9 months")
    if (d.amount === undefined && fill !== undefined && d.factor !== undefined && (d.term !== undefined || d.count !== undefined)) d.amount = fill;
    if (d.amount === undefined || d.amount < 1000 || d.amount > 100_000_000) continue;
    // (holdout11) a count of payments is a term too: "Approved $50,000, 180 daily payments of $375.00" is an offer
    if (d.factor === undefined && d.term === undefined && d.payback === undefined && d.count === undefined) continue;
    // (holdout14) a count's own schedule ("130 daily payments") is the payments', over a schedule named elsewhere in the
    // reply ("we only run weekly remits at 12 months and up")
    const freq = d.countFreq ?? d.freq ?? globalFreq ?? null;
    let term = d.term ?? null;
    let unit = d.unit ?? null;
    if (term === null && d.count !== undefined && freq) {
      term = freq === 'bi-weekly' ? d.count * 2 : d.count;
      unit = freq === 'daily' ? 'days' : freq === 'monthly' ? 'months' : 'weeks';
    }
    if (term !== null && unit === null) unit = 'days';
    let payment = d.payment ?? null;
    if (payment !== null && payment >= d.amount) payment = null;
    // (rfix21) no term and no count, but a factor (or payback), a payment and its schedule ("30k a 1.40, $350 diario"): the
    // payments that repay amount x factor are the term, when they come to a whole number of payments (to the cent, or within
    // a dollar of the total) on a schedule the trade writes; a remainder is no count, and the offer stays incomplete
    if (term === null && d.count === undefined && !feeWithPayment && freq && payment !== null && (d.factor !== undefined || d.payback !== undefined)) {
      const total = d.payback ?? d.amount * d.factor!;
      const n = Math.round(total / payment);
      const range: Record<PaymentFrequency, [number, number]> = { daily: [20, 520], weekly: [4, 104], 'bi-weekly': [2, 52], monthly: [2, 120] };
      const [lo, hi] = range[freq];
      if (n >= lo && n <= hi && Math.abs(payment * n - total) <= 1) {
        term = freq === 'bi-weekly' ? n * 2 : n;
        unit = freq === 'daily' ? 'days' : freq === 'monthly' ? 'months' : 'weeks';
      }
    }
    // (holdout35) a count of payments that repays the offer to the cent ("52 weekly payments of $4,125.00 ($214,500
    // total)" on $150,000 at 1.43) is the term, over a term read elsewhere that the payments do not confirm (the ask's
    // "6 months" refused, an early-payoff window "inside sixteen weeks", "60-90 day invoices")
    // (rfix) ... never over a term stated in the same sentence as the count, as the offer's own ("approved at $30,000, factor
    // 1.40, 6 month term, 100 daily payments of $420.00"): the lender stated both, they disagree, a person asks which
    // (rfix20) ... and a term the lender itself rounds ("120 daily pmts of $291.67, approx 6 mos") yields to the payments it
    // counts in the same sentence: the count is exact, the rounding is not (unless a factor or payback stated disagrees with
    // the payments counted: then both stay, and the conflict goes to a person)
    if (term !== null && d.term !== undefined && d.count !== undefined && freq && payment !== null && (d.termSentence !== d.countSentence || d.termApprox)) {
      const cf = freq;
      const total = d.payback ?? (d.factor !== undefined ? d.amount * d.factor : undefined);
      const exact = (n: number | null) => total !== undefined && n !== null && Math.abs(payment! * n - total) <= Math.max(1, total * 0.002);
      const counted = { term: cf === 'bi-weekly' ? d.count * 2 : d.count, unit: (cf === 'daily' ? 'days' : cf === 'monthly' ? 'months' : 'weeks') as TermUnit };
      const countStands = exact(d.count) || (d.termApprox === true && total === undefined);
      if (countStands && !exact(ownCount(term, unit, cf)) && (termDiffers({ term, term_unit: unit }, counted) || (d.termApprox === true && (term !== counted.term || unit !== counted.unit)))) {
        term = counted.term;
        unit = counted.unit;
        d.term = term;
        d.unit = unit;
      }
    }
    // the factor as stated, else derived from the payback (2-4 decimals, as the contract takes it); (holdout11) with no
    // payback stated, the payments counted are the payback ("180 daily payments of $375.00" on $50,000: 1.35), when that
    // gives a factor the trade writes (1.05 to 2)
    const n = d.count ?? ownCount(term, unit, freq);
    const unstated = d.factor === undefined && d.payback === undefined;
    const sold = soldAt(d, d.amount, payment, n);
    if (sold !== undefined) d.factor = sold;
    const paidBack = d.payback ?? (d.factor === undefined && payment !== null && n !== null && payment * n >= d.amount * 1.05 && payment * n <= d.amount * 2 ? round2(payment * n) : undefined);
    const stated = d.factor ?? (paidBack !== undefined && paidBack > d.amount ? Math.round((paidBack / d.amount) * 10000) / 10000 : undefined);
    const factor = stated !== undefined && stated >= 1 && stated <= 5 ? stated : null;
    const missing = [factor === null ? 'factor_rate' : null, term === null ? 'term' : null].filter((x): x is string => x !== null);
    // (revr) a factor counted from the payments of a lease that also owes a balloon leaves the balloon out: a person prices it
    const balloonLeftOut = d.balloon && unstated && factor !== null ? 'a balloon is owed beyond the payments the factor was counted from' : undefined;
    // (one whose payments repay this offer on its own term is this offer's, said again: "over 130 business days (roughly six
    // months) at $695.00 per day" on $65,000 at 1.39)
    const fitsOwnTerm = (x: Draft) => {
      const n = ownCount(term, unit, x.freq ?? freq);
      const f = d.factor ?? (d.payback !== undefined ? d.payback / d.amount! : undefined);
      return n !== null && f !== undefined && Math.abs(x.payment! * n - d.amount! * f) <= d.amount! * f * 0.02;
    };
    const loose = payment === null ? looseSchedules.find((x) => x !== d && (x.term === undefined || x.term !== term || (x.unit ?? 'days') !== unit) && !fitsOwnTerm(x)) : undefined;
    const looseLeftOut = loose ? `a schedule stated apart from this offer (${loose.term !== undefined ? `${loose.term} ${loose.unit ?? 'days'}, ` : ''}$${loose.payment!.toLocaleString('en-US')}) is not its own` : undefined;
    const droppedAmount = d.dropped !== undefined && d.dropped !== d.amount ? `another amount ($${d.dropped.toLocaleString('en-US')}) is priced by a factor and a term of its own: which amount stands is not clear` : undefined;
    // (revM) an amount of ten million or more ("Funded 60 M" on a pasted sheet): the trade's "M" is a thousand as often as a
    // million (60 M = $60,000 in the old notation), and no advance this size is logged without a person reading it
    const hugeAmount = d.amount >= 10_000_000 ? `an amount of $${d.amount.toLocaleString('en-US')} ("M" may be thousands): a person reads it` : undefined;
    const notes = [offerConflict(d, d.amount, factor, term, unit, freq, payment), hugeAmount, balloonLeftOut, looseLeftOut, droppedAmount, dangling ? `priced terms beside this offer name no amount (${dangling})` : undefined].filter(Boolean);
    const conflict = notes.length ? notes.join('; ') : undefined;
    out.push({ amount: d.amount, factor_rate: factor, term, term_unit: unit, payment_frequency: freq, payment_amount: payment, missing, ...(conflict ? { conflict } : {}) });
  }
  // the same offer read twice is one offer; (rfix17) the same price on two stated schedules ("merchant picks: weekly $1,000
  // x 52, or bi-weekly $2,000 x 26") is two offers, each logged with its own schedule and payment
  const kept: ExtractedOffer[] = [];
  for (const o of out) {
    const same = kept.some(
      (k) =>
        k.amount === o.amount && k.factor_rate === o.factor_rate && k.term === o.term && k.term_unit === o.term_unit &&
        !(k.payment_frequency !== null && o.payment_frequency !== null && k.payment_frequency !== o.payment_frequency),
    );
    if (!same) kept.push(o);
  }
  // (holdout36) a line naming only part of an offer the reply prices in full elsewhere ("Buy rate 1.30, you can sell up to
  // 1.39" above "At buy: $40,000 funded / $52,000 RTR / 130 business days"): its every stated figure is the full offer's,
  // so it is that offer named twice, not a second one missing its term
  const full = kept.filter((k) => k.missing.length === 0);
  return kept.filter(
    (o) =>
      o.missing.length === 0 ||
      !full.some((k) => k.amount === o.amount && (o.factor_rate === null || o.factor_rate === k.factor_rate) && (o.term === null || (o.term === k.term && o.term_unit === k.term_unit) || sameTermOtherUnit(o, k)) && (o.payment_amount === null || o.payment_amount === k.payment_amount)),
  );
}

/**
 * (holdout41) The same term in another unit: the words' "one-year term loan" (12 months) beside the figures' "52 weeks"; only
 * across units (the same unit must match exactly), within termDiffers' tenth.
 */
function sameTermOtherUnit(o: ExtractedOffer, k: ExtractedOffer): boolean {
  if (o.term === null || o.term_unit === null || k.term === null || k.term_unit === null || o.term_unit === k.term_unit) return false;
  return !termDiffers({ term: o.term, term_unit: o.term_unit }, { term: k.term, unit: k.term_unit });
}

const FREQ_CELL = /^(daily|weekly|bi-?weekly|monthly|dailies|weeklies|semi-?monthly)\b/i;
// (holdout20) "Installment" / "Installments" are a portal's payment and payment-count rows
const FIELD_WORD = /amount|fund|advance|purchase|approv|factor|rate|buy|sell|term|length|duration|payment|pmt|debit|payback|rtr|frequency|freq|remit|installment|schedule/i;


/** A header cell's unit hint ("Term (days)") appended to a bare number. */
function withUnit(label: string, value: string): string {
  // (rfix30) a term column's cell in a pasted sheet's one-letter unit ("39 W", "140 D", "12 M"): the unit spelled out, only
  // under a term heading (in prose "39 W" can be an address: "39 W Main St")
  const letter = /^(\d{1,3})\s*(w|wk|d|m|mo)\.?$/i.exec(value.trim());
  if (letter && /term|length|duration/i.test(label)) {
    const u = letter[2].toLowerCase();
    return `${letter[1]} ${u.startsWith('w') ? 'weeks' : u.startsWith('m') ? 'months' : 'days'}`;
  }
  if (/^\d{1,3}$/.test(value.trim())) {
    const u = /\b(days|weeks|months)\b/i.exec(label);
    if (u) return `${value} ${u[1]}`;
    if (/term|length|duration/i.test(label)) return `${value} days`;
    // a column counting the payments ("Weekly Payments | 40", "# of Debits | 120"): a count, not an amount (holdout9)
    if (/\b(payments|pmts|pymts|debits|pulls|installments|remittances)\b/i.test(label) && !/amount|\$|size|each|per\b/i.test(label)) {
      const f = /\b(daily|weekly|bi-?weekly|monthly)\b/i.exec(label);
      return `${value} ${f ? `${f[1].toLowerCase()} ` : ''}payments`;
    }
  }
  return value;
}

type CellKind = 'money' | 'factor' | 'term' | 'freq';
/** A heading's kind of figure; null for a column of words (product, option name, notes). */
function headingKind(h: string): CellKind | null {
  if (/fctr|factor|\brate\b|\bbuy\b|\bsell\b/i.test(h)) return 'factor';
  // (revM) a product's name in an amount's heading ("Term Loan Amt") is an amount column, not the term
  if (/term|length|duration/i.test(h) && !/\b(amt|amount|funded|advance)\b/i.test(h)) return 'term';
  if (/freq|frequency|schedule/i.test(h)) return 'freq';
  // a column counting the payments ("# of Pmts", "Weekly Payments") is no money column: no typed reading
  if (/#|\bno\.|count|number/i.test(h)) return null;
  // (revM) ... also the money a sheet states beside the advance ("Net to Merchant", "Orig Fee", "Payoff"): a money column the
  // row's figures are counted against, not a column of words (else a row that ran together fails to count out and is lost)
  if (/amt|amount|fund|advance|purchase|approv|payback|\bback\b|total|repay|rtr|pmt|payment|debit|remit|installment|\bnet\b|\bfees?\b|payoff|proceeds|disburse/i.test(h)) return 'money';
  return null;
}
const ROW_FIGURE = /(\$\s?\d[\d,]*(?:\.\d+)?)|(?<![\d.,$])([12]\.\d{2,4})(?![\d%])|(?<![\d.,$])(\d{1,3}\s*(?:d|days?|w|wks?|weeks?|m|mos?|months?)\.?)(?![\w])|\b(daily|weekly|wkly|dly|bi-?weekly|monthly|mthly)\b/gi;
/**
 * (rfix30) A table row read by the kind of each figure (money, factor, term, schedule) rather than its position: the n-th
 * money figure to the n-th money column, and so on. Null unless every kind counts out exactly against the heading (a
 * figure too many or too few: the positional reading, and what it cannot price goes to a person).
 */
function typedRow(heading: string[], line: string): string | null {
  const kinds = heading.map(headingKind);
  const found: Record<CellKind, string[]> = { money: [], factor: [], term: [], freq: [] };
  for (const m of line.matchAll(ROW_FIGURE)) {
    if (m[1]) found.money.push(m[1]);
    else if (m[2]) found.factor.push(m[2]);
    else if (m[3]) found.term.push(m[3]);
    else if (m[4]) found.freq.push(m[4]);
  }
  for (const k of ['money', 'factor', 'term', 'freq'] as CellKind[]) if (found[k].length !== kinds.filter((x) => x === k).length) return null;
  if (!found.money.length) return null;
  const next: Record<CellKind, number> = { money: 0, factor: 0, term: 0, freq: 0 };
  return heading
    .map((h, i) => {
      const k = kinds[i];
      return h && k ? `${h}: ${withUnit(h, found[k][next[k]++])}` : '';
    })
    .filter(Boolean)
    .join('\n');
}

/** (revM) A schedule column's one-letter code in a pasted sheet ("W", "D", "M", "BW") spelled out, only under a schedule heading. */
function freqCell(label: string, value: string): string {
  const m = /^(d|w|m|bw|b\/w)\.?$/i.exec(value.trim());
  if (!m || !/freq|schedule/i.test(label)) return value;
  const u = m[1].toLowerCase();
  return u === 'd' ? 'daily' : u === 'w' ? 'weekly' : u === 'm' ? 'monthly' : 'bi-weekly';
}

/**
 * A table row as a "label: value" document, cell by cell under its heading. (revM) A bare term beside a weekly or monthly
 * schedule ("Term 40 ... Freq W", "Term 12 ... Monthly") is counted in the schedule's unit (40 weeks, 12 months), where the
 * days a bare term column defaults to would log 40 days beside a weekly payment that repays the payback in 40 weeks; a
 * figure too long for that unit (over 104 weeks, 36 months) stays days, and a payment that does not fit stays a conflict.
 */
function rowDocument(heading: string[], values: string[]): string {
  const vals = heading.map((h, k) => freqCell(h, values[k] ?? ''));
  const sched = heading.map((h, k) => (h && /freq|schedule/i.test(h) ? /^(weekly|monthly)\b/i.exec(vals[k].trim())?.[1].toLowerCase() : undefined)).find(Boolean);
  const cell = (h: string, v: string) => {
    const n = /^\d{1,3}$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (sched && /term|length|duration/i.test(h) && !/\b(days|weeks|months)\b/i.test(h) && n >= 1 && n <= (sched === 'weekly' ? 104 : 36)) return `${n} ${sched === 'weekly' ? 'weeks' : 'months'}`;
    return withUnit(h, v);
  };
  return heading.map((h, k) => (h ? `${h}: ${cell(h, vals[k])}` : '')).filter(Boolean).join('\n');
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
      // (holdout27) a rule under the header or between rows ("-------  -------", "+------+------+"): drawn, not a row
      const RULE = /^[\s\-=+|:_~]{3,}$/;
      for (;;) {
        while (j < lines.length && RULE.test(lines[j])) j++;
        if (!(j < lines.length && cells[j].length >= row.length - 1 && cells[j].length >= 2 && cells[j].some((c) => /\d/.test(c)))) break;
        rows.push(j++);
      }
      if (rows.length) {
        used.add(i);
        for (const r of rows) {
          used.add(r);
          // (rfix30) a row whose cells do not line up with the heading (a sheet pasted from a PDF runs two figures
          // together: "$142,000.00 1.42"): each figure to its column by its kind, when the kinds count out exactly
          const typed = cells[r].length !== row.length ? typedRow(row, lines[r]) : null;
          docs.push(typed ?? rowDocument(row, cells[r]));
        }
        i = j - 1;
        continue;
      }
    }
    // column table: label in the first cell, two or more values
    // (the label cell holds no value: "Approved: $45,000 | Factor 1.34 | 7 months" is one offer on one line)
    const isLabelRow = (r: string[]) => r.length >= 3 && FIELD_WORD.test(r[0]) && !/\$|\d[\d,.]*\d/.test(r[0]) && r.slice(1).filter((c) => /\d/.test(c)).length >= 2;
    // (holdout14) a row of schedules, one per option ("Payments | Daily | Weekly"): no digits, still the options' terms
    const isFreqRow = (r: string[]) => r.length >= 3 && FIELD_WORD.test(r[0]) && r.slice(1).filter(Boolean).length >= 2 && r.slice(1).filter(Boolean).every((c) => FREQ_CELL.test(c.trim()));
    const inBlock = (r: string[]) => isLabelRow(r) || isFreqRow(r);
    if (isLabelRow(row) || (isFreqRow(row) && i + 1 < lines.length && isLabelRow(cells[i + 1]))) {
      let start = i;
      if (i > 0 && cells[i - 1].length >= 3 && !cells[i - 1][0] && !used.has(i - 1)) start = i - 1; // "| Option A | Option B"
      let j = i;
      const block: number[] = [];
      while (j < lines.length && cells[j].length >= 2 && (inBlock(cells[j]) || (cells[j].length === 2 && FIELD_WORD.test(cells[j][0])))) block.push(j++);
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


/** Amounts put forward as what could be funded, priced or not ("probably around 35", "might squeeze 25"). */
export function floatedAmounts(own: string, ctx?: ReplyContext, firm = false): number[] {
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
  for (const doc of docs) offers.push(...finishOffers(groupFacts(scanFacts(doc, 0, ctx), doc), globalFreq, fill, FEE_WITH_PAYMENT.test(doc)));
  const fromTables = offers.filter((o) => o.missing.length === 0);
  // (holdout27) the prose naming an offer its table prices ("our 12-month term loan for the full 80K" above the table, "buy
  // rate 1.29 on A" beside it): an incomplete offer whose every stated figure a complete table offer has is that offer
  const sameAsTable = (o: ExtractedOffer) =>
    o.missing.length > 0 &&
    fromTables.some((t) => t.amount === o.amount && (o.factor_rate === null || o.factor_rate === t.factor_rate) && (o.term === null || (o.term === t.term && o.term_unit === t.term_unit)));
  offers.push(...finishOffers(groupFacts(scanFacts(rest, 0, ctx), rest), globalFreq, fill, FEE_WITH_PAYMENT.test(rest)).filter((o) => !sameAsTable(o)));
  return offers;
}

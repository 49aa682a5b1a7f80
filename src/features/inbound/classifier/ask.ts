
/** A refusal of the ask's amount in words: "can't do 70", "can't fund the $70,000", "unable to approve 70k". */
function refusalOfAsk(ask: number): string {
  const k = ask / 1000;
  const amount = `(\\$\\s?${ask.toLocaleString('en-US')}|\\$?${ask}|\\$?${k}\\s?k|${Number.isInteger(k) ? k : 'x^'})`;
  return `\\b(can't|cannot|can not|couldn't|unable to|not able to)\\s+(do|fund|approve|go|get to)\\s+(the\\s+)?(full\\s+)?${amount}(?![\\d.,]*\\d)`;
}

/** "Can't do 70", "can't fund the $70,000", "unable to approve 70k" where 70k is the deal's ask. */
export function refusesAsk(lower: string, ask: number): boolean {
  return new RegExp(refusalOfAsk(ask)).test(lower);
}

/** The terms a refusal names as what it refuses: "on our standard terms", "at that term", "with the submitted structure". */
const ON_THE_TERMS = `\\s+(?:(?:on|at|with|under)\\s+(?:our\\s+|the\\s+|your\\s+|that\\s+|this\\s+)?(?:standard|normal|usual|regular|typical|current|requested|asked|proposed|submitted|same|those|these)?\\s*(?:terms?|pricing|program|structure|rate|factor|schedule|paper|length))\\b`;

/**
 * (holdout36) The ask refused only on the terms it came with: "can't do 60 on our standard terms", "can't do 60 at that term".
 * An option at the ask on other terms beside it is no contradiction. ("Can't do 60 as submitted" refuses the deal as sent,
 * amount included: the full amount offered beside it is still for a person.)
 */
export function refusesAskOnTheTerms(lower: string, ask: number): boolean {
  const refusal = refusalOfAsk(ask);
  const all = lower.match(new RegExp(refusal, 'g'))?.length ?? 0;
  return all > 0 && all === (lower.match(new RegExp(refusal + ON_THE_TERMS, 'g'))?.length ?? 0);
}

/** The deal's ask as a lender writes it: "$150,000", "150,000", "150k", "$150k", a bare "150". */
function askPattern(ask: number): string {
  const k = ask / 1000;
  return `(\\$\\s?${ask.toLocaleString('en-US')}|\\$?${ask}|\\$?${k}\\s?k|${Number.isInteger(k) ? `\\$?${k}` : 'x^'})(?![\\d.,]*\\d)(?!\\s*(%|days?|weeks?|wks?|months?|mos?|payments?|pmts?|positions?|nsfs?|negs?|pts?|points?))`;
}

/** The ask named in a refusal: "35, not 50", "declined for the full 110", "instead of the $80,000", "can't get to 75". */
export function refusedAskByName(lower: string, ask: number): string | null {
  const m =
    new RegExp(`\\b(not|instead of|rather than|versus|vs\\.?|(can't|cannot|couldn't|unable to|not able to) (do|fund|approve|go|get to|get you)|declined( it| this| the file)? (for|at))\\s+(the\\s+)?(full\\s+|whole\\s+|requested\\s+)?${askPattern(ask)}`).exec(lower) ??
    // "We can't sit 3rd behind two funders for 150", "won't go out at 110 with Forward on": a refusal of the ask however phrased
    // (revz) ... never a refusal of something else, the lender then turning to take the deal ("won't need anything else, funding
    // it as requested at $60,000", "couldn't find any issues so we're funding at 60k")
    new RegExp(`\\b(can't|cannot|couldn't|won't|will not|unable to|not able to)\\b(?:(?!\\bso\\b|,\\s*(?:we|i|we're|we'll|i'm|i'll|funding|approving|offering|writing|doing)\\b)[^.!?\\n]){0,50}?\\b(for|at)\\s+(the\\s+)?(full\\s+|whole\\s+|requested\\s+)?${askPattern(ask)}`).exec(lower);
  return m ? m[0] : null;
}

/**
 * A number that could be the amount, other than the ask ("approved, but only for 35"): then priced terms
 * without a read amount are not the ask's, and a person completes them. Terms, counts, rates, payments
 * and percentages are not amounts.
 */
/** (holdout34) A telephone number ("(239) 555-0114", "303-555-0181", "555.0114"): its groups of digits are no amounts. */
const PHONE_NUMBER = /(?:\(\d{3}\)\s?|(?<![\d,.$])\d{3}[-. ])?(?<![\d,.$])\d{3}[-.]\d{4}(?![\d,])/g;

/**
 * (rfix) A date written with slashes: "good thru 11/23", "expires 12/05", "signed 11/18/26". With its year always; without
 * it only after a word that dates something (a bare "6/12" may be shorthand terms).
 */
const SLASH_DATE = /(?<![\d.,$\/])(?:0?[1-9]|1[0-2])\/(?:0?[1-9]|[12]\d|3[01])\/(?:\d{4}|\d{2})(?![\d\/]|\.\d)|(?<=\b(?:thru|through|till|until|by|on|expires?|expiring|expiry|good|valid|dated|as of|from|before|after|effective|since|of)\s+)(?:0?[1-9]|1[0-2])\/(?:0?[1-9]|[12]\d|3[01])(?![\d\/]|\.\d)/g;

/** (rfix) A postal address's numbers: a ZIP code after its state (", la 70130"), a suite ("ste 1900"), a street number ("77 canal st"). */
const ADDRESS_NUMBER = /(?<![\w.,$])\d{1,5}(?=(?: [a-z]+){1,3}\.? (?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|pkwy|parkway|hwy|highway|ct|court|pl|place|plaza|sq|square)\b\.?(?:,|\s*\||\s*$|\s+(?:ste|suite|unit|fl|floor)\b))|(?<=,\s*[a-z]{2}\s+)\d{5}(?:-\d{4})?(?!\d)|\b(?:ste|suite|unit|apt|floor|fl)\.?\s*#?\s*\d+\b/g;

export function otherAmountNamed(lower0: string, ask: number): boolean {
  // (holdout34) the signature's telephone number is no amount: "(239) 555-0114" named no $114,000 beside an approval of the ask
  // (rfix) nor is a date ("approval good thru 11/23" named no $11,000) or an address's ZIP code or suite
  const lower = lower0.replace(PHONE_NUMBER, (m) => ' '.repeat(m.length)).replace(SLASH_DATE, (m) => ' '.repeat(m.length)).replace(ADDRESS_NUMBER, (m) => ' '.repeat(m.length));
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
export const NO_AMOUNT = 99_999_999;

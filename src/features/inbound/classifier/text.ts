import { memoText } from '../reply-html';
import { normalizeText } from '../reply-text';
import * as V from '../vocabulary';

// ---------------------------------------------------------------- text helpers

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Words lenders misspell often enough to matter, matched within edit distance 1 (2 for long words). */
const FUZZY_WORDS = ['declined', 'decline', 'declining', 'unfortunately', 'negative', 'approved', 'approval', 'restricted', 'monthly'];
/** Correct words one edit away from a cue word, which must stay as they are. */
const REAL_WORDS = new Set([
  'approve', 'approves', 'approving', 'approvals', 'declines', 'decliner', 'negatives', 'negatively', 'restrict', 'restricts',
  'restriction', 'restrictions', 'unfortunate', 'declared', 'reclined', 'derived', 'deprived',
]);

/**
 * Edits between two words, two neighbouring letters swapped counting as one edit (thumbs on a phone swap
 * letters: "decliend", "aprpoved"), so a swap in a short cue word is within its one edit.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** Lowercase, ASCII quotes, and misspelt cue words replaced by the word they are meant to be. */
const CONTRACTION_RE = new RegExp(`\\b(${Object.keys(V.CONTRACTIONS).join('|')})\\b`, 'g');

/**
 * wordsToDigits's patterns, built once (they depend only on the vocabulary's number words): building them on every
 * call was a tenth of a corpus run. A global RegExp is safe to share with String.prototype.replace (it starts at 0).
 */
let W2D: RegExp[] | null = null;
function w2dRegexes(): RegExp[] {
  if (W2D) return W2D;
  const unit = Object.keys(V.NUMBER_WORDS).sort((a, b) => b.length - a.length).join('|');
  // (revH) a compound is a tens word and a unit ("twenty-five", "forty two"); two units in a row are two numbers, never summed
  // (a transcript's "one point three five nine months" is 1.35 and 9 months, never "five nine" as 14 months)
  const num = `(?:(?:${TENS})[- ](?:${UNITS})\\b|(?:${unit}))`;
  const digit = Object.keys(V.DIGIT_WORDS).join('|');
  const CENTS = '(?:,? and (\\d{1,2}) cents?)?';
  W2D = [
    new RegExp(`\\b(dollars?,? and) (${num}|\\d{1,2}) cents?\\b`, 'g'),
    new RegExp(`\\b(${num}) \\((\\d{1,3})\\)`, 'g'),
    new RegExp(`\\b(${num}) hundred(?:(?: and)? (${num}))? \\((\\d{3})\\)`, 'g'),
    new RegExp(`\\b(${num})(?: (hundred)(?: and)?(?: (${num}))?)? thousand(?:,? (${num}) hundred)?(?:,?(?: and)? (${num}))? dollars${CENTS} \\((\\$?\\d{1,3}(?:,\\d{3})+(?:\\.\\d{2})?)\\)`, 'g'),
    new RegExp(`\\b(${num})(?: (hundred))?(?: (?:and )?(${num}))? (thousand|grand|million)(?:(?:,? (${num}) hundred)?(?:,?(?: and)? (${num}))?(?= dollars\\b))?( dollars${CENTS})?\\b`, 'g'),
    new RegExp(`\\b(${num}) hundred(?: and)?(?: (${num}))? ((?:daily |weekly |bi-?weekly |monthly )?(?:payments?|pmts?|debits?|installments?)|business\\s+days?|days?|weeks?|months?)\\b`, 'g'),
    new RegExp(`\\b(?:(${num}) hundred(?: and)?(?: (${num}))?|(${num})) dollars${CENTS}(?: \\((\\$?\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?)\\))?`, 'g'),
    new RegExp(`\\b(${num}) ((?:daily |weekly |bi-?weekly |monthly )?(?:payments?|pmts?|debits?|installments?)|business days?|days?|weeks?|months?|mos?|years?)\\b`, 'g'),
    new RegExp(`\\b(${num}) hundred(?: and)?(?: (${num}))? (a (?:day|week|month)|per (?:day|week|month|payment)|each (?:day|week|month)|daily|weekly|bi-?weekly|monthly)\\b`, 'g'),
    new RegExp(`(\\$\\d[\\d,.]*k?|\\b\\d{1,3}k) (at|@)( an?)? one(?:-|\\s+)(${TENS})(?:-(${UNITS}))?\\b(?![- ](?:${unit}|hundred|thousand|grand|million|k\\b|dollars|bucks|pm|am|p\\.m|a\\.m|o'clock|today|tomorrow|tmrw))`, 'g'),
    new RegExp(`\\b(one|two) point ((?:${digit})(?:[- ](?:${digit})){0,3})\\b`, 'g'),
    new RegExp(`\\b(factor(?: rate)?|buy(?: rate)?|sell(?: rate)?|rate)( of| is| at|:)? one[- ](${TENS})(?:[- ](${UNITS}))?\\b`, 'g'),
    new RegExp(`\\b(an? )?one[- ](${TENS})(?:[- ](${UNITS}))? (factor|buy rate|sell rate|rate)\\b`, 'g'),
    new RegExp(`\\b((?:${TENS})[- ](?:${UNITS})) (${UNITS})\\b(?![- ](?:${unit}|hundred|thousand|grand|million|percent|points?|pts|days?|weeks?|months?|years?|payments?|positions?|nsfs?|negs?))`, 'g'),
    new RegExp(`\\b(the|full) (${num})\\b`, 'g'),
    new RegExp(`\\b((?:${TENS})(?:[- ](?:${UNITS}))?)(?= (?:at|@|on an?) [12]\\.\\d)`, 'g'),
    new RegExp(`\\b(to|at|for|all|all of|on|do) ((?:${TENS})(?:[- ](?:${UNITS}))?)\\b(?![- ](?:${unit}))`, 'g'),
  ];
  return W2D;
}

/** "forty thousand dollars" -> "$40,000", "six months" -> "6 months", "the eighty" -> "the 80" (lower-cased text). */
export const wordsToDigits = memoText(wordsToDigitsOnce);

function wordsToDigitsOnce(lower: string): string {
  const R = w2dRegexes();
  const value = (w: string) => w.split(/[- ]/).reduce((n, p) => n + (V.NUMBER_WORDS[p] ?? 0), 0);
  // (rfix10) cents as a cheque or a formal letter writes them, "five hundred seventy dollars and eighty-three cents ($570.83)",
  // "five hundred seventy and 83/100 dollars", "... dollars and 83/100": one form, "dollars and 83 cents", that the amount
  // rules below read as part of the amount (never a whole-dollar figure with its cents left over)
  const cents = (c: string | undefined) => (c ? Number(c) / 100 : 0);
  const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 })}`;
  const figure = (f: string | undefined) => (f === undefined ? NaN : Number(f.replace(/[$,]/g, '')));
  return lower
    .replace(/\band (\d{2})\/100 (?:dollars|usd)\b/g, 'dollars and $1 cents')
    .replace(/\bdollars,? and (\d{2})\/100\b/g, 'dollars and $1 cents')
    .replace(R[0], (_m, w: string, c: string) => `${w} ${/^\d/.test(c) ? c : value(c)} cents`)
    // (holdout20) a number written out with its figure in brackets, as a formal letter does: "nine (9) months",
    // "twelve (12) weekly payments": one number, the figure
    .replace(R[1], (m: string, a: string, d: string) => (value(a) === Number(d) ? d : m))
    // (holdout22) ... in hundreds too: "one hundred twenty (120) business days", "two hundred and ten (210) payments"
    .replace(R[2], (m: string, a: string, b: string | undefined, d: string) => (value(a) * 100 + (b ? value(b) : 0) === Number(d) ? d : m))
    // (rfix7) an amount in thousands and hundreds written out with its figure in brackets, as a formal letter does: "one
    // thousand six hundred fifty dollars ($1,650.00)", "eighty-five thousand eight hundred dollars ($85,800.00)": one amount,
    // the figure (when the words say the same), never a thousand and a stray six hundred and fifty
    .replace(R[3], (m: string, a: string, h: string | undefined, b: string | undefined, c: string | undefined, d: string | undefined, ct: string | undefined, fig: string) => {
      const thousands = h ? value(a) * 100 + (b ? value(b) : 0) : value(a);
      const n = round2(thousands * 1000 + (c ? value(c) * 100 : 0) + (d ? value(d) : 0) + cents(ct));
      // (a round thousand, "ten thousand dollars ($10,000)", reads right as it is: only a part under a thousand splits)
      return (c || d || ct) && figure(fig) === n ? `$${fig.replace(/^\$/, '')}` : m;
    })
    // (rfix10) ... and without the figure, the part under a thousand read with it when "dollars" closes the amount: "net funds
    // of forty-eight thousand five hundred dollars" is $48,500 (never $48,000 and a stray $500)
    .replace(R[4], (_m, a: string, h: string | undefined, b: string | undefined, scale: string, c: string | undefined, d: string | undefined, _dl: string | undefined, ct: string | undefined) => {
      let n = value(a);
      if (h) n = n * 100 + (b ? value(b) : 0);
      return money(round2(n * V.NUMBER_SCALES[scale] + (c ? value(c) * 100 : 0) + (d ? value(d) : 0) + cents(ct)));
    })
    // (holdout28) hundreds before a unit or "dollars": "one hundred twenty business days", "three hundred eighty-five dollars
    // ($385.00)" (the figure in brackets kept when it says the same); (holdout42) the unit wrapped by a line break ("business\ndays")
    .replace(R[5], (_m, a: string, b: string | undefined, u: string) => `${value(a) * 100 + (b ? value(b) : 0)} ${u.replace(/\s+/, ' ')}`)
    .replace(R[6], (_m, a: string | undefined, b: string | undefined, c: string | undefined, ct: string | undefined, fig: string | undefined) => {
      const n = round2((a ? value(a) * 100 + (b ? value(b) : 0) : value(c!)) + cents(ct));
      return fig && figure(fig) === n ? `$${fig.replace(/^\$/, '')}` : money(n);
    })
    .replace(R[7], (_m, a: string, u: string) => `${value(a)} ${u}`)
    // (holdout43) a payment in hundreds, its schedule after it: "thirty-five hundred a week", "twelve hundred per day",
    // "forty-two hundred weekly" -> "$3500 a week"
    .replace(R[8], (_m, a: string, b: string | undefined, u: string) => `$${value(a) * 100 + (b ? value(b) : 0)} ${u}`)
    // (holdout43) a factor read out the trade's way after an amount and "at": "one hundred thousand at a one-forty", "the full
    // forty thousand at one\nthirty-three" (nothing counted after it, so "at one-thirty pm" or "at one forty dollars" stay words)
    .replace(R[9], (_m, amt: string, p: string, art: string | undefined, t: string, u: string | undefined) => `${amt} ${p}${art ?? ''} ${(1 + (V.NUMBER_WORDS[t] + (u ? V.NUMBER_WORDS[u] : 0)) / 100).toFixed(2)}`)
    // a factor in words: "one point three two" -> "1.32"
    .replace(R[10], (_m, a: string, d: string) => `${V.NUMBER_WORDS[a]}.${d.split(/[- ]/).map((w) => V.DIGIT_WORDS[w]).join('')}`)
    // (rfix29) ... and as voice-to-text writes it, in figures: "1 point 3 8 factor" -> "1.38" (single digits only: "2 points" or
    // "1 point to the broker" stay words)
    .replace(/\b([12]) point ((?:\d)(?: \d){0,3})\b(?! ?(?:\d|k\b|%|percent|points?\b|pts\b))/g, (_m, a: string, d: string) => `${a}.${d.replace(/ /g, '')}`)
    // a factor read out after its label (holdout11): "factor one thirty-eight" -> "factor 1.38", "buy rate of one forty" -> 1.40
    .replace(R[11], (_m, l: string, j: string | undefined, t: string, u: string | undefined) => `${l}${j ?? ''} ${(1 + (V.NUMBER_WORDS[t] + (u ? V.NUMBER_WORDS[u] : 0)) / 100).toFixed(2)}`)
    // (rfix20) ... and before its label, as a phone reads it: "like a one thirty five factor", "a one-forty buy rate"
    .replace(R[12], (_m, art: string | undefined, t: string, u: string | undefined, l: string) => `${art ?? ''}${(1 + (V.NUMBER_WORDS[t] + (u ? V.NUMBER_WORDS[u] : 0)) / 100).toFixed(2)} ${l}`)
    // thousands and hundreds spoken the trade's way (holdout12): "forty-two five" is 42.5 (thousands), "thirty-seven five" 37.5;
    // a compound tens-unit then one digit word, and no unit or scale after it
    .replace(R[13], (_m, a: string, d: string) => `${value(a)}.${V.NUMBER_WORDS[d]}`)
    .replace(R[14], (_m, w: string, a: string) => `${w} ${value(a)}`)
    // ... and before the factor it is priced at: "thirty-five at 1.37", "forty on a 1.41"
    .replace(R[15], (a: string) => `${value(a)}`)
    // a round amount in words after a preposition or "all" (holdout11): "couldn't get it to fifty", "a lock for all ninety-five";
    // tens only (20-99), so "for one" or "to two of them" stay words; read as thousands only against the ask (SHORTHAND_AMOUNT)
    .replace(R[16], (_m, w: string, a: string) => `${w} ${value(a)}`);
}
const TENS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const UNITS = 'one|two|three|four|five|six|seven|eight|nine';

export function prepare(text: string): { lower: string; fixed: string[] } {
  const fixed: string[] = [];
  // a file name's parts read as words (holdout10): "<DECLINE_NorthStar_2026.pdf>", "Approval-Letter_Kingsway.pdf"
  const lower = normalizeText(text)
    // (rfix) a plain-text line wrapped mid-sentence by the mail client ("so we can't\napprove it", "no podemos\naprobarlo"):
    // one sentence again, so the cues read across the wrap (a line ending a sentence, or one starting with a capital, a
    // figure or a list mark, stays its own)
    .replace(/(?=\n)(?<=[A-Za-z0-9,'\u00C0-\u00FF][ \t]*)\n(?:[ \t]*\n)?(?=[ \t]*[a-z\u00E0-\u00FF])/g, ' ')
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
    // (holdout33) a spaced dash ends a clause too: "14 neg days in the last 60 - not the same account we funded last year"
    // keeps its reason, only the recollection after the dash is blanked
    while (start > 0 && !/[.!?\n]/.test(lower[start - 1]) && !/ [-\u2013\u2014] $/.test(lower.slice(start - 3, start))) start--;
    let end = m.index + m[0].length;
    if (!/[.!?\n]$/.test(m[0])) while (end < lower.length && !/[.!?\n]/.test(lower[end])) end++;
    out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
    hits.push(m[0].trim());
    if (m[0].length === 0) BOILERPLATE_RE.lastIndex++;
  }
  return { text: out, hits };
}

export function sentenceAround(text: string, index: number): string {
  let start = index;
  while (start > 0 && !/[.!?\n]/.test(text[start - 1])) start--;
  let end = index;
  while (end < text.length && !/[.!?\n]/.test(text[end])) end++;
  return text.slice(start, Math.min(text.length, end + 1)).trim();
}



export function splitCells(line: string): string[] {
  if (line.includes(' | ') || /^\|| \|$/.test(line)) return line.split('|').map((c) => c.trim());
  if (line.includes('\t')) return line.split(/\t+/).map((c) => c.trim());
  const parts = line.trim().split(/\s{2,}/);
  return parts.length >= 3 ? parts.map((c) => c.trim()) : [line];
}


/**
 * (rfix7) A sentence wrapped mid-phrase, by the mail client or by an HTML mail writing one block per typed line (which
 * reads back with a blank line between: "at a factor rate of one\n\npoint three two (1.32)", "a fixed daily ACH of $283.33
 * over 120\n\nbusiness days"): one sentence again, so a figure and its unit or its words read together. Only where the line
 * stops mid-phrase (a letter or a comma, no full stop or colon) and the next goes on in lower case.
 */
function unwrapLines(text: string): string {
  // a line ending in a figure goes on only into the figure's unit ("120\nbusiness days", "52\nweekly payments"): a shorthand
  // line's last figure ("opt 2: 40k 1.35 buy 24 wks wkly 2250\nboth good thru fri") is the line's own. The lookbehinds
  // are tried at line breaks only (a lookahead first), so a crafted run of spaces is not rescanned at every position
  return text
    .replace(/(?=\n)(?<=[A-Za-z,][ \t]*)\n(?:[ \t]*\n)?(?=[ \t]*[a-z])/g, ' ')
    // (rfix10) ... a figure in brackets after its words too ("over one hundred twenty (120)\n\nbusiness days"); never into a unit
    // that opens a sentence of its own ("120 pmts of 450\n\nweekly is possible at 2250", "term is 130\n\ndays are business
    // days"): the unit followed by a verb, or naming another figure ("monthly revenue"), is that sentence's subject
    .replace(/(?=\n)(?<=[0-9]\)?[ \t]*)\n(?:[ \t]*\n)?(?=[ \t]*(?:business|calendar|banking|days?|weeks?|months?|daily|weekly|bi-?weekly|monthly|payments?|pmts?|debits?|installments?)\b(?![ \t]+(?:is|are|was|were|works?|would|will|can|could|should|might|may|only|also|too|ok|okay|possible|available|options?|instead|preferred|revenue|deposits?|sales|balances?|average|volume|statements?|reporting)\b))/g, ' ');
}

/** Lower case, contractions restored, numbers in words as digits, dot leaders ("Purchase price ...... $30,000") as labels. */
export const offerText = memoText((own: string) =>
  wordsToDigits(unwrapLines(normalizeText(own)).toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(CONTRACTION_RE, (w) => V.CONTRACTIONS[w] ?? w)).replace(/(?<![ \t])[ \t]*\.{4,}[ \t]*/g, ': '),
);

/**
 * (rfix30) Meeting minutes ("Agenda: / Discussion: / Outcome: / Action items:"): the section each line sits in, for text
 * with an agenda or discussion heading alone on its line; null for any other text. A heading line itself is 'heading'.
 * 'talk' (agenda, discussion, notes, background), 'outcome' (outcome, decision, resolution, result), 'actions' (action
 * items, next steps, follow-ups), 'other' (attendees), null before the first heading.
 */
const MINUTES_HEADING = /^[ \t]*(?:\d{1,2}[.)][ \t]*)?(agenda|discussion|discussion points|notes|meeting notes|attendees|participants|background|context|summary of discussion|outcome|outcomes|decision|decisions|resolution|result|results|committee decision|final decision|action items?|next steps|follow[- ]?ups?)[ \t]*:?[ \t]*$/i;
export type MinutesSection = 'heading' | 'talk' | 'outcome' | 'actions' | 'other' | null;
export function minutesSections(lines: string[]): MinutesSection[] | null {
  const kind = (h: string): MinutesSection =>
    /^(agenda|discussion|discussion points|notes|meeting notes|background|context|summary of discussion)$/.test(h) ? 'talk' : /^(outcomes?|decisions?|resolution|results?|committee decision|final decision)$/.test(h) ? 'outcome' : /^(action items?|next steps|follow[- ]?ups?)$/.test(h) ? 'actions' : 'other';
  const heads = lines.map((l) => {
    const m = MINUTES_HEADING.exec(l);
    return m ? kind(m[1].toLowerCase()) : null;
  });
  if (!heads.includes('talk')) return null;
  let section: MinutesSection = null;
  return heads.map((h) => (h ? ((section = h), 'heading') : section));
}

/**
 * (revM) Meeting minutes whose agenda lists two items or more, one of them not naming this deal's business ("Agenda:\n1. Bayou
 * Roofing - $45k ask\n2. Copper Kettle Catering - $60k ask"): the outcome's "Item 1: APPROVED $45,000" may be another file's.
 * The first such entry, or null (minutes with one agenda item, or every item naming this deal, are this deal's).
 */
export function otherAgendaItem(text: string, business?: string | null): string | null {
  const lines = text.split('\n');
  const sections = minutesSections(lines);
  if (!sections) return null;
  const start = lines.findIndex((l) => /^[ \t]*(?:\d{1,2}[.)][ \t]*)?agenda[ \t]*:?[ \t]*$/i.test(l));
  if (start < 0) return null;
  const entries: string[] = [];
  for (let i = start + 1; i < lines.length && sections[i] !== 'heading'; i++) {
    const m = /^[ \t]*(?:[-*\u2022]|\(?\d{1,2}[.)]|(?:item|#)[ \t]*\d{1,2}[.):]?)[ \t]+(.+)$/i.exec(lines[i]);
    if (m) entries.push(m[1].trim());
  }
  if (entries.length < 2) return null;
  const words = (business ?? '').toLowerCase().split(/[^a-z0-9&']+/).filter((w) => w.length > 2 && !/^(llc|inc|the|and|corp|co)$/.test(w));
  const ours = (e: string) => words.length > 0 && words.some((w) => e.toLowerCase().includes(w));
  return entries.find((e) => !ours(e)) ?? null;
}

// Recognized words as print would have them, for the OCR (../ocr.mjs): stray marks and dashes,
// specks, dates whose slash was misread.

/**
 * A date's slash read as a 1 ("10117" for 10/17): corrected only for a word that starts an item in
 * a column of at least three dates printed MM/DD (same left edge within 2 pt), where a five-digit
 * number whose middle digit is 1 and whose ends are a month and a day is that date; and a slash
 * lost ("1117" for 11/17) in a column of at least three dates printed with two-digit months and
 * days, where a four-digit number that is a month and a day is that date. The reconciliation still
 * checks every row it gives.
 */
export function fixDates(items) {
  const DATE = /^(\d{1,2})\/(\d{1,2})(\/\d{2,4})?(\s|$)/;
  const cols = new Map();
  for (const it of items) if (DATE.test(it.s)) cols.set(Math.round(it.x / 2), (cols.get(Math.round(it.x / 2)) ?? 0) + 1);
  const inColumn = (x) => [-1, 0, 1].reduce((n, d) => n + (cols.get(Math.round(x / 2) + d) ?? 0), 0) >= 3;
  // Dates printed with two-digit months and days (MM/DD): the slash may also be lost ("1117").
  const twoDigit = new Map();
  for (const it of items) if (/^\d\d\/\d\d(\s|$)/.test(it.s)) twoDigit.set(Math.round(it.x / 2), (twoDigit.get(Math.round(it.x / 2)) ?? 0) + 1);
  const inTwoDigitColumn = (x) => [-1, 0, 1].reduce((n, d) => n + (twoDigit.get(Math.round(x / 2) + d) ?? 0), 0) >= 3;
  for (const it of items) {
    const m = /^(0[1-9]|1[0-2])1(0[1-9]|[12]\d|3[01])(\s|$)/.exec(it.s);
    if (m && inColumn(it.x)) it.s = `${m[1]}/${m[2]}${it.s.slice(m[1].length + 1 + m[2].length)}`;
    const n = /^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(\s|$)/.exec(it.s);
    if (n && inTwoDigitColumn(it.x)) it.s = `${n[1]}/${n[2]}${it.s.slice(4)}`;
  }
}

/**
 * A "word" that is most likely a speck or a fragment of a line read as a mark: no letter or digit,
 * and not confidently a sign a statement prints alone ($, -, *, #, &, +, =, /).
 */
export function speck(s, confidence) {
  if (/[A-Za-z0-9]/.test(s)) return false;
  return /^[-$*#&+=/]$/.test(s) ? confidence < 50 : confidence < 90;
}

/**
 * A "word" read with little confidence (under 50%) from a box holding far less ink than its
 * characters would (under a fiftieth of the line height squared a character; a printed character
 * has about a tenth): a few specks read as letters ("To" from five pixels of noise between two
 * amounts), dropped like a speck.
 */
export function inkless(inkPixels, chars, lh, confidence) {
  return confidence < 50 && inkPixels < Math.max(1, chars) * lh * lh * 0.02;
}

const MONTH_GLUED = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?(\d{1,2})(,?)$/i;
/**
 * Specks read as marks at a word's edge, and two words read as one, undone where print cannot have
 * them: a quote, backtick, underscore or tilde before a word's first letter or digit (or after its
 * last), a dash before a date (a date is never signed), a month's name glued to its day ("Apr10").
 * An amount is never changed here: one with a stray mark stays as read, doubtful (`doubtfulAmount`),
 * for the second reading to settle.
 */
export function strayMarks(s) {
  const bare = s.replace(/^["'`_~\u2018\u2019\u201C\u201D]+(?=[A-Za-z0-9$(])/, '').replace(/(?<=[A-Za-z0-9.)])["'`_~\u2018\u2019\u201C\u201D]+$/, '');
  if (AMOUNT.test(bare.replace(/^[-\u2012-\u2015]/, '').replace(/[-\u2012-\u2015]$/, '')) && bare !== s) return s;
  const date = bare.replace(/^[-\u2012-\u2015~.,]+(?=\d{1,2}[/-]\d{1,2}([/-]\d{2,4})?$)/, '');
  const m = MONTH_GLUED.exec(date);
  return m ? `${m[1]} ${m[2]}${m[3]}` : date;
}

export const STRAY_LEAD = /^["'`_~\u2018\u2019\u201C\u201D]+/;
export const STRAY_TRAIL = /["'`_~\u2018\u2019\u201C\u201D]+$/;

/**
 * Words ending in a dash read alone after words that are not an amount ("MOBILE DEPOSIT 6078401 -",
 * a speck after the text), without it: a sign is printed beside its amount, never after a
 * description. An amount's trailing minus ("5.00 -", "1,569.62? -") and a dash alone stay.
 */
export function strayDash(s) {
  const tail = /^(.*\S)\s[-\u2012-\u2015\u2212]$/.exec(s);
  return tail && !AMOUNT.test(tail[1].split(' ').pop().replace(/\?$/, '')) ? tail[1] : s;
}

/** An amount as printed: 1,234.56, $1,234.56, (12.00), -$5.00, 5.00-. */
export const AMOUNT = /^[-\u2012-\u2015]?[$(]?\$?\d[\d,]*\.\d\d\)?[-\u2012-\u2015]?$/;

/**
 * A recognized word as print would have it: a dash read twice or as a long dash before an amount,
 * or alone (a sign read as a word of its own, "--", glued to the amount after it), is one minus sign, curly quotes are straight. Letters are never turned into digits: a misread
 * amount must stay misread, for the reconciliation to refuse it.
 */
export function ocrText(s) {
  return strayMarks(s)
    // A comma read as a period in an amount ("6.371.53"): US amounts have one decimal point.
    .replace(/^([-(]?\$?\d{1,3})((?:\.\d{3})+)(\.\d{2}\)?-?)$/, (_m, a, b, c) => a + b.replace(/\./g, ',') + c)
    .replace(/^[-\u2012-\u2015\u2212]{2,}(?=\$?\d)/, '-').replace(/^[-\u2012-\u2015\u2212]{2,}$|^[\u2012-\u2015\u2212]$/, '-').replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

// Doubtful amounts read again for the OCR (../ocr.mjs): an amount's value and signs, what a second
// reading settles, the alternatives left to the reconciliation, and the crop that is read.
import { resample } from './clean.mjs';
import { pgmGray } from './image.mjs';
import { AMOUNT, ocrText } from './words.mjs';

/** An amount's value and its signs: { cents, lead, trail } (lead/trail: the marks before/after its digits), or null. */
export function amountParts(s) {
  const t = ocrText(s.replace(/\s+/g, ''));
  if (!AMOUNT.test(t)) return null;
  const m = /^([^\d]*)([\d,]*\.\d\d)([^\d]*)$/.exec(t);
  if (!m) return null;
  const sign = (x) => x.replace(/\$/g, '').replace(/[\u2012-\u2015\u2212]/g, '-');
  return { cents: Math.round(Number(m[2].replace(/,/g, '')) * 100), lead: sign(m[1]), trail: sign(m[3]) };
}

/**
 * What a doubtful amount is, from the first reading (`first`, stray marks at its edge removed) and
 * readings of it alone (`more()` gives the next one, or ''): the first reading when a second reads
 * the same value with no sign the first lacks (or, the second being no amount at all, a third); a sign where unexplained ink beside the amount is
 * (`marks`: the doubt is about a mark) when a second and a third reading agree on it and on the
 * first's value; else null: unreadable, with the values read (`amountAlternatives`) left for the
 * reconciliation to choose from, never chosen here.
 */
export async function settleAmount(first, why, marks, more) {
  const f = amountParts(first);
  if (!f) return null;
  const same = (a, b) => a && b && a.cents === b.cents && a.lead === b.lead && a.trail === b.trail;
  const r1 = amountParts(await more());
  if (r1 && r1.cents === f.cents) {
    if (same(r1, f)) return first;
    if (why !== 'mark' && !r1.lead && !r1.trail) return first;
  }
  const r2 = amountParts(await more());
  // A second reading that is no amount at all (a decimal point lost) contradicts nothing: the third decides as it would have.
  if (!r1 && r2 && r2.cents === f.cents && (same(r2, f) || (why !== 'mark' && !r2.lead && !r2.trail))) return first;
  if (why !== 'mark' || !r1 || !same(r1, r2)) return null;
  // Signs where the unexplained ink is, and only there.
  if (r1.cents !== f.cents || (r1.lead !== f.lead && !marks?.lead) || (r1.trail !== f.trail && !marks?.trail)) return null;
  return `${r1.lead}${/\$/.test(first) ? '$' : ''}${/[\d,]*\.\d\d/.exec(first)[0]}${r1.trail}`;
}

/**
 * The values an unsettled amount was read as (the first reading and the readings of it alone that
 * are amounts with the first's signs), each written as the first is (its signs, dollar sign and
 * commas): the alternatives the reconciliation may choose one from, the first reading's first.
 * When every reading of it alone has the first's value and only the signs differ, the signs read
 * are the alternatives (the first's digits with each reading's signs).
 */
export function amountAlternatives(first, reads) {
  const f = amountParts(first);
  if (!f) return [];
  const out = [first];
  const parts = reads.map(amountParts).filter(Boolean);
  // Every reading has the first's value, one or more with other signs (a speck beside the amount
  // read as a minus, or a minus not read the first time): the sign is what is in doubt, and the
  // signs read are the alternatives.
  const signOnly = parts.length > 0 && parts.every((p) => p.cents === f.cents);
  for (const p of parts) {
    let alt;
    if (signOnly) alt = ocrText(`${p.lead}${/\$/.test(first) ? '$' : ''}${/[\d,]*\.\d\d/.exec(first)[0]}${p.trail}`);
    else if ((p.lead && p.lead !== f.lead) || (p.trail && p.trail !== f.trail)) continue;
    else alt = ocrText(first.replace(/[\d,]*\.\d\d/, formatCents(p.cents, /,/.test(first))));
    if (!out.includes(alt)) out.push(alt);
  }
  return out;
}
const formatCents = (c, commas) => {
  const s = (c / 100).toFixed(2);
  return commas ? s.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : s;
};

/**
 * A sign the recognizer read as a word of its own just before an amount (`signWord`: its text and
 * confidence; null when none), against the ink there (`before`: ../rules.mjs marksIn, 'dash',
 * 'other' or 'none'): 'sign' when the ink is a dash (the sign is the amount's, kept however faintly
 * it was read); 'doubt' when the sign was read too faintly to be kept (under 50%, a speck's
 * confidence) and the ink is not plainly a dash (a speck touching it, a stroke bent by noise), so
 * whether the amount carries it is in doubt; else null (a sign read confidently is kept as it is,
 * one with no ink under it is a speck).
 */
export function signBefore(before, signWord) {
  if (!signWord || !/^[-\u2012-\u2015\u2212]+$/.test(signWord.text ?? '')) return null;
  if (before === 'dash') return 'sign';
  return before === 'other' && signWord.confidence < 50 ? 'doubt' : null;
}

/**
 * An amount whose minus sign is in doubt (`signBefore`): unreadable ("960.00?"), with the amount
 * as read and with a minus before it as its alternatives; the reconciliation takes one only when
 * exactly one reconciles (../../analyze.ts chooseAlternatives), never by a guess here.
 */
export function signAlternatives(core) {
  return [`${core}?`, core, `-${core}`];
}

/**
 * Rows [y0, y1) of a grey image between columns x0 and x1, when they hold several bands of ink apart
 * (rows with a dark pixel, separated by rows of paper): the band with the most ink, with up to two
 * rows of paper on each side; else null.
 */
export function inkBand(gray, W, x0, x1, y0, y1) {
  const bands = [];
  let cur = null;
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (gray[y * W + x] < 128) n++;
    if (n) {
      if (!cur) bands.push((cur = { from: y, to: y + 1, ink: 0 }));
      cur.to = y + 1;
      cur.ink += n;
    } else cur = null;
  }
  if (bands.length < 2) return null;
  const best = bands.reduce((a, b) => (b.ink > a.ink ? b : a));
  return [Math.max(y0, best.from - 2), Math.min(y1, best.to + 2)];
}

/** A word cut out of the page (with room for a mark beside it), enlarged `k` times, read as one line. */
export async function readCrop(worker, gray, W, H, { wd, lh, left, right }, k) {
  const bbox = wd.bbox;
  // Paper all round, as tesseract wants it: the crop sits on a white margin.
  const m = Math.round(lh * 0.5);
  const x0 = Math.max(0, bbox.x0 - left);
  const x1 = Math.min(W, bbox.x1 + right + 1);
  let y0 = Math.max(0, bbox.y0 - Math.round(lh * 0.15));
  let y1 = Math.min(H, bbox.y1 + Math.round(lh * 0.15) + 1);
  if (x1 - x0 < 4 || y1 - y0 < 4) return '';
  // Rows of ink apart from the word's own (the lines above and below, cut in when the word's box
  // was drawn too tall on a turned or noisy scan) make a one-line reading come back empty: the crop
  // keeps the band of rows that holds the most ink, with the paper around it.
  const band = inkBand(gray, W, x0, x1, y0, y1);
  if (band) [y0, y1] = band;
  const w = x1 - x0 + 2 * m;
  const h = y1 - y0 + 2 * m;
  const crop = new Uint8Array(w * h).fill(255);
  for (let y = y0; y < y1; y++) crop.set(gray.subarray(y * W + x0, y * W + x1), (y - y0 + m) * w + m);
  const big = resample(crop, w, h, w * k, h * k);
  const { data } = await worker.recognize(pgmGray(big, w * k, h * k), {}, { text: true });
  return (data.text ?? '').trim();
}

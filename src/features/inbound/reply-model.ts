// The statistical second reader of lender replies (issue 26): a multinomial naive Bayes model over
// the lender's own words (the text reply-text.ts keeps after cutting quotes and forwarded headers),
// word unigrams and bigrams with numbers, amounts, dates, rates, addresses and the deal's business
// name turned into tokens. Deterministic and offline: the model is data (reply-model.json), trained
// by scripts/train-reply-model.ts from the labelled corpus (never from a batch not yet scored blind);
// nothing trains at runtime.
//
// It never decides alone. `combineReadings` sets the rules' reading beside the model's:
// - the rules found no decisive cue and the model is confident: the reading takes the model's type,
//   and goes to a person (`low_confidence`), its evidence naming the model;
// - the rules decided and the model, confident, reads another type: a person decides
//   (`readers_disagree`);
// - otherwise the rules' reading stands (applied only when the model agrees, or is not confident).
// The thresholds were chosen by leave-one-batch-out cross-validation (scripts/reply-model-cv.ts).
import { ANSWER_IN_IMAGE, OTHER_BUSINESS_ONLY, blankBoilerplate, classifyReply, digestEntries, type Classification, type ReplyContext, type ReplyType } from './classifier';
import { normalizeText, replyParts, type ReplyInput } from './reply-text';
import shipped from './reply-model.json' with { type: 'json' };

/**
 * How the shipped model is trained (scripts/train-reply-model.ts). Naive Bayes, chosen by
 * cross-validation over logistic regression (`--logreg` in scripts/reply-model-cv.ts): alone the
 * regression reads a little better (89.8% against 87.4% of held-out replies), but beside the rules
 * naive Bayes vetoes as many wrong applications for fewer right ones, and its integer counts train
 * to the same bytes on every machine.
 */
export const MODEL_RECIPE: { kind: 'nb' | 'logreg'; alpha?: number; minDf?: number; iterations?: number } = { kind: 'nb' };

export const MODEL_CLASSES: ReplyType[] = ['approved', 'declined', 'needs_info', 'counter', 'unclassified'];

/**
 * The model as stored. `nb` (multinomial naive Bayes over binary features): per feature, its
 * document count in each class (MODEL_CLASSES order). `logreg` (multinomial logistic regression
 * over binary features scaled to unit length): per feature, its weight for each class, and a bias.
 */
export interface ReplyModel {
  version: 1;
  kind: 'nb' | 'logreg';
  /** nb: Laplace smoothing; logreg: L2 penalty. */
  alpha: number;
  /** Features seen in fewer training replies than this are dropped. */
  min_df: number;
  /** The sets it was trained on. */
  sets: string[];
  /** Training replies per class. */
  docs: number[];
  /** nb: feature occurrences per class (sum over features kept); logreg: the bias per class. */
  totals: number[];
  features: Record<string, number[]>;
}

export interface ModelReading {
  type: ReplyType;
  /** The posterior probability of `type` (naive Bayes: over-confident; thresholds are set by cross-validation). */
  probability: number;
  /** The features that weighed most for `type` against the runner-up, for the evidence. */
  evidence: string[];
}

// ---------------------------------------------------------------- features

const UNIT_AFTER = /^\s*(?:-\s*)?(?:%|percent|pts?\b|points?\b|x\b|days?\b|business\b|biz\b|weeks?\b|wks?\b|months?\b|mos?\b|mo\b|mths?\b|years?\b|yrs?\b|payments?\b|pmts?\b|debits?\b|positions?\b|nsfs?\b|negs?\b|fico\b|score\b)/;

/** An amount against the ask: less, the ask, more; without an ask, an amount; a small one (under $1,000 or a tenth of the ask) is a payment. */
function amountToken(v: number, ask: number | null): string {
  // a payment, a fee or a balance, not the amount offered
  if (v < 1000 || (ask !== null && ask > 0 && v < ask / 10)) return ' zamtsmall ';
  if (ask === null || !(ask > 0)) return ' zamt ';
  if (Math.abs(v - ask) < 0.5) return ' zamtask ';
  return v < ask ? ' zamtless ' : ' zamtmore ';
}

/**
 * The reply's text as tokens: lower-cased, apostrophes dropped ("can't" -> "cant"), the deal's
 * business name -> zbiz, e-mail addresses -> zemail, links -> zurl, dates -> zdate, times -> ztime,
 * factors (1.xx) -> zfactor, percentages -> zpct, money ($40,000, 40k, a bare 40 meaning 40,000 when
 * it is within reach of the ask) compared with the ask (zamtless / zamtask / zamtmore, or zamt),
 * other numbers -> znum. Sentences are kept apart by a "|" token (bigrams do not cross them).
 */
export function tokenize(text: string, ctx?: Pick<ReplyContext, 'requested_amount' | 'business_name'>): string[] {
  const ask = ctx?.requested_amount ?? null;
  let t = normalizeText(text).toLowerCase().replace(/[\u2018\u2019`]/g, "'");
  const biz = (ctx?.business_name ?? '').toLowerCase().replace(/\b(llc|inc|corp|co|ltd|the)\b\.?/g, ' ').replace(/[^a-z0-9&' ]+/g, ' ').trim();
  if (biz.length >= 3) t = t.split(biz).join(' zbiz ');
  t = t
    .replace(/\S+@\S+\.[a-z]{2,}/g, ' zemail ')
    .replace(/\b(?:https?:\/\/|www\.)\S+/g, ' zurl ')
    .replace(/\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b|\b\d{4}-\d{2}-\d{2}\b/g, ' zdate ')
    .replace(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?\b/g, ' zdate ')
    .replace(/\b\d{1,2}:\d{2}\s?(?:am|pm)?\b/g, ' ztime ')
    .replace(/\b\d{1,3}(?:\.\d+)?\s?(?:%|percent\b)/g, ' zpct ')
    // money with a sign, a thousands separator or a k / m
    .replace(/\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(k|m|mm)?\b|\b(\d{1,3}(?:,\d{3})+)(\.\d+)?\b|\b(\d+(?:\.\d+)?)\s?(k|m)\b/g, (_m, a, ad, as, b, bd, c, cs) => {
      let v: number;
      if (a !== undefined) v = Number(`${a.replace(/,/g, '')}${ad ?? ''}`) * (as === 'k' ? 1000 : as ? 1_000_000 : 1);
      else if (b !== undefined) v = Number(`${b.replace(/,/g, '')}${bd ?? ''}`);
      else v = Number(c) * (cs === 'k' ? 1000 : 1_000_000);
      return amountToken(v, ask);
    })
    .replace(/\b[12]\.\d{2,4}\b/g, ' zfactor ')
    .replace(/\b\d+(?:\.\d+)?\b/g, (m, offset: number, s: string) => {
      const v = Number(m);
      // a bare "40" where the ask is 75,000: forty thousand, unless a unit follows ("40 payments")
      if (ask !== null && ask > 0 && Number.isInteger(v) && v >= 5 && v * 1000 >= ask / 10 && v * 1000 <= ask * 4 && !UNIT_AFTER.test(s.slice(offset + m.length))) {
        return amountToken(v * 1000, ask);
      }
      return ' znum ';
    });
  const out: string[] = [];
  for (const sentence of t.split(/[.!?;\n]+|\s[-\u2013\u2014]\s/)) {
    const words = sentence.replace(/'/g, '').match(/[a-z][a-z0-9]*/g);
    if (!words) continue;
    if (out.length) out.push('|');
    out.push(...words);
  }
  return out;
}

/** The features of a reply: its own words' unigrams and bigrams, and the subject's unigrams (prefixed s_). Sorted, each once. */
export function features(own: string, subject: string, ctx?: Pick<ReplyContext, 'requested_amount' | 'business_name'>): string[] {
  const f = new Set<string>();
  // (rfix2) the sentences that decide nothing (a funder's footer: "Any approval is subject to final review and may be
  // withdrawn prior to funding") are blanked for the model as for the rules: on every reply of that funder, they would
  // otherwise read as its approvals' words
  const toks = tokenize(blankBoilerplate(normalizeText(own).toLowerCase()).text, ctx);
  for (let i = 0; i < toks.length; i++) {
    if (toks[i] === '|') continue;
    f.add(toks[i]);
    if (i + 1 < toks.length && toks[i + 1] !== '|') f.add(`${toks[i]} ${toks[i + 1]}`);
  }
  const subj = subject.replace(/^\s*((re|fwd?|fw|aw|tr|wg)\s*:\s*)+/i, '');
  for (const w of tokenize(subj, ctx)) if (w !== '|') f.add(`s_${w}`);
  if (!toks.length) f.add('zempty');
  // the amounts named, against the ask, as one feature: only the ask, only less, both
  const at = toks.includes('zamtask');
  const less = toks.includes('zamtless');
  if (at || less) f.add(at && less ? 'zamts both' : at ? 'zamts ask only' : 'zamts less only');
  return [...f].sort();
}

/** The text the model reads of a message: the lender's own words (quotes cut), as the rules read it. */
export function modelInput(input: ReplyInput, ctx?: ReplyContext): { own: string; subject: string } {
  const own = replyParts(input).own;
  // (rfix27) a digest of several files' entries: the model reads the entry naming this deal, as the rules do (never another
  // file's entry taken for this deal's words)
  const digest = digestEntries(own, ctx);
  return { own: digest?.ours ? digest.own : own, subject: input.subject ?? '' };
}

// ---------------------------------------------------------------- training and reading

/** Trains the model: deterministic (sorted features, integer counts or weights rounded to 4 decimals), whatever the order of `docs`. */
export function trainModel(docs: Array<{ features: string[]; type: ReplyType }>, sets: string[], opts: { kind?: 'nb' | 'logreg'; alpha?: number; minDf?: number; iterations?: number } = {}): ReplyModel {
  const kind = opts.kind ?? 'nb';
  const alpha = opts.alpha ?? (kind === 'nb' ? 1 : 0.001);
  const minDf = opts.minDf ?? 2;
  const counts = new Map<string, number[]>();
  const perClass = MODEL_CLASSES.map(() => 0);
  for (const d of docs) {
    const k = MODEL_CLASSES.indexOf(d.type);
    perClass[k]++;
    for (const f of new Set(d.features)) {
      let c = counts.get(f);
      if (!c) counts.set(f, (c = MODEL_CLASSES.map(() => 0)));
      c[k]++;
    }
  }
  const kept = [...counts.keys()].sort().filter((f) => counts.get(f)!.reduce((a, b) => a + b, 0) >= minDf);
  const features: Record<string, number[]> = {};
  if (kind === 'nb') {
    const totals = MODEL_CLASSES.map(() => 0);
    for (const f of kept) {
      const c = counts.get(f)!;
      features[f] = c;
      c.forEach((n, k) => (totals[k] += n));
    }
    return { version: 1, kind, alpha, min_df: minDf, sets: [...sets].sort(), docs: perClass, totals, features };
  }
  // logistic regression: full-batch gradient descent on the mean cross-entropy plus alpha/2 |w|^2,
  // replies in a fixed order (sorted by their features) so that the sums are the same every time
  const index = new Map(kept.map((f, i) => [f, i]));
  const C = MODEL_CLASSES.length;
  const rows = docs
    .map((d) => ({ x: [...new Set(d.features)].filter((f) => index.has(f)).sort().map((f) => index.get(f)!), y: MODEL_CLASSES.indexOf(d.type) }))
    .sort((a, b) => a.y - b.y || a.x.length - b.x.length || a.x.join(',').localeCompare(b.x.join(',')));
  const W = kept.map(() => new Float64Array(C));
  const bias = new Float64Array(C);
  const n = rows.length || 1;
  const iterations = opts.iterations ?? 400;
  const lr = 4;
  for (let it = 0; it < iterations; it++) {
    const G = kept.map(() => new Float64Array(C));
    const gb = new Float64Array(C);
    for (const r of rows) {
      const scale = 1 / Math.sqrt(r.x.length || 1);
      const z = Array.from(bias);
      for (const j of r.x) for (let k = 0; k < C; k++) z[k] += W[j][k] * scale;
      const max = Math.max(...z);
      const e = z.map((v) => Math.exp(v - max));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let k = 0; k < C; k++) {
        const g = e[k] / sum - (k === r.y ? 1 : 0);
        gb[k] += g;
        for (const j of r.x) G[j][k] += g * scale;
      }
    }
    for (let k = 0; k < C; k++) bias[k] -= (lr * gb[k]) / n;
    for (let j = 0; j < kept.length; j++) for (let k = 0; k < C; k++) W[j][k] -= lr * (G[j][k] / n + alpha * W[j][k]);
  }
  const r4 = (v: number) => Math.round(v * 10000) / 10000 || 0;
  kept.forEach((f, j) => (features[f] = Array.from(W[j], r4)));
  return { version: 1, kind, alpha, min_df: minDf, sets: [...sets].sort(), docs: perClass, totals: Array.from(bias, r4), features };
}

/** Log-probability tables, computed once per model. */
const tables = new WeakMap<ReplyModel, { prior: number[]; logp: Map<string, number[]>; unseen: number[] }>();
function tablesOf(m: ReplyModel) {
  let t = tables.get(m);
  if (t) return t;
  const V = Object.keys(m.features).length;
  const n = m.docs.reduce((a, b) => a + b, 0);
  const prior = m.docs.map((d) => Math.log((d + 1) / (n + MODEL_CLASSES.length)));
  const denom = m.totals.map((s) => Math.log(s + m.alpha * V));
  const logp = new Map<string, number[]>();
  for (const [f, c] of Object.entries(m.features)) logp.set(f, c.map((x, k) => Math.log(x + m.alpha) - denom[k]));
  t = { prior, logp, unseen: denom.map((d) => Math.log(m.alpha) - d) };
  tables.set(m, t);
  return t;
}

/** The model's reading of a reply's features: the most probable class, its posterior, and its weightiest features. */
export function predict(m: ReplyModel, feats: string[]): ModelReading & { posterior: number[] } {
  let score: number[];
  let known: string[];
  let logp: Map<string, number[]>;
  if (m.kind === 'logreg') {
    logp = new Map(Object.entries(m.features));
    known = [...new Set(feats)].filter((f) => logp.has(f)).sort();
    const scale = 1 / Math.sqrt(known.length || 1);
    score = [...m.totals];
    for (const f of known) logp.get(f)!.forEach((w, k) => (score[k] += w * scale));
  } else {
    const t = tablesOf(m);
    logp = t.logp;
    score = [...t.prior];
    known = feats.filter((f) => logp.has(f));
    for (const f of known) logp.get(f)!.forEach((l, k) => (score[k] += l));
  }
  const max = Math.max(...score);
  const exp = score.map((s) => Math.exp(s - max));
  const z = exp.reduce((a, b) => a + b, 0);
  const posterior = exp.map((e) => e / z);
  let best = 0;
  for (let k = 1; k < posterior.length; k++) if (posterior[k] > posterior[best]) best = k;
  let second = best === 0 ? 1 : 0;
  for (let k = 0; k < posterior.length; k++) if (k !== best && posterior[k] > posterior[second]) second = k;
  const evidence = known
    .map((f) => ({ f, w: logp.get(f)![best] - logp.get(f)![second] }))
    .filter((x) => x.w > 0)
    .sort((a, b) => b.w - a.w || (a.f < b.f ? -1 : 1))
    .slice(0, 5)
    .map((x) => x.f);
  return { type: MODEL_CLASSES[best], probability: posterior[best], evidence, posterior };
}

export const SHIPPED_MODEL = shipped as unknown as ReplyModel;

/** The shipped model's reading of a message. */
export function readWithModel(input: ReplyInput, ctx?: ReplyContext, model: ReplyModel = SHIPPED_MODEL): ModelReading {
  const { own, subject } = modelInput(input, ctx);
  const { type, probability, evidence } = predict(model, features(own, subject, ctx));
  return { type, probability, evidence };
}

// ---------------------------------------------------------------- the two readers together

/**
 * The probabilities at which the model's reading counts (chosen by leave-one-batch-out
 * cross-validation, scripts/reply-model-cv.ts; see the corpus README):
 * - `fill`: the rules found no decisive cue; the model's type is taken (for a person) at or above it;
 * - `veto`: the rules decided; a model reading another type at or above it sends the reply to a person;
 * - `vetoTerms`: the same when the rules read an approval and the model a counter. Approval or counter
 *   is a matter of terms against the ask, which the rules compare and the model only smells in words
 *   ("Approved! We can do the full $75,000 at a 1.32 factor" reads as a counter to it at 0.9994), so it
 *   must be surer. Cross-validation: 0.9999 to 0.999999 give the same figures (one wrong application
 *   more than 0.999 over 499 replies, four right ones more); 0.999 would send that plain approval to
 *   a person. A counter the rules read is never vetoed by a model's approval (that veto never caught a
 *   wrong application and lost 11 right ones).
 */
export const MODEL_THRESHOLDS = { fill: 0.99, veto: 0.99, vetoTerms: 0.99999 } as const;
export type ModelThresholds = { fill: number; veto: number; vetoTerms: number };

/** The rules' reading with nothing decisive in it ("no decisive cue"), not an auto-reply or an acknowledgement. */
export function rulesUndecided(c: Pick<Classification, 'type' | 'reasons'>): boolean {
  // (holdout18) nor a reply whose only decision is another business's: the model reads all of it, that part too
  // (rfix27) ... nor one whose answer is only in a picture: the words around it ("here's where we landed, see attached") say nothing
  return c.type === 'unclassified' && c.reasons.includes('no decisive cue') && !c.reasons.includes('automatic reply') && !c.reasons.includes(OTHER_BUSINESS_ONLY) && !c.reasons.includes(ANSWER_IN_IMAGE);
}

/**
 * The reading of both readers (pure): the rules' reading, with the model's where the rules found no
 * decisive cue (always for a person), and sent to a person where the two disagree on a decided reading.
 * A reading already going to a person keeps its reason. Nothing is applied on the model alone.
 *
 * An offer the rules took from an attached letter (`from_attachment` on the offer: an offer letter, a term sheet) was
 * never seen by the model, which reads the reply's own words only: the model may not contradict that reading (a short
 * "approved, offer attached" body is too little for it: it once read one as a decline at 1.00). Offers read from the
 * body get no such pass, whatever is attached.
 */
export function combineReadings(rules: Classification, model: ModelReading, thresholds: ModelThresholds = MODEL_THRESHOLDS): Classification {
  const said = `model: ${model.type} ${model.probability.toFixed(2)}${model.evidence.length ? ` (${model.evidence.map((e) => `"${e}"`).join(', ')})` : ''}`;
  if (rulesUndecided(rules)) {
    if (model.type === 'unclassified' || model.probability < thresholds.fill) return { ...rules, reasons: [...rules.reasons, said] };
    return {
      ...rules,
      type: model.type,
      confidence: Math.min(rules.confidence, Math.round(model.probability * 50) / 100),
      review_reason: 'low_confidence',
      // (rfix17) a decline always carries its category: the rules read no reason in it, so `other` (no reason named)
      ...(model.type === 'declined' ? { decline_category: rules.decline_category ?? 'other' } : {}),
      reasons: [...rules.reasons, said, `rules found no decisive cue: the model's reading, for a person to confirm`, 'review: low_confidence'],
    };
  }
  if (rules.type === 'unclassified' || rules.review_reason) return { ...rules, reasons: [...rules.reasons, said] };
  const bar = rules.offers.some((o) => o.from_attachment) ? Infinity : rules.type === 'counter' && model.type === 'approved' ? Infinity : rules.type === 'approved' && model.type === 'counter' ? thresholds.vetoTerms : thresholds.veto;
  if (model.type !== rules.type && model.probability >= bar) {
    return { ...rules, review_reason: 'readers_disagree', reasons: [...rules.reasons, said, `the rules read ${rules.type}, the model ${model.type}: a person decides`, 'review: readers_disagree'] };
  }
  return { ...rules, reasons: [...rules.reasons, said] };
}

/** The model file's text: one feature a line, so that a retrained model diffs line by line. */
export function serializeModel(m: ReplyModel): string {
  const head = JSON.stringify({ version: m.version, kind: m.kind, alpha: m.alpha, min_df: m.min_df, sets: m.sets, docs: m.docs, totals: m.totals });
  const rows = Object.entries(m.features).map(([f, c]) => `  ${JSON.stringify(f)}: ${JSON.stringify(c)}`);
  return `${head.slice(0, -1)},\n "features": {\n${rows.join(',\n')}\n }\n}\n`;
}

/**
 * How the hook reads a lender's reply: the rules (classifier/) and the shipped model together
 * (`combineReadings`). `attachmentText` is read by the rules only.
 */
export function readReply(input: ReplyInput & { attachmentText?: string | null }, context?: ReplyContext): Classification {
  return combineReadings(classifyReply(input, context), readWithModel(input, context), MODEL_THRESHOLDS);
}

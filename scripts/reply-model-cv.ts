// Leave-one-batch-out cross-validation of the statistical reader of lender replies
// (src/features/inbound/reply-model.ts) against the rules (src/features/inbound/classifier/), and of the two together
// (`combineReadings`) at several thresholds. For each batch: the model is trained without it (and
// without any batch in BLIND_SETS) and tested on it.
//
// Four readings per batch:
//  (a) the model alone (type accuracy);
//  (b) the rules as they are now: fitted to every batch but those in BLIND_SETS, so not an estimate;
//  (b') the rules' blind first run on the batch (blind-runs.json): the honest figure for rules;
//  (c) rules now + model, through the hook's apply / review (reply-outcome.ts);
//  (d) the rules' blind first run + model: each batch's blind reading rebuilt from blind-runs.json
//      (its misses line by line; a fixture not listed was read right and applied iff it should be),
//      with the model's veto and fill on top. The honest estimate of what the model adds to rules
//      meeting new phrasing. holdout4 to holdout11 (older runs did not record the hook's outcome).
//
//   npx tsx scripts/reply-model-cv.ts            the tables
//   npx tsx scripts/reply-model-cv.ts --sweep    ... and the threshold sweep
//   npx tsx scripts/reply-model-cv.ts --logreg   ... and logistic regression alone (slower), for comparison
//   --pairs P, --margins, --left                 which vetoes catch what, at one bar; the wrong applications left
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyReply, type ReplyType } from '../src/features/inbound/classifier';
import { combineReadings, MODEL_THRESHOLDS, predict, rulesUndecided, type ModelReading, type ModelThresholds, type ReplyModel } from '../src/features/inbound/reply-model';
import { BLIND_SETS, CORPUS_DIR, loadManifest, parseFixture, scoreFixture, type FixtureResult } from '../contract-tests/fixtures/replies/evaluate';
import { modelDocs, trainFrom } from '../contract-tests/fixtures/replies/model-data';

const SETS = ['dev', 'holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5', 'holdout6', 'holdout7', 'holdout8', 'holdout9', 'holdout10', 'holdout11'];
const manifest = loadManifest();
const docs = await modelDocs();
const docOf = new Map(docs.map((d) => [d.file, d]));
const parsed = await Promise.all(manifest.map(parseFixture));
const rules = parsed.map((p) => ({ p, got: classifyReply(p.input, p.context) }));

// the model of each fold, and its reading of that fold's replies
const modelOf = new Map<string, ModelReading & { posterior: number[] }>();
const folds = new Map<string, ReplyModel>();
for (const set of SETS) {
  const m = trainFrom(docs, new Set([set]));
  folds.set(set, m);
  for (const d of docs.filter((x) => x.set === set)) modelOf.set(d.file, predict(m, d.features));
}

interface Row { n: number; typeOk: number; applied: number; wrong: number; should: number; right: number }
const zero = (): Row => ({ n: 0, typeOk: 0, applied: 0, wrong: 0, should: 0, right: 0 });
const addResult = (row: Row, r: { typeOk: boolean; applied: boolean; appliedWrong: boolean; shouldApply: boolean }) => {
  row.n++;
  row.typeOk += +r.typeOk;
  row.applied += +r.applied;
  row.wrong += +r.appliedWrong;
  row.should += +r.shouldApply;
  row.right += +(r.shouldApply && r.applied && r.typeOk);
};

function scoreRules(set: string, th: ModelThresholds | null): Row {
  const row = zero();
  for (const { p, got } of rules.filter((x) => x.p.expected.set === set)) {
    const c = th ? combineReadings(got, modelOf.get(p.expected.file)!, th) : got;
    addResult(row, scoreFixture(p, c) as FixtureResult);
  }
  return row;
}

// ---- the blind first runs, rebuilt
interface BlindRun { set: string; fixtures: number; type_correct: number; misses: string[]; applied?: { applied: number; applied_wrong: number; should_apply: number; applied_right_of_should_apply: number } }
const runs = (JSON.parse(readFileSync(join(CORPUS_DIR, 'blind-runs.json'), 'utf8')) as { runs: BlindRun[] }).runs;
const MISS = /^(?:XX|ok) (\S+)\s+(\w+)\s+-> (\w+)\s+[\d.]+\b.*?(applied( WRONG)?|review (\w+))(?!.*(applied|review \w+))/;
interface BlindReading { type: ReplyType; applied: boolean; reason: string | null }
function blindReadings(run: BlindRun): Map<string, BlindReading> | null {
  if (!run.applied) return null;
  const out = new Map<string, BlindReading>();
  for (const line of run.misses) {
    const m = MISS.exec(line);
    if (!m) return null;
    out.set(m[1], { type: m[3] as ReplyType, applied: m[4].startsWith('applied'), reason: m[6] ?? null });
  }
  for (const e of manifest.filter((x) => x.set === run.set)) {
    if (out.has(e.file)) continue;
    const should = e.type !== 'unclassified' && !e.expected_review;
    out.set(e.file, { type: e.type, applied: should, reason: should ? null : e.type === 'unclassified' ? 'not_classified' : 'expected_review' });
  }
  return out;
}

function scoreBlind(set: string, th: ModelThresholds | null): Row | null {
  const run = runs.find((r) => r.set === set);
  const readings = run && blindReadings(run);
  if (!readings) return null;
  const row = zero();
  for (const p of parsed.filter((x) => x.expected.set === set)) {
    const e = p.expected;
    const b = readings.get(e.file)!;
    const m = modelOf.get(e.file)!;
    let type = b.type;
    let applied = b.applied;
    if (th && !p.autoHeader) {
      // the rules' reason for an unclassified reading is not in the run: "no decisive cue" taken from today's rules for the same reply
      const undecided = b.type === 'unclassified' && b.reason === 'not_classified' && (e.type !== 'unclassified' || rulesUndecided(rules.find((r) => r.p === p)!.got));
      if (undecided && m.type !== 'unclassified' && m.probability >= th.fill) type = m.type;
      const bar = b.type === 'counter' && m.type === 'approved' ? Infinity : b.type === 'approved' && m.type === 'counter' ? th.vetoTerms : th.veto;
      if (applied && m.type !== b.type && m.probability >= bar) applied = false;
    }
    const typeOk = type === e.type;
    const should = e.type !== 'unclassified' && !e.expected_review;
    addResult(row, { typeOk, applied, appliedWrong: applied && (!typeOk || !!e.expected_review), shouldApply: should });
  }
  return row;
}

// ---- tables
const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)}%` : '-');
const cell = (r: Row | null) => (r ? `${pct(r.typeOk, r.n).padStart(6)} ${String(r.applied).padStart(3)}/${String(r.wrong).padEnd(2)} ${pct(r.right, r.should).padStart(6)}` : '       -'.padEnd(20));
const sum = (rows: Array<Row | null>) => rows.reduce<Row>((t, r) => (r ? { n: t.n + r.n, typeOk: t.typeOk + r.typeOk, applied: t.applied + r.applied, wrong: t.wrong + r.wrong, should: t.should + r.should, right: t.right + r.right } : t), zero());

function modelAlone(set: string): Row {
  const row = zero();
  for (const p of parsed.filter((x) => x.expected.set === set)) {
    row.n++;
    row.typeOk += +(modelOf.get(p.expected.file)!.type === p.expected.type);
  }
  return row;
}

const th = MODEL_THRESHOLDS;
console.log(`leave-one-batch-out: the model trained without the batch (and without ${[...BLIND_SETS].join(', ') || 'no blind set'}); thresholds fill ${th.fill}, veto ${th.veto}, vetoTerms ${th.vetoTerms}`);
console.log('cells: type accuracy, applied/applied wrong, coverage (applied right / should apply)\n');
console.log(`${'batch'.padEnd(10)} ${'n'.padStart(3)}  ${'(a) model'.padEnd(9)} ${'(b) rules now (fitted)'.padEnd(22)} ${'(b\') rules blind run'.padEnd(22)} ${'(c) rules now + model'.padEnd(22)} (d) rules blind + model`);
const totals: Record<string, Array<Row | null>> = { a: [], b: [], bb: [], c: [], d: [] };
for (const set of SETS) {
  const run = runs.find((r) => r.set === set);
  const bb = scoreBlind(set, null);
  const bbTypeOnly: Row | null = bb ?? (run ? { n: run.fixtures, typeOk: run.type_correct, applied: 0, wrong: 0, should: 0, right: 0 } : null);
  const a = modelAlone(set), b = scoreRules(set, null), c = scoreRules(set, th), d = scoreBlind(set, th);
  totals.a.push(a); totals.b.push(b); totals.c.push(c);
  if (bb) { totals.bb.push(bb); totals.d.push(d); }
  const bcell = bb ? cell(bb) : bbTypeOnly ? `${pct(bbTypeOnly.typeOk, bbTypeOnly.n).padStart(6)}   (type only)` : '       -';
  console.log(`${set.padEnd(10)} ${String(a.n).padStart(3)}  ${pct(a.typeOk, a.n).padStart(6)}    ${cell(b)}   ${bcell.padEnd(22)} ${cell(c)}   ${cell(d)}`);
}
const A = sum(totals.a), B = sum(totals.b), C = sum(totals.c);
console.log(`${'all'.padEnd(10)} ${String(A.n).padStart(3)}  ${pct(A.typeOk, A.n).padStart(6)}    ${cell(B)}   ${''.padEnd(22)} ${cell(C)}`);
console.log(`${'h4-h11'.padEnd(10)} ${String(sum(totals.bb).n).padStart(3)}  ${pct(sum(totals.a.slice(4)).typeOk, sum(totals.a.slice(4)).n).padStart(6)}    ${cell(sum(totals.b.slice(4)))}   ${cell(sum(totals.bb)).padEnd(22)} ${cell(sum(totals.c.slice(4)))}   ${cell(sum(totals.d))}`);

// per class, the model alone over every fold
const classes: ReplyType[] = ['approved', 'declined', 'needs_info', 'counter', 'unclassified'];
console.log('\nthe model alone, every batch held out in turn: class precision / recall');
for (const c of classes) {
  const support = parsed.filter((p) => p.expected.type === c).length;
  const predicted = parsed.filter((p) => modelOf.get(p.expected.file)!.type === c).length;
  const tp = parsed.filter((p) => p.expected.type === c && modelOf.get(p.expected.file)!.type === c).length;
  console.log(`  ${c.padEnd(13)} ${pct(tp, predicted).padStart(6)} (${tp}/${predicted})  ${pct(tp, support).padStart(6)} (${tp}/${support})`);
}
// calibration: accuracy of the model's reading by probability band
console.log('\nthe model alone by its probability: readings, correct');
for (const [lo, hi] of [[0, 0.5], [0.5, 0.7], [0.7, 0.9], [0.9, 0.99], [0.99, 0.999], [0.999, 1.01]]) {
  const inBand = parsed.filter((p) => { const q = modelOf.get(p.expected.file)!.probability; return q >= lo && q < hi; });
  console.log(`  [${lo}, ${Math.min(hi, 1)}): ${inBand.length} readings, ${pct(inBand.filter((p) => modelOf.get(p.expected.file)!.type === p.expected.type).length, inBand.length)} correct`);
}

if (process.argv.includes('--logreg')) {
  // the other model the issue names, alone: multinomial logistic regression on the same features
  console.log('\nlogistic regression alone (L2 0.0001, 1500 full-batch steps), every batch held out in turn:');
  let ok = 0;
  for (const set of SETS) {
    const m = trainFrom(docs, new Set([set]), { kind: 'logreg', alpha: 1e-4, iterations: 1500 });
    const held = docs.filter((d) => d.set === set);
    const right = held.filter((d) => predict(m, d.features).type === d.type).length;
    ok += right;
    console.log(`  ${set.padEnd(10)} ${pct(right, held.length)}`);
  }
  console.log(`  all        ${pct(ok, docs.length)}`);
}

if (process.argv.includes('--sweep')) {
  console.log('\nthreshold sweep (fill, veto, vetoTerms): (c) over every batch | (d) over holdout4-holdout11  [type, applied/wrong, coverage]');
  const line = (t: ModelThresholds) => {
    const c = sum(SETS.map((s) => scoreRules(s, t)));
    const d = sum(SETS.map((s) => scoreBlind(s, t)));
    console.log(`  fill ${String(t.fill).padEnd(5)} veto ${String(t.veto).padEnd(5)} vetoTerms ${String(t.vetoTerms).padEnd(8)} ${cell(c)} | ${cell(d)}`);
  };
  for (const fill of [0.5, 0.7, 0.9, 0.99, 0.999, 2]) line({ ...MODEL_THRESHOLDS, fill });
  for (const veto of [0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.995, 0.999, 2]) line({ ...MODEL_THRESHOLDS, veto });
  for (const vetoTerms of [0.9, 0.99, 0.999, 0.9999, 0.99999, 0.999999, 2]) line({ ...MODEL_THRESHOLDS, vetoTerms });
}
if (process.argv.includes('--pairs')) {
  // which vetoes: rules type -> model type, at veto 0.99, for (c) and (d)
  const t = { fill: 0.99, veto: Number(process.argv[process.argv.indexOf('--pairs') + 1] ?? 0.99) }; // every pair at one bar
  const pairs: Record<string, { c: [number, number]; d: [number, number] }> = {};
  for (const set of SETS) {
    const run = runs.find((r) => r.set === set);
    const readings = run && blindReadings(run);
    for (const { p, got } of rules.filter((x) => x.p.expected.set === set)) {
      const m = modelOf.get(p.expected.file)!;
      const r0 = scoreFixture(p, got);
      if (r0.applied && m.type !== got.type && m.probability >= t.veto) {
        const k = `${got.type}->${m.type}`;
        (pairs[k] ??= { c: [0, 0], d: [0, 0] }).c[r0.appliedWrong ? 0 : 1]++;
      }
      const b = readings?.get(p.expected.file);
      if (b && b.applied && m.type !== b.type && m.probability >= t.veto && !p.autoHeader) {
        const k = `${b.type}->${m.type}`;
        const wrong = b.type !== p.expected.type || !!p.expected.expected_review;
        (pairs[k] ??= { c: [0, 0], d: [0, 0] }).d[wrong ? 0 : 1]++;
      }
    }
  }
  console.log(`\nvetoes at ${t.veto} by (rules -> model): (c) wrong prevented / right lost, (d) wrong prevented / right lost`);
  for (const [k, v] of Object.entries(pairs).sort()) console.log(`  ${k.padEnd(26)} (c) ${v.c[0]}/${v.c[1]}   (d) ${v.d[0]}/${v.d[1]}`);
}
if (process.argv.includes('--margins')) {
  // rules approved (applied), model counter: log-odds margin and feature count, wrong (W) or right (R) application
  for (const set of SETS) {
    const run = runs.find((r) => r.set === set);
    const readings = run && blindReadings(run);
    for (const { p, got } of rules.filter((x) => x.p.expected.set === set)) {
      const m = modelOf.get(p.expected.file)!;
      const r0 = scoreFixture(p, got);
      const b = readings?.get(p.expected.file);
      const lo = Math.log(m.posterior[3] / m.posterior[0]);
      const nf = docOf.get(p.expected.file)!.features.length;
      if (r0.applied && got.type === 'approved' && m.type === 'counter') console.log(`  (c) ${r0.appliedWrong ? 'W' : 'R'} ${lo.toFixed(1).padStart(6)} ${String(nf).padStart(4)} ${(lo / nf).toFixed(3)} ${p.expected.file}`);
      if (b && b.applied && b.type === 'approved' && m.type === 'counter') console.log(`  (d) ${b.type !== p.expected.type || p.expected.expected_review ? 'W' : 'R'} ${lo.toFixed(1).padStart(6)} ${String(nf).padStart(4)} ${(lo / nf).toFixed(3)} ${p.expected.file}`);
    }
  }
}
if (process.argv.includes('--left')) {
  // the wrong applications left in (d): what the blind rules applied wrong that the model did not stop
  console.log('\nwrong applications left in (d), blind rules + model: rules type (expected) model type probability');
  for (const set of SETS) {
    const run = runs.find((r) => r.set === set);
    const readings = run && blindReadings(run);
    if (!readings) continue;
    for (const p of parsed.filter((x) => x.expected.set === set)) {
      const b = readings.get(p.expected.file)!;
      const m = modelOf.get(p.expected.file)!;
      const bar = b.type === 'counter' && m.type === 'approved' ? Infinity : b.type === 'approved' && m.type === 'counter' ? th.vetoTerms : th.veto;
      const applied = b.applied && !(m.type !== b.type && m.probability >= bar);
      if (applied && (b.type !== p.expected.type || p.expected.expected_review)) {
        console.log(`  ${set.padEnd(10)} ${b.type} (${p.expected.type}${p.expected.expected_review ? ', for review' : ''}) model ${m.type} ${m.probability.toFixed(4)}  ${p.expected.file}`);
      }
    }
  }
}
void docOf;

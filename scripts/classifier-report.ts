// Lender-reply classifier report on the fixture corpus (contract-tests/fixtures/replies):
// confusion matrix, per-class precision/recall, offer extraction per field, decline categories and
// requested items, for the whole corpus and for each part of it (dev / holdout / holdout2 / holdout3;
// see the corpus README for why the parts matter). First, per set, issue 26's measures of what the
// inbound hook does (reply-outcome.ts, the function the hook itself uses): applications and wrong
// applications, offers logged exactly, coverage, type accuracy, decline category.
//
//   npx tsx scripts/classifier-report.ts            summary for the corpus and each part
//   npx tsx scripts/classifier-report.ts --fixtures  ... plus one line per fixture
//   npx tsx scripts/classifier-report.ts --misses    ... plus the fixtures that miss, with the cues that fired
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLASSES, CORPUS_DIR, fixtureTable, hookMetrics, hookSummary, metrics, rulesReading, runCorpus, summary } from '../contract-tests/fixtures/replies/evaluate';

const args = new Set(process.argv.slice(2));
const started = performance.now();
const results = await runCorpus();
const elapsed = performance.now() - started;

const parts: Array<[string, typeof results]> = [
  ['whole corpus', results],
  ['dev (rules developed against it)', results.filter((r) => r.expected.set === 'dev')],
  ['holdout (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout')],
  ['holdout2 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout2')],
  ['holdout3 (issue 26 labels; blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout3')],
  ['holdout4 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout4')],
  ['holdout5 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout5')],
  ['holdout6 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout6')],
  ['holdout7 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout7')],
  ['holdout8 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout8')],
  ['holdout9 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout9')],
  ['holdout10 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout10')],
  ['holdout11 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout11')],
  ['holdout12 (blind twice, then used for fixes)', results.filter((r) => r.expected.set === 'holdout12')],
  ['holdout13 (blind twice, then used for fixes)', results.filter((r) => r.expected.set === 'holdout13')],
  ['holdout14 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout14')],
  ['holdout15 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout15')],
  ['holdout16 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout16')],
  ['holdout17 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout17')],
  ['holdout18 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout18')],
  ['holdout19 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout19')],
  ['holdout20 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout20')],
  ['holdout21 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout21')],
  ['holdout22 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout22')],
  ['holdout23 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout23')],
  ['holdout24 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout24')],
  ['holdout25 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout25')],
  ['holdout26 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout26')],
  ['holdout27 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout27')],
  ['holdout28 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout28')],
  ['holdout29 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout29')],
  ['holdout30 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout30')],
  ['holdout31 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout31')],
  ['holdout32 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout32')],
  ['holdout33 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout33')],
  ['holdout34 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout34')],
  ['holdout35 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout35')],
  ['holdout36 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout36')],
  ['holdout37 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout37')],
  ['holdout38 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout38')],
  ['holdout39 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout39')],
  ['holdout40 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout40')],
  ['holdout41 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout41')],
  ['holdout42 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout42')],
  ['holdout43 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout43')],
  ['holdout44 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout44')],
  ['holdout45 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout45')],
  ['holdout46 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout46')],
  ['holdout47 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout47')],
  ['holdout48 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout48')],
  ['holdout49 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout49')],
  ['holdout50 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout50')],
  ['holdout51 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout51')],
  ['holdout52 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout52')],
  ['holdout53 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout53')],
  ['holdout54 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout54')],
  ['holdout55 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout55')],
  ['holdout56 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout56')],
  ['holdout57 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout57')],
  ['holdout58 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout58')],
  ['holdout59 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout59')],
  ['holdout60 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout60')],
  ['holdout61 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout61')],
  ['holdout62 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout62')],
  ['holdout63 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout63')],
  ['holdout64 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout64')],
  ['holdout65 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout65')],
  ['holdout66 (blind once, then used for fixes)', results.filter((r) => r.expected.set === 'holdout66')],
];

// what the statistical second reader (reply-model.ts) changes: the rules alone against the hook's reading
{
  const alone = await runCorpus(rulesReading);
  const bySet = (rs: typeof results, set: string | null) => rs.filter((r) => set === null || r.expected.set === set);
  const fmt = (rs: typeof results) => {
    const h = hookMetrics(rs);
    const m = metrics(rs);
    return `${h.applied} (${h.appliedWrong}) ${h.appliedRight}/${h.shouldApply} ${Math.round(m.typeAccuracy * m.total)}/${m.total}`;
  };
  console.log('=== the statistical reader beside the rules (reply-model.ts; the shipped model was trained on every set but BLIND_SETS, so only those are out of its sample)');
  console.log('set: applied (wrong), coverage, type -- rules alone -> rules + model');
  for (const set of [null, ...new Set(results.map((r) => r.expected.set))]) {
    console.log(`  ${(set ?? 'whole corpus').padEnd(13)} ${fmt(bySet(alone, set)).padEnd(24)} -> ${fmt(bySet(results, set))}`);
  }
  console.log('');
}

console.log('=== what the hook does (issue 26): per set');
for (const [name, rs] of parts) {
  if (!rs.length) continue;
  console.log(`\n--- ${name}\n${hookSummary(hookMetrics(rs), metrics(rs))}`);
}

for (const [name, rs] of parts) {
  if (!rs.length) continue;
  console.log(`\n=== ${name}\n`);
  if (args.has('--fixtures') && name === 'whole corpus') console.log(`${fixtureTable(rs)}\n`);
  console.log(summary(metrics(rs)));
}

if (args.has('--misses')) {
  const misses = results.filter(
    (r) => !r.typeOk || r.offersExact === false || r.categoryOk === false || r.appliedWrong || r.loggedExact === false || (r.shouldApply && !r.applied) || (r.items && (r.items.found < r.items.expected || r.items.extra > 0)),
  );
  console.log(`\n=== misses (${misses.length})\n`);
  for (const r of misses) {
    console.log(fixtureTable([r]));
    for (const reason of r.got.reasons) console.log(`     ${reason}`);
    if (r.expected.requested_items) console.log(`     items expected ${JSON.stringify(r.expected.requested_items)} got ${JSON.stringify(r.got.requested_items)}`);
  }
}

// The honest number: each held-out batch scored once, blind, before the rules saw it.
interface BlindRun {
  set: string;
  fixtures: number;
  type_correct: number;
  confusion: Record<string, Record<string, number>>;
  offers_exact: [number, number];
  decline_category_correct: [number, number];
  requested_items_found: [number, number];
}
const blind = (JSON.parse(readFileSync(join(CORPUS_DIR, 'blind-runs.json'), 'utf8')) as { runs: BlindRun[] }).runs;
const pct = (a: number, b: number) => `${b ? ((a / b) * 100).toFixed(1) : '100.0'}% (${a}/${b})`;
console.log('\n=== blind first runs (held-out batches scored once before any fix: the generalisation estimate)\n');
const total = { fixtures: 0, correct: 0, offers: [0, 0], cats: [0, 0], items: [0, 0] };
const confusion: Record<string, Record<string, number>> = {};
for (const r of blind) {
  console.log(`${r.set}: type ${pct(r.type_correct, r.fixtures)}, offers exact ${pct(...r.offers_exact)}, decline category ${pct(...r.decline_category_correct)}, items ${pct(...r.requested_items_found)}`);
  total.fixtures += r.fixtures;
  total.correct += r.type_correct;
  for (const [k, [a, b]] of [['offers', r.offers_exact], ['cats', r.decline_category_correct], ['items', r.requested_items_found]] as const) {
    total[k][0] += a;
    total[k][1] += b;
  }
  for (const [exp, row] of Object.entries(r.confusion)) for (const [got, n] of Object.entries(row)) ((confusion[exp] ??= {})[got] = (confusion[exp]?.[got] ?? 0) + n);
}
console.log(`both: type ${pct(total.correct, total.fixtures)}, offers exact ${pct(total.offers[0], total.offers[1])}, decline category ${pct(total.cats[0], total.cats[1])}, items ${pct(total.items[0], total.items[1])}`);
console.log('\nclass         precision         recall');
for (const c of CLASSES) {
  const tp = confusion[c]?.[c] ?? 0;
  const support = Object.values(confusion[c] ?? {}).reduce((a, b) => a + b, 0);
  const predicted = CLASSES.reduce((a, e) => a + (confusion[e]?.[c] ?? 0), 0);
  console.log(`${c.padEnd(14)}${pct(tp, predicted).padEnd(18)}${pct(tp, support)}`);
}

console.log(`\n${results.length} messages parsed (mailparser) and classified in ${elapsed.toFixed(0)} ms`);

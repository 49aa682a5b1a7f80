// Audits what rules.ts says each transaction of a corpus means against the truth's category,
// independent of reading the PDF (contract-tests/support/category-audit.ts): a line is wrong only
// when the rules SETTLE it otherwise than the truth (a doubted line refuses its statement). Lists
// every wrong line; exits 1 when there is one.
//
//   npx tsx scripts/audit-statement-categories.ts contract-tests/fixtures/statements-blind-4 [...more dirs]
import { auditCorpus } from '../contract-tests/support/category-audit';

let bad = 0;
for (const dir of process.argv.slice(2)) {
  const { lines, wrong } = auditCorpus(dir);
  bad += wrong.length;
  console.log(`${dir}: ${lines} transactions, ${wrong.length} settled wrong`);
  const seen = new Set<string>();
  for (const w of wrong) {
    const l = `  ${w.file}  ${w.amount}  "${w.description}"  -> ${w.why}`;
    const k = l.replace(/\d/g, '#');
    if (!seen.has(k)) seen.add(k), console.log(l);
  }
}
process.exitCode = bad ? 1 : 0;

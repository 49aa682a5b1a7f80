// Audits what rules.ts says each transaction of a corpus means against the truth's category (the
// generator's own label for every line of truth.json), independent of reading the PDF: a credit's
// kind (revenue, transfer, loan, refund), whether a debit is an NSF/overdraft fee, whether a debit is
// an MCA position. Lists every disagreement; exits 1 when there is one.
//
//   npx tsx scripts/audit-statement-categories.ts contract-tests/fixtures/statements-blind-4 [...more dirs]
import { readFileSync } from 'node:fs';
import { depositKind, isNsf, mcaFunder } from '../src/features/statements/rules';

const KIND: Record<string, string> = {
  proc: 'revenue', cash: 'revenue', mobile: 'revenue', receivable: 'revenue', client: 'revenue', interest: 'revenue',
  xfer_in: 'transfer', mca_funding: 'loan', loan: 'loan', vendor_refund: 'refund', cb_reversal: 'refund', rtn_credit: 'refund', fee_rev: 'refund',
};
let bad = 0;
for (const dir of process.argv.slice(2)) {
  const t = JSON.parse(readFileSync(`${dir}/truth.json`, 'utf8'));
  const stmts: Array<{ file: string; transactions?: Array<{ description: string; amount: number; category: string }> }> = Array.isArray(t) ? t : t.statements;
  let n = 0;
  const out: string[] = [];
  for (const s of stmts) {
    for (const x of s.transactions ?? []) {
      n++;
      const d = x.description;
      let why: string | null = null;
      if (x.amount > 0) {
        const want = KIND[x.category];
        const got = depositKind(d);
        if (want && got !== want) why = `credit ${x.category}: ${got} (want ${want})`;
        else if (!want) why = `credit of unknown truth category ${x.category}`;
      } else {
        const nsfWant = x.category === 'nsf_fee' || x.category === 'od_fee';
        if (isNsf(d) !== nsfWant) why = `debit ${x.category}: isNsf ${!nsfWant}`;
        else if ((x.category === 'mca') !== !!mcaFunder(d)) why = `debit ${x.category}: mcaFunder ${mcaFunder(d)}`;
      }
      if (why) out.push(`  ${s.file}  ${x.amount}  "${d}"  -> ${why}`);
    }
  }
  bad += out.length;
  console.log(`${dir}: ${n} transactions, ${out.length} categorised wrong`);
  const seen = new Set<string>();
  for (const l of out) {
    const k = l.replace(/\d/g, '#');
    if (!seen.has(k)) seen.add(k), console.log(l);
  }
}
process.exitCode = bad ? 1 : 0;

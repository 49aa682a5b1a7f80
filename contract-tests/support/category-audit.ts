// Audits what the reader's rules say each transaction of a corpus means against the truth's category
// (the generator's own label for every line of truth.json), independent of reading the PDF. A line is
// right when the rules settle it as the truth says, or DOUBT it (the statement then refuses,
// uncertain_categories); it is wrong only when the rules settle it otherwise: the line-level form of
// "never a wrong figure". A credit is settled as the statement settles it: money given back by a
// counterparty the statement shows the merchant paying (analyze.ts paidBack), else the table's kind
// when neither creditDoubt nor the statement's doubt of a credit from a counterparty it pays
// (doubt.ts fromPaidCounterparty) has one. Debits: an NSF/overdraft fee or not, an MCA position or not
// (unless doubted: a fee line that only reads like an NSF or overdraft fee, rules.ts looksLikeNsfFee; a known funder's only debit of the period worded as a loan payment or after a line draw from it, doubt.ts
// loanWordedSinglePulls; equal debits recurring to a payee no row knows, doubt.ts unknownFunderPulls; an unknown funder's schedule-worded pulls are a
// position, doubt.ts unknownFunderPositions; a debit a funder row and a not_funder row both name, rules.ts funderRowsDisagree, is doubted).
import { readFileSync } from 'node:fs';
import { fromPaidCounterparty, loanInstallments, loanWordedSinglePulls, unknownFunderPositions, unknownFunderPulls } from '../../src/features/statements/doubt';
import { paidBack, type Txn } from '../../src/features/statements/analyze';
import { creditDoubt, depositKind, funderRowsDisagree, isNsf, looksLikeNsfFee, mcaFunder } from '../../src/features/statements/rules';

const KIND: Record<string, string> = {
  proc: 'revenue', marketplace: 'revenue', cash: 'revenue', mobile: 'revenue', receivable: 'revenue', client: 'revenue', interest: 'interest',
  xfer_in: 'transfer', mca_funding: 'loan', loan: 'loan', vendor_refund: 'refund', cb_reversal: 'refund', rtn_credit: 'refund', fee_rev: 'refund',
};
export interface AuditLine { file: string; amount: number; description: string; why: string }

export function auditCorpus(dir: string): { lines: number; wrong: AuditLine[] } {
  const t = JSON.parse(readFileSync(`${dir}/truth.json`, 'utf8'));
  const stmts: Array<{ file: string; transactions?: Array<{ date: string; description: string; amount: number; category: string }> }> = Array.isArray(t) ? t : t.statements;
  let lines = 0;
  const wrong: AuditLine[] = [];
  for (const s of stmts) {
    const rows = s.transactions ?? [];
    const txns: Txn[] = rows.map((x) => ({ date: x.date, description: x.description, cents: Math.round(x.amount * 100) }));
    const back = paidBack(txns);
    // A credit from a counterparty the statement shows the merchant paying, no row settling it: doubted.
    const fromPaid = fromPaidCounterparty(txns);
    // A known funder's only debit of the period worded as a loan payment: doubted.
    const loanPull = loanWordedSinglePulls(txns);
    // A known funder's loan or line payment (no credit from it but loan funding, one debit): no position.
    const installment = loanInstallments(txns);
    // Equal debits recurring to a payee no row knows (an unknown advance's pulls, or not): doubted.
    const unknownPull = unknownFunderPulls(txns).debits;
    // A funder no row knows, pulling a fixed sum on the schedule its entry names: a position.
    const unknownPosition = unknownFunderPositions(txns);
    rows.forEach((x, i) => {
      lines++;
      const d = x.description;
      let why: string | null = null;
      if (x.amount > 0) {
        const want = KIND[x.category];
        if (!want) why = `credit of unknown truth category ${x.category}`;
        else if (!back.has(txns[i]) && !creditDoubt(d) && !fromPaid.has(txns[i])) {
          const got = depositKind(d);
          if (got !== want) why = `credit ${x.category}: settled as ${got} (want ${want})`;
        } else if (back.has(txns[i]) && want !== 'refund') why = `credit ${x.category}: settled as money given back (want ${want})`;
      } else {
        const nsfWant = x.category === 'nsf_fee' || x.category === 'od_fee';
        // (A fee line that only reads like an overdraft or returned-item fee, rules.ts looksLikeNsfFee, is doubted:
        // the statement refuses unless the bank's printed period total of those fees takes it, reconcile.ts feeCounted.)
        if (!looksLikeNsfFee(d) && isNsf(d) !== nsfWant) why = `debit ${x.category}: isNsf ${!nsfWant}`;
        else if (!loanPull.has(txns[i]) && !unknownPull.has(txns[i]) && !funderRowsDisagree(d) && (x.category === 'mca') !== ((!!mcaFunder(d) && !installment.has(txns[i])) || unknownPosition.has(txns[i]))) why = `debit ${x.category}: mcaFunder ${mcaFunder(d)}`;
      }
      if (why) wrong.push({ file: s.file, amount: x.amount, description: d, why });
    });
  }
  return { lines, wrong };
}

import { fundingCredit, loanInstallments, paidBack, unknownFunderFundings, unknownFunderPositions } from './doubt';
import { days } from './period';
import { endOfDay, type Reconciled } from './reconcile';
import type { StatementFigures } from './result';
import { depositKind, isNsf, isRecovery, mcaFunder } from './rules';

// The figures of a reconciled statement: deposits, true revenue, average daily balance, negative
// days, NSF count, MCA positions and withholding.
export const dollars = (cents: number) => Math.round(cents) / 100;

export function figuresOf(c: Extract<Reconciled, { ok: true }>, bankName: string | null): StatementFigures {
  let deposits = 0;
  let depositCount = 0;
  let nonRevenue = 0;
  let nsf = 0;
  let mcaDebits = 0;
  let recovery = false;
  const funders = new Set<string>();
  const mcaRows: Array<{ date: string; cents: number; returned: boolean }> = [];
  // A known funder's loan or line payment (doubt.ts loanInstallments) is debt service, no position.
  const installments = loanInstallments(c.txns);
  // A funder no row knows, pulling a fixed sum on the schedule its entry names (doubt.ts unknownFunderPositions).
  const unknown = unknownFunderPositions(c.txns);
  for (const t of c.txns) {
    if (t.cents >= 0) continue;
    if (isRecovery(t.description)) recovery = true;
    // An NSF or returned-item fee is an NSF event, even when it names the funder whose debit bounced.
    // (Or a fee line the rules only doubt, that the bank's printed overdraft / returned-item fee total counts: reconcile.ts.)
    if (t.feeCounted || isNsf(t.description)) {
      nsf++;
      continue;
    }
    const funder = installments.has(t) ? null : (mcaFunder(t.description) ?? unknown.get(t) ?? null);
    if (funder) {
      funders.add(funder);
      mcaDebits += -t.cents;
      mcaRows.push({ date: t.date, cents: -t.cents, returned: false });
    }
  }
  const givenBack = paidBack(c.txns);
  // That funder's funding (doubt.ts unknownFunderFundings), and a credit worded as an advance's funding (fundingCredit): not revenue.
  const funded = unknownFunderFundings(c.txns, unknown);
  for (const t of c.txns) if (t.cents > 0 && fundingCredit(t.description)) funded.add(t);
  for (const t of c.txns) {
    if (t.cents <= 0) continue;
    deposits += t.cents;
    depositCount++;
    if (depositKind(t.description) === 'revenue' && !givenBack.has(t) && !funded.has(t)) continue;
    nonRevenue += t.cents;
    // A funder's debit returned unpaid (the same amount credited back within a few days, as a
    // return): that payment was not withheld.
    if (/\b(RETURN(ED)?|RTN|REVERS(AL|ED)|R0\d)\b/i.test(t.description)) {
      const m = mcaRows.find((x) => !x.returned && x.cents === t.cents && x.date <= t.date && days(x.date, t.date) <= 6);
      if (m) {
        m.returned = true;
        mcaDebits -= t.cents;
      }
    }
  }
  const eod = endOfDay(c.txns, c.period, c.opening);
  let sum = 0;
  let negative = 0;
  for (const b of eod.values()) {
    sum += b;
    if (b < 0) negative++;
  }
  const trueRevenue = deposits - nonRevenue;
  return {
    period_start: c.period.start,
    period_end: c.period.end,
    bank_name: bankName,
    beginning_balance: dollars(c.opening),
    deposits_total: dollars(deposits),
    deposit_count: depositCount,
    true_revenue: dollars(trueRevenue),
    average_daily_balance: dollars(Math.round(sum / eod.size)),
    ending_balance: dollars(c.closing),
    negative_days: negative,
    nsf_count: nsf,
    mca_count: funders.size,
    mca_withhold_percent: trueRevenue > 0 ? Math.round((mcaDebits / trueRevenue) * 10_000) / 100 : 0,
    has_recovery_activity: recovery,
  };
}

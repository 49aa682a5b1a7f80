// doubt.ts reads each debit's words once per statement and asks rules.ts `paysCounterparty` only of
// the debits whose name words hold the credit's first name word (`paysNamed`). That skip is exact
// only while every way paysCounterparty matches needs that word: this keeps it true, on every
// statement of every corpus's truth (their written transactions, no PDF read).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Txn } from '../../src/features/statements/reconcile';
import { moneyBackFrom, nameWords, paysCounterparty } from '../../src/features/statements/rules';

const FIXTURES = new URL('../fixtures', import.meta.url).pathname;
const statements: { file: string; txns: Txn[] }[] = readdirSync(FIXTURES)
  .map((d) => join(FIXTURES, d, 'truth.json'))
  .filter((f) => existsSync(f))
  .flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { statements?: { file: string; transactions?: { date: string; description: string; amount: number }[] }[] }).statements ?? [])
  .filter((s) => s.transactions?.length)
  .map((s) => ({ file: s.file, txns: s.transactions!.map((t) => ({ date: t.date, description: t.description, cents: Math.round(t.amount * 100) })) }));

describe('doubt.ts reads a statement\'s words once', () => {
  it('a debit paysCounterparty matches holds the credit\'s first name word (so the debits without it are skipped)', () => {
    let pairs = 0;
    let matched = 0;
    const broken: string[] = [];
    for (const s of statements) {
      const names = s.txns.filter((t) => t.cents > 0).map((t) => moneyBackFrom(t.description)).filter((n): n is string[] => n !== null);
      for (const name of names) {
        for (const d of s.txns.filter((t) => t.cents < 0)) {
          pairs++;
          if (!paysCounterparty(d.description, name)) continue;
          matched++;
          if (!nameWords(d.description).includes(name[0])) broken.push(`${s.file}: "${d.description}" pays ${name.join(' ')}`);
        }
      }
    }
    expect(statements.length).toBeGreaterThan(300);
    expect(broken).toEqual([]);
    // Not vacuous: the corpora's credit memos do match debits that paid their company.
    expect(matched, `of ${pairs} pairs`).toBeGreaterThan(20);
  });
});

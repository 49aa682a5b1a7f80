import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditCorpus } from '../support/category-audit';

// Line by line, on every corpus with a truth: the rules settle each transaction as the truth's
// author labelled it, or doubt it (its statement then refuses, uncertain_categories); never settle
// it otherwise. blind-10's wrong figure was one such line ("DOMINION ENERGY REBATE PGM", revenue,
// settled as a refund by the word REBATE); this catches a word that two authors read differently
// before it reaches a statement, including lines on statements that refuse for another reason.
// blind-11 (a factoring advance settled as a loan, insurance claims for the business's own loss and a
// warranty credit settled as sales: two statements parsed with a wrong revenue) is one of them.
const ROOT = 'contract-tests/fixtures';
const ALL = readdirSync(ROOT).filter((d) => d.startsWith('statements') && existsSync(`${ROOT}/${d}/truth.json`));
/**
 * Blind batches scored once and not yet worked on (as the replies' BLIND_SETS): their first score, wrong lines
 * included, is the blind figure in their README; they join the audit when their misses are worked on. Each must say
 * so in its README, so a folder cannot sit here unscored or forgotten.
 */
const NOT_YET_WORKED_ON: string[] = [];
const DIRS = ALL.filter((d) => !NOT_YET_WORKED_ON.includes(d));

describe('the rules against every truth, line by line', () => {
  it('knows at least the thirteen corpora, blind-11 among them', () => {
    expect(DIRS.length).toBeGreaterThanOrEqual(13);
    expect(DIRS).toContain('statements-blind-11');
  });
  it.each(NOT_YET_WORKED_ON)('%s is a blind batch scored once and not yet worked on (its README says so)', (dir) => {
    expect(ALL).toContain(dir);
    const readme = readFileSync(`${ROOT}/${dir}/README.md`, 'utf8');
    expect(readme).toMatch(/\*\*Scored once, /);
    expect(readme).not.toMatch(/\*\*After the fix/);
  });
  it.each(DIRS)('%s: no line settled otherwise than its truth', (dir) => {
    const { lines, wrong } = auditCorpus(`${ROOT}/${dir}`);
    expect(lines).toBeGreaterThanOrEqual(0);
    expect(wrong.map((w) => `${w.file} ${w.amount} "${w.description}" -> ${w.why}`)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { categoryDoubt } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { paidForByWire } from '../../src/features/statements/rules';

// Review revq of the rules blind-49 and blind-50 asked for: lines a public body or a company writes
// that the new rules read as a customer's payment although they are no price of work. Each test
// fails when its rule is removed. Invented places and companies throughout.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const DOUBTED = /^The credit of \$8640\.00 on 2026-03-16 .*(is of a kind no rule knows|reads like)/;

describe("a public body's wire under a CONTRACT that is a grant, a relief program's money or an award: still in doubt", () => {
  // A government passes grants and relief money to businesses under a subrecipient CONTRACT or
  // agreement, named by the program (CDBG, ARPA / SLFRF, CARES, a subaward or subgrant, a cost
  // share, a forgivable loan, an incentive for jobs created, a business improvement program) or
  // pays damages under a contract: none of it is a price of work, and before this review each was
  // read as a customer's payment (no doubt, counted in true revenue).
  it.each([
    'INCOMING WIRE COUNTY OF BRANDT ARPA CONTRACT',
    'INCOMING WIRE COUNTY OF BRANDT SLFRF SUBRECIPIENT CONTRACT',
    'INCOMING WIRE STATE OF OHIO CARES ACT CONTRACT',
    'INCOMING WIRE CITY OF MARLOWE CDBG MICROENTERPRISE CONTRACT',
    'INCOMING WIRE OH DEPT OF DEVELOPMENT SUBAWARD CONTRACT',
    'INCOMING WIRE OH DEPT OF DEVELOPMENT SUBGRANT CONTRACT',
    'INCOMING WIRE US DEPT OF AGRICULTURE EQIP CONTRACT COST SHARE',
    'INCOMING WIRE DEPT OF ECONOMIC DEVELOPMENT JOB CREATION CONTRACT',
    'INCOMING WIRE DEPT OF COMMERCE SMALL BUSINESS CONTRACT FORGIVABLE',
    'INCOMING WIRE CITY OF MARLOWE FACADE IMPROVEMENT PROGRAM CONTRACT',
    'INCOMING WIRE CITY OF MARLOWE CONTRACT DAMAGES',
  ])('%s', (wire) => {
    expect(paidForByWire(wire)).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toMatch(DOUBTED);
  });
});

describe("a company whose name begins like a public body's ('STATE OF THE ART ...'): no public body", () => {
  // A company's CONTRACT still needs the period the work was done in (a contract's sale, deposit or
  // buy-out says no month); "STATE OF THE ART ROOFING LLC" was read as a state's.
  it.each([
    'INCOMING WIRE STATE OF THE ART ROOFING LLC CONTRACT',
    'INCOMING WIRE STATE OF THE ART ROOFING CONTRACT',
    'INCOMING WIRE CITY OF LIGHTS EVENTS INC CONTRACT',
  ])('%s', (wire) => {
    expect(paidForByWire(wire)).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toMatch(DOUBTED);
  });

  it("a public body's contract for work is still a customer's payment", () => {
    for (const wire of ['INCOMING WIRE TX DEPT OF TRANSPORTATION MOWING CONTRACT', 'INCOMING WIRE COUNTY OF BRANDT FLEET MAINTENANCE CONTRACT REF 88213', 'INCOMING WIRE CO DEPT OF TRANSPORTATION SNOW REMOVAL CONTRACT']) {
      expect(paidForByWire(wire), wire).not.toBeNull();
      expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toBeNull();
    }
  });
});

describe("the merchant's own company name later on a public body's wire is no company's contract", () => {
  it('a beneficiary field naming the merchant LLC: still the public body\'s payment', () => {
    const wire = 'INCOMING WIRE OH DEPT OF TRANSPORTATION SNOW REMOVAL CONTRACT BNF DUSTY ROAD HAULING LLC';
    expect(paidForByWire(wire)).not.toBeNull();
    const city = 'INCOMING WIRE CITY OF MARLOWE JANITORIAL CONTRACT BNF BRIGHTWAY CLEANING LLC';
    expect(paidForByWire(city)).not.toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', city, 8640)])).toBeNull();
  });
});

describe("a city's NUMBERED contract passing on a grant or relief program: no customer's payment (knowledge row)", () => {
  // The row "Public bodies paying on a contract" ("CITY OF ... CONTRACT 26-114") already left out a
  // grant, a refund, relief; a relief program's money under a numbered subrecipient contract is
  // named by the program (CDBG, ARPA, SLFRF...), and was counted as revenue with no doubt.
  it.each([
    'CITY OF MARLOWE CDBG CONTRACT 2026-14',
    'COUNTY OF BRANDT ARPA CONTRACT NO. 26-114',
    'TOWN OF ELMSBURY SLFRF SUBRECIPIENT CONTRACT 114',
    'CITY OF MARLOWE CONTRACT 26-114 DAMAGES',
  ])('%s', (line) => {
    const wire = `INCOMING WIRE ${line}`;
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toMatch(DOUBTED);
  });
  it('the same city paying for mowing under its numbered contract is still a customer', () => {
    expect(categoryDoubt([...sales, tx('2026-03-16', 'INCOMING WIRE CITY OF MARLOWE CONTRACT 26-114 MOWING', 8640)])).toBeNull();
  });
});

// The trade's vocabulary (src/features/inbound/vocabulary.ts), one test per row class: each row
// class is shown changing what the classifier reads, on short replies written the way lenders write.
import { describe, expect, it } from 'vitest';
import { CHANGE_RECORD, askedTerm, classifyReply, extractOffers, wordsToDigits, type ReplyContext } from '../../src/features/inbound/classifier';
import { contractClassification, replyOutcome } from '../../src/features/inbound/reply-outcome';
import * as V from '../../src/features/inbound/vocabulary';
import { combineReadings, features as modelFeatures, readReply } from '../../src/features/inbound/reply-model';
import { splitReply } from '../../src/features/inbound/reply-text';
import { requestedItems } from '../../src/features/inbound/classifier/requested-items';
import { spanishThousands } from '../../src/features/inbound/classifier/decision-doubts';

const read = (text: string, ctx?: ReplyContext, subject = 'Re: Submission: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA') => classifyReply({ subject, text }, ctx);
const ask = (requested_amount: number): ReplyContext => ({ requested_amount });

describe('decisions', () => {
  it('approval phrases: portal decisions, "they\'re approved", "good to go", underwriter shorthand', () => {
    expect(read('Decision: APPROVED\nFunded Amount: $40,000\nFactor Rate: 1.25\nTerm: 6 Months', ask(40_000)).type).toBe('approved');
    expect(read("They're approved for the full 65. 1.35 over 9 months, $2,250 a week.", ask(65_000)).type).toBe('approved');
    expect(read("we're good to go on Pinecrest at $75k. $99,000 back over 9 months, weekly.", ask(75_000)).type).toBe('approved');
    expect(read('APPR 35k/1.45/130d/$390.38 dly. BV + VC to fund.', ask(35_000)).type).toBe('approved');
    expect(read('Pinecrest - approved. 75k / 1.35 / 180 / 562.50', ask(75_000))).toMatchObject({ type: 'approved', offers: [{ amount: 75_000, factor_rate: 1.35, term: 180, term_unit: 'days' }] });
    for (const row of V.APPROVAL) expect(row.w).toBeGreaterThan(0);
  });

  it('decline phrases: "DECL", "sit this one out", "we don\'t go 5th", "can\'t make it work", a bare "pass"', () => {
    expect(read('DECL - too many negs. 14 in Oct alone.').type).toBe('declined');
    expect(read("We're gonna sit this one out.").type).toBe('declined');
    expect(read("Fox Run is showing 4 positions, not 3. We don't go 5th. Sorry Dana.").type).toBe('declined');
    expect(read("Brightside runs too thin - avg daily balance is under $900. Can't make it work.").type).toBe('declined');
    expect(read("revenue's too light for 15 on this one. pass\n\nTony").type).toBe('declined');
    expect(read('Unable to offer at this time.').type).toBe('declined');
    expect(read("We passed on this one last month, nothing has changed so it's still a no.").type).toBe('declined');
  });

  it('withdrawal: a pulled approval is a decline a person confirms', () => {
    const c = read('bad news, I have to pull the approval on Lakeside. A new position funded Monday.');
    expect(c).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    expect(read('Deal is approved but the offer was rescinded after the bank verification failed.').review_reason).toBe('approval_withdrawn');
    expect(read("Approved last week but merchant never signed; offer expired. Resubmit if they're still interested.").review_reason).toBe('approval_withdrawn');
    // an approval that has not happened yet is no approval
    expect(read('UW wants a call with the merchant before final approval. Can you set up 15 min tomorrow?').type).not.toBe('approved');
  });

  it('needs_info phrases: a bare "Send payoff letters ... and I\'ll take another look", "MTD pls"', () => {
    expect(read("Send payoff letters for Kapitus and Mulligan and I'll take another look.")).toMatchObject({ type: 'needs_info', requested_items: ['payoff letters for Kapitus and Mulligan'] });
    expect(read('MTD pls\n\nMegan')).toMatchObject({ type: 'needs_info', requested_items: ['MTD'] });
    expect(read('At 100k we need financials: 2025 business tax return and a YTD P&L.').requested_items).toEqual(['2025 business tax return', 'YTD P&L']);
  });

  it('tentative phrases: terms before the final sign-off or "approved up to" go to a person', () => {
    expect(read("Looks good! Just waiting on final sign-off, should be 40k at 1.29 for 6 months if he doesn't change anything.", ask(40_000)).review_reason).toBe('tentative_terms');
    expect(read("Green Leaf is approved up to 60k. At 60 it's 1.45 / 8 months, at 50 it's 1.41 / 8 months.", ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read("Good news - we can offer up to $90k. At 75k it's 1.35 / 9 months.", ask(75_000)).review_reason).toBe('tentative_terms');
    expect(read('Approved at 75 but pending a site inspection; final terms after the inspection.', ask(75_000)).review_reason).toBe('tentative_terms');
    // "up to 10 pts" of a max sell rate is not tentative
    expect(read('Approved $100,000\nBuy rate: 1.30\nMax sell: 1.40 (up to 10 pts)\nTerm: 160 days, daily debit', ask(100_000)).review_reason).toBeUndefined();
  });

  it('counter phrases and products: other terms or another product in words', () => {
    expect(read("We can fund the $45,000 but not on the 12 months you asked for. Best we can do is 6 months at 1.38, $492.86 daily.", ask(45_000))).toMatchObject({
      type: 'counter', offers: [{ amount: 45_000, term: 6, term_unit: 'months' }],
    });
    expect(read('What we can do is a reverse consolidation: $45,000, 1.45 factor, 32 weeks, $2,039.06 weekly.', ask(45_000)).type).toBe('counter');
    // another product than the deal's: a counter; the product asked for: an approval
    const loc = 'Approved - we can offer a line of credit: $50,000 at 1.25, 12 months, $5,208.33 monthly.';
    expect(read(loc, ask(50_000)).type).toBe('counter');
    expect(read(loc, { requested_amount: 50_000, product_type: 'loc' }).type).toBe('approved');
    expect(read('UW approved the 75 but for 6 months not 9. 1.33, weekly $4,156.25', ask(75_000)).type).toBe('counter');
    expect(read('We can approve $75,000 but only at 6 months instead of 12. 1.38 factor, $862.50 daily.', ask(75_000)).offers).toMatchObject([{ amount: 75_000, factor_rate: 1.38, term: 6 }]);
    expect(read("4 months won't work for us. We'd have to go 8 months: $50k, 1.34, $1,914.29 weekly.", ask(50_000)).offers).toMatchObject([{ term: 8, term_unit: 'months' }]);
  });

  it('pending and auto-reply phrases: no decision', () => {
    expect(read("Still with UW, they had a question on the CA address but I think it's fine. Should know by tomorrow.").type).toBe('unclassified');
    expect(read('This mailbox is no longer monitored. Submissions sent here will not receive an approval or decline.').type).toBe('unclassified');
  });

  it('contractions typed without the apostrophe are restored', () => {
    expect(V.CONTRACTIONS.cant).toBe("can't");
    expect(read('can do 40 on pinecrest, cant get to 75 with the balances they keep. 1.36 / 120 days', ask(75_000))).toMatchObject({
      type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.36, term: 120 }],
    });
  });
});

describe('decline reasons', () => {
  it.each([
    ['DECL - too many negs.', 'negative_days'],
    ['Declined, 9 NSFs in 90 days.', 'nsf'],
    ["Sorry, 4 positions and we don't go 5th.", 'stacking'],
    ['Keystone is outside our box, we max out at $250k.', 'deal_size'],
    ["revenue's too light for 15. pass", 'low_revenue'],
    ["Runs too thin - avg daily balance under $900, can't make it work.", 'low_balance'],
    ['FICO too low. 512 is under our 550 floor. Decline.', 'credit_score'],
    ['Declined: TIB under a year.', 'time_in_business'],
    ['Declined. Merchant defaulted with us in 2024 and we settled for 60 cents.', 'default_history'],
    ["Statements are doctored, balances don't tie out. Declining.", 'verification'],
    ['Decline - holdback would be over 25% of deposits with the existing advance.', 'stacking'],
  ])('"%s" is %s', (text, category) => {
    expect(read(text)).toMatchObject({ type: 'declined', decline_category: category });
  });

  it('states by name and by postal code', () => {
    expect(read("merchant is in California, we can't fund CA right now (licensing).")).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read("Sorry, we can't fund NY files. Decline.")).toMatchObject({ decline_category: 'restricted_state' });
    expect(read("Not a fit at this time, merchant's in Nevada.")).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(V.STATES).toHaveLength(50);
    // codes that are English words are never read bare
    expect(V.AMBIGUOUS_STATE_CODES.has('in')).toBe(true);
  });

  it('industries', () => {
    expect(read("We don't touch vape/CBD/smoke shops, sorry.")).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(V.INDUSTRIES).toContain('trucking');
    expect(read("Sorry Dana, we're not doing vet clinics anymore.")).toMatchObject({ type: 'declined', decline_category: 'industry' });
  });
});

describe('numbers and pricing', () => {
  it('amounts and terms in words', () => {
    expect(wordsToDigits('we can get them forty thousand dollars at 1.39 over six months')).toBe('we can get them $40,000 at 1.39 over 6 months');
    expect(wordsToDigits('one hundred twenty five thousand')).toBe('$125,000');
    expect(extractOffers('We can get them forty thousand dollars at 1.39 over six months.')).toMatchObject([{ amount: 40_000, factor_rate: 1.39, term: 6, term_unit: 'months' }]);
  });

  it('shorthand amounts in thousands, only against the ask', () => {
    expect(extractOffers('Best I can do is 40. 1.42, 100 days, daily.', ask(65_000))).toMatchObject([{ amount: 40_000, factor_rate: 1.42, term: 100 }]);
    expect(extractOffers('Best I can do is 40. 1.42, 100 days, daily.')).toEqual([]);
    // far from the ask (a tenth to four times): not an amount
    expect(extractOffers('Best I can do is 40. 1.42, 100 days, daily.', ask(1_000_000))).toEqual([]);
    // a term or a count after the number is not money
    expect(extractOffers('at 120 days 1.42', ask(65_000))).toEqual([]);
  });

  it('frequency shorthand', () => {
    expect(extractOffers('lopez dental good for the 80. 1.28 / 12 mo / 1,969.23 wkly', ask(80_000))).toMatchObject([
      { amount: 80_000, factor_rate: 1.28, term: 12, term_unit: 'months', payment_frequency: 'weekly', payment_amount: 1969.23 },
    ]);
    expect(V.FREQUENCY_SHORTHAND.dly).toBe('daily');
  });

  it('buy and sell rates: the buy rate is the factor', () => {
    expect(extractOffers('Approved $100,000\nMax sell: 1.40\nBuy rate: 1.30\nTerm: 160 days')).toMatchObject([{ amount: 100_000, factor_rate: 1.3 }]);
    expect(extractOffers('Approved $100,000 - buy 1.30, sell rate 1.40, 160 days')).toMatchObject([{ factor_rate: 1.3 }]);
  });

  it('payback: the factor is payback / amount, to four decimals', () => {
    expect(extractOffers('$50k funded, $69,500 payback, 120 business days.')).toMatchObject([{ amount: 50_000, factor_rate: 1.39, term: 120, term_unit: 'days' }]);
    expect(extractOffers('Advance: $30,000\nTotal payback: $41,234\n60 daily payments')).toMatchObject([{ amount: 30_000, factor_rate: 1.3745, term: 60 }]);
  });

  it('holdback is a stacking reason, not a term', () => {
    expect(V.HOLDBACK).toContain('holdback');
    expect(read('Declined: the holdback with both positions would be too high.').decline_category).toBe('stacking');
  });
});

// holdout4's lessons, one test per new row class or rule (wording new, not copied from the fixtures)
describe('boilerplate, corrections and the ask in words (holdout4)', () => {
  it('BOILERPLATE: footers, "approve or decline", marketing signatures and zero counts decide nothing', () => {
    // a portal approval whose footer says the funder may decline at any stage
    const footer = 'APPROVED\nFunding: $40,000\nFactor: 1.30\nTerm: 6 months\n\nAll offers subject to final review. Northgate reserves the right to decline any file prior to funding.';
    expect(read(footer, ask(40_000))).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.3 }] });
    expect(classifyReply({ subject: 'Re: Submission', text: footer }, ask(40_000)).review_reason).toBeUndefined();
    // a receipt that names both outcomes is no decline
    expect(read('Your file is with an underwriter. We usually approve or decline within four hours.').type).toBe('unclassified');
    // a signature selling to declined merchants is no decline reason
    const sig = 'Approved, 30k at 1.35 over 5 months, daily.\n\nJo Park\nRiverbend Funding\nDeclined by the banks? We fund in 48 hrs. NSFs OK, B & C paper welcome.';
    expect(read(sig, ask(30_000))).toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.35 }] });
    expect(read(sig, ask(30_000)).review_reason).toBeUndefined();
    expect(read('Decision: approved. $20,000 / 1.29 / 100 business days. Declined payments count: 0.', ask(20_000)).review_reason).toBeUndefined();
    for (const p of V.BOILERPLATE) expect(() => new RegExp(p)).not.toThrow();
  });

  it('decisions in holdout4 wording: "cleared UW", "won\'t pass", "hard stop", "killing the file", a closing bare "no" / "Can\'t"', () => {
    expect(read('Riverside cleared underwriting, 25k at 1.33 for 5 months, weekly.', ask(25_000)).type).toBe('approved');
    expect(read("Merchant's bank statements won't pass our review.").type).toBe('declined');
    expect(read('Two defaults in 2025, that is a hard stop here.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(read('14 negative days in October. no').type).toBe('declined');
    expect(read('Balances average $300. They sit at zero most weeks. Can\'t')).toMatchObject({ type: 'declined', decline_category: 'low_balance' });
    expect(read("TIB is too short, they opened in March.")).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read("We're out of CA until the new disclosure law settles. Can't help on this one.")).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });

  it('decline reasons in shorthand: "N deep", a credit "shop", edited statements, inconsistent deposits', () => {
    expect(read("they're 4 deep already, we won't take a fifth. pass").decline_category).toBe('stacking');
    expect(read("Declined. Owner's credit is 561, we're a 600 shop.").decline_category).toBe('credit_score');
    expect(read('Declined - the March statement was edited, the balances do not carry over.').decline_category).toBe('verification');
    expect(read("Declined, deposits aren't consistent month to month.").decline_category).toBe('low_revenue');
  });

  it('no decision: a request for the broker\'s ISO agreement, a ticket receipt, an offer withdrawn by name', () => {
    expect(read('We need a signed ISO agreement from your shop before UW can look at this. Send it back and resubmit.').type).toBe('unclassified');
    expect(read('Your ticket (#5521) has been received. Typical time to approve or decline a file is one business day.').type).toBe('unclassified');
    expect(read('I have to rescind the Riverside offer, the landlord never verified.').review_reason).toBe('approval_withdrawn');
  });

  it('TENTATIVE rows and the needs_info rule: "might be able to", "ballpark", "looks approvable ... I need" go to a person', () => {
    expect(read('might be able to do 30 if Dec holds. ballpark 1.40 / 5 mo', ask(40_000)).review_reason).toBe('tentative_terms');
    const c = read('This looks approvable around 40. I need the October statement and a voided check first.', ask(50_000));
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // the same request without the floated decision is applied
    expect(read('I need the October statement and a voided check first.', ask(50_000)).review_reason).toBeUndefined();
    expect(read('Pre-approved at 50, 1.32 over 7 months, final once the site visit is done.', ask(50_000)).review_reason).toBe('tentative_terms');
  });

  it('CORRECTION: a correction of earlier terms goes to a person, and the corrected-away factor is not read', () => {
    const c = read('Correction on Riverside: the factor is 1.36, not 1.26. Rest stands, 30k over 6 months, weekly.', ask(30_000));
    expect(c).toMatchObject({ type: 'approved', review_reason: 'conflicting_cues', offers: [{ amount: 30_000, factor_rate: 1.36, term: 6 }] });
    expect(read('Approved: 30k at 1.36 over 6 months, weekly.', ask(30_000)).review_reason).toBeUndefined();
  });

  it('the rule "refuses the ask in words, yet offers it": a person picks', () => {
    const text = "Can't do 60 as submitted. Option A - 40k, 1.30, 6 months. Option B - the full $60k, 1.42, 12 months.";
    expect(read(text, ask(60_000))).toMatchObject({ type: 'counter', review_reason: 'conflicting_cues' });
    // the same options without the refusal: a counter applied as a menu
    expect(read('Option A - 40k, 1.30, 6 months. Option B - the full $60k, 1.42, 12 months.', ask(60_000)).review_reason).toBeUndefined();
  });

  it('ASK_FRACTIONS and DIGIT_WORDS: "half the ask", a factor read out, payments counted in words, "at the requested 45"', () => {
    expect(read('We can do half the ask: 1.38 over 5 months, weekly.', ask(60_000))).toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.38, term: 5 }] });
    expect(wordsToDigits('a factor of one point four five, twenty-four weekly payments')).toBe('a factor of 1.45, 24 weekly payments');
    expect(extractOffers('approved for thirty thousand dollars at a factor of one point four five, twenty-four weekly payments of $1,812.50.')).toMatchObject([
      { amount: 30_000, factor_rate: 1.45, term: 24, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1812.5 },
    ]);
    expect(read('Cleared credit at the requested 45. 1.41, 120 days, 528.75 a day.', ask(45_000)).offers).toMatchObject([{ amount: 45_000, factor_rate: 1.41, term: 120 }]);
  });

  it('portal layouts: receivables purchased is the payback, "available for 5 business days" is no term, open stip rows are items', () => {
    expect(extractOffers('Counter available for 5 business days.\nPurchase price: $30,000\nReceivables purchased: $41,700\nEstimated term: 7 months')).toMatchObject([
      { amount: 30_000, factor_rate: 1.39, term: 7, term_unit: 'months' },
    ]);
    const stips = read('Stipulations outstanding\n\n# | Stipulation | Status\n1 | Voided check | Outstanding\n2 | Bank login | Received\n3 | Proof of ownership | Missing');
    expect(stips).toMatchObject({ type: 'needs_info', requested_items: ['Voided check', 'Proof of ownership'] });
    expect(read('PENDING INFO\n  Required 1:   Signed application\n  Required 2:   Last 3 months of statements').requested_items).toEqual(['Signed application', 'Last 3 months of statements']);
  });

  it('requested items: an explanation in brackets is cut, a question naming an item already asked for is not a second item', () => {
    expect(read('Need the voided check and the last 3 months on the payroll account (the one the ADP debits come out of).').requested_items).toEqual([
      'voided check', 'last 3 months on the payroll account',
    ]);
    expect(read("Who's the landlord at the Elm St location? Need landlord name and phone.").requested_items).toEqual(['landlord name and phone']);
  });
});

// holdout5's lessons, one test per new row class or rule (wording new, not copied from the fixtures)
describe('decisions in shorthand and structures of replies (holdout5)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => {
    const c = read(text, ctx);
    return { c, o: replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('APPROVAL rows: "cleared" as the decision word (not a check clearing), "credit okayed it", "green light"', () => {
    expect(read('File cleared. 25k, 1.42, 6 mo weekly.', ask(25_000)).type).toBe('approved');
    expect(read('The check cleared. Can you send the MTD?', ask(25_000)).type).toBe('needs_info');
    expect(read('Credit okayed the file: $25,000 at 1.42 over 6 months.', ask(25_000)).type).toBe('approved');
    expect(read('Green light on Lakeview: 40k @ 1.30, 6 mo.', ask(40_000)).type).toBe('approved');
  });

  it('DECLINE rows: "a no for us", "passing", "we\'re out on", "no dice", "credit killed it", "won\'t add a third"', () => {
    expect(read("That's a no for us on Lakeview.").type).toBe('declined');
    expect(read('this is a no-brainer, approved 40k 1.3 6 months', ask(40_000)).type).toBe('approved');
    expect(read("We'll be passing on Lakeview, ADB is under $500.")).toMatchObject({ type: 'declined', decline_category: 'low_balance' });
    expect(read("We're out on Lakeview. They're 4 positions deep.")).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read("We're out of the office Friday but approved: 40k, 1.30, 6 months.", ask(40_000)).type).toBe('approved');
    // a person away is no decline
    expect(read("I'm out. Back Monday, will look then.").type).toBe('unclassified');
    expect(read("I'm out on Friday, will get you an answer Monday.").type).toBe('unclassified');
    expect(read('no dice on lakeview - 3 open MCAs already')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Credit killed it. Open tax lien and a BK in 2022.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(read("We won't take a fourth position behind those two funders.")).toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });

  it('an apology with a named reason is a decline ("Sorry Dana, too many positions.")', () => {
    expect(read('Sorry Dana, too many positions.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Sorry, merchant has a default with us from 2021.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    // ... and it outweighs an invitation to call
    expect(read('Sorry, the owner has an open judgment from 2022. Call me if you want to talk through other files.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    // an apology beside a request stays a request
    expect(read("Sorry - we'd need at least 6 months of statements and we only got 3, can you send the rest?").type).toBe('needs_info');
  });

  it('DECLINE_REASONS: a score read out, revenue under a floor, a new advance, states "we don\'t do"', () => {
    expect(read('Sorry Dana - owner\'s FICO came back at 540.').decline_category).toBe('credit_score');
    expect(read('Our floor is 620 and the guarantor pulled a 588. Decline.').decline_category).toBe('credit_score');
    expect(read('Unfortunately actual deposits run about $12k a month; we need $20k minimum.')).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    expect(read('Revenue came in under our minimum after backing out transfers. pass').decline_category).toBe('low_revenue');
    expect(read('Had to pull the approval. They took a new MCA on Friday.')).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    expect(read("We don't do NV, sorry.")).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });

  it('WITHDRAWAL and CORRECTION rows: "approval pulled", "make that 1.35, my mistake" go to a person', () => {
    expect(read('Approval pulled - merchant took another advance yesterday.')).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    expect(read('Approved 40k at 1.30 over 6 months. Actually make that 1.35, my mistake.', ask(40_000)).review_reason).toBe('conflicting_cues');
  });

  it('TENTATIVE rows: committee still to sit, "hold off on quoting", the decider not asked yet, soft words, a condition on performance', () => {
    for (const text of [
      'Credit likes it - 40k at 1.33 / 7 months - but it goes in front of committee Thursday. Hold off on quoting the merchant.',
      'Approved subject to credit committee sign-off: 40k, 1.30, 6 months.',
      'Numbers are 40k at 1.33 over 7 months; it goes before committee Tuesday.',
      "Approved, but I need to run it past my manager before it's final: 40k 1.3 6 mo",
      'I think we can get there at 40k, 1.30, 6 months - let me confirm with credit',
      'Approved in principle - 40k 1.30 6mo - final after the site visit',
      'Verbal approval on Lakeview, 40k @ 1.30 x 6 months. Written offer to follow once credit signs.',
      "We'd be around 1.35 on 40k, 6 months, but don't hold me to it until credit reviews.",
      'Approved at 40 if they can show me a clean October. 1.30 / 6 mo.',
      'Final approval is contingent on a clean MTD. Tentatively 40k at 1.30 over 6 months.',
      '40k at 1.30 over 6 months, just waiting for the green light from credit.',
      'If the MTD is clean we can approve 40k at 1.30 for 6 months. Need the MTD before funding.',
      "Send the October statement. Assuming it's clean, 40k at 1.30 for 6 months.",
      // (holdout13) approved, but the terms cannot go to the merchant until a compliance check clears
      "Credit approved it for the full 40k at 1.30 over 6 months. Keep this between us for now, I can't release terms to the merchant until the lien search comes back clear.",
      'Approved the full 40k at 1.30 over 6 months. Give me till tmrw before you show the merchant anything.',
    ]) expect(outcome(text, ask(40_000)).o, text).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
    // the same terms stated as final are applied
    expect(outcome('Approved 40k 1.30 6 months, pending bank verification.', ask(40_000)).o.apply).toBe(true);
    expect(outcome("Approved 40k at 1.30 for 6 months. Once they accept we'll need a voided check.", ask(40_000)).o.apply).toBe(true);
    // "qualifies for up to" is an upper bound, a person picks
    expect(outcome('Merchant qualifies for up to $30k. At 30k: 1.35, 5 months.', ask(40_000)).o).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
  });

  it('a floated amount below the ask, without pricing, is a counter a person follows up', () => {
    expect(read('Probably in the 30 range, not 50, let me talk to my manager before I quote it', ask(50_000))).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    expect(read('I might squeeze 25 out of it if they pay off the 2nd. No pricing yet', ask(40_000))).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    expect(read('declined at the full 90k but could maybe do 45 with a payoff, numbers tbd', ask(90_000))).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    // ... beside a request for items it stays the request (as holdout4's labels read "approvable around 60 ... I need"), for a person
    expect(read('We could do 20k maybe, need to see October first', ask(40_000))).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // a floated decision at the ask beside a stip request: the request, for a person
    expect(read("Should be approvable at 35, send bank login and I'll firm it up", ask(35_000))).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
  });

  it('COUNTER structure rows: the offer stands only with a position paid off, bought out, or in first position', () => {
    expect(read('We can do it but only if they close the Kapitus position first. $40,000, 1.33, 8 months.', ask(40_000)).type).toBe('counter');
    expect(read('Approved at 40k but we need to be in 1st position, so Kapitus has to be paid off at funding. 1.30 / 6 months.', ask(40_000)).type).toBe('counter');
    expect(read('Good news and bad news: approved at 40k, 1.49, 6 months, but they need to close out Fora first.', ask(40_000)).type).toBe('counter');
    expect(read('Approved at 40k, 1.30, 6 months.', ask(40_000)).type).toBe('approved');
  });

  it('the ask refused by name, however phrased, and a refused amount is no offer', () => {
    expect(read("Can't stay in 3rd for 40k with Fox on. What we can do is $25,000 at 1.40 for 5 months.", ask(40_000))).toMatchObject({
      type: 'counter', offers: [{ amount: 25_000, factor_rate: 1.4, term: 5 }],
    });
    expect(read("I can't approve it at 40k but if they take 30k I can do 1.35 over 5 months.", ask(40_000))).toMatchObject({
      type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.35, term: 5 }],
    });
    expect(read("Hey - we're gonna pass at 40 but could do 20 at 1.45/4mo if they want it.", ask(40_000)).offers).toMatchObject([{ amount: 20_000, factor_rate: 1.45 }]);
  });

  it('ASK_AS_AMOUNT: "approved at the requested amount" logs the ask; a restated "Requested amount: $X" offers nothing', () => {
    const { c, o } = outcome('Approved at the requested amount. 1.33 factor, 9 months, weekly.', ask(70_000));
    expect(c.offers).toMatchObject([{ amount: 70_000, factor_rate: 1.33, term: 9, term_unit: 'months' }]);
    expect(o.apply).toBe(true);
    expect(read('We can do the full ask: 1.29 / 160 days.', ask(50_000)).offers).toMatchObject([{ amount: 50_000, factor_rate: 1.29, term: 160 }]);
    // no ask known: nothing to log, a person completes it
    expect(outcome('Approved at the requested amount. 1.33 factor, 9 months, weekly.').o).toMatchObject({ apply: false, review_reason: 'low_confidence' });
    // an approval pricing the file without naming an amount approves the ask
    expect(read('Approved. 1.33 factor, 9 months, weekly.', ask(70_000)).offers).toMatchObject([{ amount: 70_000, factor_rate: 1.33, term: 9 }]);
    // ... but not when another amount is named that could not be read as the offer's: a person
    expect(outcome('Approved - 35 is where the revenue review left it. 1.40 over 5 months.', ask(50_000)).o).toMatchObject({ apply: false, review_reason: 'low_confidence' });
    // (holdout11) "landed on 35" names the amount: a counter with its offer
    expect(read('Approved - we landed on 35 after the revenue review. 1.40 over 5 months.', ask(50_000))).toMatchObject({ type: 'counter', offers: [{ amount: 35_000, factor_rate: 1.4, term: 5 }] });
    expect(read("They're approved, but only for 35. 1.40 over 5 months.", ask(50_000))).toMatchObject({ type: 'counter', offers: [{ amount: 35_000, factor_rate: 1.4, term: 5 }] });
    // a counter pricing without an amount cannot be completed: a person
    expect(outcome('Counter: 1.45 factor, 6 months, daily.', ask(70_000)).o).toMatchObject({ apply: false });
    expect(extractOffers('Requested amount: $80,000\nApproved amount: $60,000\nFactor: 1.36\nTerm: 8 months', ask(80_000))).toMatchObject([{ amount: 60_000, factor_rate: 1.36, term: 8 }]);
    expect(read("We can't do the full amount. 1.40 / 6 months at 30k.", ask(50_000))).toMatchObject({ type: 'counter', offers: [{ amount: 30_000 }] });
    // a counter on the term for the full ask: the ask is its amount
    expect(read('We can fund the full amount, but only over 4 months instead of 8: 1.29, weekly.', ask(40_000))).toMatchObject({
      type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.29, term: 4, term_unit: 'months' }],
    });
  });

  it('CLOSING_STIPS: items asked for to close a priced deal do not make it a request for information', () => {
    expect(outcome('Lakeview cleared credit. $45,000 / 1.38 / 140 business days / $443.57 daily. Need signed contracts and a bank login to fund.', ask(45_000)).o).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    expect(read("UW approved it, but we need the MTD before we send contracts. 40k 1.3 6 months.", ask(40_000)).type).toBe('approved');
    // a long closing list beside a priced deal, no approval word at all: still the deal, not a request
    expect(outcome('$30,000 / 1.35 / 120 business days / $337.50 daily.\n\nTo fund we need:\n- signed contract\n- voided check\n- bank login\n- photo ID', ask(30_000)).o).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    // without terms, the same request decides nothing yet
    expect(read('Need signed contracts and a bank login to fund.', ask(45_000)).type).not.toBe('approved');
  });

  it('SAME_TERMS: a larger amount "at the same rate and term" is a second offer', () => {
    expect(read('Approved for 30k at 1.40 / 120 days. We could also go to 40k at the same terms if he wants.', ask(30_000))).toMatchObject({
      type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.4, term: 120 }, { amount: 40_000, factor_rate: 1.4, term: 120 }],
    });
    for (const text of [
      'Approved for the 40 at 1.38, 6 months, daily. We could go up to 55k at the same rate and term if the owner wants more.',
      'Approved for the 40 at 1.38, 6 months, daily. If he wants more, 55k works at the same rate and term.',
    ]) expect(read(text, ask(40_000)).offers.map((o) => `${o.amount}@${o.factor_rate}/${o.term}`), text).toEqual(['40000@1.38/6', '55000@1.38/6']);
    expect(read('Approved 50k, 1.30, 9 months. Same rate and term on 65k if they want more.', ask(50_000)).offers).toMatchObject([
      { amount: 50_000, factor_rate: 1.3, term: 9 }, { amount: 65_000, factor_rate: 1.3, term: 9 },
    ]);
  });

  it('options below the ask beside one at it: an approval with a menu, or a counter when the ask is refused or limited', () => {
    expect(read('Approved!\nOffer 1: $80,000 1.35 10 months\nOffer 2: $60,000 1.30 8 months', ask(80_000))).toMatchObject({ type: 'approved' });
    // a limit named beside the menu (their position): a counter
    expect(read("Two options: $80,000 at 1.36 for 10 months, or $45,000 at 1.42 for 6 months since they're in 2nd position.", ask(80_000)).type).toBe('counter');
    // the ask refused by name, options below and at it: a counter, applied
    expect(outcome("We can't do it for 80 as it stands. Option 1: $80,000 at 1.45 for 12 months. Option 2: $50,000 at 1.35 for 6 months.", ask(80_000)).o).toMatchObject({ apply: true, body: { response_type: 'counter' } });
    const refused = read('Two choices since they are already in 2nd with Rapid: pay Rapid off and we fund $80,000, 1.36, 10 months; or stay 3rd at $45,000, 1.42, 6 months.', ask(80_000));
    expect(refused.type).toBe('counter');
    expect(refused.offers.map((o) => o.amount)).toEqual([80_000, 45_000]);
    // a portal's standing reservation ("may decline or modify any offer") is no refusal
    expect(read('Your file has been approved. Offers below.\nOffer A $80,000 1.35 10 months\nOffer B $60,000 1.30 8 months\nLender may decline or modify any offer prior to funding.', ask(80_000)).review_reason).toBeUndefined();
  });

  it('offer layouts: one line with pipes, "Number of Payments", a term in years, lines that start with the term, "Specified Amount"', () => {
    expect(extractOffers('Approved: $45,000 | Factor 1.34 | 7 months | $1,392.14/wk')).toMatchObject([{ amount: 45_000, factor_rate: 1.34, term: 7, term_unit: 'months' }]);
    expect(extractOffers('Amount Approved: 45,000\nFactor Rate: 1.34\nNumber of Payments: 140\nPayment Frequency: Daily\nPayment Amount: $430.71')).toMatchObject([
      { amount: 45_000, factor_rate: 1.34, term: 140, term_unit: 'days', payment_frequency: 'daily', payment_amount: 430.71 },
    ]);
    expect(extractOffers('Approved 45k at 1.34, term 1 year, monthly')).toMatchObject([{ amount: 45_000, term: 12, term_unit: 'months' }]);
    // years named elsewhere are no term
    expect(extractOffers('In business 9 years. Approved 45k at 1.34 for 7 months.')).toMatchObject([{ term: 7, term_unit: 'months' }]);
    expect(extractOffers('Approved - pick a term:\n6 mo: 45k @ 1.30\n9 mo: 45k @ 1.38\n12 mo: 45k @ 1.45').map((o) => `${o.factor_rate}/${o.term}`)).toEqual(['1.3/6', '1.38/9', '1.45/12']);
    expect(extractOffers('APPROVED\nPurchase Price: $45,000\nSpecified Amount: $60,300\nSpecified Percentage: 10%\nEstimated Duration: 7 months')).toMatchObject([
      { amount: 45_000, factor_rate: 1.34, term: 7, term_unit: 'months' },
    ]);
    // an amount followed by its factor is what is funded, whatever came before it
    expect(extractOffers('Stay in 3rd with no payoffs: $45,000, 1.42, 6 months', ask(80_000))).toMatchObject([{ amount: 45_000, factor_rate: 1.42, term: 6 }]);
    expect(extractOffers('Funding amount $60,000 at 1.38 for 8 months.\nOr: $45,000, 1.32, 6 months.').map((o) => `${o.amount}@${o.factor_rate}/${o.term}`)).toEqual(['60000@1.38/8', '45000@1.32/6']);
  });

  it('PRODUCTS with an amount, "as submitted" refusals, and pricing without an amount', () => {
    // another product offered in place of an advance, with its amount between the verb and the product
    expect(read("Won't stack a fourth advance. What we'd offer instead is a $30k line of credit, 2% per draw, once two positions are gone.", ask(60_000)).type).toBe('counter');
    // "declined as submitted" and the full ask on a payoff: a counter a person confirms
    expect(read('Declined as submitted. If they let us buy out Rapid at funding we could do the full 80 at 1.31 over 10 months.', ask(80_000))).toMatchObject({ type: 'counter', review_reason: 'conflicting_cues' });
    // the same refusal with less money on offer: a counter applied
    expect(outcome('Declined as submitted. We can do $25,000 at 1.40 for 5 months.', ask(40_000)).o).toMatchObject({ apply: true, body: { response_type: 'counter' } });
    // "best I can do" with a factor and a term, the amount only in thousands and no ask known: a counter a person completes
    expect(read("Most I can do on this one is 35. 1.41, 90 days, daily.")).toMatchObject({ type: 'counter', review_reason: 'low_confidence' });
    // "half the ask" is less money by its own words, the ask unknown: a counter a person completes
    expect(read('We can do half the ask on this one: 1.38 over 5 months, weekly.')).toMatchObject({ type: 'counter', review_reason: 'low_confidence' });
  });

  it.each([
    ['Declining - the account was negative 18 days last month.', 'negative_days'],
    ['Too many days below zero. Pass.', 'negative_days'],
    ['Merchant had 22 overdraft days in the last 90, we can\'t approve.', 'negative_days'],
    ['Monthly deposits average $9k - below our $15k minimum. Decline.', 'low_revenue'],
    ["Gross sales don't support the request. Revenue is way too low. Pass.", 'low_revenue'],
    ["Guarantor's score is 510, below our cutoff. Pass.", 'credit_score'],
    ['Business opened 7 months ago, we need 12 months minimum. Declined.', 'time_in_business'],
    ['Sitting behind Kapitus and Fora already - no room. Decline.', 'stacking'],
    ["We can't lend to businesses in North Dakota. Decline.", 'restricted_state'],
    ['Vermont is on our excluded list. Pass.', 'restricted_state'],
  ])('DECLINE_REASONS in other words: "%s" is %s', (text, category) => {
    expect(read(text)).toMatchObject({ type: 'declined', decline_category: category });
  });

  it('"can\'t approve" is a decline, unless it refuses an amount beside an offer', () => {
    expect(read("Sorry, we can't approve this one.").type).toBe('declined');
    expect(read("Can't approve Lakeview at 60 with 7 months in business. We'd do $25k on a 4 month term at 1.35.", ask(60_000)).type).toBe('counter');
  });

  it('NEEDS_INFO in other words: "UW is asking for", "can you get me", a request opening a sentence, questions about the merchant', () => {
    expect(read('Credit is asking for the 2023 business return and an A/R aging report.')).toMatchObject({ type: 'needs_info' });
    expect(read('Could you get me the last four months of bank statements? I only have two.').type).toBe('needs_info');
    expect(read("Nice file. Upload the October statement and I'll price it tonight.").type).toBe('needs_info');
    expect(read('Who holds the lease on the second location, and how much is left on the Fora balance?').type).toBe('needs_info');
    expect(read('Statements stop at July. We need August and September as well.').type).toBe('needs_info');
    // a redirect is still no request
    expect(read('Please send future submissions to deals@lender.example so they reach the right desk.').type).toBe('unclassified');
  });

  it('a password for locked statements is an item', () => {
    expect(read('The statements are password protected, pls send the password')).toMatchObject({ type: 'needs_info', requested_items: ['password'] });
  });
});

describe('who wrote it, conditions and unsubscribes (holdout6)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });

  it('RELAYED: another broker passing on a funder\'s terms with its own points goes to a person', () => {
    const a = read('Ran your Pinecrest deal past a couple of my lenders. One of them countered: 50k at 1.36, 32 weekly payments of $2,125. I add 3 points for my side, so the merchant sees 1.39.', ask(75_000));
    expect(a).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    expect(outcome('Sent the file out to my guys. My funder can do $40,000 @ 1.42 over 6 months, plus 2 pts on top for me.', ask(40_000)).apply).toBe(false);
    expect(read('Good news, my guy came back approved: 75k, 1.33, 9 months. Want me to lock it?', ask(75_000)).review_reason).toBe('tentative_terms');
    expect(outcome("Heard back from one of my funders: 50k @ 1.38 x 6 mo. I'd need 3 points on it.", ask(75_000)).apply).toBe(false);
    expect(outcome('Got an offer from a funder I work with: $60,000, 1.35, 8 months weekly.', ask(75_000)).apply).toBe(false);
    expect(outcome('Our partner funder can do $75,000 at 1.35 for 8 months.', ask(75_000)).apply).toBe(false);
    // a lender writing its own terms is applied
    expect(outcome('Approved: $75,000 at 1.33, 9 months, weekly.', ask(75_000)).apply).toBe(true);
  });

  it('a menu with an option at the ask, approved in words, with a payoff condition: approved, not a counter', () => {
    const a = read('Pinecrest is approved, two ways:\n- $75,000 / 1.38 / 160 days / $646.88 daily\n- $60,000 / 1.35 / 140 days / $578.57 daily\nThe Kapitus balance has to be paid off from proceeds on either one.', ask(75_000));
    expect(a.type).toBe('approved');
    expect(a.review_reason ?? null).toBeNull();
    // the ask refused in words beside the same menu stays a counter
    expect(read("Can't do 75 with Kapitus open. Options:\n- $75,000 / 1.38 / 160 days if Kapitus is paid off at funding\n- $60,000 / 1.35 / 140 days", ask(75_000)).type).toBe('counter');
    // a payoff condition with only less money on offer stays a counter
    expect(read('Approved at $60,000 / 1.35 / 140 days. Kapitus has to be paid off at funding.', ask(75_000)).type).toBe('counter');
  });

  it('UNSUBSCRIBE: "take me off your list" and a redirect are no decision; a firm closing its doors is a decline', () => {
    expect(read('Unsubscribe. Please stop emailing me these.').type).toBe('unclassified');
    expect(read("Kindly remove me from this mailing list - I'm no longer the contact for broker deals here.").type).toBe('unclassified');
    expect(read("Take me off this distribution please, I'm no longer covering ISO files. Send your deals to newbiz@lender.example.").type).toBe('unclassified');
    expect(outcome('Please drop me from your list, I have moved on from Acme Funding.').apply).toBe(false);
    expect(read('Please remove us from your list. We are no longer accepting broker submissions.').type).toBe('declined');
  });
});

describe('terms, subject lines, bilingual reps and contracts out (holdout6)', () => {
  it('a count of payments without the word: "32 weekly @ $1,640", "150 dailies" are weeks and days', () => {
    expect(extractOffers('Funded 40k at 1.312, 32 weekly @ $1,640.00.')).toMatchObject([{ amount: 40_000, factor_rate: 1.312, term: 32, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1640 }]);
    expect(extractOffers('$60,000 at 1.40, 150 dailies of $560')).toMatchObject([{ amount: 60_000, factor_rate: 1.4, term: 150, term_unit: 'days', payment_frequency: 'daily' }]);
    // (holdout13) phone shorthand: "60 wkly pmts", and a bare count right after the factor ("55 @ 1.39, 120 daily")
    expect(extractOffers('Full $60,000 approved.\n1.34 buy / you can sell it to 1.44\n60 wkly pmts')).toMatchObject([{ amount: 60_000, factor_rate: 1.34, term: 60, term_unit: 'weeks', payment_frequency: 'weekly' }]);
    expect(extractOffers('can get you there at 55 @ 1.39, 120 daily. or 60 @ 1.44 on 140 daily if he wants more $')).toMatchObject([
      { amount: 55_000, factor_rate: 1.39, term: 120, term_unit: 'days', payment_frequency: 'daily' },
      { amount: 60_000, factor_rate: 1.44, term: 140, term_unit: 'days', payment_frequency: 'daily' },
    ]);
    // (holdout13) the approved amount restated at the head of each structure of a menu, payback stated: two offers
    expect(extractOffers('Approved for the whole $50,000. Two ways we can write it:\nA) $50,000 / payback $64,500 / 25 weekly payments of $2,580.00\nB) $50,000 / payback $69,000 / 40 weekly payments of $1,725.00').map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[50_000, 1.29, 25, 'weeks'], [50_000, 1.38, 40, 'weeks']]);
    // a payment after the factor is no count: "1.35, 450 daily" stays a payment amount, not a 450-day term
    expect(extractOffers('40k at 1.35 for 6 months, 450 daily').map((o) => o.term)).toEqual([6]);
    // a count that is no term stays out: "14 weekly deposits"
    expect(extractOffers('$60,000 at 1.40, 6 months. They had 14 weekly deposits over $5k.')).toMatchObject([{ term: 6, term_unit: 'months' }]);
  });

  it('the answer in the subject line when the body is only a signature', () => {
    const subject = 'RE: Submission: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA -- approved 55k / 1.33 / 7 months';
    expect(read('Sent from my Galaxy', ask(55_000), subject)).toMatchObject({ type: 'approved', offers: [{ amount: 55_000, factor_rate: 1.33, term: 7, term_unit: 'months' }] });
    expect(read('-Mike\nSent from my iPhone', undefined, 'Re: Pinecrest Veterinary Clinic - DECLINED, too many NSFs')).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    // a body that decides keeps its own reading
    expect(read('Need the October statement first.', ask(55_000), 'Re: Pinecrest - approved?').type).toBe('needs_info');
  });

  it('bilingual reps: Spanish prose, English decision words, Spanish terms ("semanas", "pago diario", "meses")', () => {
    expect(read('Hola! El deal de Pinecrest salió APPROVED: $55,000, factor 1.35, 24 semanas, pago semanal de $3,093.75. Saludos', ask(55_000)))
      .toMatchObject({ type: 'approved', offers: [{ amount: 55_000, factor_rate: 1.35, term: 24, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 3093.75 }] });
    expect(extractOffers('$40,000 a 1.30 por 6 meses, pagos diarios')).toMatchObject([{ amount: 40_000, factor_rate: 1.3, term: 6, term_unit: 'months', payment_frequency: 'daily' }]);
    expect(read('Ya está aprobado Pinecrest por $55,000 a 1.35, 9 meses.', ask(55_000)).type).toBe('approved');
    expect(read('Pinecrest está aprobado por el monto completo: 1.35, 8 meses, pagos diarios.', ask(55_000))).toMatchObject({ type: 'approved', offers: [{ amount: 55_000, factor_rate: 1.35, term: 8, term_unit: 'months' }] });
    expect(read('Lo siento, Pinecrest es un DECLINE: 12 días negativos en octubre.')).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
    // the decision word alone, in Spanish or in English inside Spanish prose
    expect(read('Pinecrest quedó aprobado, te mando los números en la tarde.').type).toBe('approved');
    expect(read('Buenas noticias, Pinecrest ya quedó APPROVED. Los números te los mando mañana.').type).toBe('approved');
  });

  it('contracts out is the approval; the items "once signed" close it', () => {
    const c = read('Contracts went out on Adobe Sign this morning: $55,000 @ 1.36 buy, 140 business days. After signing we need the voided check and a quick verbal with the owner.', ask(55_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 55_000, factor_rate: 1.36, term: 140, term_unit: 'days' }] });
    expect(c.review_reason ?? null).toBeNull();
    expect(read('We issued contracts for $45,000 at 1.40, 28 weeks.', ask(55_000)).type).toBe('counter');
    expect(read('Contracts are out for signature on Pinecrest.').type).toBe('approved');
    // items "once signed" beside priced terms close the deal, they do not ask to decide it
    expect(read('$55,000 @ 1.36, 140 business days. Once signed we need: voided check, DL and a 5 min verbal.', ask(55_000)).type).toBe('approved');
    // a request for contracts is no approval
    expect(read('Before we send contracts we need the voided check and the DL.', ask(55_000)).type).toBe('needs_info');
  });

  it('soft approvals are approvals for a person; a funder pausing a state and "not something we can fund" are declines', () => {
    expect(read('Soft yes on Pinecrest at the full 55 - pricing once credit signs tomorrow.', ask(55_000))).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(read('We suspended new Ohio deals last week pending our license renewal, so Pinecrest is a no for the time being.')).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read('We stopped funding Oregon deals last month.')).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read('Nothing we can approve here, revenue is under our $20k floor.').type).toBe('declined');
    expect(read("Backed out the owner's transfers and real monthly revenue is about $14k, not something I can approve at 55.")).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    // a request before the file goes to committee is a request, applied
    expect(read('Need the 2024 tax return before this goes to credit committee.').review_reason ?? null).toBeNull();
  });
});

describe('sign-offs still to come, the term asked and arithmetic on a phone (holdout7)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });

  it('an approval waiting on an internal sign-off (initials, signature, a manager\'s OK) goes to a person', () => {
    const a = read('Pinecrest is approved at $55,000, 1.36, 7 months weekly. It still needs my managing partner\'s signature since it is a 3rd position.', ask(55_000));
    expect(a).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(outcome('Approved for 55k @ 1.36 / 140 days. Pending our chief credit officer\'s sign-off, which is usually a formality.', ask(55_000)).apply).toBe(false);
    expect(outcome('55k at 1.36 for 7 months works. My director has to initial anything over 50, she is back Monday.', ask(55_000)).apply).toBe(false);
    expect(outcome('Approved: $55,000 / 1.36 / 28 weeks. Please hold off on passing the numbers along to the client until you hear back from me.', ask(55_000)).apply).toBe(false);
    expect(outcome("Approved: $55,000 / 1.36 / 28 weeks. Don't forward the offer to the owner just yet.", ask(55_000)).apply).toBe(false);
    // the merchant's owner signing the contract is a closing step, not a sign-off inside the lender
    expect(outcome("Approved: $55,000 at 1.36, 28 weeks. The contract needs the owner's signature and the owner has to sign the ACH form.", ask(55_000)).apply).toBe(true);
    expect(outcome('Approved: $55,000 at 1.36, 28 weeks, pending our principal\'s sign-off.', ask(55_000)).apply).toBe(false);
    // a sign-off already given is the approval, applied
    expect(outcome('Our credit manager signed off this morning: $55,000 at 1.36, 28 weeks, weekly.', ask(55_000)).apply).toBe(true);
    // a portal's standing footer is not a pending sign-off
    expect(outcome('Approved: $55,000 / 1.36 / 28 weeks.\nDecisions are not final until funding documents are executed.', ask(55_000)).apply).toBe(true);
  });

  it('conditions still to clear and people still to ask, in other words, go to a person', () => {
    expect(outcome('Approved: $55,000 at 1.34, 30 weeks. Conditional upon a satisfactory site visit next week.', ask(55_000)).apply).toBe(false);
    expect(outcome('Approved 55k @ 1.36 / 140 days; the file still has to pass compliance before contracts.', ask(55_000)).apply).toBe(false);
    expect(outcome("55k at 1.36 for 7 months works for me. I'm taking it to our VP this afternoon.", ask(55_000)).apply).toBe(false);
    // the broker taking the terms to the merchant's owner is no sign-off inside the lender
    expect(outcome('Approved: $55,000 / 1.36 / 28 weeks. Take it to the owner and let me know.', ask(55_000)).apply).toBe(true);
    // a standing footer about underwriting is not a condition still to clear
    expect(outcome('Approved: $55,000 / 1.36 / 28 weeks. All offers are subject to final underwriting and verification.', ask(55_000)).apply).toBe(true);
  });

  it('an approval taken back in other words: "we are now retracting", "walk back our number"', () => {
    expect(read('We approved Pinecrest Monday but are now retracting: a new MCA funded yesterday.')).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    expect(read("Sorry, I have to walk back the offer from this morning, the bank verification didn't match.").review_reason).toBe('approval_withdrawn');
  });

  it('less money or a shorter term without the words of a counter', () => {
    // "approved for 40k" on a 55k ask without pricing: a counter a person completes
    expect(read('Pinecrest is approved for 40k, pricing to follow.', ask(55_000))).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    // "good for 35 of the 55": the second number is the ask
    expect(read("We're good for 35 of the 55. 1.35 over 6 months.", ask(55_000))).toMatchObject({ type: 'counter', offers: [{ amount: 35_000, factor_rate: 1.35, term: 6 }] });
    // a cap on the term, and the term the broker submitted named
    expect(read('Approved $55k, though our longest term for salons is 5 months: 1.31, 5 months, daily.', ask(55_000)).type).toBe('counter');
    // a cap above the offer says nothing about the ask
    expect(read('Approved $55k at 1.31 for 7 months (our max term is 12 months).', ask(55_000)).type).toBe('approved');
    expect(read('Approved for $55,000 at 1.42, 120 days daily, not the 8 months you submitted.', ask(55_000))).toMatchObject({ type: 'counter', offers: [{ term: 120, term_unit: 'days' }] });
  });

  it('two files answered in running prose (not "Name - decision" lines) go to a person, read for the deal\'s business', () => {
    const text = 'Declined on Lakeside, too many NSFs. Approved 55k / 1.36 / 28 weeks for Pinecrest.';
    expect(read(text, ask(55_000)).review_reason).toBeTruthy();
    const mine = read(text, { requested_amount: 55_000, business_name: 'Pinecrest Veterinary Clinic' });
    expect(mine).toMatchObject({ type: 'approved', review_reason: 'multiple_deals', offers: [{ amount: 55_000, factor_rate: 1.36, term: 28 }] });
    expect(read('Harbor Grill was declined. Pinecrest is approved at 55k, 1.36, 28 weeks.', { requested_amount: 55_000, business_name: 'Pinecrest Veterinary Clinic' }).review_reason).toBe('multiple_deals');
    // a weekday, a month or a state after "for" names no file
    expect(read('Approved for Monday funding: 55k at 1.36, 28 weeks. Approved on October deposits alone.', ask(55_000)).review_reason ?? null).toBeNull();
  });

  it('"approval is pending the following" is a request, not an approval', () => {
    expect(read('Approval is pending the following: 2025 tax return, proof of ownership, landlord contact.')).toMatchObject({
      type: 'needs_info', requested_items: ['2025 tax return', 'proof of ownership', 'landlord contact'],
    });
    expect(read("Approval is waiting on the owner's call.").type).not.toBe('approved');
  });

  it('a document still awaited is a request: "Waiting on MTD", "send them over when you have them"', () => {
    expect(read('Waiting on MTD. Send when you have it.')).toMatchObject({ type: 'needs_info', requested_items: ['MTD'] });
    expect(read('Still holding for the signed app and the voided check, send them over once you have them.').type).toBe('needs_info');
  });

  it('the full amount on another term than the one asked is a counter (in words, or against the deal\'s term)', () => {
    const a = read('You requested 18 months on Pinecrest. We can do the $55,000 at 1.33, but our max is 10 months, weekly.', ask(55_000));
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 55_000, factor_rate: 1.33, term: 10, term_unit: 'months' }] });
    expect(read('Approved $55,000 / 1.30 / 26 weeks. The merchant was hoping for a 9 month term, this is as long as we go.', ask(55_000)).type).toBe('counter');
    // the deal's own term, as the hook passes it
    const withTerm: ReplyContext = { requested_amount: 55_000, requested_term: { term: 12, unit: 'months' } };
    expect(read('Approved: $55,000, factor 1.35, 6 months, daily ACH.', withTerm).type).toBe('counter');
    // the same term in other units (52 weeks is 12 months), or the term asked, is an approval
    expect(read('Approved: $55,000, factor 1.35, 52 weeks, weekly.', withTerm).type).toBe('approved');
    expect(read('Approved: $55,000, factor 1.35, 12 months as requested.', withTerm).type).toBe('approved');
    expect(read('Approved as submitted: $55,000, 1.35, 12 months. The application asked for 12 months.', ask(55_000)).type).toBe('approved');
  });

  it('a portal\'s status line, however it is worded: "status changed to APPROVED", "changed to: REJECTED"', () => {
    expect(read('File status changed to: OFFERS ISSUED\nAmount: $55,000\nFactor: 1.36\nTerm: 28 weeks', ask(55_000)).type).toBe('approved');
    expect(read('Your file status changed to APPROVED and the terms are in the portal.').type).toBe('approved');
    expect(read('File status changed to: REJECTED\nReason: 7 NSFs in the last 30 days')).toMatchObject({ type: 'declined', decline_category: 'nsf' });
  });

  it('an amount multiplied by a factor is funded, even after "payments": "or lighter payments: 15k x 1.40"', () => {
    expect(extractOffers('40k x 1.38 = 55,200 over 120 days\nor for smaller payments 30k x 1.35 = 40,500, same 120 days')).toMatchObject([
      { amount: 40_000, factor_rate: 1.38, term: 120, term_unit: 'days' },
      { amount: 30_000, factor_rate: 1.35, term: 120, term_unit: 'days' },
    ]);
  });
});

describe('declines in new words: a negative decision from its parts, its reason as concepts (holdout7)', () => {
  const declined = (text: string, category?: string) => {
    const c = read(text);
    expect(c.type, `${text}\n${c.reasons.join('\n')}`).toBe('declined');
    if (category) expect(c.decline_category, `${text}\n${c.reasons.join('\n')}`).toBe(category);
    return c;
  };

  it('DECLINE_DECISION: a refusal and a decision verb, closing the clause or followed by the deal or a reason', () => {
    declined('We are not in a position to move forward on Pinecrest given the tax lien.', 'default_history');
    declined('Afraid there is no way we can get behind this one.');
    declined('Background check turned up an open tax lien from 2023. We won\'t be able to help.', 'default_history');
    declined('They took funding from someone else yesterday so we\'re no longer able to proceed.', 'stacking');
    // an amount, a term or "until" after the verb is not a decline: a refusal of the ask, or a request
    expect(read("We can't proceed until we get the signed application.").type).not.toBe('declined');
    expect(read("I won't be able to look at this until Monday.").type).not.toBe('declined');
    expect(read("Can't fund 55, best is 40k at 1.38 over 6 months.", ask(55_000)).type).toBe('counter');
    expect(read("We can't do 12 months on this, we can do 55k at 1.35 over 8 months.", ask(55_000))).toMatchObject({ type: 'counter', offers: [{ term: 8, term_unit: 'months' }] });
  });

  it('DECLINE_DECISION inversion: "not a file we are comfortable backing", "not the kind of deal we fund"', () => {
    declined('Pinecrest is not a file we are comfortable backing.');
    declined("Not the kind of deal we fund. Owner's score is 540.", 'credit_score');
    declined("We're not comfortable funding this with the open judgment.", 'default_history');
  });

  it('DECLINE_DECISION deferral: a later time is a no now; a renewal later beside an approval is not', () => {
    declined('Circle back with us after the new year once they have six months of clean statements.');
    declined('Resubmit in 60 days - the last two statements show 9 returned payments.', 'nsf');
    declined('This merchant cannot be re-submitted for 6 months.');
    declined("They won't qualify until March, they opened 8 months ago.", 'time_in_business');
    const a = read('Approved: 55k at 1.35, 8 months weekly. We can revisit in 6 months for a renewal.', ask(55_000));
    expect(a.type).toBe('approved');
    expect(a.review_reason ?? null).toBeNull();
  });

  it('DECLINE_DECISION verdicts: "that sinks it", "a deal breaker", "outside our buy box", "not fundable"', () => {
    declined('That sinks it for us - the landlord says they are three months behind on rent.');
    declined('The open lawsuit from their old funder is a deal breaker.', 'default_history');
    declined('Home health care is outside our buy box.', 'industry');
    declined("Pinecrest came back ineligible: the owner's name doesn't match the bank account.", 'verification');
    declined('Status: NOT FUNDABLE\nReason: ADB of $640 over the last 90 days', 'low_balance');
  });

  it('DECLINE_DECISION, more parts: "can\'t get it done", the progressive, verdicts of the file itself, who said no', () => {
    declined("I'd love to help but the owner's FICO is 512. Can't get it done.", 'credit_score');
    declined("Can't do anything with this one, they're in California and we stopped lending there in October.", 'restricted_state');
    declined('We will not be extending an offer on this merchant.');
    declined("This one doesn't pencil for us. The daily would be 30% of their deposits.", 'stacking');
    declined('This deal is dead on our end. Bank statements appear to be modified.');
    declined("We're going to have to bow out on this one, their ADB is under $1,000.", 'low_balance');
    declined("I'm going to have to let this one go. They're stacked 4 deep.", 'stacking');
    declined('UW says no. Revenue too inconsistent month to month.', 'low_revenue');
    declined("Those numbers aren't going to fly - 60k is more than double what we'd put out on a restaurant.", 'deal_size');
    declined('File denied. Reason: insufficient time in business.', 'time_in_business');
    declined('File status changed to: REJECTED\nReason: 7 NSFs in the last 30 days', 'nsf');
    // "doesn't work" with a condition after it is not a verdict on the file
    expect(read("This one doesn't work without the October statement, can you send it?").type).not.toBe('declined');
  });

  it('two reasons: the first one named with a cue of its own wins; a sector word in the business\'s name is no reason', () => {
    declined("They had overdrafts in October, and the average daily balance is under $1,500 with an ADB of $1,100 in November. We'll pass.", 'negative_days');
    declined('Declined Peak Trucking Co: four open positions and a 40% holdback.', 'stacking');
  });

  it('DECLINE_REASONS, more ways: pulling dailies, "can\'t add to that", sales too weak, an empty account, different deposits', () => {
    declined("They've got Kapitus, Fora and Rapid all pulling dailies. We'll pass.", 'stacking');
    declined("Their daily debits are maxed; we can't add to that.", 'stacking');
    declined('Monthly sales are far too weak for this program. Pass.', 'low_revenue');
    declined("The operating account is nearly empty by mid-month. Can't approve.", 'low_balance');
    declined("Ending balances below $400 most of October. We'll pass.", 'low_balance');
    declined('The owner went through a chapter 11 in 2021. Not eligible.', 'default_history');
    declined('Plaid showed different deposits than the statements you sent. Declined.', 'verification');
  });

  it('DECLINE_REASONS: every category as a concept, in words no batch used', () => {
    declined("Already servicing three weeklies; a fourth would bury them. We'll pass.", 'stacking');
    expect(read('Pulling our offer: a fresh UCC filing showed up this morning.')).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    declined('Brand-new LLC, been operating for just under a year. Hard pass.', 'time_in_business');
    declined('Only two years old and we need 3 years in business. Pass.', 'time_in_business');
    declined('Five reversed ACH debits in October. No go.', 'nsf');
    declined('Guarantor has a thin file and recent lates. Pass.', 'credit_score');
    declined("Experian came back ugly on the owner. We'll pass.", 'credit_score');
    declined("The deposits on the PDF don't reconcile with the bank's own portal. Declining.", 'verification');
    declined('We asked the owner for a bank login three times and heard no reply. Closing the file as a decline.', 'verification');
    declined("Sales came in at $14k in October and are trending down. Can't make it work.", 'low_revenue');
    declined("Balances hover around $300 most days. Can't make it work.", 'low_balance');
    declined("They dipped into the red on 9 days last month, so we're out.", 'negative_days');
    // (holdout13) negative balances told without "days": "the account is negative in every one of the four months"
    declined('The operating account is negative in every one of the four months and it only gets above zero when the Friday deposits land. Underwriting is not in a position to move forward on it.', 'negative_days');
    declined('Bounced payments to their current funder in October - no go.', 'nsf');
    declined("Owner's credit is bruised with too many derogs. We'll have to pass.", 'credit_score');
    declined("Stopped paying their last funder in 2024 and there's an ACH block on file. No way we can fund it.", 'default_history');
    declined("We don't touch hookah lounges, sorry.", 'industry');
    declined("We aren't licensed to lend in Nevada right now, so this is a no.", 'restricted_state');
    declined('The ask is beyond what our desk can write for a first deal; our max ticket is $50k. Declining.', 'deal_size');
    declined("The opening balance in November doesn't match October's close and the merchant never connected Plaid. We won't proceed.", 'verification');
  });
});

describe('held approvals, other deals, ceilings, refused terms, new declines and stip lists (holdout8)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const pinecrest: ReplyContext = { requested_amount: 55_000, business_name: 'Pinecrest Veterinary Clinic LLC', trace_code: 'SVC-3H7W-5KQA' };

  it('an approval held provisionally until a recheck (pencilled in, a soft hold, a morning scrub, a re-pull the day of) goes to a person', () => {
    expect(read('Pencilled Pinecrest in for $55,000 at 1.38, 24 weekly payments of $3,162.50.', ask(55_000))).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(outcome('Approved $55,000 / 1.38 / 24 weeks, subject to a re-check of positions on funding day.', ask(55_000)).apply).toBe(false);
    expect(outcome('55k @ 1.38, 24 wks works. We re-pull the bank the morning of.', ask(55_000)).apply).toBe(false);
    expect(outcome('Soft hold on Pinecrest: $55,000, 1.38, 24 weeks.', ask(55_000)).apply).toBe(false);
    expect(outcome("Approved at 55, 1.38, 24 weeks but it's pending a refreshed bank pull tomorrow.", ask(55_000)).apply).toBe(false);
    expect(outcome('Holding 55k for them at 1.38 / 24 wks until we re-verify the bank Monday.', ask(55_000)).apply).toBe(false);
    expect(outcome('Approved at $55,000, 1.38, 24 weeks. Wait on telling the client, we scrub files at 8am.', ask(55_000)).apply).toBe(false);
    // an approval with no hold is applied
    expect(outcome('Approved: $55,000 at 1.38 over 24 weeks. Contracts out today.', ask(55_000)).apply).toBe(true);
    // beside a request for items a recheck is the lender's process, not doubt: the request is applied
    expect(outcome('Need the November MTD and a voided check. We re-pull the bank the morning of funding.', ask(55_000)).apply).toBe(true);
  });

  it("a decision naming another business or another trace code than the deal's is not this deal's answer", () => {
    expect(read('Declined for Copperline Auto Body, too many negative days.', pinecrest).type).toBe('unclassified');
    expect(outcome('Westfield Dental Group is approved: $40,000, 1.35, 9 months weekly.', pinecrest).apply).toBe(false);
    expect(read('Merchant: Copperline Auto Body\nDecision: Approved\nAmount: $40,000\nFactor: 1.35\nTerm: 30 weeks', pinecrest).type).toBe('unclassified');
    expect(read('SVC-7K3M-9Q2P is approved at $40,000, 1.35 over 9 months.', pinecrest).type).toBe('unclassified');
    expect(read('We reviewed Copperline Auto Body. Not eligible at this time, too many NSFs.', pinecrest).type).toBe('unclassified');
    expect(read('Have to bow out on Copperline Auto, the owner is at 540.', pinecrest).type).toBe('unclassified');
    expect(read('Copperline Auto Body is a non-starter for us, open judgment.', pinecrest).type).toBe('unclassified');
    expect(read('Good news, Copperline Auto Body came back approved! $40,000 / 1.35 / 30 weeks.', pinecrest).type).toBe('unclassified');
    expect(read('Copperline Auto Body looks good - $40k @ 1.35 / 30 wks.', pinecrest).type).toBe('unclassified');
    expect(read('For Copperline Auto Body: $40,000 approved, 1.35 factor, 30 weeks.', pinecrest).type).toBe('unclassified');
    expect(outcome('Everything looks good, approved at $55,000, 1.35, 30 weeks.', pinecrest).apply).toBe(true);
    expect(outcome('On Monday, we approved $55,000 at 1.35 for 30 weeks.', pinecrest).apply).toBe(true);
    // this deal's own name (or a short form of it), or no name at all, is read as before
    expect(outcome('Pinecrest is approved: $55,000, 1.35, 9 months.', pinecrest).apply).toBe(true);
    expect(outcome('Pinecrest Vet - approved at $55,000, 1.35, 9 months.', pinecrest).apply).toBe(true);
    expect(outcome("Approved, $55,000 @ 1.35 for 9 months. We're fine sitting behind Rapid Advance.", pinecrest).apply).toBe(true);
    expect(read('We reviewed Pinecrest. Not eligible at this time, too many NSFs.', pinecrest).type).toBe('declined');
    expect(outcome('Update for Thanksgiving: we close Thursday and Friday.\n\nApproved: $55,000, 1.35, 9 months.', pinecrest).apply).toBe(true);
    // the lender naming itself is no other business
    expect(outcome('Azure Cove Funding - APPROVED\n$55,000 / 1.35 / 9 months', pinecrest).apply).toBe(true);
    expect(outcome('Approved on Harbor Point, $55,000 at 1.35 for 9 months.\n\nKim\nHarbor Point Commercial', pinecrest).apply).toBe(true);
    // the trade's own capitalised words after "approved for" name no business
    expect(outcome('Approved for DocuSign delivery: $55,000, 1.35, 9 months.', pinecrest).apply).toBe(true);
    expect(outcome('Approved for Tier 2 pricing - $55,000 at 1.35 over 9 months.', pinecrest).apply).toBe(true);
  });

  it('a P.S. about another file does not decide this one; the reply goes to a person to record both', () => {
    const a = read("Approved at the full $55,000, 1.36, 40 weeks.\n\nPS - on the Copperline Auto Body deal we're passing, too many NSFs.", pinecrest);
    expect(a).toMatchObject({ type: 'approved', review_reason: 'multiple_deals', offers: [{ amount: 55_000, factor_rate: 1.36, term: 40 }] });
    expect(read('Approved at $55,000, 1.36, 40 weeks.\n\nP.S. your other file from Monday is a decline for us, too many positions.', pinecrest)).toMatchObject({ type: 'approved', review_reason: 'multiple_deals' });
  });

  it('a ceiling on the amount is a counter: "too rich", "I\'m at X max", "tops out at", "capped it at", "the most credit will sign"', () => {
    expect(read('Our committee capped the deal at $40,000 - 1.38 / 28 weeks / $1,971.43 weekly.').type).toBe('counter');
    expect(read('The most credit will sign is 40k at 1.38 over 28 weeks.').type).toBe('counter');
    expect(read('We top out at $40,000 on restaurants. 1.38 factor, 28 weeks.').type).toBe('counter');
    expect(read('$40k is all the room there is - the 55 is too rich for a 3 year old shop. 1.38 over 28 weeks.').type).toBe('counter');
    expect(read('Max I can get you is 35k - 1.40 over 120 days.').type).toBe('counter');
    expect(read('Credit will only go to 35k at 1.40, 120 days.').type).toBe('counter');
    expect(read('35k is as high as we go: 1.40, 120 days.').type).toBe('counter');
    // a ceiling at the full ask is no counter: the ask is the most the lender would do
    expect(read('We top out at 55k on vets, so the full 55k at 1.38 / 24 weeks works.', ask(55_000)).type).toBe('approved');
    // thousands with a decimal after "at": "we're at 32.5 tops"
    expect(read("we're at 32.5 tops - 1.44 over 110 days", ask(45_000))).toMatchObject({ type: 'counter', offers: [{ amount: 32_500, factor_rate: 1.44, term: 110, term_unit: 'days' }] });
    // "40 max - 1.38": the ceiling is on the amount, the factor after it is the buy rate, not a sell rate
    expect(read("I'm at 40 max - 1.38, 28 weeks, weekly", ask(55_000))).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.38, term: 28, term_unit: 'weeks' }] });
    // a sell-rate ceiling is no ceiling on the amount
    expect(read('Buy 1.32, 1.42 max sell, 180 business days, $55,000.', ask(55_000)).type).toBe('approved');
  });

  it('a term refused in words is the term asked: the full amount on another term is a counter, the refused term is no offer', () => {
    const c = read('We can fund all $55,000, but an 18 month weekly term is longer than our program runs. What works: $55,000 at 1.32 over 9 months, weekly.', ask(55_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 55_000, factor_rate: 1.32, term: 9, term_unit: 'months' }] });
    expect(c.offers).toHaveLength(1);
    expect(read('Approved: $55,000, 1.32, 9 months weekly.', ask(55_000)).type).toBe('approved');
    // another term or payment schedule than asked, in words, with the full amount
    expect(read('Funding the whole 55 at 1.35; we need it on a 9 month term rather than the 12 requested.', ask(55_000)).type).toBe('counter');
    expect(read("We can do the full $55,000 but weekly payments aren't an option for this file: 1.35 over 12 months, daily.", ask(55_000)).type).toBe('counter');
    expect(read('Approved at $55,000, 1.35, 12 months. It has to be daily ACH for this merchant.', ask(55_000)).type).toBe('counter');
    // a schedule stated, not refused, is the approval's
    expect(read('Approved $55,000 at 1.35 over 12 months, weekly payments of $1,428.37.', ask(55_000)).type).toBe('approved');
  });

  it('declines in new words: letting the file go, bowing out, not eligible, outside our X guidelines, not getting it through', () => {
    const declined = (text: string, category?: string) => {
      const c = read(text);
      expect(c.type, `${text}\n${c.reasons.join('\n')}`).toBe('declined');
      if (category) expect(c.decline_category, `${text}\n${c.reasons.join('\n')}`).toBe(category);
    };
    declined("We'll let the file go, owner's FICO came back at 548.", 'credit_score');
    declined("Bowing out on this one, the owner's score is 548.", 'credit_score');
    declined("Pinecrest isn't eligible for our program right now.");
    declined('Veterinary practices sit outside our current underwriting guidelines.');
    declined("Couldn't get this one through committee.");
    // "not eligible for the full 55" refuses the ask: a counter with its offer
    expect(read('Not eligible for the full 55, we can do 40k at 1.38 over 6 months.', ask(55_000)).type).toBe('counter');
  });

  it('decline reasons: seasoning and operating history in months, where the merchant is domiciled', () => {
    expect(read('The business only shows 7 months of trading history and our minimum seasoning is a year. Declined.').decline_category).toBe('time_in_business');
    expect(read("Declined - we're a 24 month seasoning shop.").decline_category).toBe('time_in_business');
    expect(read('Declined. The company is domiciled in Vermont, which we exited last quarter.').decline_category).toBe('restricted_state');
    expect(read("Have to pass - we're holding all Oregon files for now.").decline_category).toBe('restricted_state');
    // a shortfall as the whole answer, and a score under the floor with words between
    expect(read('Not enough time in business - they opened in April.')).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read("Score's under our floor, credit turned it down.").decline_category).toBe('credit_score');
    expect(read("The merchant is headquartered in California, which we can't service.")).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read('Declining, Nevada-domiciled companies are on hold for us under the pending licensing regulations.').decline_category).toBe('restricted_state');
  });

  it('stip lists: "a couple of things first" over trucking stips, a numbered list, notes typed in capitals into the quoted message', () => {
    const t = read("Pinecrest should be fine, just a couple of things first:\n- DOT number\n- title for the 2021 Kenworth\n- COI naming us\nGet me those and I'll price it.");
    expect(t).toMatchObject({ type: 'needs_info', requested_items: ['DOT number', 'title for the 2021 Kenworth', 'COI naming us'] });
    // numbered on one line, after "need:" or "before we price:"
    expect(read('Need: (1) voided check (2) 3 months statements (3) DL').requested_items).toEqual(['voided check', '3 months statements', 'DL']);
    expect(read('Before we price: 1) signed app 2) voided check 3) 4 months statements')).toMatchObject({ type: 'needs_info', requested_items: ['signed app', 'voided check', '4 months statements'] });
    // a list of documents with no request before it: the documents say it (trucking stips)
    expect(read('Looks workable on our side.\n- MC authority letter\n- VIN list for the trucks\n- IFTA returns, last 2 quarters').requested_items).toHaveLength(3);
    // a list of questions introduced as "things first"
    expect(read("Two things first:\n- the reason the sales dipped\n- the name of the new partner\n- the owner's cell")).toMatchObject({ type: 'needs_info', requested_items: ['reason the sales dipped', 'name of the new partner', "owner's cell"] });
    const quoted = '-----Original Message-----\nFrom: Dana Whitfield <dana@summitvalleycap.com>\nSent: Monday, November 2, 2026 9:00 AM\nTo: Tom <tom@lender.example>\nSubject: Submission: Pinecrest\n\nHi team,\nRequested amount: $55,000\n** STILL NEED THE SEPTEMBER STATEMENT\nTime in business: 6 years\nMISSING PHOTO ID FOR THE SECOND OWNER\nState: OR\n>> NEED A SIGNED AUTHORIZATION, THE ONE IN THE PACKAGE ISN\'T DATED\nThanks!';
    const inline = read(`Answers in caps inline below.\n\nTom\n\n${quoted}`);
    expect(inline.type).toBe('needs_info');
    expect(inline.requested_items.map((x) => x.toLowerCase())).toEqual(['september statement', 'photo id for the second owner', 'signed authorization']);
    // ... under an Outlook header block as well
    const header = 'From: Dana Whitfield <dana@summitvalleycap.com>\nSent: Monday, November 2, 2026 9:00 AM\nTo: Tom <tom@lender.example>\nSubject: Submission: Pinecrest\n\nRequested amount: $55,000\n>> NEED THE LANDLORD CONTACT, NAME AND NUMBER\nState: OR';
    expect(read(`See my notes below in red.\n\nTom\n\n${header}`)).toMatchObject({ type: 'needs_info', requested_items: ['landlord contact'] });
    // the same quote under a reply that does not point at notes in it is not read
    expect(read(`Thanks, will review.\n\nTom\n\n${quoted}`).type).toBe('unclassified');
  });
});

describe('restated asks, another payment frequency, floated ranges (holdout9)', () => {
  it('a term restated with the ask before the counter is the ask, never the offer', () => {
    const c = read('The client requested $80,000 for 12 months. Where we land: 60k at 1.38, 30 weekly payments of $2,760.', ask(80_000));
    expect(c.type).toBe('counter');
    expect(c.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.38, term: 30, term_unit: 'weeks', payment_frequency: 'weekly' });
  });

  it('the full amount on another payment frequency than the one asked is a counter', () => {
    const c = read("Monthly payments over 10 months aren't an option for a food truck. We can fund the whole 30 on dailies instead: $30,000 at 1.35, 120 business-day payments of $337.50.", ask(30_000));
    expect(c.type).toBe('counter');
    expect(c.offers[0]).toMatchObject({ amount: 30_000, factor_rate: 1.35, term: 120, term_unit: 'days', payment_frequency: 'daily' });
    // the same term, only the schedule changed: still another structure than asked
    const daily = read("A weekly structure over 6 months isn't something we do on restaurants. We can fund the full $30,000 at 1.35, 126 daily payments of $321.43.", ask(30_000));
    expect(daily.type).toBe('counter');
    expect(daily.offers[0]).toMatchObject({ amount: 30_000, term: 126, term_unit: 'days', payment_frequency: 'daily' });
    // the same offer with no frequency asked in the reply stays an approval of the full ask
    expect(read('Approved for the full 30: $30,000 at 1.35, 120 daily payments of $337.50.', ask(30_000)).type).toBe('approved');
  });

  it('a floated range, a factor by its decade or a hunch next to stips goes to a person', () => {
    const c = read('looking like somewhere around a 40 to 45k approval, low 1.4s. need the landlord letter and the october bank statement, then i can firm up the numbers');
    expect(c.type).toBe('needs_info');
    expect(c.review_reason).toBe('tentative_terms');
    expect(read('Get me the September statement and a copy of the lease, then I can firm up pricing.')).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    expect(read('send over the payoff letter and ill firm it up')).toMatchObject({ review_reason: 'tentative_terms' });
    expect(read('Off the top of my head this is a 20-25k deal. Send the MTD.').review_reason).toBe('tentative_terms');
    // a range of balances is no floated offer
    expect(read('Balances sit at 2-3k most days, unable to extend an offer.').review_reason ?? null).toBeNull();
  });

  it('a forward whose sender points below for credit\'s terms is read with the forwarded message', () => {
    const fwd = "Dana, credit's numbers are below - 35 on Pinecrest, not the 55.\n\nMarco\n\n-----Original Message-----\nFrom: Credit Desk <credit@lender.example>\nSent: Monday, November 2, 2026 9:00 AM\nTo: Marco <marco@lender.example>\nSubject: Pinecrest\n\nSized down on concentration.\nAdvance 35,000 | Factor 1.32 | 30 weekly payments of 1,540.00";
    const c = read(fwd, ask(55_000), 'FW: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA');
    expect(c.type).toBe('counter');
    expect(c.offers[0]).toMatchObject({ amount: 35_000, factor_rate: 1.32, term: 30, term_unit: 'weeks', payment_frequency: 'weekly' });
    // the same message as a plain reply (no forward subject): the quoted thread is not read
    expect(read(fwd, ask(55_000), 'RE: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA').offers).toHaveLength(0);
  });

  it('debits named with their rail ("ACH debits") count as payments; too early in business; a prohibited list is an industry reason', () => {
    expect(read('Funded today. Purchase price $20,000, factor 1.40, 100 daily ACH debits of $280.00.', ask(20_000)).offers[0]).toMatchObject({ term: 100, term_unit: 'days', payment_frequency: 'daily', payment_amount: 280 });
    // the shortfall said as a requirement ("we need ... before we can") beside "too green for us": a decline, applied
    const early = read('Unfortunately this one is too fresh for us. They only opened in June and we need a full year of bank history before we can write anything. Circle back in the summer.');
    expect(early).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(early.review_reason ?? null).toBeNull();
    expect(read('A little too fresh for our program, they started in March. Come back next spring.')).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read("Sorry, they only opened their doors in the summer and we want a year of bank history. Pass.").decline_category).toBe('time_in_business');
    expect(read('Liquor stores sit on our prohibited list, so we have to pass.')).toMatchObject({ type: 'declined', decline_category: 'industry' });
  });

  it('a factor then "for the" names the offer\'s term ("1.29 for the 9 months"); "down for the 6 months before" is still history', () => {
    expect(read('Probably 45 at 1.29 for the 9 months, pending committee.', ask(60_000)).offers[0]).toMatchObject({ amount: 45_000, factor_rate: 1.29, term: 9, term_unit: 'months' });
    expect(read('Deposits were down for the 6 months before, so 45k at 1.29 over 40 weeks.', ask(60_000)).offers[0]).toMatchObject({ term: 40, term_unit: 'weeks' });
  });

  it('a table column counting the payments ("Daily Debits | 120") gives the term, not an amount', () => {
    const c = read('Credit signed off at the full 40, pick one:\n\nAdvance | Buy Rate | Payback | Daily Debits\n$40,000 | 1.28 | $51,200 | 120\n$40,000 | 1.33 | $53,200 | 140', ask(40_000));
    expect(c.type).toBe('approved');
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit, o.payment_frequency])).toEqual([[40_000, 1.28, 120, 'days', 'daily'], [40_000, 1.33, 140, 'days', 'daily']]);
  });
});

describe('continental numbers, outcomes named as what may come (holdout10)', () => {
  it('an offer written with decimal commas and dot-grouped thousands reads as the trade writes it', () => {
    const c = read('Hello, the merchant is approve by our committee.\n\nFunding: 48.500 USD\nBuy rate: 1,27\nDuration: 80 working days\nPayment each day: 770,06 USD\n\nSend us the signed agreement when ready please.', ask(48_500));
    expect(c.type).toBe('approved');
    expect(c.offers[0]).toMatchObject({ amount: 48_500, factor_rate: 1.27, term: 80, term_unit: 'days', payment_amount: 770.06 });
    // one sign alone is no continental style: "1.350" stays a factor, "$39,000" stays thirty-nine thousand
    expect(read('Approved 39,000 at 1.350 over 6 months.', ask(39_000)).offers[0]).toMatchObject({ amount: 39_000, factor_rate: 1.35 });
  });

  it('a receipt naming approvals and declines as what may come decides nothing', () => {
    for (const text of [
      'Thanks, your file is in the queue. Approval/decline notices will post to this portal within 48 hours.',
      'Submission logged. Denials and approvals are usually sent the same business day.',
      'We got the package. Approvals or declines go out by email once an underwriter picks it up.',
    ]) {
      const c = read(text);
      expect(c.type).not.toBe('declined');
      expect(c.type).not.toBe('approved');
    }
    // a real decline beside it still reads
    expect(read('Declined - too many NSFs in October.').type).toBe('declined');
  });

  it('a rate labelled after it is that label\'s: "1.31 buy / 1.41 ceiling" offers 1.31', () => {
    const c = read('Sure, 60 works. 1.31 buy / 1.41 ceiling, 8 months, weekly. Send the contract request.', ask(60_000));
    expect(c.type).toBe('approved');
    expect(c.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.31, term: 8, term_unit: 'months' });
    expect(read('Approved 60k. 1.29 factor, 1.39 max sell, 8 months.', ask(60_000)).offers[0]).toMatchObject({ factor_rate: 1.29 });
  });

  it('shorthand with an apostrophe: "aprv\'d 55/1.31" approves, "dcl\'d" declines', () => {
    expect(read("aprv'd 55/1.31/140d, dly 514.64\nsend merchant email for the docusign", ask(55_000)).type).toBe('approved');
    expect(read("dcl'd - 571 beacon, floor is 625").type).toBe('declined');
    expect(read("not app'd yet, still with credit").type).not.toBe('approved');
  });

  it('a bare "pass" set off with its reason ("Pass - NSFs") declines, also from the subject line', () => {
    expect(read('Pass - 9 NSFs in October.').type).toBe('declined');
    const c = read('see subj\n\nJ', undefined, 'Re: Submission: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA - pass: 4 positions');
    expect(c).toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });

  it('on the sidelines, our place in the line of funders: a stacking decline', () => {
    const c = read("They're carrying two advances already and we'd be number three. Going to stay on the sidelines here.");
    expect(c).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Shop is already wearing four positions. We will sit this one on the sidelines.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read("We'd be number five on this account, so we're passing.")).toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });

  it('a decision written only as a file name ("<Decline_Pinecrest.pdf>") is read', () => {
    expect(read('Our answer is attached.\n\n<Decline_Letter_Pinecrest_Vet.pdf>').type).toBe('declined');
    // a name that decides nothing still decides nothing
    expect(read('Got it.\n\n<Stip_Checklist_Pinecrest.pdf>').type).not.toBe('declined');
  });

  it('a reason set aside ("regardless of its state license") is not the reason; a monthly minimum is low revenue', () => {
    expect(read('The business is a vape shop and smoke shop, so regardless of its state licensing it is outside our guidelines and we must decline.').decline_category).toBe('industry');
    expect(read("Deposits are averaging near 22k, so we can't move forward.").decline_category).toBe('low_revenue');
    expect(read('Our floor on salons is 30k per month, so we must decline.').decline_category).toBe('low_revenue');
  });
});

describe('parts that must agree, declines as classes of phrasing, numbers read out (holdout11)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => {
    const c = read(text, ctx);
    return { c, o: replyOutcome(contractClassification(c), { from: 'x@lender.example', own: text, autoReply: false }) };
  };
  it('an offer whose amount x factor is not the payback it states goes to a person; one that adds up is applied', () => {
    const bad = read('Approved at the full 60: $60,000, factor 1.40, RTR $79,800, 8 months weekly.', ask(60_000));
    expect(bad.review_reason).toBe('conflicting_cues');
    expect(bad.reasons.join(' ')).toMatch(/figures disagree/);
    const good = read('Approved at the full 60: $60,000, factor 1.33, RTR $79,800, 8 months weekly.', ask(60_000));
    expect(good).toMatchObject({ type: 'approved' });
    expect(good.review_reason ?? null).toBeNull();
  });

  it('payments that do not repay the amount at the factor, or a term that is not the payments counted, go to a person', () => {
    expect(read('Approved 60k at 1.40, 35 weekly payments of $1,900.00.', ask(60_000)).review_reason).toBe('conflicting_cues');
    expect(read('Approved 60k at 1.40, 35 weekly payments of $2,400.00.', ask(60_000)).review_reason ?? null).toBeNull();
    // a stated term and a payment count that disagree, nothing to say which is right
    expect(read('Approved $60,000 at 1.40, 12 months, 20 weekly payments.', ask(60_000)).review_reason).toBe('conflicting_cues');
    // a count elsewhere in the reply, about something else, while the payments confirm the term: applied
    const renewal = read('Approved $60,000 / 1.40 / 24 weeks / $3,500 weekly.\n\nRenewal opens once 12 weekly payments have cleared.', ask(60_000));
    expect(renewal.type).toBe('approved');
    expect(renewal.review_reason ?? null).toBeNull();
  });

  it('an approval at the ask beside a smaller amount put forward goes to a person; an amount in a hypothetical is the ask', () => {
    // the smaller figure written as an amount beside the ask's: which stands is for a person
    expect(read("Approved for the full $80,000 at 1.35 over 9 months. We could also fund $55,000 if he'd rather keep it smaller.", ask(80_000)).review_reason).toBe('conflicting_cues');
    // "if she insists on the whole 80 ..." names the ask, the offer is the smaller amount before its factor
    const c = read("Where we came out: 55 on a 1.38, 140 business days. If she insists on the whole 80 we'd need a co-signer.", ask(80_000));
    expect(c.type).toBe('counter');
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[55_000, 1.38, 140, 'days']]);
    // ... and never the amount the pricing is paired with: priced terms, then the ask as a hypothetical, are not an approval of the ask
    const h = outcome("Credit priced it at 1.38 over 140 business days. If she insists on the full 80 we'd need a co-signer.", ask(80_000));
    expect(h.o.apply).toBe(false);
    expect(h.c.offers.filter((o) => o.amount === 80_000)).toEqual([]);
  });

  it('the term the merchant insists on, or a term asked back and refused, is the ask: another term offered is a counter', () => {
    const set = read("The owner is dead set on 12 months; we can't go that long on a landscaper. Full 60 at 1.31, 7 months, weekly.", ask(60_000));
    expect(set.type).toBe('counter');
    expect(set.offers[0]).toMatchObject({ amount: 60_000, term: 7, term_unit: 'months' });
    const q = read('Twelve months for a food truck? No way. All 60 at 1.34, 30 weekly payments of $2,680.00.', ask(60_000));
    expect(q.type).toBe('counter');
    expect(q.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.34, term: 30, term_unit: 'weeks' });
    // a question that is the lender's own offer is not refused ("6 months? no pressure, think it over")
    expect(read('Full 60 at 1.34 over 6 months? No pressure, let me know.', ask(60_000)).offers[0]).toMatchObject({ term: 6, term_unit: 'months' });
  });

  it('the ask as a noun ("the ask was 60 over 12 months") is the ask; a payoff the offer hangs on is a counter; two terms for one offer go to a person', () => {
    const c = read('The ask was 60 over 12 months; credit approved 60 over 7 months at 1.31, weekly.', ask(60_000));
    expect(c.type).toBe('counter');
    expect(c.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.31, term: 7, term_unit: 'months' });
    expect(read('Approved $60,000 subject to a buyout of the Fora balance at funding. 1.33, 8 months.', ask(60_000)).type).toBe('counter');
    // a term the reply says was asked is not a second term: "the 12 months the merchant wanted"
    const asked = read("Approved the full 60 at 1.31 for 7 months. The 12 months the merchant wanted won't fit his deposits.", ask(60_000));
    expect(asked.type).toBe('counter');
    expect(asked.review_reason ?? null).toBeNull();
    // two terms before the pricing, neither said to be the ask and the payments confirming neither: a person
    expect(read('Approved 60k, 12 months. Underwriting prefers 7 months. Factor 1.31.', ask(60_000)).review_reason).toBe('conflicting_cues');
    // a round amount in words right before its factor
    expect(read('Fifty is too rich for this file. Forty-two at 1.37 for six months is the number.', ask(50_000)).offers[0]).toMatchObject({ amount: 42_000, factor_rate: 1.37, term: 6 });
  });

  it('a decision naming another business, or "your other deal", goes to a person; approvals pulled, held or hanging on a payoff are not applied', () => {
    const pine: ReplyContext = { requested_amount: 50_000, business_name: 'Pinecrest Veterinary Clinic' };
    expect(read('Approved 50k at 1.35 for 9 months for Harbor Bakery. Still reviewing Pinecrest.', pine).review_reason).toBe('multiple_deals');
    expect(read('Your other deal, Harbor Bakery, is approved. Pinecrest: need the MTD.', pine).review_reason).toBe('multiple_deals');
    // this deal's own name, a day, or the lender's firm after "approved ... for" is no other business
    expect(read('Approved 50k at 1.35 for 9 months for Pinecrest.', pine).review_reason ?? null).toBeNull();
    expect(read('Approved 50k at 1.35 for 9 months, funding on Monday. Thanks from all of us at Harbor Capital.', pine).review_reason ?? null).toBeNull();
    expect(read('Approved 50k at 1.35, 9 months - credit pulled it this morning after a new UCC.', ask(50_000)).review_reason).toBe('approval_withdrawn');
    expect(read('Approved at 50k 1.35 9 months pending a clean site inspection.', ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read('We can do 50k at 1.35 over 9 months, but only after they close out Rapid.', ask(50_000)).type).toBe('counter');
    expect(read("We're not a yes on this one - the deposits dropped 40%.").type).toBe('declined');
  });

  it('the payments counted are the payback when none is stated; a count alone is a term, so the offer is never dropped; a labelled ask is the ask', () => {
    expect(read('Approved $60,000, 160 daily payments of $498.75.', ask(60_000)).offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.33, term: 160, term_unit: 'days' });
    // no factor, no payment: the offer cannot be completed, so a person (never applied without its offer)
    const o = outcome('Approved $60,000 over 160 daily payments.', ask(60_000));
    expect(o.o).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
    // a payment that would make no factor of the trade (a fee, a deposit) is not read as the payback
    expect(read('Approved $60,000, 160 daily payments of $25.00.', ask(60_000)).offers[0]?.factor_rate ?? null).toBeNull();
    const labelled = read('Requested: $60,000 / 12 months. Approved: $45,000 / 1.36 / 8 months.', ask(60_000));
    expect(labelled).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.36, term: 8, term_unit: 'months' }] });
  });

  it('requests in other words: what the lender cannot decide without, items pending by label, the merchant asked through the broker', () => {
    expect(read("Can't underwrite it without the 2025 tax return. Send it when you can.")).toMatchObject({ type: 'needs_info', requested_items: ['2025 tax return'] });
    expect(read('Open items: voided check, landlord contact.')).toMatchObject({ type: 'needs_info', requested_items: ['voided check', 'landlord contact'] });
    expect(read('Could you ask the owner to sign the bank verification form?').type).toBe('needs_info');
    expect(read('Our team would like to see the October statement before making a decision.')).toMatchObject({ type: 'needs_info', requested_items: ['October statement'] });
    expect(read('Credit requires a signed application prior to approval.').type).toBe('needs_info');
    expect(read('Please provide: 1) voided check 2) DL 3) landlord letter')).toMatchObject({ type: 'needs_info', requested_items: ['voided check', 'DL', 'landlord letter'] });
    // items beside a hedged yes ("if those look clean we're probably good for 50"): the request, for a person to set expectations
    expect(read("Need the MTD and a payoff letter. If those look clean we're probably good for 50 at 1.35.", ask(50_000))).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // a decline that ends by asking the broker to have the merchant do something stays a decline
    expect(read("The statements don't tie out, so we're declining the file. Please have the merchant connect their bank if they want another look.").type).toBe('declined');
  });

  it('one amount named twice, in prose and in the terms block, is one offer', () => {
    const c = read('Credit approved the whole $90,000 over 9 months, weekly.\n\nAdvance: $90,000\nBuy rate: 1.32\nPurchased amount: $118,800\n39 weekly payments of $3,046.15', ask(90_000));
    expect(c.type).toBe('approved');
    expect(c.offers).toHaveLength(1);
    expect(c.offers[0]).toMatchObject({ amount: 90_000, factor_rate: 1.32, term: 9, term_unit: 'months' });
  });

  it('approval as a verdict noun ("it\'s a go", "a lock", "we\'re a yes") and "sanctioned"; never a question, a condition or OFAC', () => {
    expect(read("Pinecrest's a go from our side - 45k, 1.36, 7 months.", ask(45_000)).type).toBe('approved');
    expect(read("It's a go on our end. Paperwork to follow this afternoon.", ask(45_000)).type).toBe('approved');
    expect(read('The file has been sanctioned by our credit team; the agreement follows tomorrow.', ask(45_000)).type).toBe('approved');
    expect(read('We are a yes on all 45: 1.36, 7 months, weekly.', ask(45_000)).type).toBe('approved');
    expect(read('The proposal has been sanctioned by our credit committee. Sanctioned amount: $45,000, factor 1.36, tenure 7 months.', ask(45_000)).type).toBe('approved');
    expect(read("Let me know if it's a go on your side and I'll send the app over.").type).not.toBe('approved');
    expect(read('Is this a go? Have not seen the MTD yet.').type).not.toBe('approved');
    expect(read('The guarantor was sanctioned by OFAC last year.').type).not.toBe('approved');
  });

  it('declines in new words, by class: a decision not to proceed, a preference, no offer, an answer that is no', () => {
    for (const text of [
      "We've decided not to proceed with this file.",
      'Our team elected not to pursue this one.',
      "We'd rather not. The deposits are too inconsistent.",
      'No offer on this one - existing holdback is already 25%.',
      'Our answer on Pinecrest is no. Revenue dropped 40% since summer.',
      "Honestly this isn't a fit for our program. Four open positions.",
      "This file doesn't clear our box. Score is 540.",
      "This is outside what we can do right now. They're 5 months in business.",
      "Pinecrest won't qualify with us. FICO 560.",
      "We'll need to pass. Merchant is based in California and we're not licensed there.",
      'Underwriting shot this one down, there is a judgment from 2024.',
      'Closing this one out on our end - the statements look edited.',
      "We're going to step away from this one. Too much debt.",
      "We're done with Pinecrest on our side, the September statement was altered.",
      "Pinecrest just doesn't have the track record yet, come back next year.",
      'No appetite for vet clinics right now, sorry.',
      'We must refuse the application, the owner score is 548.',
      'After careful review we are unable to participate in this transaction.',
      'We cannot offer financing for this business.',
      "Can't do anything here - industry is on our exclusion list.",
    ]) expect(read(text).type, text).toBe('declined');
    // a step of the work done is no decline
    expect(read("We're done with the review - approved at the full 50, 1.35, 9 months.", ask(50_000)).type).toBe('approved');
    expect(read('We will need to pass underwriting first; send the MTD.').type).not.toBe('declined');
  });

  it('decline reasons in a program\'s words: a program minimum, a floor as a year in business, no appetite for a sector', () => {
    expect(read('Declined. Deposits come in below the program minimum of $30,000.').decline_category).toBe('low_revenue');
    expect(read("Declined - our minimum is two years in business and they're at 14 months.").decline_category).toBe('time_in_business');
    expect(read('No appetite for tattoo parlors, sorry.').decline_category).toBe('industry');
  });

  it('numbers as reps write them: a factor read out after its label, tens after a preposition, "$" after the number, an amount before "on a 1.44"', () => {
    const words = read("Couldn't get it to eighty. Comfortable at sixty thousand, buy rate one thirty-four, nine months, weekly.", ask(80_000));
    expect(words.type).toBe('counter');
    expect(words.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.34, term: 9, term_unit: 'months' });
    const trailing = read('Approved.\nAmount : 45,000$\nFactor : 1.36\nTenure : 140 business days\nDaily installment : 437.14$', ask(45_000));
    expect(trailing.offers[0]).toMatchObject({ amount: 45_000, factor_rate: 1.36, term: 140, term_unit: 'days', payment_amount: 437.14 });
    expect(trailing.requested_items).toEqual([]);
    expect(read('Best I can land is 32.5 today at 1.41, 110 days, daily.', ask(45_000)).offers[0]).toMatchObject({ amount: 32_500, factor_rate: 1.41 });
    expect(read('We ended up at 38 on a 1.37 for 30 weeks.', ask(45_000)).offers[0]).toMatchObject({ amount: 38_000, factor_rate: 1.37, term: 30 });
    // a payment written bare with its period
    expect(read('ended up at 38 on a 1.37, 110 biz days, 473/day', ask(45_000)).offers[0]).toMatchObject({ amount: 38_000, payment_amount: 473, payment_frequency: 'daily' });
    // a time of day is no amount: "wire went out at 11:40" leaves priced terms to the ask
    const wire = read('Approved. 1.35, 8 months, daily. Wire went out at 11:40.', ask(45_000));
    expect(wire).toMatchObject({ type: 'approved', offers: [{ amount: 45_000, factor_rate: 1.35, term: 8 }] });
    expect(wire.review_reason ?? null).toBeNull();
  });

  it('items after a request sentence ending in a colon; a held pre-funding visit goes to a person', () => {
    const c = read('Credit needs two more things before they can price it: a copy of the lease, and the last 3 months of processing statements (the card volume is not in the bank account).');
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(['copy of the lease', 'last 3 months of processing statements']);
    for (const text of [
      'Approved at the full 45: 1.36, 7 months, weekly. Our field team does a site visit before we release funds.',
      'Approved at the full 45: 1.36, 7 months, weekly. The merchant call has not been booked yet.',
      "Approved at the full 45: 1.36, 7 months, weekly. Please don't tell the owner the money is committed.",
    ]) expect(read(text, ask(45_000)), text).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(read('Approved at the full 45: 1.36, 7 months, weekly.', ask(45_000)).review_reason ?? null).toBeNull();
  });
});

describe('counts, the ask granted and amounts spoken (holdout12)', () => {
  it('a payment count in shorthand ("pymts", "pulls") is the term in its frequency, and a bare figure after it is each payment', () => {
    expect(extractOffers('60 @ 1.38, 120 pymts of 690 daily.', ask(60_000))).toMatchObject([{ amount: 60_000, factor_rate: 1.38, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 690 }]);
    expect(extractOffers('Fifty thousand even, pays back $71,500 over 26 weekly pulls of $2,750.', ask(50_000))).toMatchObject([{ amount: 50_000, factor_rate: 1.43, term: 26, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 2750 }]);
    // a count that is no payment stays out
    expect(extractOffers('$60,000 at 1.38, 6 months. They had 120 deposits of 690 last month.', ask(60_000))).toMatchObject([{ term: 6, term_unit: 'months', payment_amount: null }]);
  });

  it('the term the merchant asked for, granted ("on the 12 months they asked for"), is the offer\'s term; refused, it is not', () => {
    const ctx: ReplyContext = { requested_amount: 100_000, requested_term: { term: 12, unit: 'months' } };
    expect(read('Credit signed off at the full $100K, on the 12 months they asked for with weekly remittance.\n\nTotal payback is $130,000, which works out to $2,500.00 a week.', ctx))
      .toMatchObject({ type: 'approved', offers: [{ amount: 100_000, factor_rate: 1.3, term: 12, term_unit: 'months', payment_frequency: 'weekly' }] });
    expect(read("We can't do it on the 12 months they asked for. $100,000 at 1.30 for 9 months.", ctx).offers).toMatchObject([{ term: 9, term_unit: 'months' }]);
    // "credit" naming the department that decided is no money label; credit card sales still are
    expect(extractOffers('Credit signed off at the full $100K, 12 months.\nTotal payback is $130,000.')).toMatchObject([{ amount: 100_000, factor_rate: 1.3, term: 12 }]);
    expect(extractOffers('Credit card sales of $100K a month.\n$60,000 at 1.35, 8 months.')).toMatchObject([{ amount: 60_000 }]);
  });

  it('SHORTHAND_AMOUNT.after and thousands spoken with their hundreds: "Forty-two five is where I land" is $42,500', () => {
    expect(wordsToDigits('forty-two five is where i land')).toBe('42.5 is where i land');
    expect(wordsToDigits('twenty five days, thirty-one five positions')).toBe('25 days, thirty-one five positions');
    expect(read('Sixty is a stretch with Rapid still in there. Forty-two five is where I land. 1.39, 100 business days, $590.75 a day.', ask(60_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 42_500, factor_rate: 1.39, term: 100, term_unit: 'days', payment_amount: 590.75 }] });
    // each row is a predicate on the number before it (holdout14: "35 works", "60 is fine")
    // (holdout16: or the contraction, "35's the number", which SHORTHAND_AFTER_RE reads without a space before it)
    for (const phrase of V.SHORTHAND_AMOUNT.after) expect(phrase).toMatch(/^(is |works|\(is\|are\) |\['\u2019\]s )/);
    expect(extractOffers('35 is my number. 1.40, 6 months.', ask(50_000))).toMatchObject([{ amount: 35_000, factor_rate: 1.4 }]);
    // not against the ask's range: a count, not an amount
    expect(extractOffers('3 is my number of positions max. $50,000 at 1.40, 6 months.', ask(50_000))).toMatchObject([{ amount: 50_000 }]);
  });
});

describe('declines, structures and notes in holdout12 wording', () => {
  it('the deal\'s own name is no decline reason: "Beacon Hill" names no score', () => {
    const text = 'Beacon Hill only has seven months of operating history and our program starts at a full year. Sorry.';
    expect(read(text, { requested_amount: 35_000, business_name: 'Beacon Hill Laundromat' })).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    // without the name the word is read as a reason (what the blanking prevents)
    expect(read('Beacon came back at 540. Sorry.', { requested_amount: 35_000, business_name: 'Acme Laundromat' }).decline_category).toBe('credit_score');
  });

  it('DECLINE_DECISION deferral verbs: "bring it back in the spring", "take a fresh look" later; DECLINE: "no longer purchase receivables from merchants located in"', () => {
    expect(read('Only seven months of operating history. Bring it back in the spring and we\'ll take a fresh look.', ask(35_000)).type).toBe('declined');
    expect(read('We no longer purchase receivables from merchants located in Texas. This reflects our state eligibility policy only.', ask(40_000))).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });

  it('DECLINE_REASONS: revenue beside a floor, public records, a further advance found', () => {
    expect(read("Red Clay is doing about 12 a month in deposits. Can't make it work, sorry Dana.", ask(15_000)).decline_category).toBe('low_revenue');
    expect(read("On deposits our floor is 25k. Can't make it work.", ask(15_000)).decline_category).toBe('low_revenue');
    expect(read("Deposits vs our minimum of 20k: short. Can't make it work.", ask(15_000)).decline_category).toBe('low_revenue');
    // a floor that is a time in business stays one
    expect(read("Eight months of deposits, and our floor is a full year in business. Can't make it work.", ask(15_000)).decline_category).toBe('time_in_business');
    expect(read('FILE DECLINED\nUnable to extend an offer on this file.\nDetail: Derogatory public record on the guarantor.', ask(25_000)).decline_category).toBe('default_history');
    expect(read("Can't make it work: a third advance funded Tuesday that wasn't on the app.", ask(80_000)).decline_category).toBe('stacking');
    expect(read("Sorry, we won't go in behind three.", ask(80_000)).decline_category).toBe('stacking');
  });

  it('COUNTER: a schedule "not in our toolbox" is a counter, and the refused schedule is not the offer\'s', () => {
    const a = read("Weekly isn't in our toolbox for tree service. What I can do is the full $45K on a daily remit: 1.40, 120 business days at $525/day.", ask(45_000));
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.4, term: 120, payment_frequency: 'daily', payment_amount: 525 }] });
    expect(extractOffers("We can't do weekly. $45,000 at 1.40, 120 business days, daily.", ask(45_000))).toMatchObject([{ payment_frequency: 'daily' }]);
  });

  it('COUNTER structure "only as a buyout", and CLOSING_STIPS "to finalize" beside the priced offer', () => {
    const a = read("We won't sit third behind those two. We'd take it only as a buyout of both positions:\n$85,000 gross\nFactor 1.48, 40 weekly payments of $3,145.00\nNeed payoff letters from both funders dated within 5 days to finalize.", ask(85_000));
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 85_000, factor_rate: 1.48, term: 40, term_unit: 'weeks' }] });
    // without the structure it is the approval of the ask with closing items
    expect(read('$85,000, factor 1.48, 40 weekly payments of $3,145.00.\nNeed payoff letters from both funders dated within 5 days to finalize.', ask(85_000)).type).toBe('approved');
  });

  it('notes typed into the quoted submission after "<<", and an item\'s trailing "as well"', () => {
    const quoted = '-----Original Message-----\nFrom: Dana Whitfield <dana@summitvalleycap.com>\nSent: Tuesday, November 3, 2026 11:05 AM\nTo: Hannah <h@lender.example>\nSubject: Submission: Pinecrest\n\nHi team,\nRequested amount: $38,000\nMonthly revenue: $61,000 avg\n<< Only August through October came through. Need the July statement as well.\nState: WI\n<< Please send a payoff or zero-balance letter.\nThanks!';
    expect(read(`Hi Dana, a couple of things inline before we can go further.\n\nHannah\n\n${quoted}`, ask(38_000))).toMatchObject({ type: 'needs_info', requested_items: ['July statement', 'payoff or zero-balance letter'] });
  });
});

describe('offers as holdout14 wrote them: the department that cleared, schedules in the plural, counts of dailies', () => {
  it('"cleared credit at the full $80,000" names the department that decided: the amount is the offer\'s', () => {
    const text = 'Good news - Quarry Hill cleared credit at the full $80,000.\n\n  Buy: 1.29 / Max sell: 1.39\n  Term: 9 months\n  Remit: daily ACH, Mon-Fri';
    expect(extractOffers(text, ask(80_000))).toMatchObject([{ amount: 80_000, factor_rate: 1.29, term: 9, term_unit: 'months', payment_frequency: 'daily' }]);
    expect(read(text, ask(80_000))).toMatchObject({ type: 'approved' });
    expect(read(text, ask(80_000)).review_reason ?? null).toBeNull();
  });

  it('"dailies" / "weeklies" name the schedule, and "120 dailies of 355." each payment (a full stop ends the figure)', () => {
    expect(extractOffers('What I can do: $60,000 / 1.33 / 7 months / dailies.', ask(60_000))).toMatchObject([{ amount: 60_000, factor_rate: 1.33, term: 7, term_unit: 'months', payment_frequency: 'daily' }]);
    expect(extractOffers('$60,000 / 1.36 / 10 months / weeklies', ask(60_000))).toMatchObject([{ payment_frequency: 'weekly' }]);
    expect(extractOffers('Done. 30k approved as submitted. 1.42 / 120 dailies of 355. contracts going out in a few', ask(30_000)))
      .toMatchObject([{ amount: 30_000, factor_rate: 1.42, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 355 }]);
  });

  it('SHORTHAND_AMOUNT.after "works": "35 works but its dailies only ... 1.39, 140 pymts of 347.50" is a counter on another schedule', () => {
    const a = read('35 works but its dailies only, we dont do weekly on contractors. 1.39, 140 pymts of 347.50', ask(35_000));
    expect(a.review_reason ?? null).toBeNull();
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 35_000, factor_rate: 1.39, term: 140, term_unit: 'days', payment_frequency: 'daily', payment_amount: 347.5 }] });
  });

  it('ASKED_TERM.refused at the end of a clause: "The 12 months weekly is not" refuses the asked term; the offer on 7 months is a counter', () => {
    const a = read("Full 60 is fine. The 12 months weekly is not, we don't write vets past 7.\n\nWhat I can do: $60,000 / 1.33 / 7 months / dailies.", ask(60_000));
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 60_000, factor_rate: 1.33, term: 7, term_unit: 'months', payment_frequency: 'daily' }] });
    expect(a.offers).toHaveLength(1);
  });

  it('a table row of schedules ("Payments | Daily | Weekly") gives each option its frequency', () => {
    const table = '| Option 1 | Option 2\nFunding | $70,000 | $60,000\nBuy rate | 1.32 | 1.29\nTerm | 6 months | 9 months\nPayments | Daily | Weekly';
    expect(extractOffers(table, ask(100_000))).toMatchObject([
      { amount: 70_000, factor_rate: 1.32, term: 6, term_unit: 'months', payment_frequency: 'daily' },
      { amount: 60_000, factor_rate: 1.29, term: 9, term_unit: 'months', payment_frequency: 'weekly' },
    ]);
  });

  it('a term threshold ("weekly remits at 12 months and up") is no term of the offer', () => {
    const text = 'The 65 is fine, the weekly is the problem. We only run weekly remits at 12 months and up and this one prices at 6. So it would have to be daily:\n\n$65,000 funded, $89,050 payback, 130 daily payments of $685.00.';
    const [o] = extractOffers(text, ask(65_000));
    expect(o).toMatchObject({ amount: 65_000, factor_rate: 1.37, term: 130, term_unit: 'days', payment_frequency: 'daily', payment_amount: 685 });
    expect(o.conflict).toBeUndefined();
  });
});

describe('right readings that went to a person for want of a word (holdout13, holdout14 probes)', () => {
  it('DECLINE_DECISION.deferral objects "with it": "Circle back with it in March" is a decline', () => {
    const a = read("Dana - the studio opened in January, so ten months. Our guideline is a full 12 months TIB with no exceptions on yoga/fitness. Circle back with it in March and we'll take a fresh look.", ask(20_000));
    expect(a).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(a.review_reason ?? null).toBeNull();
  });

  it('APPROVAL "done deal on", CLOSING_STIPS "and I\'ll get contracts out": the stip closes a priced approval', () => {
    const a = read("Done deal on Cedar Loop. 70k at a 1.36, weekly over the 9 months like they wanted. Payback 95,200.\n\nSend me the bank login for the verification and I'll get contracts out.", ask(70_000));
    expect(a).toMatchObject({ type: 'approved', offers: [{ amount: 70_000, factor_rate: 1.36, term: 9, term_unit: 'months' }] });
    expect(a.review_reason ?? null).toBeNull();
  });

  it('each row alone: "Done deal on X." is an approval; "send X and I\'ll get contracts out" beside priced terms is a closing stip', () => {
    expect(read('Done deal on Cedar Loop.', ask(70_000)).type).toBe('approved');
    const stip = read("70k at a 1.36, weekly over 9 months. Send me the bank login for the verification and I'll get contracts out.", ask(70_000));
    expect(stip.type).toBe('approved');
    expect(stip.review_reason ?? null).toBeNull();
  });

  it('items counted before a colon: "a couple things before UW will open it up: ..."', () => {
    const a = read('Dana, a couple things before UW will open it up: landlord info (name, phone, monthly rent), last 3 months of processing statements, and an A/R aging report. Thx', ask(60_000));
    expect(a.type).toBe('needs_info');
    expect(a.review_reason ?? null).toBeNull();
    expect(a.requested_items).toEqual(['landlord info', 'last 3 months of processing statements', 'A/R aging report']);
  });

  it('a dollar figure after "N dailies of" / "N weeklies of" is each payment', () => {
    expect(extractOffers('Credit cleared the file: $45,000 / 1.40 / 130 dailies of $484.62', ask(45_000))).toMatchObject([{ amount: 45_000, factor_rate: 1.4, term: 130, term_unit: 'days', payment_frequency: 'daily', payment_amount: 484.62 }]);
    expect(extractOffers('UW signed off - 100k @ 1.33, 12 mo, 52 weeklies of $2,557.69', ask(100_000))).toMatchObject([{ payment_frequency: 'weekly', payment_amount: 2557.69 }]);
  });

  it('"9m" beside the factor or the schedule is a term in months; "$9m" is still money', () => {
    expect(extractOffers('approved 90k 1.36 9m weekly', ask(90_000))).toMatchObject([{ amount: 90_000, factor_rate: 1.36, term: 9, term_unit: 'months', payment_frequency: 'weekly' }]);
    expect(extractOffers('approved 90k, 10m daily, 1.36', ask(90_000))).toMatchObject([{ term: 10, term_unit: 'months' }]);
    expect(extractOffers('They do $9m a year in sales. Approved $90,000 at 1.36, 9 months.', ask(90_000))).toMatchObject([{ amount: 90_000, term: 9 }]);
  });
});

describe('one-liners in the way a hidden batch may write them (probes after holdout14)', () => {
  it('DECLINE "we pass" ending its sentence: "We pass. TIB under 1 year." is a decline applied; "we pass it to credit" is not', () => {
    const a = read('We pass. TIB under 1 year.', ask(40_000));
    expect(a).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(a.review_reason ?? null).toBeNull();
    expect(read('We pass it to credit tomorrow morning.', ask(40_000)).type).not.toBe('declined');
  });

  it('a labelled payment with a bare figure in cents: "Daily payment 388.57"', () => {
    expect(extractOffers('Approved at 40k. 1.36. 140 days. Daily payment 388.57', ask(40_000))).toMatchObject([{ amount: 40_000, factor_rate: 1.36, term: 140, term_unit: 'days', payment_frequency: 'daily', payment_amount: 388.57 }]);
    expect(extractOffers('Approved 35,000.00 1.42 factor 5 months daily 470.22', ask(35_000))).toMatchObject([{ amount: 35_000, factor_rate: 1.42, term: 5, term_unit: 'months', payment_frequency: 'daily', payment_amount: 470.22 }]);
    // a figure without cents after the word is no payment read this way
    expect(extractOffers('Approved at 40k. 1.36. 140 days. Payment 3 of the old advance is late.', ask(40_000))).toMatchObject([{ payment_amount: null }]);
  });
});

describe('holdout15 wording: reasons and decisions as the blind batch wrote them', () => {
  it('DECLINE_REASONS other: a new bank account is not time in business; a young business still is', () => {
    expect(read('Ocean Mist moved banks in September, so we only have about 2 months on the new account. Bank is too new for us, we need 3 full months at the same bank. Have to decline for now.', ask(30_000)).decline_category).toBe('other');
    expect(read('Business is too new for us, opened 7 months ago. Have to decline.', ask(30_000)).decline_category).toBe('time_in_business');
  });
});

describe('holdout15 wording: a sector the lender has no room for', () => {
  it('SECTOR_FULL: "we are full on trucking", "credit capped the sector" is an industry decline applied', () => {
    const a = read('Dana,\n\nWe are full on trucking for Q4, credit capped the sector. Red Arrow looks clean otherwise, try us again in January.\n\nGerald', ask(60_000));
    expect(a).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(a.review_reason ?? null).toBeNull();
    // a full funding is no sector refusal
    expect(read('Approved for the full $60,000 at 1.35, 6 months daily.', ask(60_000)).type).toBe('approved');
  });
});

describe('holdout15 wording: what the merchant nets is not the offer', () => {
  it('money kind net: "the merchant nets about $52,300" beside the full approval is no counter', () => {
    const text = 'Renewal on Granite Peak is approved. They paid us perfect on the first one so we are good with the full $80,000.\n\nFactor 1.27, RTR $101,600, 10 months, weekly.\nWe net out the current balance ($27,700) at funding, so the merchant nets about $52,300 before fees.';
    expect(extractOffers(text, ask(80_000))).toMatchObject([{ amount: 80_000, factor_rate: 1.27, term: 10, term_unit: 'months', payment_frequency: 'weekly' }]);
    expect(read(text, ask(80_000))).toMatchObject({ type: 'approved' });
  });
});

describe('holdout15 wording: how long an approval stands is not its term', () => {
  it('"APPROVAL VALID 14 DAYS" beside "36 WEEKLY PAYMENTS" leaves the term at 36 weeks, applied', () => {
    const text = 'DECISION: FINAL APPROVAL\nAPPROVED ADVANCE: $45,000.00\nFACTOR: 1.42\nTOTAL RTR: $63,900.00\nREMITTANCE: 36 WEEKLY PAYMENTS OF $1,775.00\n\nLOG IN TO THE ISO PORTAL TO REQUEST CONTRACTS. APPROVAL VALID 14 DAYS.';
    expect(extractOffers(text, ask(45_000))).toMatchObject([{ amount: 45_000, factor_rate: 1.42, term: 36, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1775 }]);
    const a = read(text, ask(45_000));
    expect(a.type).toBe('approved');
    expect(a.review_reason ?? null).toBeNull();
  });
});

describe('holdout15 wording: a refusal until a public record is cured', () => {
  it('DECLINE: "Until that is satisfied ... we cannot move forward" after a judgment is a default_history decline applied', () => {
    const a = read('Hi Dana,\n\nBackground came back with an unsatisfied judgment against Maplewood from a supplier, $41k, entered 2025. Until that is satisfied or on a payment plan we cannot move forward.\n\nCelia', ask(50_000));
    expect(a).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(a.review_reason ?? null).toBeNull();
  });
});

describe('holdout15 wording: another term and schedule than asked decide a counter', () => {
  it('"12 months weekly is not something we do ... best I have is 8 months daily at 1.29" is a counter applied', () => {
    const text = 'Dana,\n\nAmount is fine on Hollow Oak, 70k, but 12 months weekly is not something we do for a 1st position cabinet shop.\nBest I have is 8 months daily at 1.29, payback 90,300.';
    const a = read(text, { requested_amount: 70_000, requested_term: { term: 12, unit: 'months' } } as ReplyContext);
    expect(a).toMatchObject({ type: 'counter', offers: [{ amount: 70_000, factor_rate: 1.29, term: 8, term_unit: 'months', payment_frequency: 'daily' }] });
    expect(a.review_reason ?? null).toBeNull();
  });
});

describe('holdout15 wording: both outcomes still to come', () => {
  it('BOILERPLATE: "I will circle back with numbers or a pass" decides nothing; "it\'s a pass" still declines', () => {
    expect(read('Got it, Magnolia is in the queue. UW should have eyes on it this afternoon, I will circle back with numbers or a pass.', ask(40_000)).type).toBe('unclassified');
    expect(read("Looked at Magnolia, it's a pass. Too many negs.", ask(40_000)).type).toBe('declined');
  });
});

describe('holdout15 wording: a home-based business beside a pass', () => {
  it('DECLINE: "Pass on Bright Spark. Home-based business ... We need a commercial location." is a decline applied, category other', () => {
    const a = read('Pass on Bright Spark. Home-based business, the address on the app is a residence. We need a commercial location.', ask(30_000));
    expect(a).toMatchObject({ type: 'declined', decline_category: 'other' });
    expect(a.review_reason ?? null).toBeNull();
  });
});

// holdout16's lessons, one test per rule (wording new, not copied from the fixtures)
describe('holdout16 wording: a forwarded underwriting note with a status label and business days', () => {
  it('APPROVAL "Final: APPROVED" and the term unit "BD": the forwarded note is the approval, its offer logged', () => {
    const fwd = 'Dana - see the note below from credit, Pinecrest cleared the way you sent it.\n\nMarco\n\n---------- Forwarded message ---------\nFrom: Credit Desk <credit@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: Pinecrest\nTo: Marco <marco@lender.example>\n\nFinal: APPROVED\nAdvance $42,000 | Factor 1.34 | 110 BD | Daily $511.64\n\n- credit';
    const c = read(fwd, ask(42_000), 'Fwd: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA');
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 42_000, factor_rate: 1.34, term: 110, term_unit: 'days', payment_frequency: 'daily', payment_amount: 511.64 }] });
    expect(c.review_reason ?? null).toBeNull();
    expect(extractOffers('Advance $42,000 / 1.34 / 110 BDs / daily', ask(42_000))).toMatchObject([{ term: 110, term_unit: 'days' }]);
    // the status label alone, no terms: an approval with its funding stips
    expect(read('FINAL: APPROVED\nStips to fund: voided check, bank verification.', ask(42_000)).type).toBe('approved');
  });
});

describe('holdout16 wording: slang and reasons of declines', () => {
  it('DECLINE "no bueno": "11 NSFs this month on Pinecrest, no bueno" is an nsf decline applied', () => {
    const c = read('Pinecrest - 11 NSFs this month alone. No bueno.', ask(30_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    expect(c.review_reason ?? null).toBeNull();
  });

  it('DECLINE_REASONS deal_size: the smallest ticket the funder writes, the deal "below our minimum" (not revenue below it)', () => {
    expect(read("Can't help on Pinecrest. The smallest deal we fund is $40k and this is a 12k ask.", ask(12_000))).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(read('Pinecrest comes in under our minimum, we have to pass. Sorry!', ask(12_000))).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(read('Monthly revenue is below our minimum, we have to pass.', ask(12_000)).decline_category).not.toBe('deal_size');
  });

  it('DECLINE_REASONS default_history: a balance charged off; the owner on the funder\'s do-not-fund list', () => {
    expect(read('Same guarantor left us holding $22k last year, we charged the balance off. We will pass on Pinecrest.', ask(30_000))).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(read('The owner is on our DNF list, so we will not be able to help.', ask(30_000))).toMatchObject({ type: 'declined', decline_category: 'default_history' });
  });
});

describe('holdout16 wording: a leave notice without an Auto-Submitted header', () => {
  it('AUTO_REPLY leave rows: "on medical leave ... not checking email" is an auto-reply, never applied, whatever it names', () => {
    const text = "Thank you for your note. I'm currently on medical leave through January 4 and won't be checking email.\n\nApproved files and funding: funding@lender.example\nNew deals: subs@lender.example";
    const c = read(text, ask(40_000));
    expect(c.type).toBe('unclassified');
    const o = replyOutcome(contractClassification(c), { from: 'rep@lender.example', own: text, autoReply: false });
    expect(o.apply).toBe(false);
  });
});

describe('holdout16 wording: the amount and the buy rate in phone shorthand', () => {
  it('SHORTHAND_AMOUNT.after "is the number" and a rate label that introduces the next rate: "42 is the number. buy 1.30 sell 1.40" is a counter at 1.30', () => {
    const c = read('60 is too much for Pinecrest. 42 is the number. buy 1.30 sell 1.40, 120 days, daily', ask(60_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 42_000, factor_rate: 1.3, term: 120, term_unit: 'days', payment_frequency: 'daily' }] });
    expect(c.review_reason ?? null).toBeNull();
    // a label after its own rate is still its own: "1.30 buy / 1.40 top"
    expect(extractOffers('42k. 1.30 buy / 1.40 top, 120 days', ask(60_000))).toMatchObject([{ factor_rate: 1.3 }]);
  });

  it('SHORTHAND_AMOUNT.before with a comma after the number: "approved at the 60, 1.38, 8 mo, weekly"', () => {
    expect(extractOffers('Pinecrest approved at the 60, 1.38, 8 mo, weekly.', ask(60_000))).toMatchObject([{ amount: 60_000, factor_rate: 1.38, term: 8, term_unit: 'months', payment_frequency: 'weekly' }]);
    // thousands written with a comma stay one amount
    expect(extractOffers('approved at the 60,000 - 1.38, 8 mo, weekly', ask(60_000))).toMatchObject([{ amount: 60_000 }]);
  });
});

describe('holdout16 wording: a portal card of numbered conditions', () => {
  it('NEEDS_INFO "stips outstanding", "an offer once all stips are received"; items from "Stip N | ..." rows', () => {
    const text = 'Funder Portal\nSTIPS OUTSTANDING\n\nMerchant | Pinecrest Veterinary Clinic\nStip 1 | Voided operating check\nStip 2 | Copy of the lease\n\nWe will issue an offer once all stips are received.';
    const c = read(text, ask(30_000));
    expect(c).toMatchObject({ type: 'needs_info', requested_items: ['Voided operating check', 'Copy of the lease'] });
    expect(c.review_reason ?? null).toBeNull();
    // one condition only: the status ("CONDITIONS PENDING") says it is a request
    const one = read('Funder Portal\nCONDITIONS PENDING\n\nCondition 1 | Voided operating check\n\nUnderwriting will decide when all conditions are uploaded.', ask(30_000));
    expect(one).toMatchObject({ type: 'needs_info', requested_items: ['Voided operating check'] });
  });
});

describe('FREQUENCY_SHORTHAND drives the frequency read (money.ts builds FREQ_RE from it)', () => {
  it('every shorthand row is read as its frequency; "bi-wkly" is bi-weekly, not weekly', () => {
    for (const [word, freq] of Object.entries(V.FREQUENCY_SHORTHAND)) {
      expect(extractOffers(`$30,000 / 1.35 / 24 weeks / $900.00 ${word}`, ask(30_000))[0]?.payment_frequency, word).toBe(freq);
    }
    expect(extractOffers('$30,000 / 1.35 / 24 weeks / $1,687.50 bi-wkly', ask(30_000))).toMatchObject([{ payment_frequency: 'bi-weekly', payment_amount: 1687.5 }]);
  });
});

describe('holdout16 neighbours: the ticket floor, bare slang, contracted amounts', () => {
  it('DECLINE and deal_size: "we don\'t write anything under 20k" is a deal_size decline; "under our $25k minimum" too; a term ceiling is not', () => {
    const floor = read("We don't write anything under 20k.", ask(8_000));
    expect(floor).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(floor.review_reason ?? null).toBeNull();
    expect(read('Pinecrest at 8k is under our $20k minimum. Pass.', ask(8_000))).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    // "nothing over 9 months" limits the term, it declines nothing: the offer beside it is applied
    const term = read("We don't do anything over 9 months for vets, so 45k at 1.38 over 9 months, weekly $1,437.69.", ask(45_000));
    expect(term).toMatchObject({ type: 'approved', offers: [{ amount: 45_000, factor_rate: 1.38, term: 9, term_unit: 'months' }] });
    expect(term.review_reason ?? null).toBeNull();
  });

  it('DECLINE bare slang closing the message: "8 NSFs in two weeks. Nah." is an nsf decline', () => {
    expect(read('8 NSFs in two weeks on Pinecrest. Nah.', ask(20_000))).toMatchObject({ type: 'declined', decline_category: 'nsf' });
  });

  it('SHORTHAND_AMOUNT.after contracted ("45\'s my max") and a rate label in the sentence before belongs to that sentence', () => {
    const c = read("45's my max on Pinecrest. 1.41, 8 months, daily.", ask(70_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.41, term: 8, term_unit: 'months', payment_frequency: 'daily' }] });
    expect(c.review_reason ?? null).toBeNull();
  });
});

// holdout17's lessons, one test per rule (wording new, not copied from the fixtures)
describe('holdout17 wording: offers in portal rows, lettered menus and "we\'ll do"', () => {
  it('a count after a payments label, the word left out: "Remittances | 90 daily" is a 90-day term', () => {
    const c = read('Lender Portal\nDecision | Approved\nAdvance | $40,000.00\nFactor | 1.30\nRemittances | 90 daily\nDaily Remit | $577.78', ask(40_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.3, term: 90, term_unit: 'days', payment_frequency: 'daily' }] });
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false }).apply).toBe(true);
    // ... with the word it stays a count as before: "Payments | 18 weekly payments of $2,888.89"
    expect(extractOffers('Advance | $40,000.00\nFactor | 1.30\nPayments | 18 weekly payments of $2,888.89', ask(40_000))).toMatchObject([{ term: 18, term_unit: 'weeks' }]);
  });

  it('"we\'ll do the full $X" names the amount offered, even after a schedule word ("if they can go bi-weekly we\'ll do the full $60,000")', () => {
    const c = read("Can't do daily on a landscaper. If Pinecrest can go bi-weekly we'll do the full $60,000.00: factor 1.36, payback $81,600.00, 20 bi-weekly payments of $4,080.00.", ask(60_000));
    expect(c.offers).toMatchObject([{ amount: 60_000, factor_rate: 1.36, payment_frequency: 'bi-weekly' }]);
  });

  it('statement months are no term: "three of the six months had overdrafts" beside "60k @ 1.42, 130 daily"', () => {
    const offers = extractOffers('We landed at 40, not the 60. Three of the six months had overdrafts.\n\n$40,000.00 / 1.42 / 130 daily payments of $436.92', ask(60_000));
    expect(offers).toMatchObject([{ amount: 40_000, factor_rate: 1.42, term: 130, term_unit: 'days' }]);
    expect(offers[0].conflict).toBeUndefined();
  });

  it('a lettered menu under one amount: every structure takes the amount ("approved for the whole 30k. 1) 1.27 / 100 days 2) 1.33 / 30 weeks")', () => {
    const c = read('Pinecrest is approved for the whole $30,000.\n\n1) 1.27 / 100 business days / $381.00 daily\n2) 1.33 / 30 weeks / $1,330.00 weekly\n\nPick one.', ask(30_000));
    expect(c.type).toBe('approved');
    expect(c.offers).toMatchObject([
      { amount: 30_000, factor_rate: 1.27, term: 100, term_unit: 'days' },
      { amount: 30_000, factor_rate: 1.33, term: 30, term_unit: 'weeks' },
    ]);
    expect(c.review_reason ?? null).toBeNull();
  });

  it('priced terms left with no amount beside an offer that names one: the reply goes to a person, no offer logged short', () => {
    // the first structure is priced before any amount is named: which amount it prices is not sure
    const c = read('Two ways to do Pinecrest: 1.27 over 100 days, or 1.33 over 30 weeks on $30,000.00.', ask(30_000));
    expect(c.review_reason).toBeDefined();
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false }).apply).toBe(false);
  });
});

describe('holdout17 wording: decline reasons by licence, by forwarded note', () => {
  it('restricted_state: the lender\'s own state licence ("until our lending license is approved") and a state "off the table"', () => {
    expect(read("Pinecrest has to be a pass. We can't write Oregon merchants until our commercial lending license is approved.", ask(25_000))).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read("Sorry, New Jersey's off the table for us this quarter. Decline.", ask(25_000))).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    for (const w of V.STATE_RESTRICTED_AFTER) expect(() => new RegExp(w)).not.toThrow();
  });

  it('a decline that names no reason of its own takes the forwarded note\'s (liens and judgments: default_history)', () => {
    const fwd = "Dana - credit's comments are below. Sorry, can't help on this one.\n\nMarco\n\n---------- Forwarded message ---------\nFrom: Credit Desk <credit@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: Pinecrest\nTo: Marco <marco@lender.example>\n\nPass on Pinecrest.\nState tax lien filed in July, unpaid.\nJudgment entered for a prior funder in 2024.\n\n- credit";
    expect(read(fwd, ask(40_000))).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    // a reason of its own wins: "too many NSFs" stays nsf whatever the note says
    expect(read(fwd.replace("Sorry, can't help on this one.", 'Too many NSFs, sorry, pass.'), ask(40_000))).toMatchObject({ type: 'declined', decline_category: 'nsf' });
  });
});

describe('holdout17 wording: a marketing blast and an approval sent by mistake', () => {
  it('MARKETING: a funder\'s newsletter to brokers is no decision, whatever it advertises; a portal decision with such a footer is still read', () => {
    const blast = 'Ridgeback Capital Broker Newsletter\n\nSubmit us your turndowns: we fund what other lenders pass on. Up to $1MM, buy rates from 1.20.\n\nClosed last week: a Florida landscaper approved for $60,000.00 at 1.32, 9 months, $1,624.62 weekly.\n\nYou are receiving this email because you signed up as a Ridgeback partner. Unsubscribe';
    const c = read(blast, undefined, 'Ridgeback Broker Newsletter - December');
    expect(c).toMatchObject({ type: 'unclassified', offers: [] });
    const decision = read('Decision: Approved\nMerchant | Pinecrest Veterinary Clinic\nAdvance | $30,000.00\nFactor | 1.30\nTerm | 6 months\n\nYou are receiving this email because you signed up as a Ridgeback partner. Manage preferences', { requested_amount: 30_000, business_name: 'Pinecrest Veterinary Clinic' });
    expect(decision).toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.3, term: 6 }] });
    for (const row of V.MARKETING) expect(row.w).toBeGreaterThan(0);
  });

  it('WITHDRAWAL: "ignore the offer notice, it went out before credit signed" is an approval taken back (a person confirms)', () => {
    const c = read('Please ignore the offer notice the portal sent on Pinecrest this morning ($30,000 / 1.30); it went out before credit signed off. Credit has since declined the file on the bank verification.', ask(30_000));
    expect(c.review_reason).toBe('approval_withdrawn');
  });
});

describe('holdout18 wording: pasted chat, a hold, swapped letters, a decline that waits on the merchant', () => {
  it('a quoted run opening with a chat header ("Name  9:14 AM") is a pasted conversation read as the sender\'s own words', () => {
    const html =
      '<div>Dana, from our credit room:</div><blockquote><div><b>Omar Haddad</b>&nbsp;&nbsp;<span>9:14 AM</span></div><div>pinecrest vet: we do not fund veterinary practices, pass</div></blockquote>' +
      '<div>On Mon, Nov 2, 2026 at 9:00 AM Dana &lt;dana@summitvalleycap.com&gt; wrote:</div><blockquote><div>Please find attached a new submission for Pinecrest Veterinary Clinic.</div></blockquote>';
    const c = classifyReply({ subject: 'Re: Submission: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA', text: '', html }, ask(40_000));
    expect(c.type).toBe('declined');
    // an ordinary quoted thread is still cut
    expect(classifyReply({ subject: 'Re: Pinecrest', text: 'Thanks Dana.\n\n> We are not able to fund this one, pass.' }, ask(40_000)).type).not.toBe('declined');
  });

  it('TENTATIVE hold rows: a second person stopping posted terms ("hold it, nothing gets funded ... no contracts go out until") sends them to a person', () => {
    const c = read('Counter on Pinecrest: 30k at 1.38, 90 days, 460.00 daily.\n\nRay: hold it. a fresh lien popped on the UCC search, no contracts go out until legal clears it.', ask(40_000));
    expect(c.type).toBe('counter');
    expect(c.review_reason).toBeDefined();
    expect(read('The file is on hold while we verify a new position. Counter 30k at 1.38, 90 days.', ask(40_000)).review_reason).toBeDefined();
  });

  it('a cue word with two letters swapped is still the cue word ("aprpoved", "delcined")', () => {
    expect(read('delcined on pinecrest.').type).toBe('declined');
    expect(read('the file is aprpoved.').type).toBe('approved');
    // a real word two swaps away stays itself
    expect(read('the file is reclined.').type).toBe('unclassified');
  });

  it('SHOWN_LATER: a decline with its reason and a smaller number only once the merchant shows better is a decline a person follows up', () => {
    const c = read('credit declined pinecrest, way too many nsfs in september. once the owner gets october clean we might look at 15 or so, nothing priced.', ask(40_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    expect(c.review_reason).toBeDefined();
    // with no reason given, the same float is still a counter without terms
    expect(read('UW declined it at 40, but my manager would look at 15 if you want. No pricing yet.', ask(40_000)).type).toBe('counter');
  });
});

describe('holdout18 wording: a status with the decision still to come', () => {
  it('PENDING status rows: "still pending credit review ... we will have an answer by Friday" and "nothing outstanding/missing from you" is no decision', () => {
    const c = read('Update on Pinecrest: statements checked, still pending credit review. Nothing missing from you, we will have an answer by Friday.', ask(40_000));
    expect(c.type).toBe('unclassified');
    expect(c.reasons).toContain('acknowledgement, no decision');
    // "nothing missing" is no request at all: no needs_info cue is counted
    expect(read('Pinecrest: nothing missing, the file is complete.', ask(40_000)).reasons.some((r) => r.startsWith('needs_info'))).toBe(false);
    // "missing" said plainly is still a request
    expect(read('The October statement is missing from the package, please resend it.', ask(40_000)).type).toBe('needs_info');
  });
});

describe('holdout18 wording: Spanish payment words after the amount', () => {
  it('FREQUENCY_SHORTHAND Spanish rows: "$408.33 diarios", "$3,100.00 por semana" are the payment, not a second offer', () => {
    const daily = read('Para Pinecrest lo mejor es $35,000.00 a 1.40, 120 días, $408.33 diarios.', ask(50_000));
    expect(daily.offers).toMatchObject([{ amount: 35_000, factor_rate: 1.4, payment_frequency: 'daily', payment_amount: 408.33 }]);
    const weekly = read('Pinecrest: $40,000.00 a 1.35, 24 semanas, $2,250.00 por semana.', ask(50_000));
    expect(weekly.offers).toMatchObject([{ amount: 40_000, factor_rate: 1.35, term: 24, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 2250 }]);
  });
});

describe('holdout18 wording: a final below the prelim, money coming in per month', () => {
  it('TENTATIVE "prelim" only for a prelim given now: "came in under our prelim" before a final offer is no doubt', () => {
    const c = read('Credit came in under our prelim from last week. Final on Pinecrest: $30,000.00 at 1.38, 120 days, $345.00 daily.', ask(45_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.38, term: 120 }] });
    expect(c.review_reason ?? null).toBeNull();
    // a prelim given now still waits for a person
    expect(read('Prelim on Pinecrest: $30,000.00 at 1.38, 120 days, $345.00 daily.', ask(45_000)).review_reason).toBe('tentative_terms');
  });

  it('an amount "a month of deposits" or "a week in transfers" is money coming in, not the payment', () => {
    const c = read('They back out about $12k a month of deposits from a sister company. Counter: $30,000.00 at 1.38, 120 days, $345.00 daily.', ask(45_000));
    expect(c.offers).toMatchObject([{ amount: 30_000, payment_frequency: 'daily', payment_amount: 345 }]);
  });
});

describe('holdout18 wording: the committee a request is for', () => {
  it('TENTATIVE committee row: "before Pinecrest Vet goes to credit committee I need ..." is the process the items are for, not doubt', () => {
    const c = read('Before Pinecrest Vet goes to credit committee I need:\n\n1) A signed 4506-C for the owner\n2) The lease for the clinic', ask(40_000));
    expect(c.type).toBe('needs_info');
    expect(c.review_reason ?? null).toBeNull();
    // an approval that still has to go to committee is still for a person
    expect(read('Pinecrest is approved for the full 40k, 1.30, 6 months. It still has to go to committee.', ask(40_000)).review_reason).toBe('tentative_terms');
  });
});

describe('holdout18 wording: a portal\'s label and value in fixed-width inline blocks', () => {
  it('"<span display:inline-block;width:…>Stip 1</span><span>Voided check</span>" is two cells, so the item is read', () => {
    const row = (k: string, v: string) => `<div><span style="display:inline-block;width:160px">${k}</span><span>${v}</span></div>`;
    const html = `<table><tr><td>Status: Stips Needed</td></tr><tr><td>${row('Deal', 'Pinecrest Veterinary Clinic')}${row('Stip 1', 'Voided business check')}${row('Stip 2', '2024 personal tax return')}</td></tr></table>`;
    const c = classifyReply({ subject: 'Stips needed: Pinecrest Veterinary Clinic', text: '', html }, ask(40_000));
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(expect.arrayContaining(['Voided business check', '2024 personal tax return']));
  });
});

describe('holdout18 wording: a request list going on after a full stop, an item and what it replaces', () => {
  it('"still need the signed lease not the draft. and 6 months not 4, we only have may/jun/jul/aug": the items asked, not what they replace or what is held', () => {
    const c = read('For Pinecrest we still need the signed lease not the draft. and 6 months not 4, we only have may/jun/jul/aug', ask(40_000));
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(['signed lease', '6 months']);
  });
});

describe('holdout19 wording: a state the lender stopped writing, time under the present entity', () => {
  it('a state after a verb of no longer writing it ("halted underwriting Ohio deals", "quit booking Georgia merchants") is restricted_state', () => {
    expect(read('We halted underwriting Ohio deals in October, so no on Pinecrest.')).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read('Sorry, we quit booking Georgia merchants this fall. Not able to help on Pinecrest.')).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });

  it('time counted from the present tax ID or entity ("tax ID only issued in August", "two years under the present LLC") is time_in_business', () => {
    expect(read('Pinecrest is a pass. Their tax ID was only issued in August; the old partnership had the history.')).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read('Declining Pinecrest: we need two years under the present LLC and they have eight months.')).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
  });
});

describe('holdout19 wording: the outcomes listed as what will come', () => {
  it('three outcomes named as a list ("an approval, a counter or a decline") decide nothing', () => {
    expect(read('Got the file. You will hear back with an approval, a counter or a decline by tomorrow.').type).toBe('unclassified');
    expect(read("Thanks, Pinecrest is in our queue. Approvals, counteroffers and declines all come from your rep; please don't resubmit it.").type).toBe('unclassified');
    // a decision beside the list still reads
    expect(read('Declined - too many NSFs. Approvals, counters and declines all come from this desk.')).toMatchObject({ type: 'declined', decline_category: 'nsf' });
  });
});

describe('holdout19 wording: the term excepted from the full amount', () => {
  it('"the full amount, just not over <term>" names the asked term, refused: the offer on another term is a counter', () => {
    expect(read('We can fund all 50 for Pinecrest, only not on 9 months. The most we do for vets is 20 weeks. 1.32 factor, 20 weekly payments of $3,300.', ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.32, term: 20, term_unit: 'weeks' }] });
    expect(read('Sure, the full $50,000 works, just not over a 10 month term. Our cap is 24 weeks: factor 1.28, 24 weekly payments of $2,666.67.', ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.28, term: 24, term_unit: 'weeks' }] });
  });
});

describe('holdout19 wording: the lender\'s own place in the stack, then its amount', () => {
  it('"come in as a third position at $20,000", "fund in 2nd position for $25,000" is the amount offered, not an existing balance', () => {
    expect(read("Rapid stays in, and we aren't doing all 50 behind them. Best we can offer is to come in as a third position at $20,000.\n\nFactor 1.42, payback $28,400, 90 business days at $315.56 a day.", ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 20_000, factor_rate: 1.42, term: 90, term_unit: 'days', payment_amount: 315.56 }] });
    expect(read("Pinecrest: we'd fund in 2nd position for $25,000. Pricing is 1.48 with a $37,000 payback over 24 weekly payments of $1,541.67.", ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 25_000, factor_rate: 1.48, term: 24, term_unit: 'weeks' }] });
    // an existing advance's position and balance is still no offer
    expect(read('They have a 2nd position at $30,000 with Rapid. Approved for the full 50 at 1.35 over 6 months, daily.', ask(50_000)))
      .toMatchObject({ type: 'approved', offers: [{ amount: 50_000 }] });
  });
});

describe('holdout19 wording: an amount approved "up to"', () => {
  it('"approved up to 30k", "qualifies for up to $35,000" is the amount read (the offer kept for the person who decides)', () => {
    expect(read("Pinecrest qualifies for up to $35,000 rather than the 50, at 1.39 over 5 months, daily. Let me know which term works and I'll finalize.", ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 35_000, factor_rate: 1.39, term: 5, term_unit: 'months', payment_frequency: 'daily' }] });
    expect(read('Pinecrest is approved up to 30k (not 50) at a 1.45 factor, 6 months, weekly.', ask(50_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.45, term: 6 }] });
  });
});

describe('holdout20 wording: a portal\'s installment rows', () => {
  it('"Installment" / "Installments" rows in a side-by-side table are each option\'s payment and count of payments (its term)', () => {
    const grid = 'COUNTER OFFER\n\n| Option 1 | Option 2\nAdvance | $50,000.00 | $35,000.00\nFactor | 1.38 | 1.30\nSchedule | Daily | Weekly\nInstallment | $575.00 | $1,516.67\nInstallments | 120 | 30';
    expect(read(grid, ask(70_000))).toMatchObject({
      type: 'counter',
      offers: [
        { amount: 50_000, factor_rate: 1.38, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 575 },
        { amount: 35_000, factor_rate: 1.3, term: 30, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1516.67 },
      ],
    });
  });

  it('a label naming the payments counted, alone on its line with a bare count ("Debits: 26"), is the term on the offer\'s schedule', () => {
    const c = read('Status: APPROVED\n\nAdvance: $30,000.00\nFactor: 1.43\nFrequency: Weekly\nDebit: $1,650.00\nDebits: 26', ask(30_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.43, term: 26, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1650 }] });
    expect(c.review_reason ?? null).toBeNull();
  });
});

describe('holdout20 wording: a number written out with its figure in brackets', () => {
  it('"twelve (12) months", "eight (8) months": one number, so the term is read', () => {
    expect(wordsToDigits('over a term of eight (8) months')).toBe('over a term of 8 months');
    // a figure that is not the words' own stays as written
    expect(wordsToDigits('eight (9) months')).toBe('eight (9) months');
    expect(read('We are pleased to confirm Pinecrest is approved for sixty thousand dollars ($60,000.00) at a factor rate of 1.33, over a term of twelve (12) months, weekly ACH.', ask(60_000)))
      .toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.33, term: 12, term_unit: 'months', payment_frequency: 'weekly' }] });
  });
});

describe('holdout20 wording: options named by a term, their lengths given after the colon', () => {
  it('"9 month: 1.34 factor, 180 business days ..." names the option; the days or payments after it are its term', () => {
    const c = read('Pinecrest is approved for all 50. Two structures, merchant chooses:\n\n9 month: 1.34 factor, 180 business days at $372.22/day\n12 month: 1.45 factor, 52 weekly payments of $1,394.23', ask(50_000));
    expect(c).toMatchObject({
      type: 'approved',
      offers: [
        { amount: 50_000, factor_rate: 1.34, term: 180, term_unit: 'days', payment_frequency: 'daily', payment_amount: 372.22 },
        { amount: 50_000, factor_rate: 1.45, term: 52, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1394.23 },
      ],
    });
    expect(c.review_reason ?? null).toBeNull();
    // options named by their terms alone still read those terms
    expect(extractOffers('4 mo: 40k @ 1.25 / 6 mo: 40k @ 1.33', ask(40_000))).toMatchObject([{ amount: 40_000, term: 4, term_unit: 'months' }, { amount: 40_000, term: 6, term_unit: 'months' }]);
  });
});

describe('holdout20 wording: the asked term or schedule refused in the trade\'s words', () => {
  it('"9 months is a no-go", "a 10 month term is off the table" refuses the asked term: the full amount on a shorter one is a counter', () => {
    expect(read('Pinecrest - all 40k works but 9 months is a no-go for a vet clinic. best i can do is 5 mo at 1.30, daily.', ask(40_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.3, term: 5, term_unit: 'months', payment_frequency: 'daily' }] });
    expect(read('The full $40,000 is fine; a 10 month term is off the table in this industry. 1.28 over 6 months, weekly.', ask(40_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 40_000, term: 6, term_unit: 'months' }] });
  });

  it('a schedule the lender has no product for ("we don\'t carry a monthly program") is refused: the offer on another schedule is a counter, its own schedule logged', () => {
    expect(read("We don't carry a weekly product. For Pinecrest I can offer $40,000 at 1.35 on daily debits, 120 payments of $450.00.", ask(40_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.35, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 450 }] });
    // forwarded by the rep, who says little himself: the underwriter's note is the answer
    const fwd = "Dana, money is fine, just not monthly. see if the owner takes daily.\n\nMarco\n\n---------- Forwarded message ---------\nFrom: Credit Desk <credit@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: Pinecrest\nTo: Marco <marco@lender.example>\n\nWe don't run a monthly payment program. Pinecrest can have $45,000 at 1.32 on daily debits: 110 payments of $540.00.";
    expect(read(fwd, ask(45_000), 'Fwd: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA'))
      .toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.32, term: 110, term_unit: 'days', payment_frequency: 'daily', payment_amount: 540 }] });
  });
});

describe('holdout20 wording: an approval taken back by the business\'s name', () => {
  it('"please ignore the Blue Ridge Auto Body offer" (a name of four words) is an approval withdrawn, for a person', () => {
    expect(read('Please ignore the Blue Ridge Auto Body offer from this morning. Verification turned up a new daily debit from another funder, so it is declined for now.'))
      .toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
  });
});

describe('holdout20 wording: a funder\'s footer, a rep relaying a request', () => {
  it('"all offers are subject to ... and can be withdrawn before funding" decides nothing; the forwarded request is read', () => {
    const fwd = 'Dana, FYI from Priya.\n\nAll offers are subject to final review and can be withdrawn before funding.\n\n---------- Forwarded message ---------\nFrom: Priya Rao <priya@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: Pinecrest\nTo: Marco <marco@lender.example>\n\nBefore I price Pinecrest I need the October bank statement.';
    expect(read(fwd, ask(40_000), 'Fwd: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA')).toMatchObject({ type: 'needs_info', requested_items: [expect.stringMatching(/October bank statement/)] });
  });

  it('"one thing credit needs on this file, see below" reads the forwarded message for the item', () => {
    const fwd = 'Dana, one thing credit needs on Pinecrest, see below.\n\nMarco\n\n---------- Forwarded message ---------\nFrom: Credit Desk <credit@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: Pinecrest\nTo: Marco <marco@lender.example>\n\nKapitus is still pulling through last week. I need a paid-in-full letter from Kapitus before I go any further.';
    expect(read(fwd, ask(40_000), 'Fwd: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA')).toMatchObject({ type: 'needs_info', requested_items: [expect.stringMatching(/paid-in-full letter from Kapitus/)] });
  });
});

describe('holdout20 wording: one paragraph answering this file and, in a sentence, another', () => {
  it('"Pinecrest ok at 40k ... and the Harbor Grill one you sent Friday is a pass": this deal\'s terms, the other file\'s pass not read, for a person', () => {
    const c = read('Pinecrest ok at 40k 1.33, 120 days, 443.33 daily. and the Harbor Grill one you sent friday is a pass, too many negs.', { requested_amount: 40_000, business_name: 'Pinecrest Veterinary Clinic' });
    expect(c).toMatchObject({ type: 'approved', review_reason: 'multiple_deals', offers: [{ amount: 40_000, factor_rate: 1.33, term: 120, term_unit: 'days' }] });
  });
});

describe('holdout21 wording: a count of payments in the shorthand', () => {
  it('"130 dly @ 385" and "36 wkly 1,450/wk" are the term on that schedule, the figure after it each payment', () => {
    expect(read('Pinecrest ok, 35k, 1.43, 130 dly @ 385. send the app', ask(35_000)))
      .toMatchObject({ type: 'approved', offers: [{ amount: 35_000, factor_rate: 1.43, term: 130, term_unit: 'days', payment_frequency: 'daily', payment_amount: 385 }] });
    expect(extractOffers('can do 52k 1.39 36 wkly 2,008.11/wk', ask(60_000)))
      .toMatchObject([{ amount: 52_000, factor_rate: 1.39, term: 36, term_unit: 'weeks', payment_frequency: 'weekly' }]);
  });

  it('"75 dly 532.00" (a bare payment with cents after the count) is the term and its payment', () => {
    expect(extractOffers('Pinecrest fine at 30k 1.33, 75 dly 532.00', ask(30_000)))
      .toMatchObject([{ amount: 30_000, factor_rate: 1.33, term: 75, term_unit: 'days', payment_frequency: 'daily', payment_amount: 532 }]);
  });

  it('"the whole 40" is the amount in thousands: the full amount on another term than asked is a counter with its offer', () => {
    expect(read('Pinecrest: we can do the whole 40 but on a 6 month term, not 12. 1.30 factor, daily.', ask(40_000)))
      .toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.3, term: 6, term_unit: 'months' }] });
  });
});

describe('holdout21 wording: options under one approved amount, each line its term, rate and schedule', () => {
  it('"4 mo - 1.24 - daily / 7 mo - 1.33 - daily / 10 mo - 1.41 - weekly" is three offers at the approved amount', () => {
    const c = read('Pinecrest is approved at the requested $45,000, pick one:\n\n4 mo - 1.24 - daily\n7 mo - 1.33 - daily\n10 mo - 1.41 - weekly', ask(45_000));
    expect(c).toMatchObject({
      type: 'approved',
      offers: [
        { amount: 45_000, factor_rate: 1.24, term: 4, term_unit: 'months', payment_frequency: 'daily' },
        { amount: 45_000, factor_rate: 1.33, term: 7, term_unit: 'months', payment_frequency: 'daily' },
        { amount: 45_000, factor_rate: 1.41, term: 10, term_unit: 'months', payment_frequency: 'weekly' },
      ],
    });
    expect(c.review_reason ?? null).toBeNull();
  });
});

describe('holdout21 wording: the place in line by its ordinal', () => {
  it('"that puts us 4th, we only fund through second" is stacking', () => {
    expect(V.DECLINE_REASONS.some((r) => r.category === 'stacking' && r.phrases.some((p) => new RegExp(`\\b(?:${p})\\b`).test('we stop at 2nd')))).toBe(true);
    expect(read('Yellowstone and Mantis are both on Pinecrest, we would sit in third. Have to pass on this one.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Pinecrest: Rapid and Libertas on the account already, that puts us 4th and we only fund through second. have to pass on this one.'))
      .toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });
});

describe('holdout21 wording: a committee refused is a no, not a wait', () => {
  it('"this file won\'t go before committee" (a prohibited sector) is a decline applied, not tentative', () => {
    const c = read('Sorry Dana, pawn shops are a prohibited industry for us, so Pinecrest will not go before committee.');
    expect(c).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(c.review_reason ?? null).toBeNull();
    // a committee still to come stays tentative
    expect(read('Pinecrest looks good at 40k, 1.35, 6 months, but it has to go to committee Thursday.', ask(40_000)).review_reason).toBe('tentative_terms');
  });
});

describe('holdout21 wording: a no with its reason, the request only the way back', () => {
  it('"unable to proceed ... a judgment on the docket; get it satisfied and we can revisit" is a decline, not a tie with needs_info', () => {
    const c = read('Unfortunately we are unable to proceed with Pinecrest. Background search shows an open judgment from a prior funder. We would need a satisfaction of judgment before we can reconsider; send it over if they get one.');
    expect(c).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(c.review_reason ?? null).toBeNull();
    // the request heavier than the no in cue weight: still a decline now, the items its way back
    const d = read("Sorry, we can't move forward on Pinecrest: a state tax lien and an open judgment came up. We need both cleared before we can review it again. Once you have the releases, please send them over and we'll take another look.");
    expect(d).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(d.review_reason ?? null).toBeNull();
  });
});

describe('holdout21 wording: the asked term excepted with "but not", numbers in words', () => {
  it('"the full sixty, but not over eighteen months ... twelve months" is a counter on the term', () => {
    const c = read('We can do the full sixty thousand for Pinecrest, but not over eighteen months. Sixty thousand at 1.33 over twelve months, weekly.', ask(60_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 60_000, factor_rate: 1.33, term: 12, term_unit: 'months' }] });
    expect(c.review_reason ?? null).toBeNull();
  });
});

describe('holdout21 wording: a schedule refused in few words, or kept for other files; a program threshold', () => {
  it('"amount\'s fine, the weekly isn\'t" makes the full amount on daily debits a counter', () => {
    const c = read("Amount's fine on Pinecrest, the weekly isn't. $40,000 at 1.36, 120 daily debits of $453.33.", ask(40_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.36, term: 120, term_unit: 'days', payment_frequency: 'daily' }] });
    expect(c.review_reason ?? null).toBeNull();
  });

  it('"weekly remits are only available on renewals", nothing refused: the offer on daily debits goes to a person, never applied as an approval', () => {
    const c = read('Weekly remits are only available on renewals. For Pinecrest: $40,000 at 1.36, 120 daily debits of $453.33.', ask(40_000));
    expect(c).toMatchObject({ type: 'counter', review_reason: 'conflicting_cues', offers: [{ amount: 40_000, factor_rate: 1.36, term: 120, term_unit: 'days', payment_frequency: 'daily' }] });
    // ... as does an approval of the full ask on one schedule beside another kept for other files
    expect(read('Approved for the full 50k, 1.38, 9 months weekly. Daily is only available on shorter terms.', ask(50_000)).review_reason).toBe('conflicting_cues');
    // refused outright, it is a counter applied
    expect(read("Weekly isn't. For Pinecrest: $40,000 at 1.36, 120 daily debits of $453.33.", ask(40_000)).review_reason ?? null).toBeNull();
  });

  it('"bi-weekly is only offered on deals above $75k" is not the offer\'s schedule; "deals above $75k" is a threshold, not the amount', () => {
    const c = read("We can do the full $40,000 on Pinecrest but not bi-weekly; bi-weekly is only offered on deals above $75k. Terms: 1.36, 120 business days, daily debits of $453.33.", ask(40_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.36, term: 120, term_unit: 'days', payment_frequency: 'daily' }] });
    expect(c.offers).toHaveLength(1);
    expect(c.review_reason ?? null).toBeNull();
  });

  it('approved as submitted in words wins over "we don\'t have a monthly program" (a remark about the program)', () => {
    const c = read("Pinecrest approved as requested: $40,000, 1.32, 9 months, daily ACH. FYI we don't have a monthly program anymore.", ask(40_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.32, term: 9, term_unit: 'months' }] });
    // without the approval as submitted the same remark still makes another schedule a counter
    expect(read("We don't have a monthly program. Pinecrest can have $40,000, 1.32, 9 months, daily ACH.", ask(40_000))).toMatchObject({ type: 'counter' });
  });
});

describe('holdout21 wording: the answer promised for later', () => {
  it('"Marcus is off until Monday, expect a decision from him then" is an acknowledgement, no decision (the model is not asked to fill it)', () => {
    const c = read('Got Pinecrest, thanks. Marcus is off until Monday, expect a decision from him then. We also just started doing 2nd positions, so send more.');
    expect(c.type).toBe('unclassified');
    expect(c.reasons).toContain('acknowledgement, no decision');
  });
});

describe('holdout22 wording: a payment times its count, the payback as a product, in Spanish, or "to be remitted"', () => {
  it('"Weekly debit: $1,519.00 x 40" is 40 weekly payments of $1,519', () => {
    expect(extractOffers('Pinecrest is a go.\nAdvance: $45,000\nFactor: 1.35\nWeekly debit: $1,519.00 x 40', ask(45_000)))
      .toMatchObject([{ amount: 45_000, factor_rate: 1.35, term: 40, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1_519 }]);
  });

  it('"$80,000 x 1.42 = $113,600" is the amount and its payback, "32 x 1.38" the amount in thousands', () => {
    expect(extractOffers('Pinecrest ok: $80,000 x 1.42 = $113,600, 36 weekly payments', ask(80_000)))
      .toMatchObject([{ amount: 80_000, factor_rate: 1.42, term: 36, term_unit: 'weeks' }]);
    expect(extractOffers('pinecrest good. 32 x 1.38 = 44,160 over 120 business days', ask(32_000)))
      .toMatchObject([{ amount: 32_000, factor_rate: 1.38, term: 120, term_unit: 'days' }]);
  });

  it('"total a devolver" is the payback; "$52,500.00 to be remitted" too', () => {
    expect(extractOffers('Aprobado por $20,000. Factor 1.30, total a devolver $26,000, 20 semanas, pago semanal de $1,300.', ask(20_000)))
      .toMatchObject([{ amount: 20_000, factor_rate: 1.3, term: 20, term_unit: 'weeks' }]);
    expect(extractOffers('We will purchase $37,500.00 of receivables at a 1.40 factor, $52,500.00 to be remitted over 150 business days.', ask(37_500)))
      .toMatchObject([{ amount: 37_500, factor_rate: 1.4, term: 150, term_unit: 'days' }]);
  });
});

describe('holdout22 wording: numbers written as a contract writes them', () => {
  it('"one hundred twenty (120) business days" is 120 days, beside an amount with its words in brackets', () => {
    expect(wordsToDigits('over one hundred twenty (120) business days')).toBe('over 120 business days');
    expect(wordsToDigits('two hundred and ten (210) payments')).toBe('210 payments');
    expect(wordsToDigits('one hundred (150) days')).toBe('one hundred (150) days');
    expect(read('Approved. We can fund $30,000.00 (thirty thousand dollars) at a 1.36 factor over one hundred twenty (120) business days.', ask(30_000)))
      .toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.36, term: 120, term_unit: 'days' }] });
  });
});

describe('holdout22 wording: an approval whose conditions are listed is an approval', () => {
  it('"funding is subject to", "approved - conditions pending", "contracts go out": each makes the listed items conditions of the approval', () => {
    const terms = 'Amount $60,000 | Factor 1.33 | Term 40 weeks | Weekly $1,995.00';
    const items = '\n- Bank verification call\n- Copy of lease\n- Voided check\n- Landlord contact';
    for (const text of [
      `Pinecrest is approved.\n${terms}\nFunding is subject to these outstanding items:${items}`,
      `Pinecrest status: APPROVED - CONDITIONS PENDING\n${terms}\nOutstanding items:${items}`,
      `Pinecrest is approved.\n${terms}\nOutstanding items:${items}\nOnce those clear, contracts get sent.`,
    ]) {
      const c = read(text, ask(60_000));
      expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.33, term: 40, term_unit: 'weeks' }] });
      expect(c.review_reason ?? null).toBeNull();
    }
  });

  it('"and ill push contracts" (a phone\'s spelling) marks the items as closing stips', () => {
    const c = read('pinecrest is good. 30k at 1.36, 120 dly @ 340. pls send a voided chk + dl and ill push contracts today', ask(30_000));
    expect(c.type).toBe('approved');
    expect(c.reasons.some((r) => r.includes('closing stips beside priced terms'))).toBe(true);
  });
});

describe('holdout22 wording: the term asked refused in the trade\'s words, the only no in the reply', () => {
  it('"18 mo is a hard no from credit" then an offer on 10 months is a counter applied', () => {
    const c = read('Pinecrest: 18 mo is a hard no from credit. 10 mo is where we land, can do 50k at 1.34 over 10 months.', ask(50_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.34, term: 10, term_unit: 'months' }] });
    expect(c.review_reason ?? null).toBeNull();
  });

  it('"4 months makes the weekly debit too heavy" is the asked term refused: the offer on 8 months is a counter', () => {
    const c = read('Full 45k is fine for Pinecrest. 4 months makes the weekly debit too heavy for them, so we need 8 months: 1.37 factor.', ask(45_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.37, term: 8, term_unit: 'months' }] });
  });

  it('a no about the deal itself beside another term is not made confident', () => {
    const c = read('Pinecrest is a no for us on 12 months and the revenue is too light anyway. Maybe 20k at 1.45 over 6 months.', ask(50_000));
    expect(c.reasons).not.toContain('the only refusal is of the term asked: a counter on another term');
  });
});

describe('holdout22 wording: pricing seen but no offer made of it goes to a person', () => {
  const outcome = (text: string, ctx?: ReplyContext, subject?: string) => replyOutcome(contractClassification(read(text, ctx, subject)), { from: 'x@lender.example', own: text, autoReply: false });

  it('an approval stating a payback, or a payment schedule, but no offer read is incomplete_offer, never applied', () => {
    expect(outcome('Approved. The RTR on Pinecrest comes to $69,000, remitted every business day.', ask(50_000))).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
    expect(outcome('Approved at 1.31, send the contract back signed.', ask(50_000))).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
    // ... and in the message a rep relays
    const relayed = 'Pinecrest is approved, send me the stips.\n\n---------- Forwarded message ---------\nFrom: Credit <credit@lender.example>\nSubject: Pinecrest\n\nOK to approve. Purchased amount will be $69,000.';
    expect(outcome(relayed, ask(50_000), 'Fwd: Pinecrest')).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
  });

  it('an approval as submitted naming no figure is applied', () => {
    expect(outcome('Approved as submitted. Send stips.', ask(50_000))).toMatchObject({ apply: true });
  });
});

describe('holdout22 wording: approved as submitted, yet refusing the schedule the deal asks', () => {
  it('"we do not run a weekly program" on a deal asking weekly goes to a person; on one asking daily it is a remark', () => {
    const text = 'Good news, Pinecrest approved as submitted. FYI we do not run a weekly program here. Send the signed contract.';
    expect(read(text, { requested_amount: 50_000, requested_frequency: 'weekly' }).review_reason).toBe('conflicting_cues');
    const daily = read(text, { requested_amount: 50_000, requested_frequency: 'daily' });
    expect(daily.type).toBe('approved');
    expect(daily.review_reason ?? null).toBeNull();
  });
});

describe('holdout22 wording: a bankruptcy by its chapter, an IRS form asked signed', () => {
  it('"a Ch. 13 still open" and "seasoning since the bankruptcy" are default history', () => {
    expect(read('Pinecrest: owner has a Ch. 13 still open. Have to decline.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(read('Sorry, we require 24 months of seasoning since the bankruptcy and the owner is at 8. Declined.')).toMatchObject({ type: 'declined', decline_category: 'default_history' });
  });

  it('"have the owner sign a 4506-C" is a request for that form', () => {
    const c = read('Pinecrest is with underwriting; please have the owner sign the 4506-C so we can pull transcripts. No decision without it.');
    expect(c.type).toBe('needs_info');
    expect(c.requested_items.some((i) => /4506/i.test(i))).toBe(true);
  });
});

describe('holdout23 wording', () => {
  const pine: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };

  it('a number after the broker\'s points in the same clause counts points, not thousands: the buy rate is the factor', () => {
    expect(extractOffers('Pinecrest approved for 60k. Buy rate 1.27, sell up to 1.37; you may add points, topping out at 10.\n40 weeks, weekly pulls.', pine))
      .toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.27, term: 40, term_unit: 'weeks', payment_frequency: 'weekly' })]);
    // a new sentence after the points is read as before: "9 pts. Can do 45" is $45,000
    expect(extractOffers('Max 9 pts. We can do 45 at 1.33, 30 weeks weekly.', pine)).toMatchObject([{ amount: 45_000, factor_rate: 1.33 }]);
  });

  it('"can approve 45" names the amount like "approved for 45"; a decline of the ask beside it makes a counter', () => {
    const c = read('the 60 on pinecrest wont work for us, cash flow is too thin. can approve 45 though: 1.40, 63,000 payback, 30 wks at 2,100 a week', pine);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.4, term: 30, term_unit: 'weeks', payment_amount: 2_100 }] });
  });

  it('outcomes listed as what may come ("approved, declined or pending info") decide nothing', () => {
    const c = read('Thanks for sending Pinecrest. Status updates (approved, declined or pending info) go out by email.\nRequested: $60,000.00', pine);
    expect(c.type).toBe('unclassified');
  });

  it('a banner over its next line names no business: "APPROVED - REVISED STRUCTURE" above "This deal is approved"', () => {
    const c = read('Status: APPROVED - REVISED STRUCTURE\nThis deal is approved at $60,000.00, factor 1.32, 120 daily payments of $660.00.', pine);
    expect(c.reasons.some((r) => r.includes('naming another business'))).toBe(false);
    expect(c.review_reason ?? null).not.toBe('multiple_deals');
  });

  it('a schedule refused with who asked for it in between is another schedule: "the bi-weekly debit the owner requested is not possible"', () => {
    const c = read('Pinecrest approved for the full $60,000 on weekly debits. The bi-weekly debit the owner requested is not possible on this profile.\nFactor 1.34, 40 weekly payments of $2,010.00.', pine);
    expect(c.type).toBe('counter');
    expect(c.reasons.some((r) => r.includes('another structure'))).toBe(true);
  });

  it('"a pass" only on a condition ("if the owner wants a buyout it is a pass") does not weigh as a decline', () => {
    const c = read('We can fund $60,000 in 3rd position: 1.39 / $83,400 back / 40 weeks / $2,085 weekly. If the owner wants a buyout instead, that is a pass.', pine);
    expect(c.reasons.some((r) => r.includes('"a pass" (conditional)'))).toBe(true);
    expect(c.review_reason ?? null).not.toBe('conflicting_cues');
  });

  it('a letter of explanation is an item even with the amount it explains; "so I can" ends the request', () => {
    const c = read('Need an LOE for the $22,500 wire from the Chase account on 10/2 and a copy of the lease so I can finish underwriting.', pine);
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(expect.arrayContaining([expect.stringMatching(/LOE for the \$22,500 wire/), expect.stringMatching(/copy of the lease$/)]));
  });
});

describe('holdout24 wording', () => {
  const pine: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });

  it('an approval whose terms change on what a document still to come shows goes to a person (tentative_terms)', () => {
    // a fallback amount on a condition, either order
    const fallback = read('Pinecrest is approved for the full $60,000, 1.34, 40 weekly payments of $2,010. If the November statement shows more than four negative days, the amount goes down to $45,000.', pine);
    expect(fallback).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(read('Approved at 60k: 1.34 / 40 wks / $2,010 weekly. We would cut it to 40k if the MTD shows another NSF.', pine).review_reason).toBe('tentative_terms');
    // the price to be redone
    expect(read('Approved at the full 60, factor 1.34, 9 months, daily payments. Pricing may change once we see the October deposits.', pine).review_reason).toBe('tentative_terms');
    expect(outcome('Pinecrest approved, $60,000 at 1.34 over 40 weeks, $2,010 weekly. Should the bank verification come back short, we drop to 40 and re-price.', pine)).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
    // an option the merchant may choose is no condition on a document: applied
    const option = read('Approved for the full $60,000 at 1.34 over 40 weeks, $2,010 weekly. If the merchant wants a lower payment we can go to 52 weeks.', pine);
    expect(option.review_reason ?? null).not.toBe('tentative_terms');
  });

  it('"passed at" an amount is a decline at it: the amount is refused, a priced smaller one beside it is a counter', () => {
    const c = read('UW passed on it at $120,000. If the merchant can live with $75,000 we can do it at 1.39, 30 weekly payments of $3,475.00.', { requested_amount: 120_000 });
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 75_000, factor_rate: 1.39, term: 30, term_unit: 'weeks', payment_amount: 3_475 }] });
    expect(c.review_reason ?? null).toBeNull();
    expect(read('Committee passed at $80k. Two open positions.', { requested_amount: 80_000 }).type).toBe('declined');
    // "passed committee at" is an approval, never a pass
    expect(read('Pinecrest passed committee at 60k: 1.34, 40 weekly payments of $2,010.', pine)).toMatchObject({ type: 'approved', offers: [{ amount: 60_000 }] });
  });

  it('a range of bare amounts beside "can\'t give you a number until we get ..." is a request a person looks at', () => {
    const c = read("Pinecrest should come in around the 45 to 55 area, but I can't give you a number until we get the October statement and a copy of the lease. Send those and I'll price it today.", pine);
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    expect(c.requested_items).toEqual(expect.arrayContaining([expect.stringMatching(/October statement/), expect.stringMatching(/copy of the lease/)]));
    // what the lender cannot price until it sees is asked for, even with one item
    expect(read("Can't price it until we get the September bank statement.", pine)).toMatchObject({ type: 'needs_info', requested_items: [expect.stringMatching(/September bank statement/)] });
    // a score in a range is no floated amount
    const score = read('FICO is in the 560-580 range and our floor is 600. Declined.', pine);
    expect(score.type).toBe('declined');
    expect(score.review_reason ?? null).toBeNull();
  });

  it('"approved, countered, or declined" listed as what may come decides nothing', () => {
    expect(read("Pinecrest is with an underwriter now. You'll be emailed as soon as it's approved, countered, or declined.\nRequested: $60,000.00", pine).type).toBe('unclassified');
  });

  it('a request beside a figure held till the items come in ("soft-holding at ~45 / 1.38") goes to a person', () => {
    const c = read('Soft-holding Pinecrest at ~45 / 1.38 till I see the October statement and a payoff letter for the Forward position.', pine);
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // a hold of the lender's process beside a request, no figure: the request is applied as it is
    const process = read('Before our morning scrub I need the October statement and a voided check.', pine);
    expect(process.type).toBe('needs_info');
    expect(process.review_reason ?? null).toBeNull();
  });
});

describe('holdout25 wording', () => {
  const pine: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };

  it('the lender\'s record with other merchants decides nothing on this deal; the file still to go before underwriting is pending', () => {
    expect(read('Vet clinics do well with us, we have funded dozens of practices like this. Let me run it by credit in the morning.', pine).type).toBe('unclassified');
    expect(read('Nice space, we approved 4 clinics last quarter.', pine).type).toBe('unclassified');
    // the file still to be put before the one who decides: an approval beside it is not final
    expect(read("Vets are our bread and butter, we approved plenty. Going to walk it over to the underwriter after lunch.", pine).review_reason).toBe('tentative_terms');
    // what the file waits for before it goes up is a request, no terms held
    expect(read("Need the September statement and a voided check. As soon as I have those I'll put it in front of credit.", pine).review_reason ?? null).toBeNull();
    // an approval of this deal stays one
    expect(read('Pinecrest is approved at 60k, 1.34 over 9 months, daily. We approved two clinics like this last month.', pine).type).toBe('approved');
  });

  it('a range of amounts from one end to the other beside a request is tentative terms a person looks at', () => {
    const c = read('To size Pinecrest I need the equipment lease and a current AR aging. Probably ends up anywhere from $30k up to the full 60 depending on what those show.', pine);
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // a term range is no floated amount
    expect(read('Please send the October statement.', pine).review_reason ?? null).toBeNull();
  });

  it('a state refused in shorthand is a restricted-state decline', () => {
    expect(read('No CT. Sorry Dana, clean file.', pine)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read("Appreciate it but we won't touch Connecticut anymore.", pine)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read('Connecticut is off our approved states list as of this month.', pine)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    // a state named beside a decision on other grounds decides nothing by itself
    expect(read('No CT positions showing. Approved at 60k, 1.34, 9 months, daily.', pine).type).toBe('approved');
  });

  it('a grid with a funding amount and a larger purchase price: the price is the payback', () => {
    const c = read('Status: Approved\nFunded amount: $50,000.00\nPurchase price: $67,500.00\nRemittance: 9% of receipts\nEstimated term: 7 months', pine);
    expect(c.offers).toEqual([expect.objectContaining({ amount: 50_000, factor_rate: 1.35, term: 7, term_unit: 'months' })]);
    // a purchase price alone is what is funded
    expect(read('Approved. Purchase price: $50,000.00, factor 1.35, 7 months, daily.', pine).offers).toEqual([expect.objectContaining({ amount: 50_000, factor_rate: 1.35 })]);
  });

  it('the ask granted with its figure ("for the requested $60,000") is the amount funded', () => {
    const c = read('We are able to fund Pinecrest at the requested $60,000.\nTotal payback: $81,000.00\n26 bi-weekly payments of $3,115.38', pine);
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.35, payment_frequency: 'bi-weekly', payment_amount: 3_115.38 }] });
    // refused before it, the figure stays the ask
    expect(read("We can't do it for the requested $60,000. Best is $40,000 at 1.38, 6 months, daily.", pine).offers).toEqual([expect.objectContaining({ amount: 40_000 })]);
  });

  it('shorthand counter: "X not Y" refuses the term Y; a bare figure after its schedule is the payment', () => {
    const c = read('pinecrest - full 60 ok but 26 wks not 9 mo. 1.35, wkly 3115. thx', pine);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 60_000, factor_rate: 1.35, term: 26, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 3_115 }] });
    expect(c.offers[0].conflict).toBeUndefined();
  });

  it('another product in place of the advance ("qualifies for our line of credit instead") is a counter at its limit', () => {
    const c = read("We're not going to fund a $60,000 advance here, but Pinecrest qualifies for a business line of credit.\nCredit limit: $40,000\nDraws repaid over 20 weeks, weekly\nFactor 1.18 per draw", pine);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.18, term: 20, term_unit: 'weeks' }] });
    // at the full amount, the other product alone makes it a counter
    expect(read('Pinecrest qualifies for our revolving line of credit.\nCredit limit: $60,000\nDraws repaid over 20 weeks, weekly\nFactor 1.18 per draw', pine).type).toBe('counter');
  });

  it('a renewal of the lender\'s own position offered in place of a new one is a counter', () => {
    const c = read("Pinecrest already has an advance with us and we won't stack ourselves. We could offer a renewal: $75,000, factor 1.35, 36 weekly payments of $2,812.50.", pine);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 75_000, factor_rate: 1.35 }] });
  });
});

describe('holdout26 wording', () => {
  const oak: ReplyContext = { requested_amount: 80_000, business_name: 'Oakridge Auto Glass' };

  it('an approval that falls if a condition fails goes to a person; routine closing stips stay applied', () => {
    // the approval stands only while a document still to come shows a figure
    expect(read('Oakridge is approved for the full $80,000 at 1.32 over 9 months, daily. Only if the UCC search comes back clear of other liens.', oak)).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    // a figure the lender has not seen: bigger than stated, the approval is gone
    expect(read('Approved at $80,000, factor 1.30, 36 weeks, $2,888.89 weekly. If the back taxes turn out higher than the owner told us, the offer is void.', oak)).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(read('We can fund the full 80k at 1.35 for 8 months daily, contingent on the judgment balance being under $10k.', oak)).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    // routine closing conditions: applied as before
    expect(read('Oakridge is approved for $80,000 at 1.32 over 9 months, daily, subject to final verification and signed contracts.', oak).review_reason ?? null).toBeNull();
    expect(read('Approved for the full $80,000 at 1.30, 36 weeks, $2,888.89 weekly, subject to a bank verification call and standard stips.', oak).review_reason ?? null).toBeNull();
  });
});

describe('holdout27 wording', () => {
  const oak: ReplyContext = { requested_amount: 80_000, business_name: 'Oakridge Auto Glass' };

  it('a decision heard on a call or a voicemail and passed on goes to a person; the lender\'s own word stays applied', () => {
    expect(read('Marta in credit sent us a voice message on Oakridge, pasting the call transcript here: approved for the full $80,000 at 1.32 over 9 months, daily.', oak)).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    expect(read('Quick one - the underwriter told me over the phone that Oakridge is approved for $80,000 at 1.30, 36 weeks, $2,888.89 weekly.', oak)).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    // the lender's own written approval, a voicemail it left the broker beside it: applied as before
    expect(read('Oakridge is approved for the full $80,000 at 1.32 over 9 months, daily. I left you a voicemail as well.', oak).review_reason ?? null).toBeNull();
    // a tax transcript asked for is a stip, not hearsay
    expect(read('Please send a signed 8821 so we can pull the tax transcripts.', oak).review_reason ?? null).toBeNull();
  });

  it('a request beside a range of bare amounts the deal will probably land in goes to a person', () => {
    expect(read('Oakridge is near the line. Likely ends up near 50 to 60, nowhere close to the 80. Before I can give you numbers I need:\n- the last two quarterly P&Ls\n- a copy of the shop lease', oak)).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    // a range of days or a percentage is no floated amount
    expect(read('Please send the voided check. Funds usually land in 2-3 days after contracts.', oak).review_reason ?? null).toBeNull();
    expect(read('Before we can decide we need the lease. The holdback would come in around 10-12%.', oak).review_reason ?? null).toBeNull();
    expect(read('Before we can decide we need the lease. Daily payments would come in around 450-500 a day.', oak).review_reason ?? null).toBeNull();
  });
  it('a quote that lost its "> " marks under "On ... wrote:" is cut: the message answered is not read as the lender\'s', () => {
    // the quoted submission names a time in business and a FICO; the reply itself is a plain approval
    const html =
      '<div>Oakridge approved for the full $80,000, 1.32 over 9 months, daily.</div><div><br></div>' +
      '<div class="quoted"><div>On Mon, Nov 2, 2026 at 9:00 AM, Dana Whitfield &lt;dana@summitvalley.example&gt; wrote:</div>' +
      '<div>Requested amount: $80,000</div><div>Time in business: 9 months</div><div>Please send us your best offer. Declined elsewhere last week.</div></div>';
    const c = classifyReply({ subject: 'Re: Oakridge', text: '', html }, oak);
    expect(c).toMatchObject({ type: 'approved' });
    expect(c.reasons.join(' ')).not.toMatch(/declin/);
  });

  it('a schedule named first and refused after, "montly" for monthly: the offer on another schedule is a counter', () => {
    const c = read('Monthly debits we cannot offer on auto glass. We can fund all 80k on weekly - 1.30, 36 wks, $2,888.89/wk.', { ...oak, requested_frequency: 'monthly' });
    expect(c).toMatchObject({ type: 'counter' });
    expect(read('montly pmts we dont do. can do the 80k weekly tho, 1.30 factor 36 wks $2,888.89/wk', oak).type).toBe('counter');
  });

  it('declines in Spanish, "we\'re out" in two words, and the reasons in shorthand', () => {
    expect(read('Perdon Dana, Oakridge no va. El score salio 512 y nuestro minimo es 575.', oak)).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
    expect(read('lo tenemos que rechazar, muchas deudas.', oak).type).toBe('declined');
    // "no va a ser problema" is no decline
    expect(read('Aprobado por los 80k completos, 1.32, 9 meses diario. El voided check no va a ser problema.', oak).type).toBe('approved');
    expect(read("Owner's got 4 open advances on Oakridge, the last one 2 wks ago. were out.", oak)).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('too many pos on this one. pass', oak)).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Pass - average ledger bal under 1k most of the month.', oak)).toMatchObject({ type: 'declined', decline_category: 'low_balance' });
    // "were out" after a subject of its own is no lender stepping out
    const away = read('Oakridge is approved for the full $80,000 at 1.32, 9 months, daily. Both owners were out.', oak);
    expect(away.type).toBe('approved');
    expect(away.review_reason ?? null).toBeNull();
  });
  it('another product of the lender\'s own offered in place of the one refused, priced in a table with drawn rules, is a counter', () => {
    const text = [
      "Dana, we can't do an MCA on Oakridge with winter coming. What we can offer is our 18-month term loan for the whole 80K:",
      '',
      'PRODUCT          AMOUNT       TOTAL PAYBACK   PAYMENTS     MONTHLY PMT',
      '===============  ===========  ==============  ===========  ===========',
      'Term loan        $80,000.00   $108,000.00     18 monthly   $6,000.00',
      '',
      'Let me know and I will send loan docs.',
    ].join('\n');
    const c = read(text, oak);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 80_000, factor_rate: 1.35, term: 18, term_unit: 'months', payment_frequency: 'monthly', payment_amount: 6000 }] });
    expect(c.offers).toHaveLength(1);
    expect(c.review_reason ?? null).toBeNull();
    // the product refused and another named in its place, not priced yet: a counter, not a decline
    expect(read("We can't do an advance on Oakridge, the seasonality kills it. What we could do is our equipment lease on the new glass cutter.", oak).type).toBe('counter');
  });

  it('how long the offers stay open is no term, and the prose naming a table\'s offer is that offer', () => {
    const text = [
      'Oakridge is approved for the full amount; both options stay open for 7 days. Buy 1.28 on one, buy 1.33 on two.',
      '',
      '+-----+----------+------+----------+-----------+',
      '| Opt | Funded   | Buy  | Max sell | Term      |',
      '+-----+----------+------+----------+-----------+',
      '| 1   | $80,000  | 1.28 | 1.38     | 6 months  |',
      '| 2   | $80,000  | 1.33 | 1.43     | 9 months  |',
      '+-----+----------+------+----------+-----------+',
    ].join('\n');
    const c = read(text, oak);
    expect(c.type).toBe('approved');
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[80_000, 1.28, 6, 'months'], [80_000, 1.33, 9, 'months']]);
  });
  it('an amount of no stated role that the factor turns into the stated payback is the amount funded', () => {
    const c = read('For Oakridge we could take $80,000.00 of future sales, but only on a 14% holdback, not 9%. Receivables purchased: $108,000.00 (1.35), roughly 8 months. At the 9% the most we can do is $40,000.00 at the same 1.35, about 11 months.', oak);
    expect(c.type).toBe('counter');
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[80_000, 1.35, 8, 'months'], [40_000, 1.35, 11, 'months']]);
  });
  it("a help desk's ticket notification: the comments after the newest one are the thread, not read as the lender's", () => {
    const text = [
      '##- Please type your reply above this line -##',
      'Ticket 4411 has a new reply from the credit team.',
      '',
      'Marta Quill (Lakeshore Funding)',
      'Nov 20, 2026, 3:12 PM EST',
      '',
      'Hi Dana, Oakridge is approved for the full $80,000 at 1.32, 9 months, daily.',
      '',
      'Dana Whitfield',
      'Nov 2, 2026, 9:00 AM EST',
      '',
      'Requested amount: $80,000. Time in business: 9 months. They were declined elsewhere, what is the most you can do?',
    ].join('\n');
    const c = read(text, oak);
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 80_000, factor_rate: 1.32, term: 9, term_unit: 'months' }] });
    expect(c.reasons.join(' ')).toMatch(/older ticket comments/);
    expect(c.reasons.join(' ')).not.toMatch(/declin/);
    // no ticket marker: a name and a time line in an ordinary reply cut nothing
    expect(read('Marta Quill\nNov 20, 2026, 3:12 PM EST\n\nOakridge is approved for the full $80,000 at 1.32, 9 months, daily.\n\nDana Whitfield\nNov 2, 2026, 9:00 AM EST\n\nPlease send the October statement too.', oak).reasons.join(' ')).not.toMatch(/older ticket comments/);
  });
});





describe('holdout28 wording', () => {
  const oak: ReplyContext = { requested_amount: 80_000, business_name: 'Oakridge Auto Glass' };
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false });

  it("a question about the broker's own side (closer, commission, the ISO's paperwork) is no stip request, never applied", () => {
    const c = read('Thanks, received. Which one of you is the closer on Oakridge, you or Jordan? I need it for the commission report.', oak);
    expect(c).toMatchObject({ type: 'unclassified', requested_items: [] });
    expect(outcome(c)).toMatchObject({ apply: false, review_reason: 'not_classified' });
    // decided by the rules (no request about the deal), not left to the model as "no decisive cue"
    expect(c.reasons.join(' ')).toMatch(/broker's own side/);
    const asked = read('Got it. Who is the closer on Oakridge, you or Jordan? Please send it over, we need it for the comp sheet before it goes to underwriting.', oak);
    expect(asked).toMatchObject({ type: 'unclassified', requested_items: [] });
    expect(read('Before I book this one please send over your ISO agreement, we pay commissions only to signed partners.', oak)).toMatchObject({ type: 'unclassified', requested_items: [] });
    // a real stip beside it is still asked for, alone
    const both = read("Who's the closer on Oakridge? Also please send the voided business check.", oak);
    expect(both).toMatchObject({ type: 'needs_info', requested_items: ['voided business check'] });
    // "a closer look" at a document is no broker admin
    expect(read('Need the October statement, UW wants a closer look at the deposits.', oak).requested_items).toContain('October statement');
  });

  it('how long an approval stands, counted from its date, is no term', () => {
    const c = read('Oakridge Auto Glass - APPROVED\nAmount: $80,000.00\nFactor: 1.30\nSchedule: 36 weekly debits of $2,888.89\nTerms good 10 days from today.', oak);
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 80_000, factor_rate: 1.3, term: 36, term_unit: 'weeks', payment_frequency: 'weekly' }] });
    expect(c.review_reason ?? null).toBeNull();
  });

  it("the merchant's own debits counted are not the offer's payments", () => {
    const c = read("can't add new money on top of their 4 dailies. what we can do is a consolidation: we fund 50k in weekly draws that pay off their 4 daily debits, merchant pays us 2,333.33/wk x 30 wks, 1.40 factor.", oak);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.4, term: 30, term_unit: 'weeks', payment_frequency: 'weekly' }] });
    expect(c.review_reason ?? null).toBeNull();
    // the offer's own payments, paid by the merchant, stay the offer's
    expect(read('Approved the full 80k at 1.36; their 40 weekly payments would be $2,720.00.', oak).offers).toMatchObject([{ amount: 80_000, factor_rate: 1.36, term: 40, term_unit: 'weeks', payment_amount: 2720 }]);
  });

  it('a daily-debits column or "daily debits of $X" prices the offer: no stacking reason beside an approval', () => {
    const c = read('Approved, merchant picks one:\nOption | Advance | Factor | Daily debits | Debit amount\nA | $80,000 | 1.30 | 160 | $650.00\nB | $60,000 | 1.25 | 125 | $600.00\nAll first position.', oak);
    expect(c).toMatchObject({ type: 'approved' });
    expect(c.review_reason ?? null).toBeNull();
    expect(c.reasons.join(' ')).not.toMatch(/stacking/);
    // the merchant's debits as the reason stay a stacking decline
    expect(read('Have to pass, too many daily debits already.', oak)).toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });

  it('"the most we can do ... is $X" is the amount offered, not another funder\'s balance beside it', () => {
    const c = read('Velocity still has ~12k on it so we would sit 2nd. The most we can do in 2nd on these deposits is $30,000, factor 1.45, 24 weeks, $1,812.50 weekly.', oak);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.45, term: 24, term_unit: 'weeks' }] });
    expect(c.review_reason ?? null).toBeNull();
  });

  it("another funder's balance ('still in there with ~30k', '30k left') is never the amount offered", () => {
    for (const t of ['Velocity is still in there with ~30k so we would sit 2nd. 2nd position on this revenue: $20,000 max, 1.45 factor, 24 weeks, $1,208.33 weekly.', 'Velocity has 30k left on it, so 2nd position. Revenue supports 1.45 factor, 24 weeks, $1,208.33 weekly on $20,000.']) {
      const c = read(t, oak);
      expect(c.offers.map((o) => o.amount)).not.toContain(30_000);
      expect(outcome(c).apply).toBe(false);
    }
  });

  it('hundreds in words before a unit or "dollars"; a term in business days is no amount', () => {
    expect(wordsToDigits('two hundred forty payments of one hundred fifty dollars ($150.00)')).toBe('240 payments of $150.00');
    const c = read('We can do the full eighty thousand, but best I can do is one hundred forty business days, daily debits of seven hundred sixty dollars, factor one point three three.', oak);
    expect(c.offers).toMatchObject([{ amount: 80_000, factor_rate: 1.33, term: 140, term_unit: 'days', payment_amount: 760 }]);
  });

  it('a payment written bare before its schedule in shorthand is the payment; a count before it stays a count', () => {
    expect(read('oakridge good for the full 80k\n1.30 / 40 wks / 2600 wkly\nsend contract req', oak).offers).toMatchObject([{ amount: 80_000, factor_rate: 1.3, term: 40, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 2600 }]);
    expect(read('oakridge approved 80k @ 1.30, 160 daily', oak).offers).toMatchObject([{ amount: 80_000, factor_rate: 1.3, term: 160, term_unit: 'days' }]);
  });

  it('the deposits named, then "they" under the minimum in the same sentence, is low revenue; the deal under it stays deal size', () => {
    expect(read("We have to decline Oakridge: sales look fine until you back out the owner's loan proceeds, then they're below our minimum.", oak)).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    expect(read('Oakridge is a pass. Their deposits are fine but at 20k the deal is under our minimum.', oak)).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
  });

  it('the credit desk named (from credit, a signature) is no credit reason: an approval with a menu stays an approval', () => {
    const c = read('See below from credit, good to go on Oakridge.\n\nApproved, merchant picks one: $80,000 at 1.30 for 9 months, or $60,000 at 1.25 for 6 months.\n\nT. Broussard\nLakeshore Credit', oak);
    expect(c).toMatchObject({ type: 'approved' });
    expect(c.review_reason ?? null).toBeNull();
    // the owner's credit as the reason stays a credit decline
    expect(read("Pass on Oakridge: credit. Sorry, credit just isn't there.", oak)).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
  });

  it('a decline only as the file stands, with items asked to take it back to committee, goes to a person', () => {
    const c = read('Declined as it stands: the September deposits carry a $40k loan and without it revenue is too light. Send me the 2025 P&L and the loan agreement and I will run it back through credit.', oak);
    expect(c).toMatchObject({ type: 'declined', review_reason: 'conflicting_cues' });
    // a plain decline with its reason, nothing asked to reopen it, stays applied
    expect(read('Declined: revenue is too light for us. Sorry.', oak).review_reason ?? null).toBeNull();
  });

  it('a state the lender was taken out of by someone else is restricted_state', () => {
    expect(read('Oakridge is a decline, compliance has us out of Vermont entirely as of this month.', oak)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });

  it('stips: a bracketed explanation, a year shared by the item after it, an unsigned document', () => {
    const c = read('need 2023 + 2024 business tax returns on oakridge. also contract isnt signed. send both and we move', oak);
    expect(c).toMatchObject({ type: 'needs_info' });
    expect(c.requested_items).toEqual(expect.arrayContaining(['2023 + 2024 business tax returns on oakridge', 'signed contract']));
    const d = read('Before credit prices it they need:\n- Copy of the shop lease (the app lists a landlord but no address)\n- MTD', oak);
    expect(d.requested_items).toEqual(['Copy of the shop lease', 'MTD']);
  });
});

describe('holdout29 wording', () => {
  const cedar: ReplyContext = { requested_amount: 60_000, business_name: 'Cedar Hollow Tire & Lube' };
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false });

  it('"Also, on <another business>: ..." after this deal\'s answer is another file acted on: a person routes it (multiple_deals)', () => {
    const c = read("Passing on Cedar Hollow, too many NSFs in September.\n\nAlso, on Brightwater Dental Group: the renewal quote I sent runs out Monday, and I'd need a fresh voided check if they take it.", cedar);
    expect(c).toMatchObject({ type: 'declined', review_reason: 'multiple_deals' });
    expect(outcome(c)).toMatchObject({ apply: false });
    // the same turn within the paragraph
    const inline = read("Cedar Hollow is a pass, the NSFs are too many. Separately, for Brightwater Dental Group - their quote expires Monday.", cedar);
    expect(inline.review_reason).toBe('multiple_deals');
    // "also" on this deal's own file stays this deal's answer
    const own = read('Passing on Cedar Hollow, too many NSFs.\n\nAlso, on Cedar Hollow: we would look again in 90 days.', cedar);
    expect(own).toMatchObject({ type: 'declined' });
    expect(own.review_reason ?? null).toBeNull();
  });
  it('a bank switched within the statement months, deposits not tied across it, is a verification decline; a bare bank change stays other', () => {
    expect(read('Pass on Cedar Hollow. They switched bank accounts mid-August and the deposits on the two accounts tie to nothing we can follow.', cedar)).toMatchObject({ type: 'declined', decline_category: 'verification' });
    expect(read('Have to decline, they moved banks last month and we need 3 months at the same bank.', cedar)).toMatchObject({ type: 'declined', decline_category: 'other' });
  });

  it('a decline written in Portuguese is a decline, and its reason read ("hemp-adjacent" is the industry)', () => {
    expect(read('Oi Dana, vamos ter que recusar a Cedar Hollow. Boa parte das vendas é hemp-adjacent, nosso compliance não deixa.', cedar)).toMatchObject({ type: 'declined', decline_category: 'industry' });
  });
  it('a pasted checklist asks for its open boxes only, the ticked ones are in', () => {
    const c = read('Where Cedar Hollow stands on our list:\n\n- [x] Application signed\n- [ ] Driver license, front and back\n- [x] Four months of statements\n- [ ] Copy of the shop lease\n\nThe rest we have.', cedar);
    expect(c).toMatchObject({ type: 'needs_info', requested_items: ['Driver license, front and back', 'Copy of the shop lease'] });
    expect(c.review_reason ?? null).toBeNull();
    expect(read('Cedar Hollow, where we are:\n☑ Voided check\n☐ Landlord name and number\n☑ MTD statement\n☐ 2025 tax return\nSend it over and we price it.', cedar).requested_items).toEqual(['Landlord name and number', '2025 tax return']);
  });
  it("the lender's equipment program put in the advance's place is a counter (another product), not an approval", () => {
    const c = read('An advance does not fit here. Since the 60k buys a lift and a tire machine, a better fit for them is an equipment lease.\n\n  Lease amount: $60,000\n  24 monthly payments of $3,000\n  1.20 factor', cedar);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 60_000, factor_rate: 1.2 }] });
  });
});

describe('rfix17 wording', () => {
  const mill: ReplyContext = { requested_amount: 80_000, business_name: 'Harbor Mill Bakery' };
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false });

  it('one price on two schedules the merchant chooses between is two offers, each logged with its schedule and payment', () => {
    const c = read('Harbor Mill is approved for the full 80. Their choice of remit:\n\n1) 1.32 / 10 mo / weekly $2,437 x 43\n2) 1.32 / 10 mo / bi-weekly $4,874 x 22\n\nSend the bank login and we draw docs.', mill);
    expect(c.type).toBe('approved');
    expect(c.offers).toHaveLength(2);
    expect(c.offers).toEqual(expect.arrayContaining([
      expect.objectContaining({ amount: 80_000, factor_rate: 1.32, term: 10, term_unit: 'months', payment_frequency: 'weekly' }),
      expect.objectContaining({ amount: 80_000, factor_rate: 1.32, term: 10, term_unit: 'months', payment_frequency: 'bi-weekly' }),
    ]));
    const o = outcome(c);
    expect(o.apply && o.body.offers).toHaveLength(2);
    // the same offer said twice, once with its schedule, stays one offer
    const once = read('Approved, 80k at 1.32 for 10 months. Recap: 80k, 1.32, 10 months, weekly.', mill);
    expect(once.offers).toHaveLength(1);
  });

  it('the figure a count of payments names is each payment, even with the factor right after it (never an offer of that figure)', () => {
    const c = read('Approved for the full $80,000 - 40 weekly payments of $2,640, 1.32 factor.', mill);
    expect(c.offers).toEqual([expect.objectContaining({ amount: 80_000, factor_rate: 1.32, payment_amount: 2_640 })]);
    // an equipment lease laid out on one line: the monthly figure is its payment, the amount is the equipment's
    const lease = read('An advance is the wrong tool here; they would do better on an equipment lease: $80,000, 36 monthly payments of $2,900, 1.305 factor.', mill);
    expect(lease.offers.map((o) => o.amount)).toEqual([80_000]);
    expect(lease.offers[0]).toMatchObject({ payment_amount: 2_900, term: 36 });
    expect(lease.type).not.toBe('approved');
  });

  it('an equipment program put in the advance\'s place in other words ("better off with", "as ... instead") is a counter', () => {
    expect(read("They'd be better off with our equipment financing. 80k, 1.30, 36 months, monthly.", mill).type).toBe('counter');
    expect(read('We can write Harbor Mill as an equipment lease instead: 80k / 1.30 / 36 mo / monthly.', mill).type).toBe('counter');
    // the advance itself, approved, stays an approval
    expect(read('Approved on the advance: 80k / 1.30 / 12 mo / weekly.', mill).type).toBe('approved');
  });

  it('an approval of this merchant months ago, recalled beside today\'s no, is no approval now: the decline is applied', () => {
    const c = read("Heads up, we approved Harbor Mill for 35k last year and they never drew on it. The bakery now has three open positions on the September statement, and we don't go fourth. Pass for now.", mill);
    expect(c).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(c.review_reason ?? null).toBeNull();
    expect(outcome(c).apply).toBe(true);
    // taken back in the same sentence it is a withdrawal, for a person
    expect(read('We approved Harbor Mill in October but have to pull it: a new lien showed up.', mill).review_reason).toBe('approval_withdrawn');
  });

  it('a consolidation described, not named ("pay off all three and roll them into one"), is another product: a counter', () => {
    const c = read("Can't sit 4th behind those three. What I'd do: pay off all three and roll them into a single weekly. $80,000 at 1.38, 40 weeks weekly. Will need payoff letters to finalize.", mill);
    expect(c.type).toBe('counter');
    // paying positions off, nothing rolled into one, is no other product (a payoff condition is read by its own rule)
    expect(read('Approved for the full 80k at 1.38, 40 weeks, weekly; they pay off all three before we fund.', mill).reasons.join('\n')).not.toMatch(/other product/);
  });

  it("a schedule named in its own sentence before the offer (another funder's) gives way to the one beside the offer's term", () => {
    const c = read("Their OnDeck weekly is heavy already. We can do $80,000 at 1.38 over 9 months daily.", mill);
    expect(c.offers).toEqual([expect.objectContaining({ amount: 80_000, payment_frequency: 'daily' })]);
    // a schedule heading its own offer in the same sentence stays that offer's
    const two = read('Weekly option: $80,000, 1.30, 6 months. Daily option: $80,000, 1.28, 6 months.', mill);
    expect(two.offers[0]).toMatchObject({ factor_rate: 1.3, payment_frequency: 'weekly' });
  });

  it('an approval taken back because it was meant for another merchant leaves this deal waiting on what is asked (still for a person)', () => {
    const c = read('Ignore the offer email from this morning, it was for a different client - my mistake. Harbor Mill is still in underwriting; we need a copy of the lease before we can price it.', mill);
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'approval_withdrawn' });
    expect(outcome(c).apply).toBe(false);
    // an approval of this deal taken back stays a decline a person confirms
    expect(read('Ignore the offer email from this morning, credit found a new lien. Please send the payoff letter if they want us to look again.', mill)).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
  });

  it('a decline only the model reads (no rule cue, for a person) still carries a category: other, no reason named', () => {
    const notice = read('STATUS: FILE CLOSED\nNote: this merchant is already in process with another ISO; the file stays with them for 60 days.', mill);
    expect(notice.type).toBe('unclassified');
    const c = combineReadings(notice, { type: 'declined', probability: 0.999, evidence: ['closed'] });
    expect(c).toMatchObject({ type: 'declined', review_reason: 'low_confidence', decline_category: 'other' });
    // the model reading anything but a decline adds no category
    expect(combineReadings(notice, { type: 'needs_info', probability: 0.999, evidence: ['send'] }).decline_category).toBeUndefined();
  });
});

describe('holdout30 and holdout31 wording', () => {
  const mill: ReplyContext = { requested_amount: 80_000, business_name: 'Riverbend Millwork' };
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: '', autoReply: false });
  const submission = 'Hi Sam,\n\nPlease find attached a new submission for Riverbend Millwork.\n\nRequested amount: $80,000\nExisting positions: None\n\nLooking for approvals by EOD if possible. Thanks!';

  it("Zoho's dashed attribution (\"---- On <date> <name> wrote ----\") cuts the unmarked quote under it", () => {
    const p = splitReply(`Declined on Riverbend, 11 NSFs in October.\n\nSam Ortiz\n\n---- On Mon, 09 Nov 2026 09:12:00 -0600 Lee Park <lee@broker.example> wrote ----\n\n${submission}`);
    expect(p.markers).toContain('On ... wrote:');
    expect(p.own).not.toMatch(/Requested amount|Looking for approvals/);
    expect(p.own).toMatch(/^Declined on Riverbend/);
  });
  it('notes typed into the quoted message under the writer\'s bracketed initials are read as the reply', () => {
    const p = splitReply(`Sam - see my notes inline.\n\nFrom: Lee Park <lee@broker.example>\nSent: Monday, November 9, 2026 9:12 AM\nTo: Sam Ortiz <sam@lender.example>\nSubject: Submission: Riverbend Millwork\n\n> Requested amount: $80,000\n[SO] Too many overdrawn days, 12 negs in October alone.\n> Existing positions: None\n[SO] Agreed, none on the statements.`);
    expect(p.own).toContain('Too many overdrawn days, 12 negs in October alone.');
    expect(read(p.own, mill)).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
  });
  it('an approval that stops standing on a question still open goes to a person; ordinary closing stips do not', () => {
    const c = read('Riverbend: approved at $80,000, 1.32, 40 weeks, $2,640/week. That Oct 8 wire for $25k looks like it may be another funder; should it be one, the approval would not hold. Owner needs to explain it on the call.', mill);
    expect(c.type).toBe('approved');
    expect(c.review_reason).toBe('tentative_terms');
    expect(outcome(c)).toMatchObject({ apply: false });
    const stips = read('Riverbend: approved at $80,000, 1.32, 40 weeks, $2,640/week. Stips to fund: voided check, driver license, bank verification call.', mill);
    expect(stips.type).toBe('approved');
    expect(stips.review_reason ?? null).toBeNull();
  });
  it('a decline taken back in the same message ("wait, scratch that", "let me ask my manager") waits for a person', () => {
    const c = read("Riverbend is a decline, they're in 3 positions already.\n\nWait, scratch that - my manager may look at it as a consolidation. Will get back to you.", mill);
    expect(c.type).toBe('declined');
    expect(outcome(c)).toMatchObject({ apply: false });
    const ask2 = read("Riverbend is a decline, too stacked. Actually, let me ask my manager first, she sometimes buys out a position.", mill);
    expect(outcome(ask2)).toMatchObject({ apply: false });
    // a plain decline still applies
    expect(outcome(read("Riverbend is a decline, they're in 3 positions already.", mill))).toMatchObject({ apply: true });
  });
  it('a state excluded by the program is restricted_state', () => {
    expect(read('Riverbend is a no. Our capital partner excludes Montana and Wyoming merchants, so we cannot fund it.', mill)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
    expect(read("Sorry Lee, we're not funding in Vermont anymore, have to decline Riverbend.", mill)).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });
  it('two options typed side by side in one cell of each row ("$60,000 / $45,000") are two columns', () => {
    const row = (a: string, b: string) => `<tr><td><b>${a}</b></td><td>${b}</td></tr>`;
    const html = `<p>We can't get to $80,000 on Riverbend. Pick one:</p><table>${row('', 'Choice A / Choice B')}${row('Advance', '$60,000.00 / $45,000.00')}${row('Factor', '1.34 / 1.27')}${row('Term', '9 Months / 6 Months')}${row('Payment', '$385.90 Daily / $2,197.50 Weekly')}</table>`;
    const c = classifyReply({ subject: 'Re: Riverbend Millwork', text: '', html }, mill);
    expect(c.type).toBe('counter');
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[60_000, 1.34, 9, 'months'], [45_000, 1.27, 6, 'months']]);
  });
  it("a bank's debt service coverage (\"1.10x against our 1.30x floor\", \"DSCR of 1.15\") is no factor rate", () => {
    const offers = extractOffers('Debt service coverage comes out around 1.10x against our 1.30x floor on the $80,000. DSCR of 1.15 at best. We can offer $40,000 at 1.18 over 30 weeks, $1,573.33 weekly.');
    expect(offers.map((o) => [o.amount, o.factor_rate])).toEqual([[40_000, 1.18]]);
  });
  it('the product asked declined and a business line of credit offered in its place for less, priced, is one counter', () => {
    const c = read('The loan committee declined the $80,000 equipment term loan as requested, the coverage is not there against our minimum. What we can do instead is a $40,000 business line of credit: each draw repays over 30 weeks, $1,573.33 weekly, total repayment $47,200.00.', mill);
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.18, term: 30 }] });
    expect(c.review_reason ?? null).toBeNull();
  });
  it('a one-liner with the amount first ("60k approved on riverbend") is an approval; a count of approvals is not', () => {
    const c = read('60k approved on riverbend. 1.36, 32 wks, 2550/wk. send the voided check', { requested_amount: 60_000 });
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.36, term: 32 }] });
    expect(outcome(c)).toMatchObject({ apply: true });
    expect(read('Your files this month: 22 submitted, 12 approved, 6 declined. Riverbend is in the queue.', mill).type).not.toBe('approved');
  });
  it("an approval passed on while it is re-run, not to be shown yet (\"don't send these numbers to the owner yet\"), waits for a person", () => {
    const c = read("Lee - here is what credit sent this morning, but don't send these numbers to the owner yet, they are re-running it with the October deposits.\n\nRiverbend Millwork is approved at the full request: $80,000, 1.32, 40 weeks, $2,640 weekly.", mill);
    expect(c.type).toBe('approved');
    expect(outcome(c)).toMatchObject({ apply: false });
  });
  it('another file approved after a colon, with an aside between its name and its decision, is another deal (multiple_deals)', () => {
    const c = read('Riverbend Millwork: I still need the October statement before I can price it.\n\nWhile I have you: Harbor Light Bakery (the file from Tuesday) is approved for $30k at 1.36, 120 days.', mill);
    expect(c.type).toBe('needs_info');
    expect(c.review_reason).toBe('multiple_deals');
  });
  it('a later add-on floated on how the merchant does is no doubt on the present counter', () => {
    const c = read("Can't do 80 on Riverbend. Best I have: $55,000, 1.35, 9 months, $401.93/day. If they keep November clean I could look at a top-up once they are 50% paid in.", mill);
    expect(c.type).toBe('counter');
    expect(c.review_reason ?? null).toBeNull();
    // the same condition on the present offer still holds it
    expect(read("Best I have is $55,000, 1.35, 9 months, $401.93/day if they keep November clean.", mill).review_reason).toBe('tentative_terms');
  });
});

describe('holdout32 wording', () => {
  const deal: ReplyContext = { requested_amount: 45_000 };
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  it("a template's legend of every status a deal can have is no decision; the deal's own status field is", () => {
    const text = 'Status:         Approved\nApproved amount:$45,000.00\nFactor rate:    1.36\nPayback:        $61,200.00\nTerm:           24 weeks\nPayment:        $2,550.00 weekly\n\nApproved as submitted.\n\nStatuses: Received > In Review > Pending Stips > Approved / Countered / Declined > Contracts Out > Funded';
    const c = read(splitReply(text).own, deal);
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 45_000, factor_rate: 1.36, term: 24 }] });
    expect(outcome(splitReply(text).own, deal)).toMatchObject({ apply: true });
    expect(splitReply('Pipeline: Submitted | Approved | Declined | Funded').own).toBe('');
    // a list of figures split by slashes is no legend
    expect(splitReply('Approved: 45k / 1.36 / 24 wks / 2550 weekly').own).toContain('45k');
  });
  it('a stacking pass in phone shorthand ("3 pos already", "a 4th hitting", "not going 5th") is categorised stacking', () => {
    const c = read("Gonna pass on this one. 3 pos already and I see a 4th hitting on 11/16 thats not on your app. Im not going 5th");
    expect(c).toMatchObject({ type: 'declined', decline_category: 'stacking' });
  });
  it('a counter offered only on the answer to a question to the broker ("can they live with 40 instead of 70? if so ...") waits for a person', () => {
    const c = read('Could your client live with 40 instead of 70? If so I can do 40k at 1.35, 54,000 back, 30 weekly at 1800.');
    expect(c.type).toBe('counter');
    expect(c.review_reason).toBe('tentative_terms');
    // an ordinary counter stays applied
    expect(read("Can't do 70. I can do 40k at 1.35, 54,000 back, 30 weekly at 1800.").review_reason ?? null).toBeNull();
  });
});

describe('holdout33 wording', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  it('an approval written to another ISO, named by its ISO number, goes to a person', () => {
    const text = 'Hi Morgan,\n\nThanks for sending Harbor Tire over through Blue Fern Funding (ISO #5120). Approved: $40,000 / 1.36 / 30 weeks / $1,813.33 weekly.\n\nSend the signed app.';
    const c = read(text, { requested_amount: 40_000 });
    expect(c.type).toBe('approved');
    expect(outcome(text, { requested_amount: 40_000 })).toMatchObject({ apply: false });
    // the same approval with no ISO named is applied
    expect(outcome('Hi Morgan,\n\nApproved: $40,000 / 1.36 / 30 weeks / $1,813.33 weekly.\n\nSend the signed app.', { requested_amount: 40_000 })).toMatchObject({ apply: true });
  });
  it('an approval "per our call" with no terms in writing goes to a person', () => {
    const c = read('Sam - approved as discussed on the phone earlier for Maple Dental. Go ahead and send it over for docs.');
    expect(c.type).toBe('approved');
    expect(c.review_reason).toBe('tentative_terms');
    expect(read('Sam - approved per our call this morning on Maple Dental.').review_reason).toBe('tentative_terms');
  });
  it('bare figures with no decision word ("maple dental - 30k / 1.40 / 90 days / 466.67") go to a person; with a word they do not', () => {
    const ctx = { requested_amount: 45_000 };
    expect(outcome('maple dental - 30k / 1.40 / 90 days / 466.67', ctx)).toMatchObject({ apply: false });
    expect(read('maple dental - 30k / 1.40 / 90 days / 466.67', ctx).review_reason).toBe('low_confidence');
    expect(read('can do 30k on maple dental. 1.40 / 90 days / 466.67', ctx).review_reason ?? null).toBeNull();
  });
  it('a recollection after a spaced dash ("- not the account we funded last year") blanks only its own clause, the decline reason before it is read', () => {
    const c = read('Have to pass on Maple Dental this time. 9 neg days in the last 90 - not the same account we funded last year.\n\nSorry.');
    expect(c).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
  });
  it('a decline reason\'s threshold ("rev under 12k a month, our floor is 18k") is no offer, and is low_revenue', () => {
    const c = read("Maple Dental - rev under 12k a month, our floor is 18k. Can't do it, and 40 against $11k in deposits would be four months of sales.", { requested_amount: 40_000 });
    expect(c).toMatchObject({ type: 'declined', decline_category: 'low_revenue', offers: [] });
    // the figures themselves are no offer, whatever the words around them
    expect(extractOffers('rev under 12k a month, our floor is 18k. 40 against $11k in deposits would be four months of sales.', { requested_amount: 40_000 })).toEqual([]);
  });
  it('"NI" opening a line ("NI on maple dental") is a decline; "NI" inside a sentence or "ni" in lower case is not', () => {
    expect(read('NI on maple dental').type).toBe('declined');
    expect(read('NI\n\nsent from my iphone').type).toBe('declined');
    expect(read('The owner moved the shop to NI last year, we need a new lease.').type).not.toBe('declined');
    expect(read('ni on maple dental').type).not.toBe('declined');
  });
  it("a calendar invitation's text (its subject, \"decline this event\" in its footer) is no decision", () => {
    const body = 'Sam Lee has invited you to a meeting.\n\nMaple Dental - terms call\nThursday 3pm - 3:30pm\n\nInvitation from Google Calendar\n\nYou are receiving this email because you are an attendee on the event. To stop receiving future updates for this event, decline this event.';
    const c = read(body, undefined, 'Invitation: Maple Dental - terms call @ Thu 3pm');
    expect(c.type).toBe('unclassified');
    expect(c.reasons.join('\n')).toContain('auto-reply subject');
    // the footer alone, whatever the subject, declines nothing
    expect(read(body).type).not.toBe('declined');
  });
  it('terms in a signature-like block the message points to ("Offer summary below") are read; a plain signature is still cut', () => {
    const text = "Hi Sam,\n\nWe're good on Maple Dental for the full request. Offer summary below - send me the voided check and I'll issue docs.\n\n--\nJo Park | Example Funding\nOFFER SUMMARY - Maple Dental\nFunded amount: $30,000\nFactor: 1.34\nRTR: $40,200\nTerm: 100 business days\nDaily ACH: $402.00\n555-0100 | Tulsa, OK";
    const own = splitReply(text).own;
    expect(own).toContain('Factor: 1.34');
    expect(own).not.toContain('Tulsa');
    expect(read(own, { requested_amount: 30_000 })).toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.34, term: 100 }] });
    expect(splitReply('Thanks, talk soon.\n\n--\nJo Park\nFactor: the best in town').own).not.toContain('Factor');
  });
  it('the full ask at a higher factor than the one refused ("can\'t match 1.28") is a counter with one offer, the refused factor no offer', () => {
    const c = read("Can't match 1.28 on Maple Dental, different market. I can do the full $30,000 at 1.40, 100 business days, $420.00 daily.", { requested_amount: 30_000 });
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.4, term: 100 }] });
    expect(c.offers).toHaveLength(1);
  });
});

describe('a decision taken back in the same message', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  it('an approval followed by "disregard the above", "strike that", "never mind", "sent too early" or "not meant for you" goes to a person', () => {
    const ctx = ask(40_000);
    for (const text of [
      'Approved 40k at 1.32 for 8 months on Maple Dental. Disregard the above, we need the October statement first.',
      'Maple Dental approved 40k, 1.32, 8 months. Strike that, I hit send too early. Credit has not signed off.',
      'Approved 40k, 1.32, 8 months. Never mind, wrong file - Maple Dental is still in review.',
      'Approved 40k at 1.32 for 8 months.\n\nEDIT: please ignore, still pending.',
      'Approved 40k at 1.32 for 8 months. This was not meant for you, sorry.',
    ]) {
      const c = read(text, ctx);
      expect(c.review_reason, text).toBe('conflicting_cues');
      expect(c.reasons.join('\n'), text).toContain('taken back in the same message');
      expect(outcome(text, ctx), text).toMatchObject({ apply: false });
    }
  });
  it('a take-back before the decision, in a disclaimer or on a condition ("if ..., please ignore the above") takes nothing back', () => {
    const ctx = ask(40_000);
    expect(outcome('Never mind, found the statements. Approved 40k at 1.32 for 8 months on Maple Dental.', ctx)).toMatchObject({ apply: true });
    expect(outcome('Approved 40k at 1.32 for 8 months on Maple Dental.\n\nThis email is confidential. If you are not the intended recipient, please disregard this message.', ctx)).toMatchObject({ apply: true });
    // a conditional "ignore the above" (if the item is already in) is no take-back
    expect(outcome('Approved 40k at 1.32 for 8 months on Maple Dental. If the voided check is already in the portal, please ignore the above.', ctx)).toMatchObject({ apply: true });
  });
});

describe('our ISO number', () => {
  const text = 'Hi Morgan,\n\nThanks for sending Harbor Tire over through Blue Fern Funding (ISO #5120). Approved: $40,000 / 1.36 / 30 weeks / $1,813.33 weekly.';
  const ctx = (iso?: ReplyContext['iso']): ReplyContext => ({ requested_amount: 40_000, iso });
  it('a decision naming the ISO number our submission email gave, or our name right before a number, is written to us and applied', () => {
    expect(read(text, ctx({ names: ['Harbor Street Capital'], numbers: ['5120'] })).review_reason ?? null).toBeNull();
    expect(read(text, ctx({ names: ['Blue Fern Funding'], numbers: [] })).review_reason ?? null).toBeNull();
  });
  it('a number that is not ours, or no knowledge of ours, still goes to a person', () => {
    expect(read(text, ctx({ names: ['Harbor Street Capital'], numbers: ['4471'] })).review_reason).toBe('conflicting_cues');
    expect(read(text, ctx()).review_reason).toBe('conflicting_cues');
    // our name elsewhere in the reply does not make another number ours
    expect(read(`Blue Fern Funding, thanks.\n\n${text.replace('Blue Fern Funding (ISO #5120)', 'Gray Oak Partners (ISO #5120)')}`, ctx({ names: ['Blue Fern Funding'], numbers: [] })).review_reason).toBe('conflicting_cues');
    // every number named must be ours
    expect(read(`${text}\nCc Gray Oak Partners (ISO #7731).`, ctx({ names: [], numbers: ['5120'] })).review_reason).toBe('conflicting_cues');
  });
});

describe('holdout34 wording', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  it('a request that doubts who signed the application (not the owner on file) goes to a person; the same request without it is applied', () => {
    const ctx = ask(50_000);
    const text = "Sam,\n\nBefore we go on with Maple Dental I need the 2025 tax return. Also the app was signed by J. Ortiz, but the owner on file is Lena Park - is he an officer?";
    const c = read(text, ctx);
    expect(c.type).toBe('needs_info');
    expect(c.review_reason).toBe('conflicting_cues');
    expect(outcome(text, ctx)).toMatchObject({ apply: false });
    expect(read('Who actually signed the contract for Maple Dental? Please send the 2025 tax return too.', ctx).review_reason).toBe('conflicting_cues');
    expect(read("The signature doesn't match the ID you sent for Maple Dental. Please send a new DL.", ctx).review_reason).toBe('conflicting_cues');
    // the request alone is applied, and a signed application named as an item is no doubt
    expect(outcome('Sam,\n\nBefore we go on with Maple Dental I need the 2025 tax return and a signed application.', ctx)).toMatchObject({ apply: true });
  });
  it('"cleared committee" is an approval: a priced table with closing stips after it is applied', () => {
    const text = 'Maple Dental cleared committee. Terms:\n\nAmount | Buy Rate | Payback | Term | Payment\n$40,000 | 1.32 | $52,800 | 30 weeks | $1,760.00 weekly\n\nStips: voided check, landlord contact.';
    const c = read(text, ask(40_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.32, term: 30, term_unit: 'weeks' }] });
    expect(c.reasons.join('\n')).toContain('"cleared committee"');
    expect(outcome(text, ask(40_000))).toMatchObject({ apply: true });
    expect(read('Maple Dental passed loan committee this morning.').reasons.join('\n')).toContain('"passed loan committee"');
  });
  it('a telephone number in the signature is no amount: options priced without one name the ask approved in words', () => {
    const text = 'Hi Sam,\n\nMaple Dental is approved for the $30,000 asked. Two structures:\n\n1) 1.30 factor, 120 business days, $325.00/day\n2) 1.36 factor, 26 weeks, $1,569.23/wk\n\nThanks,\n\nJo Park\nExample Funding\n(415) 555-0104';
    const c = read(text, ask(30_000));
    expect(c.type).toBe('approved');
    expect(c.review_reason ?? null).toBeNull();
    expect(c.offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit])).toEqual([[30_000, 1.3, 120, 'days'], [30_000, 1.36, 26, 'weeks']]);
  });
  it('a term limited in words and the asked term refused ("not the 12 months", "no 12 month option") make a counter on the shorter term', () => {
    const text = "Can do the money on Maple Dental but not the 12 months. Seasonal, so we will not go past 24 weeks: the full $30,000 at 1.32, 24 weekly payments of $1,650.00. No 12 month option.";
    const c = read(text, ask(30_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 30_000, factor_rate: 1.32, term: 24, term_unit: 'weeks' }] });
    expect(c.review_reason ?? null).toBeNull();
    // "will not go past" is a limit on the terms, not a "not a go"
    expect(c.reasons.join('\n')).not.toContain('"not go"');
    expect(c.reasons.join('\n')).toContain('cap on the term ("will not go past 24 weeks")');
    // the option the lender does not have is the term asked, never the offer's
    expect(askedTerm('The full $30,000 at 1.32, 24 weekly payments of $1,650.00. No 12 month option.')).toEqual({ term: 12, unit: 'months' });
    expect(extractOffers('The full $30,000 at 1.32, 24 weekly payments of $1,650.00. No 12 month option.', ask(30_000))).toMatchObject([{ term: 24, term_unit: 'weeks' }]);
  });
  it('our place in line as a maximum ("would make us 4th", "our max is 2nd position") is stacking, not deal size', () => {
    expect(read('Have to decline Maple Dental, that would make us 4th.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Have to decline Maple Dental. Our max is 2nd position.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Have to decline Maple Dental, we are capped: 2nd is our limit.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    // a maximum in dollars is still the deal's size
    expect(read('Have to decline Maple Dental. Our max is $25,000 on a file this size.')).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
  });
});

describe('holdout35 wording', () => {
  it('a count of payments that repays the offer exactly is its term, over a term read elsewhere (an early-payoff window, the ask refused)', () => {
    const words = read("Good news, Maple Dental is approved for the full forty thousand. Factor 1.35, so $54,000 back as forty weekly payments of $1,350. If they pay it off inside twelve weeks there's a discount.", ask(40_000));
    expect(words).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.35, term: 40, term_unit: 'weeks' }] });
    expect(words.review_reason ?? null).toBeNull();
    const longer = read("We can do all $80,000 on Maple Dental, just not over 9 months daily with their slow winter. What works: factor 1.40, 48 weekly payments of $2,333.33.", ask(80_000));
    expect(longer).toMatchObject({ type: 'counter', offers: [{ amount: 80_000, factor_rate: 1.4, term: 48, term_unit: 'weeks' }] });
    expect(longer.review_reason ?? null).toBeNull();
    // payments that do not repay it leave the disagreement for a person
    expect(read('Maple Dental approved, $40,000 at 1.35 over 6 months, 30 weekly payments of $1,500.', ask(40_000)).review_reason).toBe('conflicting_cues');
  });
  it('a hedged no ("probably a no", "likely a pass") is a decline a person follows up; a firm one is applied', () => {
    const c = read('likely a pass on maple dental. way too many positions, i count 5 not 2. will look again in the morning');
    expect(c).toMatchObject({ type: 'declined', review_reason: 'tentative_terms' });
    expect(read('Hard pass on Maple Dental, 5 positions on the statements.').review_reason ?? null).toBeNull();
  });
  it('an approval struck out ("scrap yesterday\'s offer") with less offered in its place is a counter a person confirms', () => {
    const c = read("Dana, scrap yesterday's offer on Maple Dental - a new position showed up this morning. Best I can do now is $20,000 @ 1.45, 90 days, $322.22/day.", ask(40_000));
    expect(c).toMatchObject({ type: 'counter', review_reason: 'approval_withdrawn', offers: [{ amount: 20_000, factor_rate: 1.45, term: 90 }] });
  });
  it('kinds of business in the plural on the lender\'s list ("nail salons and spas are on our restricted list") are an industry decline; a state stays a state', () => {
    expect(read('Unfortunately Maple Dental is a no. Nail salons and spas are on our restricted list, however strong the deposits.')).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(read('Unfortunately we have to decline, Vermont is on our restricted list.')).toMatchObject({ type: 'declined', decline_category: 'restricted_state' });
  });
  it('a postscript about another file ("P.S. on another file: ... or it gets declined") is not read for this deal', () => {
    const c = read('Maple Dental approved, $30,000 / 1.40 / 20 weeks / $2,100.00 weekly.\n\nP.S. on another file: still need the lease on Birch Street Bakery or it gets declined Friday.', ask(30_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 30_000, factor_rate: 1.4, term: 20, term_unit: 'weeks' }], requested_items: [] });
    expect(c.review_reason ?? null).toBeNull();
  });
  it('a pre-approval with no terms whose final pricing waits on the documents is a request for items; a factor named beside it still goes to a person', () => {
    const docs = '\n\nDocuments needed to move forward:\n- Voided business check\n- Copy of driver\'s license\n- Last 3 months of bank statements';
    const c = read(`Maple Dental is pre-approved for up to $50,000. Final pricing comes after we receive the documents below.${docs}`, ask(50_000));
    expect(c.type).toBe('needs_info');
    expect(c.review_reason ?? null).toBeNull();
    expect(read(`Maple Dental is pre-approved for up to $50,000 at about 1.38. Final pricing comes after we receive the documents below.${docs}`, ask(50_000)).review_reason).toBe('tentative_terms');
  });
  it("a line reciting the merchant's earlier deal (\"old advance was ... paid in full\") is no offer of today", () => {
    const c = read('Renewal approved for Maple Dental: $60,000 @ 1.32, 140 days, $565.71 daily.\nOld advance was $30,000 @ 1.45, 100 days, funded 2024, paid in full.', ask(60_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.32, term: 140 }] });
    expect(c.offers).toHaveLength(1);
  });
});

describe('holdout36 worked on: what an underwriter reads in a reply', () => {
  const maple = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Maple Dental Studio' });
  it('a request with its price written out in full ahead of the documents is no offer yet: a person sets expectations', () => {
    const c = read("Before anything goes out on Maple Dental I need the October bank statement and a voided check.\n\nWhen those come in I'd likely land at $30,000, 1.36, 24 weeks, $1,700.00 weekly.", maple(40_000));
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms', offers: [] });
    // the same request without a price is applied as a request
    expect(read('Before anything goes out on Maple Dental I need the October bank statement and a voided check.', maple(40_000)).review_reason ?? null).toBeNull();
  });
  it('one reply about two files, the other one only given a status ("still with UW"), is for a person', () => {
    const c = read('Hi Dana,\n\nMaple Dental Studio - approved, 40k / 1.35 / 120 days / $450 daily.\n\nBirch Street Bakery - still in underwriting, maybe Friday.', maple(40_000));
    expect(c.review_reason).toBe('multiple_deals');
  });
  it('a reply saying it answers several of the broker\'s files at once is for a person', () => {
    const c = read('Dana, replying to your two from Monday:\n\nMaple Dental Studio - approved, 40k / 1.35 / 120 days / $450 daily.\n\nMore on the rest tomorrow.', maple(40_000));
    expect(c.review_reason).toBe('multiple_deals');
  });
  it('a request naming another business right after the greeting ("Dana - on Birch Street Bakery, I need ...") is not this deal\'s', () => {
    const c = read('Dana - on Birch Street Bakery, I need the landlord letter and their September statement before we can move.', maple(40_000));
    // (rfix) read as the request it is, for a person (multiple_deals), never applied to this deal (was `unclassified`)
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'multiple_deals' });
    expect(c.reasons.join('\n')).toContain('names another deal than this one (Birch Street Bakery)');
    expect(read('Dana - on Maple Dental, I need the landlord letter and their September statement before we can move.', maple(40_000))).toMatchObject({ type: 'needs_info' });
  });
  it('a buy rate named on its own line above the offer priced in full is that offer, not a second one missing its term', () => {
    const c = read('Maple Dental is approved for the whole 40k.\n\nBuy 1.32, sell ceiling 1.40 (8 points).\n\nAt buy: $40,000 advance / $52,800 payback / 120 business days / $440.00 a day.', maple(40_000));
    expect(c.offers).toEqual([{ amount: 40_000, factor_rate: 1.32, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 440, missing: [] }]);
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.test', own: '', autoReply: false })).toMatchObject({ apply: true });
    // two offers at one amount on different factors stay two
    expect(read('Maple Dental approved: $40,000 at 1.32 over 120 business days, or $40,000 at 1.38 over 160 business days.', maple(40_000)).offers).toHaveLength(2);
  });
  it('an approval whose contracts wait only on the standard bank verification is applied; terms that move on what it shows still go to a person', () => {
    const c = read('Maple Dental ok for all 40k, 1.34 / 30 wks / $1,786.67 weekly. Pending the Plaid link, the merchant has it now; if it looks good the contracts go out tonight.', maple(40_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 40_000, factor_rate: 1.34, term: 30, term_unit: 'weeks' }] });
    expect(c.review_reason ?? null).toBeNull();
    // the amount itself hanging on it stays for a person
    expect(read('Maple Dental ok for all 40k, 1.34 / 30 wks / $1,786.67 weekly. Pending the Plaid link; if it comes back short we drop to 30 and re-price.', maple(40_000)).review_reason).toBe('tentative_terms');
  });
  it('the ask refused only on the terms it came with, beside options one of which is the full amount on other terms, is a counter applied', () => {
    const c = read('Maple Dental: unable to fund the 40k at the requested term. Options:\n1) $30,000 at 1.34, 26 weeks, $1,546.15 weekly\n2) $40,000 at 1.45, 150 business days, $386.67 daily', maple(40_000));
    expect(c).toMatchObject({ type: 'counter' });
    expect(c.offers).toHaveLength(2);
    expect(c.review_reason ?? null).toBeNull();
    // refused outright, the full amount offered anyway: a person decides
    expect(read("Maple Dental: can't do 40k. Options:\n1) $30,000 at 1.34, 26 weeks, $1,546.15 weekly\n2) $40,000 at 1.45, 150 business days, $386.67 daily", maple(40_000)).review_reason).toBe('conflicting_cues');
  });
  it('a counter refused ("no room to counter") is no counter cue: the decline stands alone', () => {
    const c = read('We have to pass on Maple Dental. Four positions already and the balances are thin; there is no room to counter here.', maple(40_000));
    expect(c.type).toBe('declined');
    expect(c.reasons.join('\n')).not.toMatch(/^counter /m);
  });
  it('an ask measured against the revenue ("the 90k ask is three times monthly sales") is a deal-size decline, not low revenue', () => {
    const c = read('Declining Maple Dental. The 90k ask works out to three times monthly deposits of about $30,000, and we stay at one month of sales.', maple(90_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(read('Declining Maple Dental, deposits are too light at about $30,000 a month.', maple(90_000)).decline_category).toBe('low_revenue');
  });
  it('a request naming two documents with a bracketed aside between them ("... (articles or an operating agreement) and either ...") reads both', () => {
    const c = read('Need proof of ownership for Maple Dental (articles or an operating agreement naming her) and either a lease or a property tax bill for the office.', maple(40_000));
    expect(c.type).toBe('needs_info');
    expect(c.review_reason ?? null).toBeNull();
    expect(c.requested_items).toEqual(['proof of ownership for Maple Dental', 'lease or a property tax bill for the office']);
  });
  it("the lender's longest term stated as a rule (\"dental offices top out at 9 months with us\") is no offer's term beside the offer priced in full", () => {
    const c = read('Dana, not the 12 months. Dental offices top out at 9 months with us. What I can do on the whole 50: $50,000 / 1.32 / 150 business days / $440.00 daily.', maple(50_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.32, term: 150, term_unit: 'days' }] });
    expect(c.offers).toHaveLength(1);
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.test', own: '', autoReply: false })).toMatchObject({ apply: true });
    // a cap priced in its own sentence keeps its term
    expect(read('Our longest is 9 months at 1.36 on the full 50, $433.33 a day.', maple(50_000)).offers).toMatchObject([{ amount: 50_000, factor_rate: 1.36, term: 9, term_unit: 'months' }]);
  });
  it('the merchant\'s existing debits ("his MCAs pulling 1,900 a week") are no offer payment; "N total" that its payments repay at the factor is the amount', () => {
    const c = read('Pass at 80k for Maple Dental, his two MCAs pulling 1,900 a week already. Where I can land: 45k total, 1.38, he pays 1,035/wk x 60 wks. lmk', maple(80_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 45_000, factor_rate: 1.38, term: 60, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1035 }] });
    expect(c.review_reason ?? null).toBeNull();
    // a total that is the payback (the amount times the factor) stays the payback
    expect(read('Maple Dental approved: $50,000 at 1.36, $68,000 total, 40 weekly payments of $1,700.', maple(50_000)).offers).toMatchObject([{ amount: 50_000, factor_rate: 1.36, term: 40 }]);
  });
});

describe('holdout37 and holdout38 worked on: what an underwriter reads in a reply', () => {
  const falls = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Falls Tire & Lube' });
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.test', own: '', autoReply: false });
  it('a near name of the deal\'s business ("Cedar Creek Tire" on Cedar Falls Tire & Lube) goes to a person, whatever the decision', () => {
    const c = read('Cedar Creek Tire & Lube approved 40k @ 1.38, 120 days, 460/day. Stips signed app + voided ck. Send it', falls(40_000));
    expect(c.type).toBe('approved');
    expect(c.review_reason).toBe('multiple_deals');
    expect(c.reasons.join('\n')).toMatch(/close to this deal's but not it/);
    expect(outcome(c)).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the deal's own name, shortened, lengthened, abbreviated or beside the owner's name, is this deal: applied
    for (const name of ['Cedar Falls Tire', 'Cedar Falls Tire & Lube Center', 'Cedar Falls Tire & Lube']) {
      expect(outcome(read(`${name} approved 40k @ 1.38, 120 days, 460/day. Stips signed app + voided ck.`, falls(40_000)))).toMatchObject({ apply: true });
    }
    expect(read('For Maple Dntl: approved $40,000 at 1.38, 120 business days, $460.00 daily.', { requested_amount: 40_000, business_name: 'Maple Dental Studio' }).review_reason ?? null).toBeNull();
  });
  it("a request naming another business that shares only a word with the lender's own name is not the lender naming itself", () => {
    const c = read("Hey Dana,\n\nOn Bayou Country Seafood Distributors - I need 3 more months of statements and the owner's DL before I can put numbers on it.\n\nThanks!\nJolie Landry\nCajun Country Funding", { requested_amount: 38_000, business_name: 'Acadiana Crawfish Supply' });
    expect(c.reasons.join('\n')).toMatch(/names another deal than this one \(Bayou Country Seafood Distributors\)/);
    expect(outcome(c)).toMatchObject({ apply: false });
  });
  it('a term and a count of payments stated together as one offer\'s, that do not run the same time, go to a person (conflicting_cues)', () => {
    const c = read('Maple Dental: approved at $30,000, factor 1.40, 6 month term, 100 daily payments of $420.00.', { requested_amount: 45_000, business_name: 'Maple Dental Studio' });
    expect(c.type).toBe('counter');
    expect(c.offers).toMatchObject([{ amount: 30_000, factor_rate: 1.4, term: 6, term_unit: 'months' }]);
    expect(c.review_reason).toBe('conflicting_cues');
    // the same count beside a term refused in a sentence of its own: the count that repays the offer is its term, applied
    const d = read('Not the 6 months you asked. Maple Dental: approved at $30,000, factor 1.40, 100 daily payments of $420.00.', { requested_amount: 45_000, business_name: 'Maple Dental Studio' });
    expect(d.offers).toMatchObject([{ amount: 30_000, factor_rate: 1.4, term: 100, term_unit: 'days' }]);
    expect(d.review_reason ?? null).toBeNull();
  });
  it('a score read out after the pull it came from ("pulled the guarantor\'s bureau on the salon: 521") is a credit decline, named before the collections beside it', () => {
    const c = read("Pulled the guarantor's bureau on Maple Dental: 521, with three collections and a repo from last spring. We have to decline.", { requested_amount: 40_000, business_name: 'Maple Dental Studio' });
    expect(c).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
    // a count after a colon is no score: "positions: 3" / "history: 400 days"
    expect(read('We have to decline Maple Dental. Credit history: 400 days of collections and two charge-offs.', { requested_amount: 40_000, business_name: 'Maple Dental Studio' }).decline_category).toBe('default_history');
  });
  it('a payment with its schedule and its count after "x" ("Remittance: $1,150.00 weekly x 36") gives the offer its term', () => {
    const c = read('Cleared on Maple Dental for the full amount.\nPurchase Price: $30,000.00\nFactor: 1.38\nRemittance: $1,150.00 weekly x 36', { requested_amount: 30_000, business_name: 'Maple Dental Studio' });
    expect(c.offers).toMatchObject([{ amount: 30_000, factor_rate: 1.38, term: 36, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1150 }]);
    expect(outcome(c)).toMatchObject({ apply: true });
  });
  it('an approval of the ask priced without an amount is applied at the ask when the only other numbers are a date or an address', () => {
    const eagle = { requested_amount: 45_000, business_name: 'Eagle Pass Tire Co' };
    const text = 'Dana -\n\nEagle Pass is a go for the full 45K.\n\nBuy rate 1.31 on 110 business days, daily debit. You can add up to 8 points on top (sell rate no higher\nthan 1.39). Approval good thru 12/04.\n\nKai Moreno\n77 Canal St, Ste 2200 | Mobile, AL 36602';
    const c = read(text, eagle);
    expect(c.reasons.join('\n')).toMatch(/priced terms naming no amount in an approval: the ask/);
    expect(c.offers).toMatchObject([{ amount: 45_000, factor_rate: 1.31, term: 110, term_unit: 'days' }]);
    expect(outcome(c)).toMatchObject({ apply: true });
    // another amount in words of money still stops it: a person completes the offer
    expect(outcome(read(text.replace('Approval good', 'Could also do 30 if they want less. Approval good'), eagle))).toMatchObject({ apply: false });
  });
  it('a plain-text line wrapped mid-sentence by the mail client is read as one sentence ("we can\'t\\napprove it")', () => {
    const ctx = { requested_amount: 30_000, business_name: 'Maple Dental Studio' };
    expect(read("Maple Dental has been open 8 months, so we can't\napprove it right now.", ctx).type).toBe('declined');
    // a new line starting a new sentence with a capital stays its own line
    expect(read('Maple Dental has been open 8 months and we\nApprove nothing under a year.', ctx).reasons.join('\n')).not.toMatch(/"can't approve"/);
  });
  it('a Spanish refusal with its pronoun attached ("no podemos aprobarlo") declines, and "we need a minimum of" is a rule, not a request', () => {
    const c = read('La clínica lleva solo 8 meses abierta. We need a minimum of 12 months in business, so no podemos aprobarlo ahora.', { requested_amount: 30_000, business_name: 'Maple Dental Studio' });
    expect(c).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(c.review_reason ?? null).toBeNull();
    expect(c.reasons.join('\n')).not.toMatch(/"we need a"/);
    expect(read('Dana, lo siento: no podemos financiarlo con dos posiciones abiertas.', { requested_amount: 30_000, business_name: 'Maple Dental Studio' }).type).toBe('declined');
    expect(read('We need a voided check and the October statement before we can price Maple Dental.', { requested_amount: 30_000, business_name: 'Maple Dental Studio' }).type).toBe('needs_info');
  });
  it('the deal\'s business named as what is refused ("cant do Maple Dental") is a decline, with its reason', () => {
    const c = read('Dana - cant do Maple Dental Studio. Owner had an advance with us last year that went into default and we wrote off 9k.', { requested_amount: 30_000, business_name: 'Maple Dental Studio' });
    expect(c).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(c.review_reason ?? null).toBeNull();
    // another business named so is not this deal refused
    expect(read('Dana - cant do Harbor Bakery.', { requested_amount: 30_000, business_name: 'Maple Dental Studio' }).type).not.toBe('declined');
  });
  it('a funder\'s mailing advertising its program (buy rates from, approvals up to, same-day funding) about no deal is no decision', () => {
    const blast = 'Holiday special for ISO partners!\n\n- Buy rates as low as 1.25 with up to 10 points\n- Approvals up to $750,000 in 2 hours\n- Same-day funding on contracts signed by noon\n\nRestricted: trucking, cannabis. Minimum 6 months TIB.\n\nYou are receiving this because you are a registered partner. Unsubscribe: reply STOP.';
    expect(read(blast, { requested_amount: 30_000, business_name: 'Maple Dental Studio' }).type).toBe('unclassified');
    // one such line in a signature under a decision is still the decision
    expect(read('Maple Dental approved: $30,000 at 1.35, 120 business days, $337.50 daily.\n\nKim Lee\nApprovals up to $500,000', { requested_amount: 30_000, business_name: 'Maple Dental Studio' }).type).toBe('approved');
  });
  it('a counter the lender says it would not be comfortable making is no counter cue', () => {
    const c = read('$300K is well over our house limit for Maple Dental. We would not be comfortable countering at a size that far off what they need, so we will pass.', { requested_amount: 300_000, business_name: 'Maple Dental Studio' });
    expect(c.type).toBe('declined');
    expect(c.reasons.join('\n')).not.toMatch(/^counter /m);
  });
  it('a counter offering a line of credit priced by a fee on the balance (no factor) is applied as a counter with no offer to log', () => {
    const ctx = { requested_amount: 70_000, business_name: 'Maple Dental Studio' };
    const c = read("Passing on the MCA side for Maple Dental, the margins are thin. BUT our credit line desk likes it. They can offer a $40,000 revolving line of credit:\n- 12 month draw period\n- 1.9% monthly fee on the outstanding balance\n- weekly repayment of draws over 24 weeks\nIf they would take a line instead of an advance, I'll send the LOC app.", ctx);
    expect(c.type).toBe('counter');
    expect(c.offers).toEqual([]);
    expect(outcome(c)).toMatchObject({ apply: true });
    // the same advance counter without a factor is still an offer nobody can log: a person completes it
    expect(outcome(read("Can't do the 70 for Maple Dental. Best we can do is $40,000 over 12 months, weekly.", ctx))).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
  });
  it('a reply whose only part is a document request naming another business is read as a request, for a person (multiple_deals)', () => {
    const ctx = { requested_amount: 38_000, business_name: 'Maple Dental Studio' };
    const c = read('Hi Dana,\n\nOn Harbor Point Bakery - I need the last 3 months of statements and a voided check before I can price it.\n\nThanks\nSam', ctx);
    expect(c).toMatchObject({ type: 'needs_info', review_reason: 'multiple_deals' });
    expect(outcome(c)).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // an approval of another business on this thread is no answer for this deal at all
    expect(read('Hi Dana,\n\nApproved on Harbor Point Bakery - $40,000 @ 1.35, 30 weeks at $1,800.00.\n\nSam', ctx).type).toBe('unclassified');
  });
});

describe('holdout39 worked on: what an underwriter reads in a reply', () => {
  const outcome = (c: ReturnType<typeof read>) => replyOutcome(contractClassification(c), { from: 'uw@lender.test', own: '', autoReply: false });
  const mill = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Old Mill Creamery' });
  it('a name typed in lower case that shares the leading words of the deal\'s business but not its trade ("old mill cheese shop" on Old Mill Creamery) goes to a person', () => {
    const c = read('old mill cheese shop approved 32k @ 1.36, 100 days, $435.20 daily. voided ck to fund', mill(32_000));
    expect(c.type).toBe('approved');
    expect(c.review_reason).toBe('multiple_deals');
    expect(c.reasons.join('\n')).toMatch(/close to this deal's but not it.*\(old mill cheese shop\)/);
    expect(outcome(c)).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the same in capitals is a near name too
    expect(outcome(read('Old Mill Cheese Shop approved 32k @ 1.36, 100 days, $435.20 daily.', mill(32_000)))).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the deal's own name in lower case, shortened, with "the file", or beside the owner's name, is this deal: applied
    for (const name of ['old mill creamery', 'old mill', 'the old mill file', 'jen old mill creamery']) {
      expect(outcome(read(`${name} approved 32k @ 1.36, 100 days, $435.20 daily. voided ck to fund`, mill(32_000)))).toMatchObject({ apply: true });
    }
  });
  it('an approval stated by its payback "in total" takes the factor from the payback over the amount, never the payback for the amount', () => {
    const c = read('Old Mill Creamery cleared committee at the full $60,000.\n\nThe merchant would repay $81,600.00 in total, by way of 40 weekly debits of $2,040.00 each.', mill(60_000));
    expect(c.offers).toMatchObject([{ amount: 60_000, factor_rate: 1.36, term: 40, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 2040 }]);
    expect(outcome(c)).toMatchObject({ apply: true });
  });
  it('a counter said in words ("came in under the ask") whose no is the reason the ask cannot be done is applied when every offer is priced for less', () => {
    const text = 'Underwriting came in under the ask on Old Mill. The existing position eats too much of the weekly deposit to do $40k.\n\nFunded: $28,000\nPayback: $38,360\nCollection: $1,370 weekly x 28';
    const c = read(text, mill(40_000));
    expect(c).toMatchObject({ type: 'counter', offers: [{ amount: 28_000, factor_rate: 1.37, term: 28, term_unit: 'weeks' }] });
    expect(c.review_reason ?? null).toBeNull();
    expect(outcome(c)).toMatchObject({ apply: true });
    // the same tie with the lender correcting itself ("scratch that") stays a person's
    expect(read(text.replace('Underwriting came', 'Scratch that, underwriting came'), mill(40_000)).review_reason).toBe('conflicting_cues');
  });
  it('a pass "for now" in a sentence of its own declines, with its reason', () => {
    const c = read('old mill - 14 negs in the last 60, overdrawn half of october. pass for now', mill(30_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
    expect(c.review_reason ?? null).toBeNull();
  });
  it('a score named by the pull it came from, against where the lender\'s box starts, is a credit decline', () => {
    const c = read('old mill creamery - 551 on the pull, our box starts at 600. cant do it', mill(30_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
    // an amount is no score: "our box starts at 600k" names no credit
    expect(read('old mill creamery - revenue too thin, our box starts at 600k a year. cant do it', mill(30_000)).decline_category).not.toBe('credit_score');
  });
  it('a request relayed by the desk in its own words ("needs a couple of things before she can price it") reads the underwriter\'s list below it', () => {
    const text = "Dana - Priya needs a couple of things on Old Mill before she can price it. Can you chase the merchant?\n\nLou\n\n________________________________\nFrom: Priya Nair <pnair@lender.test>\nSent: Wednesday, December 9, 2026 10:02 AM\nTo: Lou <lou@lender.test>\nSubject: RE: Submission: Old Mill Creamery\n\nLou,\n\nOld Mill is a bigger ask than their deposits support, so I want:\n\n- 2024 and 2025 business tax returns\n- Payoff letter from the current funder\n\nThen I can give you a number.\n\nPriya";
    const c = read(text, mill(50_000), 'FW: RE: Submission: Old Mill Creamery');
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toHaveLength(2);
    expect(c.requested_items.join('\n')).toMatch(/tax returns/);
  });
  it('a funder\'s year-end mailing inviting declines ("Declined somewhere else? Send it over") about no deal is no decision', () => {
    const blast = 'Hi Partner,\n\n* Approvals in 3 business hours on complete files\n* 1st through 3rd positions considered\n* 10 points max upsell\n\nDeclined somewhere else? Send it over. We look at NSFs and low FICO case by case.\n\nThe Team';
    expect(read(blast, mill(30_000)).type).toBe('unclassified');
    // a decline with its reason and one such line under it is still the decline
    expect(read('We have to decline Old Mill Creamery, too many NSFs.\n\nKim\n1st through 4th positions considered', mill(30_000)).type).toBe('declined');
  });
  it("the statistical reader, like the rules, does not read a funder's footer (\"Any approval is subject to final review and may be withdrawn prior to funding\")", () => {
    const f = modelFeatures('No go on Old Mill, deposits too light.\n\nAcme Advance LLC is not a lender. Any approval is subject to final review and may be withdrawn prior to funding.', 'Re: Old Mill Creamery', mill(30_000));
    expect(f).not.toContain('approval');
    expect(f).not.toContain('prior to');
    // the lender's own words are read
    expect(f).toContain('no go');
  });
});

describe('holdout40: a formal letter\'s legal disclaimer is never the answer; a payback that contradicts amount x factor is for a person', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const lark = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Larkspur Dental Studio' });
  const disclaimer =
    '\n\nCONFIDENTIALITY AND DISCLOSURE: This message and any attachments are confidential and intended solely for the addressee. Riverbend Capital purchases future receivables; it does not make loans. Any indication of terms is not a commitment to purchase and remains subject to final underwriting, verification and a signed agreement. Riverbend may decline, modify or withdraw any offer at its sole discretion. This approval may be rescinded if any information provided is found to be inaccurate.';
  it('an approval with its terms above a legal disclaimer ("may decline, modify or withdraw any offer", "not a commitment to purchase") is applied as the approval', () => {
    const text = 'Good afternoon,\n\nLarkspur Dental Studio has been approved in the full amount requested.\n\nPurchase Price: $50,000.00\nPurchased Amount: $67,500.00\nRemittance: $1,730.77 weekly, 39 remittances\n\nKind regards,\nJo Ames' + disclaimer;
    const c = read(text, lark(50_000));
    expect(c).toMatchObject({ type: 'approved', offers: [{ amount: 50_000, factor_rate: 1.35 }] });
    expect(c.review_reason ?? null).toBeNull();
    expect(outcome(text, lark(50_000))).toMatchObject({ apply: true });
    // the statistical reader does not read it either
    const f = modelFeatures(text, 'Re: Larkspur Dental Studio', lark(50_000));
    expect(f).not.toContain('withdraw');
    expect(f).not.toContain('commitment');
  });
  it('a request for items above the same disclaimer stays a request, and a real withdrawal in the lender\'s own words is still one', () => {
    expect(read('Before Larkspur can go to committee we need the 2025 K-1s and a payoff letter from the current funder.\n\nRegards,\nJo' + disclaimer, lark(50_000)).type).toBe('needs_info');
    expect(read('We have to withdraw the approval on Larkspur Dental Studio, the merchant took another position.', lark(50_000)).review_reason).toBe('approval_withdrawn');
  });
  it('a payback written bare after the factor ("45 @ 1.38  72,500 back") that contradicts amount x factor sends the counter to a person', () => {
    const c = read('cant get to 60 on larkspur  can do 45 @ 1.38  72,500 back  7 mo daily', lark(60_000));
    expect(c.type).toBe('counter');
    expect(c.review_reason).toBe('conflicting_cues');
    expect(outcome('cant get to 60 on larkspur  can do 45 @ 1.38  72,500 back  7 mo daily', lark(60_000))).toMatchObject({ apply: false, review_reason: 'conflicting_cues' });
    // the payback that agrees (45,000 x 1.38 = 62,100) is applied
    expect(outcome('cant get to 60 on larkspur  can do 45 @ 1.38  62,100 back  7 mo daily', lark(60_000))).toMatchObject({ apply: true });
  });
});

describe('holdout40: a term in "dys", a schedule refused with "no" for a kind of file, another product offered "as a loan instead"', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const wren = (requested_amount: number, extra: Partial<ReplyContext> = {}): ReplyContext => ({ requested_amount, business_name: 'Wren Street Bakery', ...extra });
  it('"160 dys daily" is a term of 160 days', () => {
    const c = read('wren street bakery is approved for the full 40k  1.34 factor 160 dys daily  335 a day  need voided chk to fund', wren(40_000));
    expect(c.offers).toMatchObject([{ amount: 40_000, factor_rate: 1.34, term: 160, term_unit: 'days', payment_frequency: 'daily' }]);
    expect(outcome('wren street bakery is approved for the full 40k  1.34 factor 160 dys daily  335 a day  need voided chk to fund', wren(40_000))).toMatchObject({ apply: true });
  });
  it('a schedule said with "no" for a kind of file ("no wkly on bakeries only daily") is not the offer\'s, and is a counter', () => {
    const text = '55 is fine but no wkly on bakeries only daily  1.38  150 pmts of 506  if they want it i can do contracts today';
    const c = read(text, wren(55_000));
    expect(c.type).toBe('counter');
    expect(c.offers).toMatchObject([{ amount: 55_000, factor_rate: 1.38, term: 150, term_unit: 'days', payment_frequency: 'daily' }]);
  });
  it('the full amount offered "as a loan instead", priced, its no only the reason, is a counter applied', () => {
    const text = "So on Wren Street - we stopped buying receivables on bakeries this quarter (too much of the deposits are delivery app\nremits, not card or cash). BUT our term loan desk loves this file. They'll do the full amount as a loan instead:\n\n$70,000 term loan\nTotal payback $89,600\n52 weekly payments of $1,723.08\nNo prepay penalty after month 6\n\nMerchant has to be ok with a personal guarantee and a UCC. Want me to send the loan app?";
    const c = read(text, wren(70_000));
    expect(c.type).toBe('counter');
    expect(c.review_reason ?? null).toBeNull();
    expect(outcome(text, wren(70_000))).toMatchObject({ apply: true });
  });
});

describe('holdout41 worked on: a forward naming another merchant, a decision heard on a call, and what else an underwriter reads', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const cedar = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Loop Hardware' });
  const forward = (own: string, body: string) =>
    `${own}\n\nMarco\n\n---------- Forwarded message ---------\nFrom: Credit Desk <credit@lender.example>\nDate: Tue, Nov 3, 2026 at 9:40 AM\nSubject: decision\nTo: Marco <marco@lender.example>\n\n${body}`;

  it('a forwarded approval whose decision names another business ("Approved Harbor Point Bakery for 40k") waits for a person (multiple_deals)', () => {
    const text = forward('Nice one Dana, approval below. Send the contract request when ready.', 'Marco,\n\nApproved Harbor Point Bakery for 40k, 1.35, 30 weeks, weekly $1,800.00. Stips: voided check.\n\n- credit');
    const c = read(text, cedar(40_000));
    expect(c.type).toBe('approved');
    expect(c.review_reason).toBe('multiple_deals');
    expect(outcome(text, cedar(40_000))).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the same forward naming this deal's business is applied
    const mine = forward('Nice one Dana, approval below. Send the contract request when ready.', 'Marco,\n\nApproved Cedar Loop Hardware for 40k, 1.35, 30 weeks, weekly $1,800.00. Stips: voided check.\n\n- credit');
    expect(read(mine, cedar(40_000)).review_reason ?? null).toBeNull();
  });

  it('a decision heard on a call and passed on ("per my call with him", "verbal till the approval email") waits (tentative_terms); a call with the merchant does not', () => {
    const heard = 'Dana - per my call with Rob in credit they can do 30k at 1.38, 24 weeks, weekly $1,725.00 on Cedar Loop.';
    expect(read(heard, cedar(40_000)).review_reason).toBe('tentative_terms');
    expect(read('Just got off the phone with Rob: 30k at 1.38, 24 weeks, weekly $1,725.00 on Cedar Loop.', cedar(40_000)).review_reason).toBe('tentative_terms');
    expect(read('Cedar Loop: 30k at 1.38, 24 weeks, weekly $1,725.00. Credit hasn\'t written it up yet, so it\'s verbal until the approval email.', cedar(40_000)).review_reason).toBe('tentative_terms');
    expect(outcome(heard, cedar(40_000))).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
    // the lender's own call with the merchant, its own terms: no hearsay
    const own = 'Per my call with the owner, we can do 30k at 1.38, 24 weeks, weekly $1,725.00 on Cedar Loop.';
    expect(read(own, cedar(40_000)).review_reason ?? null).toBeNull();
  });

  it('an approval struck out by the business\'s name and "we\'re pulling it" for an undisclosed position is a decline for stacking, for a person', () => {
    const c = read('scratch the cedar loop hardware approval from yesterday (30k 1.38). the statements show two undisclosed positions, sorry.', cedar(30_000));
    expect(c).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn', decline_category: 'stacking' });
    expect(read('the 30k at 1.38 from this morning: a fresh UCC shows the merchant took an advance yesterday. we\'re pulling it.', cedar(30_000))).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
    // "pulling it up" is no withdrawal
    expect(read('Approved 30k at 1.38, 24 weeks, weekly $1,725.00. We\'re pulling it up in the portal now.', cedar(30_000)).type).toBe('approved');
  });

  it('a kind of business refused in so many words ("we dont do home based") is a decline', () => {
    expect(read('site visit done, he runs it out of his garage. we dont do home based, sorry', cedar(30_000)).type).toBe('declined');
    expect(read('We cannot fund home-based businesses.', cedar(30_000)).type).toBe('declined');
  });

  it('a record found clean ("no NSFs") is not the decline\'s reason: the reason after it is', () => {
    const c = read("Statements are fine, no NSFs, no negative days. But it's a vape shop, and vape shops are on our restricted list. Can't do it.", cedar(30_000));
    expect(c).toMatchObject({ type: 'declined', decline_category: 'industry' });
  });

  it('a term loan approved by its product\'s name, its amount in words, its term in words beside the figures, a footer of counts, is one approval', () => {
    const text = 'Hi Dana,\n\nOur committee approved the two-year term loan for Cedar Loop Hardware at the full eighty thousand dollars ($80,000).\n\nLoan amount: $80,000.00\nTotal repayment: $104,000.00\nTerm: 104 weeks\nPayments: 104 weekly payments of $1,000.00\n\nBest,\nAlana\n\nOver $1.2 billion funded for 9,500+ small businesses since 2011 | Term loans 6-36 months\nUnsubscribe | Manage preferences';
    const c = read(text, cedar(80_000));
    expect(c.type).toBe('approved');
    expect(c.offers).toMatchObject([{ amount: 80_000, factor_rate: 1.3, term: 104, term_unit: 'weeks' }]);
    expect(outcome(text, cedar(80_000))).toMatchObject({ apply: true });
  });

  it('a term restated in brackets ("52 weeks (about 12 months)") and the ask as what may be revisited later are no second offer', () => {
    const text = 'We landed below the sixty thousand requested.\n\nWhat we can offer:\nLoan amount: $45,000\nTotal repayment: $60,750.00\nTerm: 52 weeks (about 12 months)\n52 weekly payments of $1,168.27\n\nIf the owner wants to revisit the full amount, we could look again in the spring.\n\nAlana\nTerm loans 6-24 months | Lines of credit up to $250K';
    const c = read(text, cedar(60_000));
    expect(c.type).toBe('counter');
    expect(c.offers).toMatchObject([{ amount: 45_000, factor_rate: 1.35, term: 52, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 1168.27 }]);
  });

  it('an amount the approval drops to on a condition ("if ... the amount reduces to $50,000") is no second option', () => {
    const c = read('Decision | CONDITIONAL APPROVAL\nApproved Amount | $70,000.00\nFactor Rate | 1.30\nTerm | 40 weeks\nCondition | 2025 tax return. If filed revenue is under $900K the approved amount reduces to $50,000 at the same factor.', cedar(70_000));
    expect(c.type).toBe('approved');
    expect(c.offers).toMatchObject([{ amount: 70_000, factor_rate: 1.3, term: 40 }]);
  });

  it('requested items: a request wrapped on "and the" goes on with its list; a party asked after with "need name/#" is an item', () => {
    const c = read('Before I price it I need a payoff letter from the current funder and the\n\nDecember MTD.', cedar(30_000));
    expect(c.requested_items).toEqual(expect.arrayContaining(['payoff letter from the current funder', 'December MTD']));
    const q = read('need 2 months bank stmts. also who is the accountant, need name/# to verify the returns', cedar(30_000));
    expect(q.requested_items).toEqual(expect.arrayContaining(['accountant name/#']));
  });
});

describe('holdout42 worked on: an approval put on hold, an amount that may be reduced, nothing firmed up, a relayed note about another business', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const cedar = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Loop Hardware' });

  it('"hold that." closing its clause with a full stop holds the approval above it (tentative_terms); "hold the line" does not', () => {
    const text = 'approved 40k full ask 1.38 buy 120 dly 460\n\nactually hold that. uw flagged a new ucc, will confirm tmrw';
    expect(read(text, cedar(40_000)).review_reason).toBe('tentative_terms');
    expect(outcome(text, cedar(40_000))).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
    expect(read('Approved 40k at 1.38, 120 days, daily $460. Hold that thought on the renewal, we will talk next month.', cedar(40_000)).review_reason ?? null).toBeNull();
  });

  it('"the approved amount will be reduced" on a condition holds the approval (tentative_terms)', () => {
    const text = 'Stage: Approved\nApproved Amount: $40,000.00\nBuy Rate: 1.38\nTerm: 120 Business Days\nDaily Payment: $460.00\nCondition: Payoff letter from the current funder required. If the payoff exceeds $9,000 the approved amount will be reduced.';
    expect(read(text, cedar(40_000))).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    // a closing stip alone is no doubt about the amount
    expect(read(text.replace(/ If the payoff.*$/, ''), cedar(40_000)).review_reason ?? null).toBeNull();
  });

  it('"I cannot firm anything up until I have" beside a request holds it for a person (tentative_terms)', () => {
    const text = 'Preliminarily we are somewhere in the neighborhood of the ask, but I cannot firm anything up until I have:\n\n1. 2024 and 2025 business tax returns\n2. A year-to-date P&L\n\nOnce those are in I can have a committee decision.';
    expect(read(text, cedar(60_000))).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
    expect(read('I need:\n\n1. 2024 and 2025 business tax returns\n2. A year-to-date P&L\n\nOnce those are in I can have a committee decision.', cedar(60_000)).review_reason ?? null).toBeNull();
  });

  it('a decline pointing at a colleague\'s quoted note ("Renee\'s notes below") that declines another business waits for a person (multiple_deals), with the note\'s reason', () => {
    const quoted = (name: string) => `Dana,\n\nSorry, credit passed on this one. Renee's notes below.\n\nColleen\n\n-----Original Message-----\nFrom: Renee Fitzhugh <rf@lender.example>\nSent: Wednesday, November 4, 2026 12:47 PM\nTo: Colleen Hadley <ch@lender.example>\nSubject: RE: file\n\n${name} - DECLINE.\n22 negative days in the last 90. Not something we can fix with a smaller number.\n\nRF`;
    const other = read(quoted('Poplar Bluff Wrecker Service LLC'), cedar(40_000));
    expect(other).toMatchObject({ type: 'declined', review_reason: 'multiple_deals', decline_category: 'negative_days' });
    expect(outcome(quoted('Poplar Bluff Wrecker Service LLC'), cedar(40_000))).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the same note on this deal's business is this deal's decline, applied
    expect(read(quoted('Cedar Loop Hardware LLC'), cedar(40_000))).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
    expect(read(quoted('Cedar Loop Hardware LLC'), cedar(40_000)).review_reason ?? null).toBeNull();
    expect(splitReply(quoted('X Co'), 'RE: Submission').forwarded).toContain('22 negative days');
  });
});

describe('holdout42 worked on: a reason praised before its "but", the deal done as a loan, a shorter term for the owner to accept', () => {
  const cedar = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Loop Hardware' });

  it('what the lender praises before "but" is no decline reason ("time in business look great, but the FICO ... is below")', () => {
    const text = "We took a close look. The revenue and time in business look great, but the guarantor's FICO (534) is below our program floor of 575, so we have to decline at this time.";
    expect(read(text, cedar(40_000))).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
    // the same words as the reason itself stay the reason
    expect(read('We have to decline at this time: time in business is under our two-year minimum.', cedar(40_000))).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
  });

  it('"we would instead do the full amount as a term loan" with its terms is a counter (another product)', () => {
    const text = 'A daily-debit advance is a poor fit for them. We would instead do the full amount as a term loan:\n\nLoan amount: $80,000\nTerm: 18 months\nPayments: 18 monthly payments of $5,333.33\nTotal repayment: $96,000';
    expect(read(text, cedar(80_000)).type).toBe('counter');
    // a loan the merchant already has is no product offered
    expect(read('Approved $80,000 at 1.20, 18 months, monthly $5,333.33. They pay off the term loan they have with the bank first.', cedar(80_000)).type).toBe('approved');
  });

  it('"let me know if the owner can live with the shorter term" beside approved terms is a counter', () => {
    const text = 'Committee was comfortable with the full forty thousand but not with stretching it.\n\nWhat they approved: $40,000 at a 1.33 factor over 35 weeks, 35 weekly payments of $1,520.00.\n\nPlease let me know if the owner can live with the shorter term.';
    expect(read(text, cedar(40_000)).type).toBe('counter');
    expect(read(text.replace('Please let me know if the owner can live with the shorter term.', 'Please send the contract request when ready.'), cedar(40_000)).type).toBe('approved');
  });
});

describe('holdout42 worked on: requested items in HTML checklists and stip tables, and a request forwarded "FYI below"', () => {
  const cedar: ReplyContext = { requested_amount: 40_000, business_name: 'Cedar Loop Hardware' };

  it('a checklist whose boxes sit in their own table cells ("☐ | Voided business check") lists the open boxes only', () => {
    const html = '<p>Before we can send terms, we need the following:</p><table><tr><td>&#9744;</td><td>Signed application</td></tr><tr><td>&#9744;</td><td>2025 business tax return</td></tr><tr><td>&#9745;</td><td>Four months of bank statements (received, thanks!)</td></tr></table>';
    const c = classifyReply({ subject: 'A few items needed', text: '', html }, cedar);
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(['Signed application', '2025 business tax return']);
  });

  it('a stip table\'s label keeps one colon ("Stip 1: | October bank statement" is the item "October bank statement")', () => {
    const html = '<p>The opportunity below requires additional documentation.</p><table><tr><td>Stip 1:</td><td>October bank statement</td></tr><tr><td>Stip 2:</td><td>MTD bank activity</td></tr></table>';
    expect(classifyReply({ subject: 'Pending Stips', text: '', html }, cedar).requested_items).toEqual(['October bank statement', 'MTD bank activity']);
  });

  it('"FYI below" over a quoted credit note reads the note\'s request; an aside cut by the line break is dropped', () => {
    const text = 'FYI below. Once I have these I can get you terms same day.\n\nColleen\n\n-----Original Message-----\nFrom: Renee <rf@lender.example>\nSent: Thursday, November 5, 2026 9:12 AM\nTo: Colleen <ch@lender.example>\nSubject: RE: file\n\nI need a signed 4506-C for the owner, and statements for the second operating account (the one\nending 4471 that the transfers come from).\n\nRF';
    const c = read(text, cedar);
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(['signed 4506-C for the owner', 'statements for the second operating account']);
  });
});

describe('holdout42 worked on: who approved what ("our credit committee approved the full ..."), a term wrapped inside its unit', () => {
  const cedar: ReplyContext = { requested_amount: 35_000, business_name: 'Cedar Loop Hardware' };

  it('"our credit committee approved the full thirty-five thousand dollars" with its structure in prose is an approval with its offer', () => {
    const text = 'Good news on Cedar Loop: our credit committee approved the full thirty-five thousand dollars on\nour revenue-based program this morning.\n\nThe structure is a factor of 1.30, for a total remittance of $45,500, collected over one hundred thirty business\ndays at $350.00 per day.\n\nI will need a voided business check and a signed purchase agreement to fund.';
    const c = read(text, cedar);
    expect(c.type).toBe('approved');
    expect(c.offers).toMatchObject([{ amount: 35_000, factor_rate: 1.3, term: 130, term_unit: 'days' }]);
    // the same approval with no terms beside the closing stips is never applied as a request alone
    expect(read('Our credit committee approved the full amount on our revenue-based program this morning. I will need a voided business check and a signed purchase agreement to fund.', cedar).review_reason).toBeDefined();
    // "the committee has not approved it" is no approval
    expect(read('The committee has not approved it yet; I will need a voided business check first.', cedar).type).not.toBe('approved');
  });

  it('a term in figures wrapped inside its unit ("130 business\\ndays") is still the term', () => {
    expect(extractOffers('Approved $35,000 at a factor of 1.30, collected over 130 business\ndays at $350.00 per day.', cedar)).toMatchObject([{ amount: 35_000, factor_rate: 1.3, term: 130, term_unit: 'days' }]);
  });
});

describe('holdout43 worked on: a schedule asked for and refused in the next clause, a colleague\'s note "below" named by a pronoun', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const cedar = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Loop Hardware' });

  it('"Weekly remittance was requested; not available ..." beside a full-amount approval on daily terms is a counter (another schedule)', () => {
    const text = 'Stage: Approved\nFunding Amount: $70,000.00\nBuy Rate: 1.35\nTerm: 140 Business Days\nPayment Frequency: Daily ACH\nEst. Payment: $675.00\n\nNotes from Underwriting:\nWeekly remittance was requested; not available for contractors in this program. Approval is daily ACH only.\nStips: voided check.';
    const c = read(text, cedar(70_000));
    expect(c.type).toBe('counter');
    expect(c.offers).toMatchObject([{ amount: 70_000, factor_rate: 1.35, term: 140, payment_frequency: 'daily' }]);
    expect(outcome(text, cedar(70_000))).not.toMatchObject({ apply: true, type: 'approved' });
    // the same schedule asked for and granted is an approval
    expect(read(text.replace('Weekly remittance was requested; not available for contractors in this program. Approval is daily ACH only.', 'Daily remittance was requested and approved.'), cedar(70_000)).type).toBe('approved');
  });

  it('"Rick passed on this one, see his note below" over a note declining another business waits (multiple_deals), with the note\'s reason', () => {
    const note = (name: string) => `Dana,\n\nRick passed on this one, see his note below. Sorry.\n\nHal\n\n-----Original Message-----\nFrom: Rick Salas <rick@lender.example>\nSent: Thursday, November 5, 2026 8:03 AM\nTo: Hal Brennan <hal@lender.example>\nSubject: RE: file\n\nHal,\n\nPass on ${name}. First deposits are from May of this year and we need twelve months minimum.\n\nRick`;
    const other = read(note('Scottsdale Desert Laser Center'), cedar(80_000));
    expect(other).toMatchObject({ type: 'declined', review_reason: 'multiple_deals', decline_category: 'time_in_business' });
    expect(outcome(note('Scottsdale Desert Laser Center'), cedar(80_000))).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
    // the same note on this deal's business is this deal's decline
    expect(read(note('Cedar Loop Hardware'), cedar(80_000))).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read(note('Cedar Loop Hardware'), cedar(80_000)).review_reason ?? null).toBeNull();
  });
});

describe('holdout43 worked on: a mailing footer\'s "Unsubscribe | Manage preferences", figures read out in words, a reason the lender says it is not', () => {
  const cedar = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Cedar Loop Hardware' });

  it('a mailing tool\'s footer ("Unsubscribe: https://... | Manage preferences") is no request to be taken off the list: the two-program offer above it is a counter', () => {
    const body = 'Hi Dana,\n\nOur credit team reviewed Cedar Loop, and rather than the advance at $110,000 they would like to put it into one of two programs:\n\nOption 1 - Term loan\nAmount: $110,000\nTotal repayment: $138,600\n78 weekly payments of $1,776.92\n\nOption 2 - Revenue-based financing\nAmount: $75,000\nFactor: 1.32\n39 weekly payments of $2,538.46\n\nLet me know which way the owner wants to go.\n\nNoelle\nTamarack Lending Group\nTerm loans | Lines of credit | Revenue-based financing\n';
    const c = read(`${body}Unsubscribe: https://hs.lender.example/unsubscribe  |  Manage preferences`, cedar(110_000));
    expect(c.type).toBe('counter');
    expect(c.offers).toMatchObject([{ amount: 110_000, factor_rate: 1.26, term: 78 }, { amount: 75_000, factor_rate: 1.32, term: 39 }]);
    // a person asking off the list is still no decision
    expect(read('Please unsubscribe me, I no longer handle ISO submissions.', cedar(110_000)).type).toBe('unclassified');
    // with the footer not read, an advertised speed ("Most of our lines of credit are approved in under 24 hours") is no approval either
    const ad = 'Thanks for reaching out! We received your email and will reply within one business day.\n\nDid you know? Most of our lines of credit are approved in under 24 hours, with limits from $10,000 to $250,000.\n\nUnsubscribe | Manage preferences';
    expect(read(ad, cedar(22_000)).type).toBe('unclassified');
  });

  it('an offer read out in words ("one hundred thousand at a one-forty, forty weeks, thirty-five hundred a week") is the offer in figures', () => {
    const c = read('Cedar Loop - UW signed off on the full hundred. one hundred thousand at a one-forty, forty weeks, thirty-five hundred a week. contracts tmrw am if u want em', cedar(100_000));
    expect(c.type).toBe('approved');
    expect(c.offers).toMatchObject([{ amount: 100_000, factor_rate: 1.4, term: 40, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 3500 }]);
    expect(wordsToDigits('the full forty thousand at one\nthirty-three, six months')).toContain('$40,000 at 1.33');
    // a time of day is no factor, nor a price with no amount before it
    expect(wordsToDigits('call me at one-thirty pm')).toBe('call me at one-thirty pm');
    expect(wordsToDigits('meet at one-forty')).toBe('meet at one-forty');
  });

  it('a reason the lender says it is not ("It isn\'t a question of revenue or credit") is no decline category; a line of credit is no credit score', () => {
    const text = "I'm sorry to report that Cedar Loop doesn't fit our guidelines. The business address is the owner's residence, and all of our programs require a commercial location. It isn't a question of revenue or credit.\n\nNoelle\nTerm loans | Lines of credit | Revenue-based financing";
    expect(read(text, cedar(15_000))).toMatchObject({ type: 'declined', decline_category: 'other' });
    expect(read(text.replace('revenue or credit.', 'revenue or credit score.'), cedar(15_000))).toMatchObject({ type: 'declined', decline_category: 'other' });
    expect(read("Sorry, Cedar Loop doesn't fit our guidelines.\n\nNoelle\nTerm loans | Lines of credit | Revenue-based financing | A line of credit in 24 hours", cedar(15_000))).toMatchObject({ type: 'declined', decline_category: 'other' });
    // the reason after its "but" stays the reason
    expect(read("Sorry, we can't do it. It has nothing to do with the revenue, but the FICO is 540.", cedar(15_000))).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
  });
});

describe('holdout43 worked on: a step held "until he sees two things", a list wrapped across lines, "b4"', () => {
  const cedar: ReplyContext = { requested_amount: 150_000, business_name: 'Cedar Loop Hardware' };

  it('"Rick won\'t price it until he sees two things: a payoff letter ..., and a written\\nexplanation ..." is a request with both items, applied', () => {
    const text = "Dana,\n\nRick won't price Cedar Loop until he sees two things: a payoff letter from Kapitus, and a written\nexplanation from the owner for the three returned ACH items in September. Get me those and he'll turn it the\nsame day.\n\nHal";
    const c = read(text, cedar);
    expect(c.type).toBe('needs_info');
    expect(c.review_reason ?? null).toBeNull();
    expect(c.requested_items).toEqual(['payoff letter from Kapitus', 'written explanation from the owner for the three returned ACH items in September']);
    // the held step alone, one item awaited, is the request
    expect(read("Rick won't price Cedar Loop until he sees the payoff letter from Kapitus.", cedar)).toMatchObject({ type: 'needs_info', requested_items: ['payoff letter from Kapitus'] });
    // a refusal with nothing awaited is no request
    expect(read("We won't price Cedar Loop. Too many returned ACH items in September.", cedar).type).not.toBe('needs_info');
  });

  it('"b4" ends an item as "before" does', () => {
    expect(read('gym looks ok. need MTD + the lease on the new englewood location b4 i can move on it', cedar).requested_items).toEqual(['MTD', 'lease on the new englewood location']);
    // letters asked of several funders stay one item, as the corpus labels them ("payoff letters from Fundbox and Credibly")
    expect(read('Before Rick looks at it we need payoff letters from both Kalamata and Greenbox, and a signed bank verification authorization.', cedar).requested_items)
      .toEqual(['payoff letters from both Kalamata and Greenbox', 'signed bank verification authorization']);
    expect(read('we need the payoff letter from Kalamata and the MTD.', cedar).requested_items).toEqual(['payoff letter from Kalamata', 'MTD']);
  });
});

describe('review of the holdout41-43 rules', () => {
  const ctx: ReplyContext = { requested_amount: 60_000, business_name: 'Cedar Hollow Tire & Lube' };
  const outcome = (text: string) => {
    const c = read(text, ctx);
    return { c, o: replyOutcome(contractClassification(c), { from: 'x@lender.example', own: text, autoReply: false }) };
  };
  it('a step or a paper approved ("UW approved the stips", "approved the payoff letter") is no decision: never applied', () => {
    for (const t of [
      'UW approved the stips you sent. Still waiting on final decision from committee.',
      'We have approved the payoff letter from Kapitus. Final decision still pending with committee.',
      'Underwriting approved the application to move to final review. Will update you tomorrow.',
      'Credit approved the bank statements you uploaded. The final answer is still to come.',
    ]) expect(outcome(t).o.apply, t).toBe(false);
    // the deal itself approved still is
    expect(outcome('UW approved the file at $60,000, 1.35, 9 months daily.').c.type).toBe('approved');
  });
  it('an approval that adjusts down to a lower amount on a condition waits for a person (tentative_terms)', () => {
    for (const t of [
      'Approved $50,000 at 1.35, 9 months daily.\nIf the October statement comes in under 40k the approval adjusts down to $35,000.',
      'Approved $60,000 at 1.30, 12 months weekly.\nShould the landlord letter not arrive, the amount decreases to $45,000.',
    ]) {
      const { c, o } = outcome(t);
      expect(c.review_reason, t).toBe('tentative_terms');
      expect(o.apply, t).toBe(false);
    }
  });
  it('an alternative in brackets ("(or 9 months at 1.42)") is an option of its own: both offers logged', () => {
    expect(read('Approved $50,000 at 1.35 for 6 months (or 9 months at 1.42).', ctx).offers).toHaveLength(2);
    expect(read('Approved $40,000 at 1.30 for 26 weeks (or 39 weeks at 1.40).', ctx).offers).toHaveLength(2);
    // a restatement in another unit stays one
    expect(read('Approved $40,000 at 1.30 for 78 weeks (about 18 months).', ctx).offers).toHaveLength(1);
  });
  it('a pulled file with the work going on after the comma is no withdrawal', () => {
    expect(read("I just pulled the file, give me an hour and I'll have an answer.", ctx).review_reason).not.toBe('approval_withdrawn');
    expect(read("We've pulled it, underwriting is reviewing now.", ctx).review_reason).not.toBe('approval_withdrawn');
    expect(read('We pulled it, sorry. Too many stacks.', ctx).review_reason).toBe('approval_withdrawn');
  });
  it('a lower-case lead before " - approved" names no other business', () => {
    expect(read('Spoke with credit - approved $50,000 at 1.35 for 9 months.', ctx).review_reason).not.toBe('multiple_deals');
    expect(read('Final Decision - Approved $50,000 at 1.35 for 9 months.', ctx).review_reason).not.toBe('multiple_deals');
    expect(read('Poplar Bluff Wrecker Service LLC - DECLINE.', ctx).review_reason).toBe('multiple_deals');
  });
  it('crafted 200k bodies (runs of spaces, a repeated conditional amount) are read in linear time', () => {
    // each took from seconds to minutes on the quadratic patterns (variable lookbehinds tried at every position, a
    // leading \s* before a separator, a line re-split per amount); vitest's default timeout bounds the whole test
    const bodies = [
      '.' + ' '.repeat(199_000) + 'x',
      'Declined. ' + ' '.repeat(100_000) + 'x'.repeat(99_000),
      'Approved $50,000. ' + 'if it drops to $1,000 '.repeat(9_000),
      'The revenue looks great. ' + ' '.repeat(199_000) + 'but',
      'no ' + ' '.repeat(199_000) + 'x',
    ];
    for (const b of bodies) expect(read(b).type).toBeDefined();
  });
});

describe('requested items as an underwriter logs them (rfix8)', () => {
  it('a stip row keeps neither its label nor its open status, and a row marked in is no request', () => {
    const c = read(
      'Hi Dana,\n\nWe still need the items below before we can fund.\n\n- Condition 4: Signed 8821 - Pending\n- Condition 5 - Most recent quarterly tax return - OPEN\n- Proof of ownership - RECEIVED\n- Voided operating account check (Cleared)\n\nThanks',
    );
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toContain('Signed 8821');
    expect(c.requested_items).toContain('Most recent quarterly tax return');
    expect(c.requested_items.some((i) => /ownership|voided/i.test(i))).toBe(false);
  });
  it('a term spelled out before its abbreviation is the abbreviation; a driving licence is a driver\'s license with its sides', () => {
    const c = read(
      'Good day,\n\nKindly share the following to proceed with the file:\n\n1) Profit and loss (P&L) for the current year\n2) Driving licence of the guarantor (front and back side)\n3) Month to date (MTD) statement\n\nRegards',
    );
    expect(c.requested_items).toEqual(['P&L for the current year', "driver's license of the guarantor (front and back)", 'MTD statement']);
  });
  it('a request pointing at its list below is no item of its own', () => {
    const c = read('Hello,\n\nKindly provide below documents for processing of the application:\n\n1) Voided check\n2) Articles of organization\n\nThanks');
    expect(c.requested_items).toEqual(['Voided check', 'Articles of organization']);
  });
  it('a formal letter numbers its requests in roman numerals, each ending with its "; and"', () => {
    const c = read(
      'Dear Mr. Ortiz,\n\nTo conclude our credit review we respectfully request the following:\n\n(i) the executed landlord estoppel letter;\n\n(ii) a current payoff letter from the existing funder; and\n\n(iii) the 2025 business tax return.\n\nVery truly yours,',
    );
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(['executed landlord estoppel letter', 'current payoff letter from the existing funder', '2025 business tax return']);
  });
  it('one item naming two documents names its article once', () => {
    const c = read('Team,\n\nBefore the investors sign off they want:\n\n1. The state liquor license and the county health permit\n2. YTD balance sheet\n\nThanks');
    expect(c.requested_items).toContain('state liquor license and county health permit');
  });
  it('a reason the lender says its decision does not reflect on is no reason; a credit department in a title names none', () => {
    const a = read('Dear Mr. Ortiz,\n\nThe owner is a minor partner in a second venture our policy excludes, and we must decline the transaction. Our decision does not reflect upon the personal credit or credit history.\n\nSincerely,\nJ. Alvarez');
    expect(a.type).toBe('declined');
    expect(a.decline_category).toBe('other');
    const b = read('Dana,\n\nWe will have to decline: the merchant shares its premises with a business we already fund, which is unrelated to the credit.\n\nR. Kim');
    expect(b.decline_category).toBe('other');
    const c = read('Dear Ms. Lee,\n\nWe are unable to approve this request as submitted and must decline. Questions may be directed to Credit Administration.\n\nRespectfully,\nMarta Osei\nSenior Vice President, Credit Administration\nHarbor Merchant Capital');
    expect(c.type).toBe('declined');
    expect(c.decline_category).toBe('other');
  });
  it('the shares of a syndicated approval that add up to it are no smaller amount put forward; shares that do not are for a person', () => {
    const body = (a: string, b: string) =>
      `Dana,\n\nApproved at the full $80,000. Buy 1.35, 48 weekly payments of $2,250.00. Send the contract request.\n\nSplit:\n  Lead desk            $${a}   60%\n  Partner fund          $${b}   40%\n  Total                 $80,000\n\nM.`;
    const ok = read(body('48,000', '32,000'), ask(80_000));
    expect(ok.type).toBe('approved');
    expect(ok.review_reason).toBeUndefined();
    const off = read(body('48,000', '22,000'), ask(80_000));
    expect(off.review_reason).toBe('conflicting_cues');
  });
});

describe('rfix7 (holdout44 fixes): wrapped figures, amounts in words, slash shorthand, program limits, verification, another product on a condition, phone shorthand', () => {
  const ctx: ReplyContext = { requested_amount: 40_000 };
  it('a figure wrapped from its unit across a blank line (one HTML block per typed line) reads with it', () => {
    const [o] = extractOffers('Approved $40,000 at a factor of 1.41, collected as a fixed daily debit of $402.86 over 140\n\nbusiness days (roughly 7 months).');
    expect(o).toMatchObject({ amount: 40_000, factor_rate: 1.41, term: 140, term_unit: 'days', payment_amount: 402.86 });
    // a shorthand line's last figure does not run on into the next line's words
    const opts = extractOffers('opt a: 30k 1.33 buy 28 wks wkly 1425.00\nthat one is good thru monday');
    expect(opts[0]).toMatchObject({ amount: 30_000, term: 28, term_unit: 'weeks', payment_amount: 1425 });
  });
  it('an amount in thousands and hundreds written out with its figure in brackets is the figure', () => {
    expect(wordsToDigits('forty-eight weekly payments of two thousand three hundred ten dollars ($2,310.00) each')).toContain('payments of $2,310.00 each');
    expect(wordsToDigits('a purchased amount of fifty-three thousand two hundred dollars ($53,200.00)')).toContain('$53,200.00');
    // the words and the figure disagree: not made one
    expect(wordsToDigits('two thousand three hundred ten dollars ($2,410.00)')).not.toContain('$2,410.00 ');
    const c = read('We are pleased to approve $40,000.00 at a factor of one point three three (1.33), for a purchased amount of fifty-three thousand two hundred dollars ($53,200.00), in forty (40) weekly payments of one thousand three hundred thirty dollars ($1,330.00).', ctx);
    expect(c.offers).toHaveLength(1);
    expect(c.offers[0]).toMatchObject({ amount: 40_000, factor_rate: 1.33, payment_amount: 1330 });
    expect(c.offers[0].conflict).toBeUndefined();
  });
  it('a count of payments in slash-split shorthand is the term, the next field with cents its payment', () => {
    const c = read('ok on the bakery. 40k / 1.41 / 140 dly / 402.86. send vc', ctx);
    expect(c.offers[0]).toMatchObject({ amount: 40_000, factor_rate: 1.41, term: 140, term_unit: 'days', payment_frequency: 'daily', payment_amount: 402.86 });
  });
  it('a request over a program written maximum is a deal-size decline, before a score named in praise', () => {
    expect(read('Declined. The request exceeds program maximum for new trucking merchants. Nice file otherwise, 741 FICO.', ctx).decline_category).toBe('deal_size');
    expect(read('We have to decline: the ask is above the product limit of $75k. Credit score is fine.', ctx).decline_category).toBe('deal_size');
  });
  it('a verification failure as a noun or in the passive is the verification reason', () => {
    expect(read('Declined. Reason: bank verification failure on the operating account.', ctx).decline_category).toBe('verification');
    expect(read('We are declining; the September deposits cannot be verified against the bank data.', ctx).decline_category).toBe('verification');
  });
  it('another product offered in words, its amount to be reduced on a condition: a counter a person decides', () => {
    const t = 'We are unable to buy receivables on this file. We can, however, offer a\n\nthirty-six (36) month term loan for the full $90,000.00.\nTotal repayment: $118,800.00\nPayments: 36 monthly payments of $3,300.00\nThis is subject to an appraisal of the trucks; if it comes in low, the loan amount will be reduced accordingly.';
    const c = read(t, { requested_amount: 90_000 });
    expect(c.type).toBe('counter');
    expect(c.review_reason).toBe('tentative_terms');
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: t, autoReply: false }).apply).toBe(false);
    // the product in words alone, no condition: a counter
    expect(read('We cannot purchase receivables here. We can, however, offer an eighteen (18) month term loan for $90,000, total repayment $111,600, 18 monthly payments of $6,200.', { requested_amount: 90_000 }).type).toBe('counter');
  });
  it("phone shorthand for documents is an item, and what the lender 'only got' is none", () => {
    const c = read('missing the nov stmt, only got aug sept oct. also need a voided chk and a pic of the signage', ctx);
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(expect.arrayContaining(['voided chk', 'pic of the signage']));
    expect(c.requested_items.some((i) => /only got/.test(i))).toBe(false);
  });
});

describe('(review rev-t)', () => {
  const ctx = ask(90_000);
  const outcome = (text: string, c?: ReplyContext) => replyOutcome(contractClassification(read(text, c)), { from: 'uw@lender.example', own: text, autoReply: false });
  it('a product the lender says it does not offer is no other product offered: the approval stands', () => {
    for (const t of [
      'Approved for the full $90,000 at 1.32 for 12 months. We do not offer a twelve (12) month term loan on this program.',
      "Approved for the full $90,000 at 1.32 for 12 months. We don't offer term loans on this program.",
      'Approved for the full $90,000 at 1.32 for 12 months. Note we no longer offer a twelve (12) month term loan, only the advance.',
      "Approved: $90,000 at 1.32, 12 months. We don't do a line of credit for this industry.",
    ]) expect(outcome(t, ctx), t).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    // a term loan offered in words in place of the advance is still the counter
    expect(read('We cannot purchase receivables here. We can, however, offer an eighteen (18) month term loan for $90,000, total repayment $111,600, 18 monthly payments of $6,200.', ctx).type).toBe('counter');
  });
  it('statements that "do not reflect" a figure are the reason itself, only "does not reflect ON" disclaims one', () => {
    expect(read("Declined. Statements don't reflect consistent deposits and the FICO is 540.", ctx).decline_category).toBe('credit_score');
    expect(read("Declined due to the NSFs. This decision does not reflect on the merchant's credit.", ctx).decline_category).toBe('nsf');
  });
  it('a list of options that adds up to the approved amount is no syndicate split: which stands is for a person', () => {
    const t = 'Approved at the full $60,000 at 1.35 for 8 months.\nIf the merchant wants less:\nOption A  $40,000\nOption B  $20,000';
    expect(outcome(t, ask(60_000))).toMatchObject({ apply: false, review_reason: 'conflicting_cues' });
    // the shares of a syndicate still add up to the approval
    expect(outcome('Approved at the full $60,000 at 1.35 for 8 months.\nLead  $36,000 60%\nParticipant  $24,000 40%', ask(60_000))).toMatchObject({ apply: true });
  });
  it('the cues rewritten to read long runs of spaces in one pass read the same: a dashed length, a labelled payment, a bare "no"', () => {
    // (linear on a crafted 200k run of spaces; the readings below are the ones the quadratic forms gave)
    expect(read('Approved $50,000 at 1.35, 6 - months, daily payment of   535.71', ask(50_000)).offers[0]).toMatchObject({ term: 6, term_unit: 'months', payment_amount: 535.71 });
    expect(read('Approved 50k, 1.35, 120  -  business days, dly:  562.50', ask(50_000)).offers[0]).toMatchObject({ term: 120, term_unit: 'days', payment_amount: 562.5 });
    expect(read('21 days in the red last 90.   no').type).toBe('declined');
  });
});

describe('(rfix9)', () => {
  const ctx = ask(60_000);
  it("a fresh subject stating one decision over a body stating the other goes to a person; a reply's old subject never counts", () => {
    const decline = 'Harbor Street Bakery\nDeclined. Too many NSFs in the last 60 days.\nNo counter.';
    expect(read(decline, ctx, 'Funding Decision: APPROVED - Harbor Street Bakery')).toMatchObject({ type: 'declined', review_reason: 'conflicting_cues' });
    const approval = 'Approved at $60,000, 1.35 factor, 120 daily payments of $675.00.';
    expect(read(approval, ctx, 'Deal Status: DECLINED - Harbor Street Bakery')).toMatchObject({ type: 'approved', review_reason: 'conflicting_cues' });
    // the subject agreeing, or an old subject carried along a reply, or a counter under "Approved with modified terms": applied
    expect(read(decline, ctx, 'Funding Decision: DECLINED - Harbor Street Bakery').review_reason).toBeUndefined();
    expect(read(decline, ctx, 'RE: Approved - Harbor Street Bakery - send contracts').review_reason).toBeUndefined();
    expect(read(decline, ctx, 'Status: NOT APPROVED - Harbor Street Bakery').review_reason).toBeUndefined();
    expect(read('We can do $40,000 at 1.38 for 100 days, daily $552.00. Cannot get to the full 60.', ctx, 'Decision: Approved with Modified Terms - Harbor Street Bakery').review_reason).toBeUndefined();
  });
  it('terms the lender says may still change, or whose final figure is still to come, go to a person (tentative_terms)', () => {
    const offer = 'Approved at $45,000, 1.36 factor, 90 payments of $680.00 daily. Could not get to the full 60.';
    for (const t of [
      `${offer} Pricing may still change once we see the payoff letter.`,
      `${offer} The amount could go down if the other funder's balance is higher.`,
      `${offer} Terms subject to change after the site visit.`,
      `${offer} This is not final, we will confirm final tmrw.`,
      `${offer} Underwriting still confirming the lender balance.`,
    ]) expect(read(t, ctx), t).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    // a disclaimer's "subject to change without notice" and the routine "not final until funding documents are executed"
    for (const t of [
      `${offer} Any offer is subject to change without notice.`,
      `${offer} Decisions are not final until funding documents are executed.`,
    ]) expect(read(t, ctx).review_reason, t).toBeUndefined();
  });
});

describe('(rfix11)', () => {
  const outcome = (text: string, c?: ReplyContext) => replyOutcome(contractClassification(read(text, c)), { from: 'uw@lender.example', own: text, autoReply: false });
  it('an approval void unless something nobody has seen exists goes to a person; a verification or a deadline stays a stip', () => {
    const ctx = ask(30_000);
    const offer = 'Approved for the full $30,000 at 1.36, 120 business days, daily payment of $340.00.';
    for (const t of [
      `${offer} The merchant must provide an IRS installment agreement with at least 3 payments made. If no agreement is in place, this approval is void.`,
      `${offer} This approval is null and void unless the owner provides a signed payment plan with the IRS.`,
      `${offer} Without a release of the lien, the offer is void.`,
      `${offer} If they can't produce the payoff letter, the approval is null and void.`,
    ]) expect(read(t, ctx), t).toMatchObject({ type: 'approved', review_reason: 'tentative_terms' });
    // routine conditions: a verification of what is on file, a deadline, a signed contract
    for (const t of [
      `${offer} If either one comes back dirty the approval is void.`,
      `${offer} If the pull doesn't match, the approval is void.`,
      `${offer} If no signed contracts are received within 10 days, this approval is void.`,
      `${offer} Unless funded within 30 days, this offer is void.`,
      `${offer} Subject to bank verification and a signed contract.`,
    ]) expect(outcome(t, ctx), t).toMatchObject({ apply: true, body: { response_type: 'approved' } });
  });
  it('a buy rate and a sell rate: the factor is the rate the stated payback or payments are priced at (the sell when they say so)', () => {
    const ctx = ask(40_000);
    const sold = 'Tybee Road came back clean - approved for the full $40K.\n\nBuy rate 1.29 / sell 1.39 (you have up to 10 pts)\nAt the 1.39 sell: $55,600 payback, 28 weekly debits of $1,985.71';
    expect(read(sold, ctx).offers).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.39, term: 28, term_unit: 'weeks', payment_amount: 1985.71 })]);
    expect(outcome(sold, ctx)).toMatchObject({ apply: true, body: { offers: [{ factor_rate: 1.39 }] } });
    // the payments alone priced at the sell
    expect(extractOffers('Approved $40,000, buy 1.30 / sell 1.40, 100 daily payments of $560.00')[0]).toMatchObject({ factor_rate: 1.4, term: 100 });
    // priced at the buy, or no figure to tell: the buy rate stays the factor
    expect(extractOffers('Approved $40,000. Buy rate 1.30 / max sell 1.40. Payback at buy $52,000, 100 daily payments of $520.00')[0]).toMatchObject({ factor_rate: 1.3 });
    expect(extractOffers('Approved $40,000 @ 1.30 buy / 1.40 sell, 100 business days, daily')[0]).toMatchObject({ factor_rate: 1.3 });
  });
  it('"were out" / "we\'re out" opening a clause that goes on with what the lender would do is a no', () => {
    const c = read('oct stmt doesnt match what the bank shows thru decisionlogic. looks edited. were out and i wouldnt send it anywhere else either');
    expect(c).toMatchObject({ type: 'declined', decline_category: 'verification' });
    expect(c.review_reason).toBeUndefined();
    expect(read("Two new positions since the app went in. We're out and we'd pass again at any amount.").type).toBe('declined');
    // never the statements being out, nor a person away
    expect(read('the statements were out and I need the new ones').type).not.toBe('declined');
    expect(read("We're out and back Monday, will look at it then.").type).not.toBe('declined');
  });
  it('"can you grab" / "could you pull" asks for the documents named after it', () => {
    const c = read('Bank deposits look light vs the $31K/mo on the app. Can you grab the last 3 months of Square statements + a MTD bank printout? Once I have those I can get it in front of UW same day.');
    expect(c).toMatchObject({ type: 'needs_info', requested_items: expect.arrayContaining(['last 3 months of Square statements', 'MTD bank printout']) });
    expect(c.review_reason).toBeUndefined();
    expect(read('Can you grab a voided check on this one?')).toMatchObject({ type: 'needs_info', requested_items: [expect.stringContaining('voided check')] });
    expect(read('Could you pull the October statement and a voided check for me?')).toMatchObject({ type: 'needs_info', requested_items: expect.arrayContaining(['October statement']) });
  });
  it('priced terms the lender says it held back until items come in, no approval in words: a request for items, for a person', () => {
    const ctx = ask(70_000);
    for (const t of [
      'was about to send the approval on this one, 70 @ 1.35 7 mo daily. then saw a $48,500 wire in on 11/2 thats not on the app. get me a balance letter or have the merchant explain it. holding til then',
      'I was going to approve it at $70,000, 1.35, 140 daily payments of $675.00, but there is a new UCC. Need a payoff letter before I do anything.',
    ]) {
      const c = read(t, ctx);
      expect(c, t).toMatchObject({ type: 'needs_info', review_reason: 'tentative_terms' });
      expect(c.requested_items.length, t).toBeGreaterThan(0);
    }
    // an approval in words with its closing stips stays an approval
    expect(read('Approved at $70,000, 1.35, 140 daily payments of $675.00. Need a voided check to fund, holding til then.', ctx).type).toBe('approved');
  });
  it('a statement asked by its place in the run ("the 4th month") is an item', () => {
    const c = read('need DL front n back on both owners + the 4th month. only got aug sep oct');
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(expect.arrayContaining(['4th month']));
    expect(read('Can you send a fourth month? We only have three.').requested_items).toEqual(expect.arrayContaining([expect.stringContaining('fourth month')]));
  });
  it('a decline "as submitted" beside an approval held out on a condition goes to a person; a plain one is applied', () => {
    const ctx = { requested_amount: 120_000, business_name: 'Spartanburg Textile Finishing' };
    const held = 'We are declining Spartanburg Textile Finishing as submitted. Our guidelines do not permit a second position behind an existing funder with more than half of its balance outstanding.\n\nIf the merchant is able to retire that balance, or you can obtain a payoff letter we could fund against, we would anticipate an approval somewhere in the range of $90,000 to $110,000, subject to re-underwriting at that time.';
    expect(read(held, ctx)).toMatchObject({ type: 'declined', decline_category: 'stacking', review_reason: 'conflicting_cues' });
    expect(outcome(held, ctx).apply).toBe(false);
    const plain = "$250K against $131K a month is well past what we'll advance (our cap is 100% of one month). Declining as submitted.\n\nIf the merchant wants to resubmit at a realistic number we'll take a fresh look.";
    expect(outcome(plain, ask(250_000))).toMatchObject({ apply: true, body: { response_type: 'declined' } });
  });
});

describe('(rfix10) cents in words, net funds, a menu led by the ask, figures across a paragraph break, stip requests', () => {
  it('an amount in words with its cents, as a cheque or a formal letter writes them, is the amount to the cent', () => {
    expect(wordsToDigits('daily payments of five hundred seventy dollars and eighty-three cents ($570.83)')).toContain('payments of $570.83');
    expect(wordsToDigits('weekly payments of five hundred seventy and 83/100 dollars ($570.83)')).toContain('payments of $570.83');
    expect(wordsToDigits('a payment of five hundred seventy dollars and 83/100 each')).toContain('payment of $570.83 each');
    expect(wordsToDigits('a purchased amount of sixty-seven thousand five hundred forty dollars and fifty cents ($67,540.50)')).toContain('amount of $67,540.50');
    // without the figure in brackets too
    expect(wordsToDigits('two hundred twelve dollars and five cents a day')).toContain('$212.05 a day');
    const [o] = extractOffers('Approved: $40,000 at a factor of 1.35, collected in ninety-five (95) daily payments of five hundred sixty-eight dollars and forty-two cents ($568.42).');
    expect(o).toMatchObject({ amount: 40_000, factor_rate: 1.35, term: 95, term_unit: 'days', payment_amount: 568.42 });
    // "cents on the dollar" is no amount
    expect(wordsToDigits('the old balance settled at sixty cents on the dollar')).not.toMatch(/\$/);
  });
  it('the net funds (what reaches the merchant after fees or a payoff) are never the amount offered: the gross purchase price is', () => {
    const [o, ...more] = extractOffers('We are pleased to approve a purchase price of fifty thousand dollars ($50,000.00) at a factor of 1.35, with net funds of forty-eight thousand five hundred dollars ($48,500.00) to the merchant after the origination fee, over 120 business days.');
    expect(o).toMatchObject({ amount: 50_000, factor_rate: 1.35, term: 120, term_unit: 'days' });
    expect(more).toEqual([]);
    const labelled = extractOffers('Approved.\nNet Funds to Merchant: $48,500\nPurchase Price: $55,000\nFactor: 1.35\nTerm: 6 months');
    expect(labelled.map((x) => x.amount)).toEqual([55_000]);
    // a net figure alone is no offer: the approval waits for a person rather than log the net as the amount
    const c = read('Approved with net funding of $48,500 after the payoff, 1.35, 6 months.', ask(50_000));
    expect(c.offers.some((x) => x.amount === 48_500)).toBe(false);
  });
  it('an approval offering the full ask as one option of a menu is an approval, applied with every option', () => {
    const grid = 'Pinecrest has been approved. Three structures are available; the merchant may select one:\n\nOption Advance Factor Term Payment\n\n1 $75,000 1.30 180 days $541.67\n\n2 $60,000 1.27 150 days $508.00\n\n3 $45,000 1.24 120 days $465.00\n\nOption 1 is the full amount requested. All options are 1st position, daily ACH.';
    const c = read(grid, ask(75_000));
    expect(c).toMatchObject({ type: 'approved' });
    expect(c.offers.map((o) => o.amount)).toEqual([75_000, 60_000, 45_000]);
    expect(replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: grid, autoReply: false }).apply).toBe(true);
    // the ask refused beside the same menu is still a counter (and a reason named beside it still a limit, as before)
    expect(read("We can't do the 75 at 1.30. Options:\nOption 1: $75,000 at 1.45, 120 days, daily $906.25\nOption 2: $60,000 at 1.34, 140 days, daily $574.29", ask(75_000)).type).toBe('counter');
    // "1st position" is the lender's own place, never the stack: the reason of this decline is the time in business
    expect(read('Declined. We only write 1st position on restaurants, and this one has been open 8 months.', ask(75_000)).decline_category).toBe('time_in_business');
  });
  it('a figure joins its unit across a paragraph break only when the unit goes on with the sentence, a figure in brackets too', () => {
    // wrapped: the figure in brackets after its words, the unit in the next HTML block
    const [o] = extractOffers('We are pleased to approve $40,000.00 at a factor of 1.35, with a fixed daily ACH of $450.00 over one hundred twenty (120)\n\nbusiness days.');
    expect(o).toMatchObject({ amount: 40_000, factor_rate: 1.35, term: 120, term_unit: 'days', payment_amount: 450 });
    // not wrapped: the next paragraph opens with the schedule as its subject, the figure before it is a balance, no payment
    const [b] = extractOffers('We are approving $40,000 at 1.35 for 120 days. The minimum average daily balance required is $1,500\n\ndaily is how we collect on this program.');
    expect(b).toMatchObject({ amount: 40_000, factor_rate: 1.35, term: 120, term_unit: 'days' });
    expect(b.payment_amount).toBeNull();
  });
  it('a relayed message named below ("UW\'s email below") is a pointer at the forwarded message, as "see below from UW" is', () => {
    const quoted = (own: string, below: string) =>
      `${own}\n\nMike\n\n-----Original Message-----\nFrom: Marisol Vega <mvega@lender.example>\nSent: Tuesday, November 3, 2026 10:14 AM\nTo: Mike Chen <mchen@lender.example>\nSubject: Pinecrest Veterinary Clinic\n\n${below}\n`;
    for (const own of ["Dana - UW's email below.", "Dana - credit's response below.", 'Dana - see below from UW.']) {
      const c = read(quoted(own, 'Need the October statement and a voided check before we can price this.'), ask(60_000));
      expect(c.type, own).toBe('needs_info');
      expect(c.reasons, own).toContain('the sender points at the forwarded request: read with it');
    }
    // a bare "see below" over an Outlook quote is no relay: the quote is the thread answered, not read as the answer
    expect(splitReply(quoted('Dana, see the decision below from Marisol.', 'Approved $60,000 at 1.35 for 8 months.')).forwarded).toBeNull();
  });
  describe('requested items', () => {
    const items = (text: string) => read(text, ask(60_000)).requested_items;
    it('a portal\'s upload instruction, a clause after a semicolon, a word merely containing "reference" are no items', () => {
      const t = 'In order to complete our review of the above-referenced merchant, please provide:\n\n1. Voided operating account check\n2. Landlord letter\n\nPlease upload the documents to the deal in the portal; the file will go back to underwriting on its own.';
      expect(items(t)).toEqual(['Voided operating account check', 'Landlord letter']);
      // the package the list makes up is no item of its own
      expect(items('Because of the size we need the full-doc package:\n\n1. 2025 business tax return\n2. YTD P&L')).toEqual(['2025 business tax return', 'YTD P&L']);
    });
    it('a heading asks for nothing on the line under it, and a verb in a business name asks for nothing', () => {
      expect(items('Items needed\n\nOur team has looked at this file and requires the below\n\n- Voided business check\n- Signed application')).toEqual(['Voided business check', 'Signed application']);
      expect(items('Before Harbor Sign & Print goes to committee, please send the September statement and a voided check.')).toEqual(['September statement', 'voided check']);
    });
    it('a letter explaining an amount in an inline list, and "X, or Y" as one item', () => {
      expect(items('Two things before I can price it: the October MTD, and a letter of explanation for the $31,500 wire on 10/22.')).toEqual(['October MTD', 'letter of explanation for the $31,500 wire on 10/22']);
      expect(items("Need the co-owner's signature on the app, or a signed spousal consent. Thanks")).toEqual(["co-owner's signature on the app, or a signed spousal consent"]);
    });
    it('what they "want to see" or "want to run", and why an item is asked is no part of it', () => {
      const t = 'credit likes it but before they price it they want to see the last two years of business tax returns and they want to run a bank verification through Plaid instead of the PDFs, so if you can get me those I will push it.';
      expect(items(t)).toEqual(['last two years of business tax returns', 'bank verification through Plaid']);
      expect(items('Can you send the full October statement now that it has closed, plus a copy of the landlord letter?')).toEqual(['full October statement', 'copy of the landlord letter']);
    });
    it('the same item asked in a list and in the sentence around it is one item', () => {
      const t = 'Please send the November bank statement and a copy of the owner\'s driver\'s license.\n\nOutstanding items:\n\n- November bank statement\n- Driver\'s license (owner)';
      expect(items(t)).toEqual(['November bank statement', "Driver's license (owner)"]);
    });
    it('a stip card: a numbered row label alone on its line ("Condition 1", "Outstanding 2:") and the document under it or after it', () => {
      expect(items('ACTION REQUIRED\n\nStatus\n\nConditions outstanding\n\nCondition 1\n\nBank login via DecisionLogic\n\nCondition 2\n\nArticles of organization\n\nUnderwriting cannot continue until the conditions above are uploaded.')).toEqual(['Bank login via DecisionLogic', 'Articles of organization']);
      expect(items('Status:  Pending Stips\nOutstanding 1:  October bank statement\nOutstanding 2:  Voided business check')).toEqual(['October bank statement', 'Voided business check']);
    });
    it('a request going on after a full stop ("Also the app signed"), or wrapped after a possessive, keeps its items', () => {
      expect(items('You sent August twice. Need September.\nAlso the app signed and dated, and a voided check.')).toEqual(['September', 'app signed and dated', 'voided check']);
      expect(items("I need 3 more months of statements and the owner's\nDL before I can put numbers on it.")).toEqual(['3 more months of statements', "owner's DL"]);
    });
    it('what the broker sent, a call to set up and further documentation in general are no items', () => {
      expect(items('Need the November statement and an MTD, what you sent ends in October.')).toEqual(['November statement', 'MTD']);
      expect(items('Need a merchant interview before committee. Is the owner available Thursday after 3?')).toEqual(['merchant interview']);
      expect(items('Need the landlord letter. Depending on what it says we may need additional documentation.')).toEqual(['landlord letter']);
    });
    it("another funder's contract by its name, an explanation of a transfer, a vessel's documentation are items; the lender's contract request is none", () => {
      expect(items("There's a weekly ACH to Fox Capital since June. Need the Fox contract and a payoff letter.")).toEqual(['Fox contract', 'payoff letter']);
      expect(items('Can you get me the last 3 months of processing statements, and a short explanation of the transfers in from "JR HOLDINGS"?')).toEqual(['last 3 months of processing statements', 'short explanation of the transfers in from "JR HOLDINGS"']);
      expect(items('Also please send the Coast Guard documentation for both boats.')).toEqual(['Coast Guard documentation for both boats']);
      expect(read('Approved, full 60 at 1.35 for 8 months. Get me the contract request and docs go out today.', ask(60_000)).requested_items).toEqual([]);
    });
    it('"and their ..." starts the next item, a phone\'s "n" is "and", a trailing "pls" is no part of the item', () => {
      expect(items('Can you get me the Rapid contract and their last 2 months of Rapid payment history?')).toEqual(['Rapid contract', 'last 2 months of Rapid payment history']);
      expect(items('need full sep oct stmts n mtd thru fri b4 i can price it')).toEqual(['full sep oct stmts', 'mtd thru fri']);
      expect(items('send me the oct stmt and an MTD pls')).toEqual(['oct stmt', 'MTD']);
    });
    it('a document said to be missing is asked for; what a document is missing is not a document', () => {
      expect(items('looks like a 40k deal but the aug statement is missing from the package. send that and a copy of the lease')).toEqual(['copy of the lease', 'aug statement']);
      expect(items('Oct stmt is missing pgs 2-4. Need the full Oct.')).toEqual(['full Oct']);
    });
    it('a list entry that explains and then asks: the item is what it asks for', () => {
      expect(items('Two things before we go further:\n- The package only has August and September statements. Can you send June and July?\n- Voided business check')).toEqual(['June and July', 'Voided business check']);
    });
    it('a stip status list: lines "X - Requested" / "X (still needed)" / a status column "Requested": the open ones only', () => {
      expect(items("Stip status on Pinecrest:\n\nSigned application - Received\nVoided check - Requested\nBank verification - Awaiting\nLandlord letter - Not yet received\nDriver's license - Verified\n\nThanks")).toEqual(['Voided check', 'Bank verification', 'Landlord letter']);
      expect(items('Stips:\n1. Signed app (received)\n2. Voided check (still needed)\n3. MTD statement (due by Friday)\n4. Proof of ownership (uploaded)')).toEqual(['Voided check', 'MTD statement']);
      expect(items('Document | Status\nSigned application | Uploaded\nVoided check | Not received\nMTD statement | Requested\nDL | Accepted')).toEqual(['Voided check', 'MTD statement']);
    });
    it('"Also ..." after a question asking for items goes on with them; a permit\'s notice is an item', () => {
      expect(items('Can you get me the Rapid contract? Also a signed 4506-C so we can pull transcripts.')).toEqual(['Rapid contract', 'signed 4506-C']);
      expect(items('For a winery compliance needs the TTB brewer\'s notice and the state liquor license before UW will look.')).toEqual(["TTB brewer's notice", 'state liquor license']);
    });
    it('requests in more words: "kindly furnish", "looking for", "need to see", "the only thing outstanding is", "as well as"', () => {
      expect(items('Kindly furnish the business license and the articles of incorporation.')).toEqual(['business license', 'articles of incorporation']);
      expect(items('Looking for the November statement and a copy of the lease.')).toEqual(['November statement', 'copy of the lease']);
      expect(items("I'd need to see the payoff letter and the MTD before pricing.")).toEqual(['payoff letter', 'MTD']);
      expect(items('Close on this one. The only thing outstanding is the landlord letter.')).toEqual(['landlord letter']);
      expect(items('Need a copy of the lease for the new location as well as the October statement.')).toEqual(['copy of the lease for the new location', 'October statement']);
    });
    it("what the merchant is to do holds the items, read by its own verbs: \"the merchant to sign the 8821 and upload a voided check\"", () => {
      expect(items("We'll need the merchant to sign the 8821 and upload a voided check.")).toEqual(['8821', 'voided check']);
      expect(items('Please have the owner sign and return the attached 4506-C.')).toEqual(['attached 4506-C']);
    });
  });
});

describe('(rfix12)', () => {
  const outcome = (text: string, c?: ReplyContext) => replyOutcome(contractClassification(read(text, c)), { from: 'uw@lender.example', own: text, autoReply: false });
  it('a count of payments in Spanish is the term: "140 pagos diarios de $607.14", "36 cuotas semanales de"', () => {
    const t = 'aprobado Pinecrest x los $60K completos. factor 1.38, 150 pagos diarios de $552.00. mándame el contract request';
    expect(read(t, ask(60_000)).offers).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.38, term: 150, term_unit: 'days', payment_frequency: 'daily', payment_amount: 552 })]);
    expect(outcome(t, ask(60_000))).toMatchObject({ apply: true, body: { offers: [{ term: 150 }] } });
    expect(extractOffers('aprobado $45,000 a 1.40, 36 cuotas semanales de $1,750.00')[0]).toMatchObject({ term: 36, term_unit: 'weeks', payment_frequency: 'weekly' });
  });
  it('numbered lines answering two files, the decisions in Spanish, go to a person (multiple_deals)', () => {
    const ctx: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };
    const t = 'te contesto los dos:\n\n1) Pinecrest Veterinary - APROBADO $60K a 1.38, 150 pagos diarios de $552.00\n2) Harbor Grill - no se puede, 4 posiciones\n\nmándame el CR';
    expect(read(t, ctx)).toMatchObject({ type: 'approved', review_reason: 'multiple_deals' });
    expect(outcome(t, ctx)).toMatchObject({ apply: false, review_reason: 'multiple_deals' });
  });
  it('a consolidation: the figures on its "Pays off:" line are balances, not the amount; "put them on one term loan" is another product', () => {
    const t = [
      "Can't add a 4th position. What we can do is take out both existing advances and put them on one term loan:",
      '',
      '- Loan amount: $60,000',
      '- Pays off: Fox Capital (~$15,200) + Kapitus Advance (~$9,100)',
      '- 18 monthly payments of $4,400.00',
      '- Total repayment: $79,200.00',
    ].join('\n');
    expect(extractOffers(t)).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.32, term: 18, term_unit: 'months', payment_amount: 4400 })]);
    expect(read(t, ask(40_000))).toMatchObject({ type: 'counter', offers: [{ amount: 60_000 }] });
    expect(outcome(t, ask(40_000))).toMatchObject({ apply: true, body: { response_type: 'counter' } });
  });
  it('a Spanish no that ends its clause: "no pasa", "UW ni lo quiso ver"; "no pasa nada" is none', () => {
    expect(read('el de pinecrest no pasa 😕 14 días negativos en sept, UW ni lo quiso ver')).toMatchObject({ type: 'declined', decline_category: 'negative_days' });
    expect(read('el de pinecrest no pasa. sorry')).toMatchObject({ type: 'declined' });
    expect(read('UW ni lo quiso ver, demasiadas posiciones').type).toBe('declined');
    expect(read('no pasa nada, mándame el MTD y lo vemos').type).not.toBe('declined');
  });
  it('debits that stopped tell of a default, not a stack; a UCC search or review is a check, not the reason', () => {
    const stopped = 'Unfortunately, we will not be extending an offer. The existing position is with a funder whose daily debits stopped in May, with no remittances since. Their counsel confirmed the account is in default.';
    expect(read(stopped)).toMatchObject({ type: 'declined', decline_category: 'default_history' });
    expect(read('Decline. Committee reviewed the file after the UCC and bank review: five active daily debits, three not disclosed.')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Declined after the UCC search: three active positions.')).toMatchObject({ decline_category: 'stacking' });
    // a UCC itself, and daily debits still running, keep their categories
    expect(read('Declined - open UCC from a funder that was never paid.').decline_category).toBe('default_history');
    expect(read('Declined, too many daily debits already.').decline_category).toBe('stacking');
  });
  it("a contractor's schedule of its jobs is an item: \"their WIP schedule\", \"the work-in-progress report\", \"the backlog report\"", () => {
    const items = (t: string) => read(t).requested_items;
    expect(items("Also need their WIP schedule: most of the revenue is progress billing and I want to see what's contracted for Q1.")).toEqual(['WIP schedule']);
    expect(items('Need the work-in-progress report and the backlog report before I can price.')).toEqual(['work-in-progress report', 'backlog report']);
  });
});

describe('(rev-w)', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'uw@lender.example', own: text, autoReply: false });
  it('"we\'re out and ..." is a no only when it goes on with the lender passing or refusing the file, never a person away saying when they will look', () => {
    for (const text of [
      "Team is at the Broker Fair this week, we're out and I'll review Pinecrest Monday.",
      'were out and i will look at it tomorrow am',
      "Office closed for the holiday - we're out and we will pick it up first thing Monday.",
    ]) {
      expect(read(text, ask(40_000)).type, text).not.toBe('declined');
      expect(outcome(text, ask(40_000)).apply, text).toBe(false);
    }
    expect(read('looks edited. were out and i wouldnt send it anywhere else either').type).toBe('declined');
    expect(read("Two new positions since the app went in. We're out and we'd pass again at any amount.").type).toBe('declined');
    expect(read("4 open positions. we're out and we won't take it at any amount.").type).toBe('declined');
  });
  it('a lender taking the file only in first position declines for the stack ("1st position only", "need to be in 1st position"); "All options are 1st position" beside a menu names none', () => {
    for (const text of [
      "Decline - we are 1st position only and there's an open Kapitus balance.",
      'We only fund in first position. Merchant has a Kapitus balance. Pass.',
      'Sorry, we need to be in 1st position and they have an advance with Rapid. Declined.',
    ]) expect(read(text, ask(40_000)), text).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(outcome('Approved! Option 1: $80,000 / 1.35 / 9 months. Option 2: $60,000 / 1.30 / 6 months. All options are 1st position.', ask(80_000))).toMatchObject({ apply: true, body: { response_type: 'approved' } });
  });
  it('a payback stated at the ceiling ("max sell 1.45. Max payback $72,500") prices no sale: the sell rate is not logged as the factor', () => {
    const text = 'Approved $50,000 / 6 months / weekly. Buy rate 1.30, max sell 1.45. Max payback $72,500.';
    expect(read(text, ask(50_000)).offers[0]?.factor_rate).not.toBe(1.45);
    expect(outcome(text, ask(50_000)).apply).toBe(false);
    expect(read('Approved $50,000 / 1.30 buy / 1.40 sell / 6 months. Payback up to $70,000.', ask(50_000)).offers[0]?.factor_rate).not.toBe(1.4);
    // a payback at a sell rate the lender prices the deal at stays the sell (rfix11)
    expect(read('Approved $40,000. Buy rate 1.29 / sell 1.39. At the 1.39 sell: $55,600 payback, 28 weekly debits of $1,985.71.', ask(40_000)).offers[0]?.factor_rate).toBe(1.39);
  });
  it('a schedule that counts events or reviews the file ("3 negative days in a month", "reviewed monthly") is no payment frequency', () => {
    for (const text of [
      'Approved $40,000 / 1.35 / 120 business days. Max 3 negative days in a month.',
      'Approved $40,000 / 1.35 / 120 business days. No more than 2 NSFs per month during the term.',
      'Approved $40,000 / 1.35 / 120 business days. Renewal eligibility reviewed monthly.',
    ]) expect(read(text, ask(40_000)).offers[0]?.payment_frequency, text).not.toBe('monthly');
    expect(read('Approved $40,000 / 1.35 / 12 months, paid monthly. Max 3 negative days in a month.', ask(40_000)).offers[0]?.payment_frequency).toBe('monthly');
  });
});

describe('(rfix13) the deal refused as sent, numbered menus, requested items on a long reply', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'uw@lender.example', own: text, autoReply: false });
  const logged = (text: string, ctx?: ReplyContext) => {
    const o = outcome(text, ctx);
    return o.apply ? (o.body.offers ?? []) : [];
  };
  const terms = (text: string, ctx?: ReplyContext) => read(text, ctx).offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit]);
  it('a counter after a refusal of the deal "as originally submitted" takes the terms offered, never the refused ones', () => {
    for (const text of [
      "Can't do $60k on a 12 month term as originally submitted, but we can do $40k over 9 months at 1.38.",
      'Declined as originally submitted ($60k / 12 months). Counter: $40k at 1.38 over 9 months.',
      'We cannot approve $60,000 over 12 months as originally submitted. We can offer $40,000 / 1.38 / 9 months.',
      'As submitted ($60k over 12 months) this is a decline; we can do $40k at 1.38 for 9 months.',
    ]) {
      expect(terms(text, ask(60_000)), text).toEqual([[40_000, 1.38, 9, 'months']]);
      expect(logged(text, ask(60_000)).map((x) => [x.amount, x.term]), text).toEqual([[40_000, 9]]);
    }
    // approved as submitted keeps its figures
    expect(terms('Approved as submitted: $45,000, 1.36, 140 days, $437.14 daily.', ask(45_000))).toEqual([[45_000, 1.36, 140, 'days']]);
  });
  it('a numbered menu, "1)", "(1)" or "Option 1:" lines, is one offer per complete option', () => {
    const want = [[50_000, 1.35, 9, 'months'], [40_000, 1.3, 6, 'months'], [30_000, 1.28, 4, 'months']];
    for (const text of [
      'Approved with options:\n1) $50,000 / 1.35 / 9 months\n2) $40,000 / 1.30 / 6 months\n3) $30,000 / 1.28 / 4 months',
      'Here is what we can do:\n(1) 50k at 1.35 over 9 months\n(2) 40k at 1.30 over 6 months\n(3) 30k at 1.28 over 4 months',
      'Approved - pick one:\nOption 1: $50,000 at 1.35 over 9 months\nOption 2: $40,000 at 1.30 over 6 months\nOption 3: $30,000 at 1.28 over 4 months',
      "Can't do the full 60k. Options:\n\nOption 1:\nAmount: $50,000\nFactor: 1.35\nTerm: 9 months\n\nOption 2:\nAmount: $40,000\nFactor: 1.30\nTerm: 6 months\n\nOption 3:\nAmount: $30,000\nFactor: 1.28\nTerm: 4 months",
    ]) {
      expect(terms(text, ask(60_000)), text).toEqual(want);
      expect(logged(text, ask(60_000)).length, text).toBe(3);
    }
  });
  it('a "--" line between two entries of a numbered menu separates them, no signature: every option after it is read; after the last entry it is the signature', () => {
    const want = [[50_000, 1.35, 9, 'months'], [40_000, 1.3, 6, 'months'], [30_000, 1.28, 4, 'months']];
    for (const text of [
      'Approved:\n\n1) $50,000 / 1.35 / 9 months\n--\n2) $40,000 / 1.30 / 6 months\n--\n3) $30,000 / 1.28 / 4 months\n--\nMike Jones\nAcme Funding 212-555-0100',
      'Approved, three ways.\n\nOption 1:\nAmount: $50,000\nFactor: 1.35\nTerm: 9 months\n--\nOption 2:\nAmount: $40,000\nFactor: 1.30\nTerm: 6 months\n\n--\n\nOption 3:\nAmount: $30,000\nFactor: 1.28\nTerm: 4 months',
    ]) {
      expect(terms(text, ask(60_000)), text).toEqual(want);
      expect(logged(text, ask(60_000)).length, text).toBe(3);
    }
    expect(splitReply('Approved:\n1) $50,000 / 1.35 / 9 months\n--\n2 Main St, Suite 4\nAcme Funding').own).not.toMatch(/Main St/);
    expect(splitReply('Approved:\n1) $50,000 / 1.35 / 9 months\n--\n1) Mike Jones').own).not.toMatch(/Mike/);
  });
  it('requested items of a long reply are those of its request alone: many lines of other text and the request again change nothing', () => {
    const piece = [
      'Thanks for the file. Before we can price it we need:',
      '- the October bank statement',
      '- a voided check',
      '',
      'Please send the October statement and a voided business check.',
      "Also need the driver's license (owner) and the landlord contact.",
      "What's the landlord's phone number?",
      'Who is the landlord on the new location?',
    ].join('\n');
    const filler = Array.from({ length: 6000 }, (_, i) => `> On day ${i} the merchant deposited card sales as usual, nothing to add.`).join('\n');
    const short = requestedItems(piece);
    // the piece itself is read: an item within another, another holding one kept, a question about an item asked
    expect(short.hits.filter((h) => h.startsWith('asked again')).length).toBeGreaterThanOrEqual(2);
    expect(short.items.some((i) => /new location/i.test(i))).toBe(false);
    expect(requestedItems(`${piece}\n\n${filler}\n\n${piece}`).items).toEqual(short.items);
    // many different items: each kept once, in the order asked, as on the short reply
    const many = Array.from({ length: 400 }, (_, i) => `- statement for account ${i}`);
    const list = `We need the following:\n${many.join('\n')}`;
    expect(requestedItems(`${list}\n\n${filler}\n\n${list}`).items).toEqual(requestedItems(list).items);
  });
});

describe('(rfix14) sectors named before their refusal, a desk too small for the ticket, a schedule kept for others against the ask, consolidations, another business by its terms, portal notes', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const deal = (requested_amount: number, business_name: string): ReplyContext => ({ requested_amount, business_name });

  it('a sector named first and then refused ("a pawn shop we don\'t fund") is an industry decline; check cashers and money services are a sector; a schedule refused after the sector is no decline', () => {
    expect(read("Dana, a pawn shop we don't do. Bring me a plumber or a pizzeria and I'll look tonight.", ask(60_000))).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(read("Listen, check cashers we won't touch. The deposits are customers' cash passing through, not sales.", ask(90_000))).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(read('Sorry, we do not fund money services businesses.', ask(90_000))).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(read("A restaurant we don't do weekly on. Daily only: 40,000 at 1.38, 120 business days, $460 a day.", ask(40_000)).type).toBe('counter');
    expect(read("Restaurants we don't do weekly on, only daily.", ask(40_000)).type).not.toBe('declined');
  });

  it('a ticket below what the desk can place ("below what the desk can syndicate", "our floor is $60k gross") is a deal-size decline; a floor on the deposits is no deal size', () => {
    expect(read('At 20k this sits below what the desk can syndicate. Not one we can take on; a smaller shop is the better home.', ask(20_000))).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(read('Not one we can take on - our floor is $60k gross, this asks 20.', ask(20_000))).toMatchObject({ type: 'declined', decline_category: 'deal_size' });
    expect(read('Good operator, but not something we can lead.', ask(30_000)).type).toBe('declined');
    expect(read("Can't do it - our floor is $50k a month in deposits and they run about 31k.", ask(30_000)).decline_category).not.toBe('deal_size');
  });

  it('a schedule kept for other files, set against the rest of the ask with "but", is the asked schedule refused: the offer on another schedule is a counter, applied', () => {
    const text = 'The 60 is fine, credit likes it. But weekly with us is reserved for files over 150, so: 60,000 at 1.38, 140 business days, $591.43 daily.';
    expect(read(text, ask(60_000))).toMatchObject({ type: 'counter' });
    expect(outcome(text, ask(60_000))).toMatchObject({ apply: true, body: { response_type: 'counter' } });
    // with no "but", whether the kept schedule was the one asked is not said: a person decides (holdout21)
    expect(outcome('Weekly with us is reserved for renewals. Approved 60,000 at 1.38, 140 business days, $591.43 daily.', ask(60_000)).apply).toBe(false);
  });

  it('the full ask approved in words as a consolidation goes to a person (the deal may have asked for one), never applied as a counter; a deal asking a consolidation is simply approved', () => {
    const text = 'Approved the full 90 as a consolidation - we pay off both funders direct at funding. $90,000 at 1.40, 48 weekly payments of $2,625. Payoff letters from each and we fund Friday.';
    expect(read(text, ask(90_000))).toMatchObject({ type: 'approved', review_reason: 'conflicting_cues' });
    expect(outcome(text, ask(90_000)).apply).toBe(false);
    const plain = 'Approved the full 90 as a consolidation. $90,000 at 1.40, 48 weekly payments of $2,625.';
    expect(read(plain, ask(90_000))).toMatchObject({ type: 'approved', review_reason: 'conflicting_cues' });
    expect(read(plain, { requested_amount: 90_000, product_type: 'consolidation' })).toMatchObject({ type: 'approved' });
    expect(read(plain, { requested_amount: 90_000, product_type: 'consolidation' }).review_reason ?? null).toBeNull();
    // a refusal beside it keeps the counter (holdout23's way: the deal asked as it was, the lender will only consolidate)
    expect(read('Not as a 3rd position. What works: we take out both and put them in one weekly. $90,000 at 1.40, 48 weekly payments of $2,625.', ask(90_000)).type).toBe('counter');
  });

  it('a line opening on another business and its terms ("Millbrook Hardware Supply, 45,000 at 1.36") names another deal: a person checks; this deal named so, or a greeting, is applied', () => {
    const other = 'Great news, approved!\n\nMillbrook Hardware Supply, 45,000 at 1.36, 120 days, $510 a day.\n\nSend the voided check.';
    expect(read(other, deal(45_000, 'Harbor Point Bakery')).review_reason).toBe('multiple_deals');
    expect(outcome(other, deal(45_000, 'Harbor Point Bakery')).apply).toBe(false);
    expect(outcome(other.replace('Millbrook Hardware Supply', 'Harbor Point Bakery'), deal(45_000, 'Harbor Point Bakery')).apply).toBe(true);
    expect(outcome('Good Morning, 45,000 at 1.36, 120 days, $510 a day. Approved, send the voided check.', deal(45_000, 'Harbor Point Bakery')).apply).toBe(true);
  });

  it('"pulling this one." typed without its subject takes the approval back; "pulling the file" to look at it does not', () => {
    expect(read('pulling this one. owner took another advance tues, 900 a day showing on the login. dead unless it gets paid off', ask(25_000))).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
    expect(read('Pulling the file now, give me an hour and I will have numbers.', ask(25_000)).review_reason).not.toBe('approval_withdrawn');
  });

  it("a portal's notice quoting its underwriter's note under \"Your underwriter left a note\" reads the note; a bare quote stays quoted", () => {
    const html = (intro: string) => `<p>${intro}</p><blockquote>Need the September statement and please confirm whether the owner rents the building. - R. Alvarez</blockquote><p>Reply in the portal. The file stays in underwriting until it is answered.</p>`;
    const c = classifyReply({ subject: 'Re: Submission', text: '', html: html('Your underwriter left a note on this file:') }, ask(50_000));
    expect(c.type).toBe('needs_info');
    expect(c.requested_items).toEqual(expect.arrayContaining(['September statement', 'whether the owner rents the building']));
    expect(classifyReply({ subject: 'Re: Submission', text: '', html: html('Thanks, see your message below.') }, ask(50_000)).type).not.toBe('needs_info');
  });

  it('items: a checklist status in square brackets, a month asked after by name, "please confirm whether", a phone\'s "n" and "bc"', () => {
    expect(read('The items below are required before a decision:\n- Bank statements (Jul-Oct) [RECEIVED]\n- Voided business check [OUTSTANDING]\n- Signed application [OUTSTANDING]', ask(50_000)).requested_items).toEqual(['Voided business check', 'Signed application']);
    expect(read('Where is September? You sent me August twice. Also I need a voided check.', ask(50_000)).requested_items).toEqual(expect.arrayContaining(['September', 'voided check']));
    expect(read('need dl front n back, n the last 3 clover stmts bc most sales r card. then i price it', ask(50_000)).requested_items).toEqual(expect.arrayContaining(['dl front n back', 'last 3 clover stmts']));
    expect(read('Need an explanation for the $12,000 deposit on 10/2 - if it is a loan it comes out of revenue.', ask(50_000)).requested_items).toEqual(['explanation for the $12,000 deposit on 10/2']);
  });
});

describe('(rfix15) the file a reply takes up, an office relaying a hedge, a checks table, praise, a later look, a schedule by its days, phone items', () => {
  const deal = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic' });
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'uw@lender.example', own: text, autoReply: false });

  it('a decline that says which file it takes up ("the application for X") and names another business goes to a person, the deal\'s own applies', () => {
    const other = 'Dana,\n\nWriting about the application for Hollowell Tire & Lube. Having gone through the statements we cannot approve it: an average daily balance of $1,200 will not carry the payment.\n\nBest,\nRuth';
    expect(read(other, deal(40_000))).toMatchObject({ type: 'declined', review_reason: 'multiple_deals' });
    expect(outcome(other, deal(40_000)).apply).toBe(false);
    const referral = 'Following up on the referral for Northgate Marine Supply LLC. We are unable to approve the request; the balances run too low.';
    expect(read(referral, deal(40_000)).review_reason).toBe('multiple_deals');
    // the deal's own file taken up, or none named: applied
    expect(outcome(other.replace('Hollowell Tire & Lube', 'Pinecrest Veterinary Clinic'), deal(40_000)).apply).toBe(true);
    expect(outcome(other.replace('Writing about the application for Hollowell Tire & Lube. ', ''), deal(40_000)).apply).toBe(true);
  });

  it('terms an office passes on for the funder, hedged ("he\'d likely do") or held until he talks to the broker, go to a person', () => {
    const firm = "Hi, Jen from Mark's office. Mark can do 25 at 1.38 for 5 months weekly, not the 40. Jen";
    expect(outcome(firm, ask(40_000)).apply).toBe(true);
    const hedged = "Hi, Jen from Mark's office. Mark went over the file last night and he'd likely do 25 at 1.38 for 5 months weekly, not the 40. Jen";
    expect(read(hedged, ask(40_000))).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    for (const held of [
      "Hi, Jen from Mark's office. Mark can do 25 at 1.38 for 5 months weekly, not the 40. He would like to speak with you first. Jen",
      "Hi, Jen from Mark's office. Mark can do 25 at 1.38 for 5 months weekly, not the 40. Nothing before anyone tells the merchant, he calls you at 9. Jen",
    ]) {
      expect(read(held, ask(40_000)), held).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
      expect(outcome(held, ask(40_000)).apply, held).toBe(false);
    }
  });

  it("a PASS in a checks table's result column is no decline; a decision cell reading PASS still is", () => {
    const engine = 'Decision | APPROVED\n\nFunding amount | $40,000.00\nFactor rate | 1.320\nTerm | 120 business days\n\nCheck | Detail | Result\nC1 | NSF count (90d): 0 | PASS\nC4 | Owner FICO 701 | PASS';
    const r = read(engine, ask(40_000));
    expect(r.type).toBe('approved');
    expect(r.review_reason).toBeUndefined();
    expect(r.reasons.some((x) => /^declined \d/.test(x) && /"pass"/.test(x))).toBe(false);
    expect(read('Decision | PASS\n\nReason | Owner FICO 541', ask(40_000)).type).toBe('declined');
  });

  it('what the lender praises in a clause of its own is no decline reason; the same subject faulted is', () => {
    const praised = "The practice looks solid and the owner's credit is strong. Unfortunately we need 2 years in business and they opened 14 months ago.";
    expect(read(praised, ask(40_000)).decline_category).toBe('time_in_business');
    expect(read(praised.replace('is strong', 'is weak'), ask(40_000)).decline_category).toBe('credit_score');
  });

  it('items listed for when the file comes back, after an apology with its reason, count for less: the decline is read with confidence', () => {
    const later = 'Hi Dana,\n\nI was rooting for this one. Unfortunately our floor is 12 months in business and the shop has been open 8.\n\nA few things that would help when it comes back:\n\n- a full year of statements\n- deposits holding near $40k\n- no new positions\n\nTalk soon';
    const r = read(later, ask(40_000));
    expect(r).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(r.reasons.some((x) => x.includes('for a later look'))).toBe(true);
    expect(r.review_reason).toBeUndefined();
    // a list with no later look named is not discounted
    expect(read(later.replace(' when it comes back', ''), ask(40_000)).reasons.some((x) => x.includes('for a later look'))).toBe(false);
  });

  it('a schedule named by the days it runs on ("debited each business day") is daily', () => {
    const text = 'Committee cannot purchase at $40,000 but can offer a Purchase Price of $30,000 against a Purchased Amount of $41,400, 15% of receipts debited each business day, estimated term 6 months.';
    expect(read(text, ask(40_000)).offers[0]).toMatchObject({ amount: 30_000, factor_rate: 1.38, term: 6, term_unit: 'months', payment_frequency: 'daily' });
    expect(read(text.replace('debited each business day', 'debited'), ask(40_000)).offers[0].payment_frequency).toBeNull();
  });

  it('a phone\'s items: "and" or "also" before a document\'s shorthand starts the next item, "ltr" is a letter', () => {
    expect(read('need MTD and voided chk. also DL front n back pls', ask(40_000)).requested_items).toEqual(['MTD', 'voided chk', 'DL front n back']);
    expect(read('need landlord ltr and the 2 most recent stmts', ask(40_000)).requested_items).toEqual(['landlord letter', '2 most recent stmts']);
  });

  it("the corpus scorer takes a phone's \"n\" for \"and\" on either side of one item, never a letter inside a word", async () => {
    const { itemMatches } = await import('../fixtures/replies/evaluate');
    expect(itemMatches('DL front and back', 'DL front n back')).toBe(true);
    expect(itemMatches('DL front n back', 'DL front and back')).toBe(true);
    expect(itemMatches('bank statements', 'n bank')).toBe(false);
  });
});

describe('(revz) an outside review: the refusal "as submitted" and the offer in its sentence, openers that name no business, tables and floors', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'uw@lender.example', own: text, autoReply: false });
  const terms = (text: string, ctx?: ReplyContext) => read(text, ctx).offers.map((o) => [o.amount, o.factor_rate, o.term, o.term_unit]);

  it('a refusal "as submitted" blanks only the refusal and the ask\'s figures behind it: the offer the same sentence goes on to is read, never a bare decline', () => {
    for (const text of [
      'Unable to approve as submitted and would need to restructure to $40,000 at 1.38 over 9 months.',
      'Declined as submitted, approved at $40,000 / 1.38 / 9 months.',
      'Can\'t do it as presented, can do 40k at 1.38 over 9 months.',
      'Counter at 40k / 1.38 / 9 months since we can\'t do 60k as requested.',
      'Approved $40,000 at 1.38 over 9 months, can\'t do the full $60k as submitted.',
      'Unable to approve as requested at $60,000 over 12 months and would restructure to $40,000 at 1.38 over 9 months.',
    ]) {
      expect(terms(text, ask(60_000)), text).toEqual([[40_000, 1.38, 9, 'months']]);
      expect(outcome(text, ask(60_000)), text).toMatchObject({ apply: true, body: { response_type: 'counter' } });
    }
  });

  it('a floor on the balances or the time in business is no deal size; a subject said not to be the issue is no reason; a sector refused only in a position or past a term is no industry decline', () => {
    expect(read("Can't do it. Our floor is $5,000 average daily balance and they're running about $1,800.", ask(40_000)).decline_category).toBe('low_balance');
    expect(read('Pass - our minimum is $3k ADB, they sit under $900 most days.', ask(40_000)).decline_category).toBe('low_balance');
    expect(read('Declined - our minimum is $2,500 ending balance and they are negative at month end.', ask(40_000)).decline_category).not.toBe('deal_size');
    // the ticket's own floor stays a deal size
    expect(read('Not one we can take on - our floor is $60k gross, this asks 20.', ask(20_000)).decline_category).toBe('deal_size');
    expect(read("Deal size isn't the issue, it's the 14 NSFs in October. Decline.", ask(40_000)).decline_category).toBe('nsf');
    expect(read('Declined, the deal size is the problem: 40k on 30k a month in sales.', ask(40_000)).decline_category).not.toBe('nsf');
    expect(read("Construction we don't fund in 3rd position. They have 2 open, so this is a no.", ask(40_000)).decline_category).toBe('stacking');
    expect(read("Trucking we don't do past 6 months. Best I can do is 40k at 1.40 for 6 months, daily.", ask(40_000)).type).toBe('counter');
    expect(read("Construction we don't fund. Sorry.", ask(40_000)).decline_category).toBe('industry');
  });

  it('a firm approval with an aside hedged on its schedule or a renewal, or a call about the funding, is applied; a hedge on figures stays for a person', () => {
    for (const text of [
      'Approved: $60,000 / 1.38 / 9 months daily. They\'d probably be fine with weekly if the merchant prefers, just ask.',
      'Approved the full 60 at 1.38 for 9 months, $497 a day. At 50% paid in they\'d likely approve a renewal.',
      'Approved - $60,000, 1.38, 9 months, daily $497. Our closer needs to speak with you before funding to go over the payoff.',
      'Approved 60k at 1.38 for 9 mo, $497/day. Get me the bank login before you quote the merchant a funding date.',
    ]) expect(outcome(text, ask(60_000)), text).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    expect(read("Mark went over the file and he'd probably be fine with 25 at 1.38 for 5 months.", ask(40_000)).review_reason).toBe('tentative_terms');
    expect(read('Approved 25 at 1.38 for 5 months. He wants to speak with you before you present it.', ask(25_000)).review_reason).toBe('tentative_terms');
  });

  it('a line opened by a greeting or an opener and its terms ("Congrats Dana, 45,000 at 1.36", "Happy Friday, ...", "Per UW, ...") names no other business; a business so opened still does', () => {
    const deal = { requested_amount: 45_000, business_name: 'Harbor Point Bakery LLC' };
    for (const opener of ['Congrats Dana', 'Happy Friday', 'Per UW', 'Sounds Good', 'Top Line'])
      expect(outcome(`${opener}, 45,000 at 1.36 for 120 days, $510 a day. Approved, send the voided check.`, deal), opener).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    // another business and its terms as the reply's last block: no sign-off of the lender's, that file's terms, kept for a person
    for (const name of ['Happy Paws Grooming', 'Millbrook Hardware Supply']) {
      const text = `Great news, approved!\n\n${name}, 45,000 at 1.36, 120 days, $510 a day.`;
      expect(read(text, deal).review_reason, name).toBe('multiple_deals');
      expect(outcome(text, deal).apply, name).toBe(false);
    }
    // the lender signing off with its own name after the terms stays applied
    expect(outcome('Approved on Harbor Point, 45,000 at 1.36, 120 days, $510 a day.\n\nKim\nHarbor Point Commercial', deal).apply).toBe(true);
  });

  it('a package or a referral "from" someone is the broker who sent it, no file: the decline applies; an application from a business still names it', () => {
    const deal = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };
    const text = 'Getting back to you on the package from Dana Whitfield - declined, too many negative days.';
    expect(outcome(text, deal)).toMatchObject({ apply: true, body: { response_type: 'declined' } });
    expect(outcome(text.replace('package from', 'referral from'), deal).apply).toBe(true);
    expect(read('Regarding the application from Northgate Marine Supply LLC: declined, too many negative days.', deal).review_reason).toBe('multiple_deals');
  });

  it('a refusal of something else before the deal taken as sent ("won\'t need anything else, funding it as requested at $60,000") refuses nothing: the full ask approved, its figures read', () => {
    for (const text of [
      "Won't need anything else, funding it as requested at $60,000, 1.38 over 12 months, $331 daily.",
      "Couldn't find any issues so we're funding as submitted at 60k/1.38/12mo.",
    ]) {
      expect(terms(text, ask(60_000)), text).toEqual([[60_000, 1.38, 12, 'months']]);
      expect(outcome(text, ask(60_000)), text).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    }
    // the refusal governing the ask stays one
    expect(read("We can't sit 3rd behind two funders for 60k. 40k at 1.38 for 9 months works.", ask(60_000)).type).toBe('counter');
  });

  it('a figure praised and then set against the lender\'s minimum ("FICO is good at 680 but our minimum for 60k is 700") is the decline reason, not praise', () => {
    expect(read('FICO is good at 680 but our minimum for 60k is 700. Decline.', ask(60_000)).decline_category).toBe('credit_score');
    expect(read("Owner's FICO is strong at 660, but our floor on a 60k ticket is 680. Decline.", ask(60_000)).decline_category).toBe('credit_score');
    // praise with its figure and no minimum against it is still no reason
    expect(read("The owner's credit is strong at 760. Unfortunately we need 2 years in business and they opened 14 months ago.", ask(40_000)).decline_category).toBe('time_in_business');
  });

  it('a consolidation said not to be one ("this is not a consolidation") names no other product: the full ask approved applies', () => {
    const text = 'Approved 90k at 1.40 for 48 weeks, $2,625 weekly. This is not a consolidation - merchant keeps existing positions.';
    expect(outcome(text, ask(90_000))).toMatchObject({ apply: true, body: { response_type: 'approved' } });
    expect(read(text.replace('This is not a consolidation', 'This is a consolidation'), ask(90_000)).review_reason).toBe('conflicting_cues');
  });

  it('a sector refused only under a condition ("contractors we don\'t fund with less than 2 years in business") is refused for the condition, not an industry decline', () => {
    expect(read("Contractors we don't fund with less than 2 years in business. They're at 14 months. Decline.", ask(60_000)).decline_category).toBe('time_in_business');
    expect(read("Restaurants we don't fund when they're under 12 months open - this one is 7. Decline.", ask(60_000)).decline_category).not.toBe('industry');
    expect(read('Trucking we don\'t touch. Sorry Dana.', ask(60_000)).decline_category).toBe('industry');
  });

  it('the file taken up by its legal name with the deal\'s own trade name after it ("... LLC dba Pinecrest Veterinary Clinic") is this deal\'s; another trade name is not', () => {
    const deal = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };
    const text = 'Following up on the application for Northside Animal Care LLC dba Pinecrest Veterinary Clinic - declined, too many negative days.';
    expect(outcome(text, deal)).toMatchObject({ apply: true, body: { response_type: 'declined' } });
    expect(read(text.replace('Pinecrest Veterinary Clinic', 'Harbor Point Bakery'), deal).review_reason).toBe('multiple_deals');
  });

  it('a copyright line under a "--" after lettered options ("(c) 2026 Acme Funding LLC") is the signature, no option C', () => {
    const own = splitReply('Approved, two ways:\nA) $50,000 at 1.35 for 9 months\nB) $40,000 at 1.30 for 6 months\n--\n(c) 2026 Acme Funding LLC. All rights reserved.\nOffers void after 30 days.').own;
    expect(own).not.toMatch(/Acme|void/);
    expect(splitReply('Approved:\nA) 50k at 1.35 for 9 months\n--\nB) 40k at 1.30 for 6 months\n--\nC) Weekly: 30k at 1.28 for 4 months').own).toMatch(/C\) Weekly: 30k/);
  });
});

describe('(rfix16) withdrawal on a fact still to come, portal status notices, a desk\'s own answer, wrapped prose items', () => {
  it('an approval that will be withdrawn if a payoff comes in over a limit or something more is found goes to a person; a deadline does not', () => {
    const base = 'Approved at the full $60,000: factor 1.30, 30 weekly payments of $2,600. ';
    const threat = read(`${base}Should the judgment payoff come in above $10,000, or another judgment show up on the search, this approval will be withdrawn.`, ask(60_000));
    expect(threat.type).toBe('approved');
    expect(threat.review_reason).toBeDefined();
    const found = read(`${base}If an additional UCC is found at the final search, the approval will be withdrawn.`, ask(60_000));
    expect(found.review_reason).toBeDefined();
    // a deadline is a routine condition, applied
    expect(read(`${base}If the contracts are not returned within 5 days, this approval will be withdrawn.`, ask(60_000)).review_reason).toBeUndefined();
  });

  it('a status-change notice pointing to the portal is no decision, not a reply for the model to fill', () => {
    const r = read('Your submission\'s status has been updated. Please sign in at the partner portal to see the details.\nThis mailbox is not monitored.', ask(40_000));
    expect(r.type).toBe('unclassified');
    expect(r.reasons).toContain('acknowledgement, no decision');
    expect(read('Please sign in at the partner portal.\nThis mailbox is not monitored.', ask(40_000)).reasons).not.toContain('acknowledgement, no decision');
  });

  it("a desk that placed the file passes on a funder's approval in writing, or reports every funder passed: its own answer, applied", () => {
    const written = 'Dana, we sent it to a couple of our funders and Ridgeline came back with a signed approval for the full 50k (approval letter is attached):\n\n50,000 funded at 1.35, 30 weekly payments of 2,250\n\nJo';
    const w = read(written, ask(50_000));
    expect(w).toMatchObject({ type: 'approved' });
    expect(w.review_reason).toBeUndefined();
    // still to come in writing: hearsay, for a person
    const pending = read(written.replace('with a signed approval', 'with a yes').replace(' (approval letter is attached)', ', no signed approval yet'), ask(50_000));
    expect(pending.review_reason).toBe('tentative_terms');
    // the desk's markup on top: for a person
    expect(read(written.replace('\n\nJo', '\n\nWe add 2 points on top for our side.\n\nJo'), ask(50_000)).review_reason).toBe('tentative_terms');
    const passed = read('Shopped it to a few of our funders, a pass from all of them: 90k against roughly 60k a month in deposits is too much. Sorry.', ask(90_000));
    expect(passed).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    expect(passed.review_reason).toBeUndefined();
    // one funder's no while the others are still out is no answer of the desk's own
    expect(read('Shopped it to a few of our funders. One of them came back a pass: deposits too light for 90k. Sorry, still waiting on the rest.', ask(90_000)).review_reason).toBe('tentative_terms');
  });

  it('funders a file was shopped to are not positions; the ask too big against the month\'s deposits is low revenue', () => {
    expect(read('Sent it out to four funders and all of them passed, the deposits are too thin. Sorry.', ask(50_000)).decline_category).toBe('low_revenue');
    expect(read('Pass. The merchant is carrying four funders already.', ask(50_000)).decline_category).toBe('stacking');
    expect(read('Have to pass: 75k against about 40k a month in sales is way too big.', ask(75_000)).decline_category).toBe('low_revenue');
  });

  it("a long request hard-wrapped mid-sentence is one sentence; the lender's purpose clause asks for nothing", () => {
    const text = 'To move this to final we require the last four bank statements, a payoff letter from the Rapid position good\nthrough the 20th, and the signed lease for the second store so that we can complete a site\ninspection.';
    expect(requestedItems(text).items).toEqual(['last four bank statements', 'payoff letter from the Rapid position good through the 20th', 'signed lease for the second store']);
    // a short line is a note of its own, not wrapped prose
    expect(requestedItems('need mtd\nsend dl too').items).toEqual(['mtd', 'dl']);
  });

  it("an equipment lessor's lease in the advance's place is a counter; its buyout or purchase option is no amount; '48 monthly at $X' is each payment", () => {
    const lease = 'Dana,\n\nWe are a lessor, we do not buy receivables. We can do this as a $1 buyout lease on the oven itself:\n\nEquipment cost financed: $50,000\nTerm: 24 months\nMonthly payment: $2,500.00\nEnd of term: $1 buyout\n\nCarl';
    const r = read(lease, ask(50_000));
    expect(r.type).toBe('counter');
    expect(r.offers).toEqual([expect.objectContaining({ amount: 50_000, factor_rate: 1.2, term: 24, term_unit: 'months', payment_amount: 2500 })]);
    // the merchant's own lease asked for is no product offered
    expect(read('Please send a copy of the lease for the shop and the last 3 statements.', ask(50_000)).type).toBe('needs_info');
    const option = extractOffers('Amount financed     $40,000\nPayments            36 monthly at $1,500\nPurchase option     10% of cost ($4,000) at end of term', ask(50_000));
    expect(option).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.35, term: 36, payment_amount: 1500 })]);
  });

  it('a request hard-wrapped with a blank line between (an HTML paragraph per line) is still one sentence', () => {
    const text = 'To move this to final we require the last four bank statements, a payoff letter from the Rapid position good\n\nthrough the 20th, and the signed lease for the second store.';
    expect(requestedItems(text).items).toEqual(['last four bank statements', 'payoff letter from the Rapid position good through the 20th', 'signed lease for the second store']);
  });
});

describe('(rfix17) inline answers, another file in this thread, mailings and several files numbered', () => {
  const pinecrest: ReplyContext = { requested_amount: 45_000, business_name: 'Pinecrest Veterinary Clinic' };
  const quoted = (answers: Record<string, string>) =>
    ['Maria - answers below.', '', 'On Mon, Mar 2, 2026 at 9:12 AM Dana Whitfield <dana@example.com> wrote:', '> Hi Maria,', '>', '> New submission for Pinecrest Veterinary Clinic.', '>']
      .concat(...['Requested amount: $45,000', 'Monthly revenue: $80,000', 'Existing positions: 1', 'Looking for an approval today if possible.'].map((q) => [`> ${q}`, ...(answers[q] ? [answers[q]] : [])]))
      .join('\n');

  it('requests answered here for another merchant ("these notes are for X, not <this deal>", "couldn\'t find the original thread") go to a person', () => {
    const other = 'Dana - THESE NOTES ARE FOR RIVERBEND AUTO SPA, NOT PINECREST.\n\nNEED THE TITLE ON THE TOW TRUCK AND THE SEPTEMBER STATEMENT.';
    expect(read(other, pinecrest)).toMatchObject({ type: 'needs_info', review_reason: 'multiple_deals' });
    expect(read('Replying here, I couldn\'t find the original thread. Need the title on the tow truck and the September statement.', pinecrest).review_reason).toBe('multiple_deals');
    // this deal's own request, applied
    const mine = read('Dana - NEED THE TITLE ON THE TOW TRUCK AND THE SEPTEMBER STATEMENT.', pinecrest);
    expect(mine.type).toBe('needs_info');
    expect(mine.review_reason).toBeUndefined();
  });

  it("a decline written inline under the broker's quoted lines is the lender's, on the trade's reason (\"Passing on the NSFs\" names no business)", () => {
    const r = read(quoted({ 'Existing positions: 1': 'A: Passing on the NSFs - 11 in the last 60 days.' }), pinecrest);
    expect(r).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    expect(r.review_reason).toBeUndefined();
  });

  it('a decision standing alone after a sentence in capitals names no business ("... WE DON\'T GO FIFTH. DECLINED.")', () => {
    const r = read('Pass.\n\nWE WOULD SIT BEHIND THREE OTHERS. THAT IS FOURTH POSITION. DECLINED.', pinecrest);
    expect(r).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(r.review_reason).toBeUndefined();
    // a name right before its decision still names another business
    expect(read('Pass on that one. Harbor Grill Kitchen - DECLINED.', pinecrest).reasons.some((x) => x.startsWith('names another deal than this one (Harbor Grill Kitchen)'))).toBe(true);
  });

  it('"You got it." answering the ask for an approval, with the terms inline, is an approval applied; "when you have it" is none', () => {
    const r = read(quoted({ 'Requested amount: $45,000': 'A: $45,000 / 1.36 / 120 days / $510.00 daily.', 'Looking for an approval today if possible.': 'A: You got it. Stips: voided check, landlord letter.' }), pinecrest);
    expect(r.type).toBe('approved');
    expect(r.review_reason).toBeUndefined();
    expect(r.offers).toEqual([expect.objectContaining({ amount: 45_000, factor_rate: 1.36, term: 120 })]);
    expect(read('Send me the voided check when you have it.', pinecrest).type).toBe('needs_info');
  });

  it('what a verification call found (another account than the statements) and "declined (verification)" are verification', () => {
    expect(read('Sorry Dana, on the bank verification call the login showed a different account than the statements you sent. Declined.', pinecrest).decline_category).toBe('verification');
    expect(read('Sorry, we are closing this one out as declined (verification).', pinecrest).decline_category).toBe('verification');
  });

  it('a partner newsletter with its masthead and a "reply STOP" footer is no decision, whatever declines it lists', () => {
    const news = 'ISO News - March 2026\n\n- Buy rates from 1.25 on A paper.\n- We decline files with more than 6 NSFs a month.\n\nTo opt out, reply STOP';
    expect(read(news, pinecrest).type).toBe('unclassified');
  });

  it("one mail answering both of a broker's open files in numbered entries: this deal's entry is read, for a person", () => {
    const r = read('Update on both of your pending files:\n\n1) Harbor Grill - approved, 30k / 1.35 / 100 days.\n2) Pinecrest Veterinary Clinic - credit wants the 2024 tax return first.', pinecrest);
    expect(r).toMatchObject({ type: 'needs_info', review_reason: 'multiple_deals' });
  });

  it("a bank's SBA term loan in the advance's place, priced by rate, years and monthly payment, is a counter with its offer", () => {
    const bank = 'Dana,\n\nWe do not buy receivables, but the clinic qualifies for an SBA 7(a) term loan:\n\nLoan amount: $100,000\nRate: 10.5% fixed\nTerm: 12 years\nMonthly payment: $1,250.00\n\nCredit signed off this morning.';
    const r = read(bank, pinecrest);
    expect(r.type).toBe('counter');
    expect(r.offers).toEqual([expect.objectContaining({ amount: 100_000, factor_rate: 1.8, term: 144, term_unit: 'months', payment_amount: 1250 })]);
    // a ballpark in prose ("over 6 years at about 9.9%") is floated, for a person, with its terms read
    const floated = read('We would not write an advance here. An SBA Express loan might fit: $60,000 over 6 years at about 9.9%, near $1,000.00 a month. A ballpark, not an approval.', pinecrest);
    expect(floated).toMatchObject({ type: 'counter', review_reason: 'tentative_terms' });
    expect(floated.offers).toEqual([expect.objectContaining({ amount: 60_000, term: 72, term_unit: 'months' })]);
    // years in business are no term
    expect(read('In business over 12 years at 2 locations. Declined on the NSFs.', pinecrest).offers).toEqual([]);
  });
});

describe('(revr) a desk relay that is not the paper passed on whole, a desk counter, leases named in place of the advance or already held', () => {
  const desk = 'Took it to a couple of our funders and Ridgeline came back with a signed approval for the full 50k, approval letter attached:\n\n50,000 at 1.35, 30 weekly payments of 2,250\n\n';
  it("the desk's own sell rate, terms it says differ from the letter, or a letter for another merchant: a person decides", () => {
    expect(read(`${desk}Jo`, ask(50_000)).review_reason).toBeUndefined();
    expect(read(`${desk}That is the buy rate, max sell 1.49.\n\nJo`, ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read(`${desk}We keep 4 points on top for our side.\n\nJo`, ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read(desk.replace('1.35', '1.29') + 'The letter still shows 1.35, we got it down on the phone.\n\nJo', ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read(`${desk}Heads up, the PDF attached is for another merchant, I will resend.\n\nJo`, ask(50_000)).review_reason).toBe('tentative_terms');
  });

  it("a desk fee of its own, or the desk's figures differing from the funder's attached paper: a person decides", () => {
    expect(read(`${desk}There is a 3% desk fee out of funding.\n\nJo`, ask(50_000)).review_reason).toBe('tentative_terms');
    const readWith = (attachmentText: string) => classifyReply({ subject: 'Re: Submission: Pinecrest Veterinary Clinic - SVC-3H7W-5KQA', text: `${desk}Jo`, attachmentText }, ask(50_000));
    const letter = 'APPROVAL LETTER\nApproved amount: $50,000\nFactor rate: 1.35\nTerm: 30 weeks\nWeekly payment: $2,250.00';
    expect(readWith(letter).review_reason).toBeUndefined();
    expect(readWith(letter.replace('$50,000', '$40,000').replace('1.35', '1.42').replace('$2,250.00', '$1,893.33')).review_reason).toBe('tentative_terms');
  });

  it("one funder's no while the others have not answered is no pass from all the desk's funders", () => {
    expect(read('Sent it to a couple of our funders. None of them have gotten back to me except Ridgeline, who declined: too many negative days.\n\nJo', ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read("Took it to three of our funders, one came back a decline on the NSFs, the others haven't answered.\n\nJo", ask(50_000)).review_reason).toBe('tentative_terms');
    expect(read('Shopped it to a few of our funders, a pass from all of them: too many NSFs. Sorry.', ask(50_000)).review_reason).toBeUndefined();
  });

  it("a desk that shopped the file to four or five funders relays their counter: a person decides", () => {
    const r = read("Took it to four of our funders, none of them would go to 60k on these deposits. Best we got is 40k at 1.38, 32 weekly payments of 1,725.\n\nJo", ask(60_000));
    expect(r.type).toBe('counter');
    expect(r.review_reason).toBe('tentative_terms');
  });

  it("an equipment lease approved in the advance's place is a counter; the merchant's own lease beside an approval is no product offered", () => {
    expect(read('Equipment lease approved in place of the advance.\nAmount financed: $50,000\nTerm: 48 months\nMonthly payment: $1,300\n\nCarl', ask(50_000)).type).toBe('counter');
    expect(read('No lease instead of the advance here: approved for $50,000, factor 1.32, 6 months, daily $523.81.', ask(50_000)).type).toBe('approved');
    expect(read("Approved: $50,000, factor 1.32, 6 months, daily $523.81. We see they already do a $1 buyout lease on the oven at $900 a month, that's fine.", ask(50_000)).type).toBe('approved');
  });

  it("a lease payment quoted before tax is not what the merchant pays: a person decides, no factor counted from it", () => {
    const lease = 'We are a lessor and do not buy receivables. We can do this as a $1 buyout lease on the oven:\nAmount financed: $50,000\nPayments: 48 monthly at $1,300\n\nCarl';
    expect(read(lease, ask(50_000)).review_reason).toBeUndefined();
    const taxed = read(lease.replace('$1,300', '$1,300 plus tax'), ask(50_000));
    expect(taxed.type).toBe('counter');
    expect(taxed.review_reason).toBe('conflicting_cues');
  });

  it('a factor counted from the payments of a lease that also owes a balloon leaves the balloon out: a person decides', () => {
    const lease = 'We can do this as an FMV lease on the excavator instead:\nEquipment cost: $60,000\nTerm: 36 months\nMonthly payment: $1,900\n\nCarl';
    expect(read(lease, ask(60_000)).review_reason).toBeUndefined();
    const balloon = read(lease.replace('\n\nCarl', '\nBalloon payment: $12,000 at month 36\n\nCarl'), ask(60_000));
    expect(balloon.type).toBe('counter');
    expect(balloon.review_reason).toBe('conflicting_cues');
  });
});

describe('(rfix18) second-hand decisions and chains of forwards', () => {
  it("a decline the sender only heard from a colleague, not having read the memo, goes to a person", () => {
    const own = "On a job site all day so I have not read the credit memo myself. Maria at the office says underwriting declined the file, too many NSFs in September.";
    const r = read(own, ask(40_000));
    expect(r.type).toBe('declined');
    expect(r.review_reason).toBe('tentative_terms');
    const told = read("I'm told credit declined it on the NSFs, will send you the memo once I have it.", ask(40_000));
    expect(told.review_reason).toBe('tentative_terms');
    // the lender's own decline, or what the merchant says, is no hearsay
    const direct = read('Underwriting declined the file, too many NSFs in September. The owner in the office says they are slow, sorry.', ask(40_000));
    expect(direct.type).toBe('declined');
    expect(direct.review_reason).toBeUndefined();
  });

  const fwd = (from: string, date: string | null, subject: string, body: string) =>
    ['', '---------- Forwarded message ---------', `From: ${from} <x@lender.example>`, ...(date ? [`Date: ${date}`] : []), `Subject: ${subject}`, 'To: Credit <credit@lender.example>', '', body].join('\n');

  it('in a chain of dated forwards the latest message is the answer, whichever place it holds', () => {
    const own = 'Hi - see the thread, the board approved it this morning. Send me the contract request.\n\nKim';
    const first = fwd('Sam', 'Mon, Oct 5, 2026 at 9:10 AM', 'Pinecrest - first look', 'Looks clean, taking it to the board at the full 80k, daily.');
    const last = fwd('Credit Board', 'Mon, Oct 5, 2026 at 3:40 PM', 'RE: Pinecrest - first look', 'APPROVED. Advance $80,000 / factor 1.32 / 140 daily payments of $754.29.');
    const r = read(own + first + last, ask(80_000));
    expect(r).toMatchObject({ type: 'approved', offers: [{ amount: 80_000, factor_rate: 1.32, term: 140 }] });
    const pulled = fwd('Sam', 'Tue, Oct 6, 2026 at 11:00 AM', 'RE: Pinecrest - decision', 'New UCC filings and a second funder debiting daily since the submission. Approval rescinded, stacking.');
    const p = read(first.replace('Looks clean', 'APPROVED $80,000 / 1.32 / 140 days. Looks clean') + pulled, ask(80_000));
    expect(p.type).toBe('declined');
    expect(p.review_reason).toBeDefined();
  });

  it('an approval whose priced terms sit in a forward further down an undated chain is never applied without them', () => {
    const own = 'Good news, scroll down - the board signed off. Send me the contract request.\n\nKim';
    const first = fwd('Sam', null, 'Pinecrest - first look', 'Looks clean, taking it to the board.');
    const last = fwd('Credit Board', null, 'RE: Pinecrest - first look', 'APPROVED. Advance $80,000 / factor 1.32 / 140 daily payments of $754.29.');
    const r = read(own + first + last, ask(80_000));
    expect(r.type).toBe('approved');
    const out = replyOutcome(contractClassification(r), { from: 'kim@lender.example', own, autoReply: false });
    expect(out.apply).toBe(false);
  });

  it('an approval to be withdrawn only if a condition fails is still an approval, for a person; one withdrawn outright is not', () => {
    const approval = 'Approved for $50,000 at 1.34, 120 daily payments of $558.33.';
    const held = read(`${approval} If the contractor licence does not show active by Monday, the approval is rescinded.`, ask(50_000));
    expect(held).toMatchObject({ type: 'approved', review_reason: 'tentative_terms', offers: [{ amount: 50_000, factor_rate: 1.34 }] });
    const held2 = read(`${approval} Approval is withdrawn unless the landlord letter comes in by Friday.`, ask(50_000));
    expect(held2.type).toBe('approved');
    const gone = read(`${approval} Update: the contractor licence lapsed, so the approval is withdrawn.`, ask(50_000));
    expect(gone).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
  });

  it('a document asked in a sentence of its own with only "please" for its verb, after a request, is one more item', () => {
    const items = requestedItems("Before we price it we need the last 4 months of statements and a copy of the lease. The co-owner's driver's license as well, please.\n\nJo").items;
    expect(items).toHaveLength(3);
    expect(items[2]).toMatch(/co-owner.*driver/i);
    // no request before it: a courtesy, nothing asked
    expect(requestedItems('Statements look fine. Reply with any questions, please.').items).toHaveLength(0);
  });
});

describe('(stop49) an approval to be pulled if something still to be seen is not so', () => {
  const outcome = (text: string, ctx?: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const deal: ReplyContext = { requested_amount: 40_000, business_name: 'Pinecrest Veterinary Clinic' };
  const terms = 'Approved $40,000 at 1.38, 120 daily payments of $460.';

  it('"pulled" under a condition the lender has yet to see met, the subject first or the decision first, goes to a person', () => {
    for (const cond of [
      'Should the liquor license not show active by Monday, the approval will be pulled.',
      'If the permit is not active by Monday the approval will be pulled.',
      'Approval gets pulled if the license is not confirmed.',
      'The offer will be pulled should the landlord never confirm the lease.',
    ]) {
      const o = outcome(`${terms} ${cond}`, deal);
      expect(o.apply, cond).toBe(false);
      expect(o.apply ? null : o.review_reason, cond).toBe('tentative_terms');
    }
  });

  it('a deadline or a closing step stays routine: applied', () => {
    for (const cond of ['If the signed contracts are not back within 5 days the offer will be pulled.', 'Offer expires in 7 days.']) {
      expect(outcome(`${terms} ${cond}`, deal).apply, cond).toBe(true);
    }
  });
});

describe('(revs) review of rfix17 and rfix18', () => {
  const fwd = (from: string, date: string, subject: string, body: string) =>
    ['', '---------- Forwarded message ---------', `From: ${from} <x@lender.example>`, `Date: ${date}`, `Subject: ${subject}`, 'To: Credit <credit@lender.example>', '', body].join('\n');
  const approval = 'APPROVED. Advance $80,000 / factor 1.32 / 140 daily payments of $754.29.';
  const decline = 'The updated statements show a new position funded since submission, so we have to decline this one.';

  it('a chain whose dates cannot be put in order (zone named on some only, day and month either way round) is read at its first forward', () => {
    // 11:30 AM written without a zone (the sender's own clock) beside 07:00 -0800: the earlier approval would read as the latest
    const zones = read('Kim - see below, sorry.' + fwd('Sam', 'Thu, Nov 5, 2026 at 11:30 AM', 'RE: Pinecrest', decline) + fwd('Credit', 'Thu, 5 Nov 2026 07:00:00 -0800', 'Pinecrest', approval), ask(80_000));
    expect(zones.type).toBe('declined');
    expect(zones.offers).toHaveLength(0);
    // 11/03/2026 is 11 March where it was written, 3 November if read the US way
    const slash = read('Kim - see below.' + fwd('Sam', 'Fri, Mar 20, 2026 at 2:00 PM', 'RE: Pinecrest', decline) + fwd('Credit', '11/03/2026 09:00', 'Pinecrest', approval), ask(80_000));
    expect(slash.type).toBe('declined');
    expect(slash.offers).toHaveLength(0);
    // every date read the same way: the latest still answers
    const same = read('Kim - see below.' + fwd('Sam', 'Thu, 5 Nov 2026 08:00:00 -0500', 'Pinecrest', 'Looks clean, taking it to the board.') + fwd('Credit Board', 'Thu, 5 Nov 2026 09:30:00 -0800', 'RE: Pinecrest', approval), ask(80_000));
    expect(same).toMatchObject({ type: 'approved', offers: [{ amount: 80_000, factor_rate: 1.32, term: 140 }] });
  });

  it("a chain read at a later message than its first, the first forward deciding otherwise, goes to a person", () => {
    const counter = 'We can not do 80k. Best we can do is $60,000 at 1.38, 120 daily payments.';
    // the funder's counter first, a later note from the broker's side restating other terms as approved
    const text = 'Dana - see below.' + fwd('Credit', 'Mon, Oct 5, 2026 at 9:10 AM', 'Pinecrest', counter) + fwd('Kim (ISO)', 'Mon, Oct 5, 2026 at 3:40 PM', 'FW: Pinecrest', 'Approved 80k at 1.32 over 140 days - merchant is happy, lets close it.');
    const r = read(text, ask(80_000));
    expect(r.review_reason).toBe('conflicting_cues');
    expect(replyOutcome(contractClassification(r), { from: 'dana@lender.example', own: 'Dana - see below.', autoReply: false }).apply).toBe(false);
    // a first forward deciding nothing (the file taken to the board): the latest answers, applied
    const board = read('Kim - see below.' + fwd('Sam', 'Mon, Oct 5, 2026 at 9:10 AM', 'Pinecrest', 'Looks clean, taking it to the board.') + fwd('Credit Board', 'Mon, Oct 5, 2026 at 3:40 PM', 'RE: Pinecrest', approval), ask(80_000));
    expect(board.type).toBe('approved');
    expect(board.review_reason).toBeUndefined();
  });

  it('an approval the sender only believes or heard of goes to a person; the lender relaying its own credit is applied', () => {
    const terms = '$40,000 at 1.35, 120 daily payments of $450.';
    for (const t of [`I believe credit approved it: ${terms} Let me confirm.`, `Apparently underwriting approved it, ${terms}`, `Heard from the desk that it was approved, ${terms} Waiting on the paper.`]) {
      const r = read(t, ask(40_000));
      expect(r.type, t).toBe('approved');
      expect(r.review_reason, t).toBe('tentative_terms');
    }
    const own = read(`Per my underwriter it is approved, ${terms}`, ask(40_000));
    expect(own.type).toBe('approved');
    expect(own.review_reason).toBeUndefined();
  });

  it('"You got it." with no terms anywhere grants whatever was asked: a person reads what, never an approval applied', () => {
    const text = 'You got it.\n\nOn Mon, Mar 2, 2026 at 9:12 AM Dana Whitfield <dana@example.com> wrote:\n> Hi Maria, can you resend the contract to the merchant? He lost the email.';
    const r = read(text, { requested_amount: 45_000, business_name: 'Pinecrest Veterinary Clinic' });
    expect(replyOutcome(contractClassification(r), { from: 'maria@lender.example', own: 'You got it.', autoReply: false }).apply).toBe(false);
    // with its terms it is the approval rfix17 reads, applied
    const terms = read('You got it. $45,000 at 1.35, 120 daily payments of $506.25.', { requested_amount: 45_000, business_name: 'Pinecrest Veterinary Clinic' });
    expect(terms).toMatchObject({ type: 'approved', offers: [{ amount: 45_000, factor_rate: 1.35, term: 120 }] });
    expect(terms.review_reason).toBeUndefined();
  });

  it("a decision for a business told by a trade the deal's name does not have is another file's, for a person", () => {
    const vet: ReplyContext = { requested_amount: 45_000, business_name: 'Pinecrest Veterinary Clinic' };
    const terms = '$45,000 at 1.35, 120 daily payments of $506.25.';
    const other = read(`Approved for the pizza shop: ${terms}`, vet);
    expect(other.review_reason).toBe('multiple_deals');
    // the deal's own trade, shortened or not, or a word telling no trade: this deal's approval, applied
    for (const t of [`Approved for the vet clinic: ${terms}`, `Approved for the veterinary practice: ${terms}`, `Approved for the new clinic: ${terms}`]) {
      const r = read(t, vet);
      expect(r.type, t).toBe('approved');
      expect(r.review_reason, t).toBeUndefined();
    }
  });
});

describe('(rfix19) conditions to fund, broker paraphrases, another business by its trade, "wrong thread" hedges, a decision table\'s PASS', () => {
  const bakery: ReplyContext = { requested_amount: 90_000, business_name: 'Sweet Crumb Bakery' };
  const outcome = (text: string, ctx: ReplyContext = bakery, own = text) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own, autoReply: false });
  const terms = '1.35 over 9 months, $3,375 a week.';

  it('a lien or taxes paid off before funding, the full amount approved, is an approval applied; a position paid off stays a counter', () => {
    for (const t of [
      `We approved the full 90 at ${terms} But they need to pay off the tax lien before we fund.`,
      `Approved for the full $90,000 at ${terms} The tax lien has to be paid off before funding.`,
      `Full 90 is approved, ${terms} Prior to funding we'll need the IRS lien paid and a release letter.`,
      `Approved the full 90 at ${terms} The merchant has to satisfy the state tax lien first.`,
    ]) {
      const r = read(t, bakery);
      expect(r, t).toMatchObject({ type: 'approved', offers: [{ amount: 90_000, factor_rate: 1.35, term: 9 }] });
      expect(outcome(t).apply, t).toBe(true);
    }
    // a funder's position paid off first is another structure (holdout5): a counter
    expect(read(`We approved the full 90 at ${terms} But they need to pay off the Kapitus position before we fund.`, bakery).type).toBe('counter');
  });

  it('a condition to fund whose failure takes the approval away goes to a person', () => {
    for (const t of [
      `We approved the full 90 at ${terms} But they need to pay off the tax lien before we fund; if they can't, the approval is off.`,
      `Approved the full 90 at ${terms} They need to pay off the tax lien first. Otherwise the deal is dead.`,
      `Approved the full 90 at ${terms} The tax lien must be released before funding, if not the offer is void.`,
    ]) {
      const r = read(t, bakery);
      expect(r.type, t).toBe('approved');
      expect(r.review_reason, t).toBe('tentative_terms');
      expect(outcome(t).apply, t).toBe(false);
    }
    // a deadline to sign is routine: applied
    expect(outcome(`Approved the full 90 at ${terms} If they do not sign within 5 days, the offer is off.`).apply).toBe(true);
  });

  it("the broker's own paraphrase of the lender's decision (\"per the lender\", its own signature atop a forward) goes to a person", () => {
    const fwd = '\n\n---------- Forwarded message ---------\nFrom: Kim Lee <kim@lender.example>\nDate: Mon, Oct 5, 2026 at 9:10 AM\nSubject: RE: Sweet Crumb Bakery\nTo: Dana <dana@northstar.example>\n\nLooking at it now.';
    for (const t of [
      `Hi team,\n\nPer the lender, Sweet Crumb is approved for 90k at 1.35 over 9 months, weekly $3,375. Please prep the contract.\n\nDana Whitfield\nNorthstar Capital Brokers${fwd}`,
      `FYI - lender says they approved Sweet Crumb at 90k, 1.35, 9 months weekly $3,375.\n\nDana${fwd}`,
      'According to the funder the file is declined, too many NSFs.\n\nDana',
      'Per the funder: approved 90k / 1.35 / 9 months / $3,375 weekly.',
    ]) {
      const r = read(t, bakery);
      expect(r.type, t).not.toBe('unclassified');
      expect(r.review_reason, t).toBe('tentative_terms');
      expect(outcome(t).apply, t).toBe(false);
    }
    // our own name on the sign-off, no "per the lender": still ours, a person reads it
    const ours: ReplyContext = { ...bakery, iso: { names: ['Northstar Capital Brokers'], numbers: [] } };
    const signed = `Team - Sweet Crumb is approved for 90k at 1.35 over 9 months, weekly $3,375. Prep the contract.\n\nDana Whitfield\nSenior Funding Advisor | Northstar Capital Brokers${fwd}`;
    expect(read(signed, ours).review_reason).toBe('tentative_terms');
    // the lender's own desk, or a lender thanking us by name, is the lender's word: applied
    expect(outcome(`Per my underwriter it is approved, 90k at ${terms}`).apply).toBe(true);
    const thanks = `Approved 90k at ${terms}\n\nThanks, Northstar Capital Brokers team!\n\nKim Lee\nUnderwriting | Harbor Point Funding`;
    expect(read(thanks, ours).review_reason).toBeUndefined();
    // another funder's figure named in passing is no relay
    expect(outcome(`Approved 90k at ${terms} The 1st position lender says the payoff is $22,000, we take it out at funding.`).apply).toBe(outcome(`Approved 90k at ${terms} The payoff is $22,000, we take it out at funding.`).apply);
  });

  it("a decline or a counter for a business told by a trade the deal's name does not have is another file's, for a person", () => {
    for (const t of [
      'The nail salon is declined, too many NSFs.',
      'Unfortunately we are declining the nail salon: the balances are too thin.',
      'Nail salon - DECLINED. Too many NSFs.',
      'For the nail salon we can do 60k at 1.38 for 6 months weekly, not the 90.',
      'Countering the nail salon at 60k, 1.38, 6 months weekly.',
    ]) {
      const r = read(t, bakery);
      expect(r.review_reason, t).toBe('multiple_deals');
      expect(outcome(t).apply, t).toBe(false);
    }
    // the deal's own trade, or a word telling no trade: this deal's, applied
    for (const t of ['The bakery is declined, too many NSFs.', 'The shop is declined, too many NSFs.', 'Unfortunately we are declining the new store: the balances are too thin.', 'Sweet Crumb Bakery - DECLINED. Too many NSFs.']) {
      const r = read(t, bakery);
      expect(r.type, t).toBe('declined');
      expect(r.review_reason, t).toBeUndefined();
    }
  });

  it('"wrong thread" denied, or only feared with this deal named, is read; real misdirection goes to a person', () => {
    for (const t of [
      `Sorry if this lands in the wrong thread, but for Sweet Crumb Bakery: approved 90k at ${terms}`,
      `Not the wrong thread - this is for Sweet Crumb. Approved 90k at ${terms}`,
      `This is not the wrong thread, approved 90k at ${terms}`,
      'Apologies in case this ends up in the wrong thread. For the bakery: declined, too many NSFs.',
    ]) {
      const r = read(t, bakery);
      expect(r.review_reason, t).toBeUndefined();
      expect(outcome(t).apply, t).toBe(true);
    }
    for (const t of [`Oops wrong thread, approved 90k at ${terms}`, `Replying here since I lost the other thread: approved 90k at ${terms}`, `Sorry if this is the wrong thread - approved 90k at ${terms}`]) {
      expect(read(t, bakery).review_reason, t).toBe('multiple_deals');
    }
  });

  it('a decision cell reading PASS with more on its line is a decline; a PASS on a row a check labels is not', () => {
    for (const t of ['Decision: PASS (stacking)', 'Decision: PASS - 4 open positions', 'Status | PASS | 11/05/2026', 'UW Decision: PASS\n\nThanks']) {
      expect(read(t, bakery).type, t).toBe('declined');
    }
    for (const t of [
      'Decision: APPROVED\nFunded Amount: $90,000\nFactor Rate: 1.35\nTerm: 9 Months\nOFAC | PASS\nBank verification: PASS',
      'OFAC | PASS\nBank verification: PASS\nDecision: APPROVED\nAmount: $90,000\nFactor: 1.35\nTerm: 9 months',
      'Decision: APPROVED $90,000 / 1.35 / 9 months weekly\nOFAC check: PASS\nSOS: PASS\nBank verification: PASS',
    ]) {
      const r = read(t, bakery);
      expect(r.type, t).toBe('approved');
      expect(r.review_reason, t).toBeUndefined();
      expect(r.reasons.some((x) => /^declined \d/.test(x) && /"pass"/.test(x)), t).toBe(false);
    }
  });
});

describe('(rfix20) holdout54: people not agreed, rounded terms, a gross row, policy exclusions, hedged figures, added items', () => {
  it('a counter whose deciders have not agreed among themselves goes to a person, whichever figure is read', () => {
    const ctx = ask(90_000);
    for (const t of [
      'Posting what credit said on Birchwood Bakery - the two of them are split on the amount. Sam: 60k at 1.38, 7 months weekly. Lee: 45k, same terms.',
      "Underwriting came back on Birchwood: 60k 1.38 7mo weekly from one, 45k from the other. They haven't agreed on the number yet, I'll tell you which one sticks.",
      "Birchwood - Sam can do 60k 1.38 7 months weekly, Lee would only do 45k. They don't see eye to eye on the figure.",
    ]) {
      const r = read(t, ctx);
      expect(r.type, t).toBe('counter');
      expect(r.review_reason, t).toBe('tentative_terms');
    }
    // one underwriter's counter, nobody at odds: applied as before
    const one = read('Birchwood - cannot do 90. Best we can do is 60k at 1.38, 7 months weekly.', ctx);
    expect(one.type).toBe('counter');
    expect(one.review_reason).toBeUndefined();
  });

  it('a term the lender rounds yields to the payments it counts; a term stated as exact still conflicts', () => {
    const [o] = extractOffers('Approved 30k, 140 daily payments of $300.00, roughly 7 months.');
    expect(o).toMatchObject({ amount: 30_000, term: 140, term_unit: 'days', payment_frequency: 'daily', factor_rate: 1.4 });
    const [w] = extractOffers('Approved 30k w/ 60 weekly pmts of $700, about 14 mos');
    expect(w).toMatchObject({ amount: 30_000, term: 60, term_unit: 'weeks', factor_rate: 1.4 });
    // stated flat, the term stays what the lender wrote
    const [flat] = extractOffers('Approved 30k, 140 daily payments of $300.00, 7 month term.');
    expect(flat.term).toBe(7);
  });

  it('a row labelled "gross" alone is the amount before a payoff comes off it, not a month of sales', () => {
    const text = 'Renewal approved.\n\nGross: $55,000\nFactor: 1.30\nTerm: 30 weeks, weekly $2,383.33\nPayoff of current balance: $20,000\nNet to merchant: $35,000';
    const r = read(text, ask(55_000));
    expect(r).toMatchObject({ type: 'approved', offers: [{ amount: 55_000, factor_rate: 1.3, term: 30, term_unit: 'weeks' }] });
    // a gross row per month is revenue: no amount offered from it
    const rev = read('Declined.\nGross: $55,000/mo\nToo light for the ask.', ask(90_000));
    expect(rev.type).toBe('declined');
    expect(rev.offers).toHaveLength(0);
  });

  it('a policy excluding a kind of business is an industry decline, whatever its credit department is called', () => {
    for (const t of [
      'We regret that we must decline. Our credit policy excludes merchants that sell firearms or ammunition, so this file cannot proceed.',
      'After review we have to decline: bank guidelines prohibit companies whose main revenue comes from tobacco products. This is no reflection on the owner.',
    ]) expect(read(t), t).toMatchObject({ type: 'declined', decline_category: 'industry' });
    // the lender's own credit policy, or its company name, names no score
    expect(read("Sorry, we have to decline. Harbor Business Credit, LLC is held to the bank's credit policy on this one.")).toMatchObject({ type: 'declined', decline_category: 'other' });
    // the owner's credit still names the score
    expect(read('We must decline, the guarantor credit is too weak for this program.')).toMatchObject({ type: 'declined', decline_category: 'credit_score' });
  });

  it('a no the decider is leaning to is a decline held for a person', () => {
    for (const t of ['fyi my manager is leaning towards a pass on the bakery, too many positions stacked. will know tomorrow.', 'credit is leaning no - 3 positions already on it. not final yet.']) {
      const r = read(t, ask(50_000));
      expect(r.type, t).toBe('declined');
      expect(r.decline_category, t).toBe('stacking');
      expect(r.review_reason, t).toBe('tentative_terms');
    }
  });

  it('a factor read out before its label is a factor; a schedule guessed at is no schedule', () => {
    expect(wordsToDigits('approved at fifty thousand, like a one forty two factor')).toContain('1.42 factor');
    const [o] = extractOffers('approved for $50,000, a one thirty eight factor, nine months, maybe weekly');
    expect(o).toMatchObject({ amount: 50_000, factor_rate: 1.38, term: 9, term_unit: 'months', payment_frequency: null });
    const [firm] = extractOffers('approved for $50,000, a one thirty eight factor, nine months, weekly');
    expect(firm.payment_frequency).toBe('weekly');
  });

  it('a document added in a line of its own opened by "also" after a request, and "VC" for a voided check', () => {
    const { items } = requestedItems('need the june stmt and DL\n[9:14] Ray\nalso an explanation of the big transfer in May.\nthx');
    expect(items).toEqual(expect.arrayContaining(['june stmt', 'DL', 'explanation of the big transfer in May']));
    expect(requestedItems('pls send app + VC').items).toEqual(expect.arrayContaining(['VC']));
    // a remark opened by "also", with no document or with a verb of its own: no item
    expect(requestedItems('need the june stmt\n[9:15] Ray\nalso the owner was great on the phone').items).toEqual(['june stmt']);
    expect(requestedItems('need the june stmt\n[9:15] Ray\nalso an explanation would help, no rush').items).toEqual(['june stmt']);
  });

  it("a decline naming another business, its reason given beside that name, keeps the reason for the person who checks the file", () => {
    const vet: ReplyContext = { requested_amount: 45_000, business_name: 'Pinecrest Veterinary Clinic' };
    const r = read("Kim - we're passing on Maple Street Pizza. 14 NSFs in September.\n\nNope, can't do anything with that.", vet);
    expect(r).toMatchObject({ type: 'declined', review_reason: 'multiple_deals', decline_category: 'nsf' });
  });

  it("a bank's loan offered for the amount asked in place of the advance declined is a counter, for a person while its terms are indicative", () => {
    const r = read('We are unable to approve the request under our merchant advance program. We could, however, look at the full $90,000 as a conventional bank loan: 36 monthly installments of $3,000.00. These terms are indicative only and subject to loan committee.', ask(90_000));
    expect(r.type).toBe('counter');
    expect(r.review_reason).toBeDefined();
    expect(r.offers[0]).toMatchObject({ amount: 90_000, term: 36, term_unit: 'months' });
  });

  it('answers typed between the quoted questions, under a signature the sender points past, are read as the reply', () => {
    const text = 'My answers are inline below.\n\n--\nRay Ortiz\nOrtiz Funding\n\nOn Mon, Nov 2, 2026 at 9:00 AM Kim <kim@broker.example> wrote:\n> 1. Can you do the full 80?\nCAN GET TO 60, NOT 80 WITH THE LIEN OPEN.\n> 2. Pricing and term?\n1.40 FACTOR, 40 WEEKS, WEEKLY $2,100.00.\n> Thanks, Kim';
    const parts = splitReply(text);
    expect(parts.own).toContain('CAN GET TO 60');
    expect(parts.own).toContain('1.40 FACTOR');
    expect(parts.own).not.toContain('Ortiz Funding');
    const r = read(text, ask(80_000));
    expect(r).toMatchObject({ type: 'counter', offers: [{ amount: 60_000, factor_rate: 1.4, term: 40, term_unit: 'weeks' }] });
    expect(r.review_reason).toBeUndefined();
    // no pointer to the answers: the signature still ends the reply
    expect(splitReply(text.replace('My answers are inline below.', 'Thanks Kim.')).own).not.toContain('CAN GET TO 60');
  });

  it("a counter's amount said apart from its pricing is taken only where the payments repay it exactly", () => {
    const fits = read('Cannot do the 80.\n55 tops with the lien open.\n1.38 factor, 30 weeks, weekly $2,530.00.', ask(80_000));
    expect(fits).toMatchObject({ type: 'counter', offers: [{ amount: 55_000, factor_rate: 1.38, term: 30 }] });
    // the payments repay no amount named: a person completes the offer
    const off = read('Cannot do the 80.\n55 tops with the lien open.\n1.38 factor, 30 weeks, weekly $2,900.00.', ask(80_000));
    expect(off.offers).toHaveLength(0);
    expect(off.review_reason).toBe('low_confidence');
  });
});

describe('(revA) a bare trade, a trade set apart after a "wrong thread" hedge, a lien cleared for our own 1st position, an expiry, a funder\'s rules, a checks table', () => {
  const vet: ReplyContext = { requested_amount: 75_000, business_name: 'Pinecrest Veterinary Clinic' };
  const bakery: ReplyContext = { requested_amount: 90_000, business_name: 'Sweet Crumb Bakery' };
  const outcome = (text: string, ctx: ReplyContext) => replyOutcome(contractClassification(read(text, ctx)), { from: 'x@lender.example', own: text, autoReply: false });
  const terms = '1.35 over 9 months, $3,375 a week.';

  it("a decision for a bare trade the deal's name tells otherwise (\"the bakery\" on a veterinary clinic's thread) is another file's", () => {
    for (const t of ['The bakery is declined, too many NSFs.', 'Declined for the bakery - 14 NSFs in Oct.', 'Approved for the salon: 75k at 1.35 over 9 months, $2,800 a week.']) {
      expect(read(t, vet).review_reason, t).toBe('multiple_deals');
      expect(outcome(t, vet).apply, t).toBe(false);
    }
    // a trade's word kin to the deal's only through a noun many trades share, or another kind of the same trade, is another file's
    const taqueria: ReplyContext = { requested_amount: 60_000, business_name: "Rosa's Taqueria" };
    for (const [t, ctx] of [
      ['The dental clinic is declined, too many NSFs.', vet],
      ['For the sushi bar we can do 45k at 1.38 for 6 months weekly, not the 60.', taqueria],
    ] as [string, ReplyContext][]) {
      expect(read(t, ctx).review_reason, t).toBe('multiple_deals');
      expect(outcome(t, ctx).apply, t).toBe(false);
    }
    expect(outcome('The restaurant is declined, too many NSFs.', taqueria).apply).toBe(true);
    // the deal's own trade told another way, a noun that tells no trade, or a name that tells none: this deal's, applied
    for (const [t, ctx] of [
      ['The clinic is declined, too many NSFs.', vet],
      ['The animal clinic is declined, too many NSFs.', vet],
      ['The shop is declined, too many NSFs.', vet],
      ['The bakery is declined, too many NSFs.', { requested_amount: 75_000, business_name: 'JMT Holdings' }],
      ['For the dental office we can do 45k at 1.38 for 6 months weekly, not the 60.', { requested_amount: 60_000, business_name: 'Bright Smile Family Dentistry' }],
    ] as [string, ReplyContext][]) {
      expect(read(t, ctx).review_reason, t).toBeUndefined();
      expect(outcome(t, ctx).apply, t).toBe(true);
    }
  });

  it('a "wrong thread" hedge followed by a business of this trade set apart by a place or a name of its own goes to a person', () => {
    for (const [t, ctx] of [
      ['Sorry if this lands in the wrong thread - the clinic in Tampa (Bayside Animal Hospital) is approved, 75k at 1.35 over 9 months, $2,800 a week.', vet],
      [`Not sure if this is the wrong thread, the bakery on 5th - Golden Loaf - approved 90k at ${terms}`, bakery],
    ] as [string, ReplyContext][]) {
      expect(read(t, ctx).review_reason, t).toBe('multiple_deals');
      expect(outcome(t, ctx).apply, t).toBe(false);
    }
    // the deal's trade standing alone after the hedge is still this deal (rfix19)
    expect(outcome('Apologies in case this ends up in the wrong thread. For the bakery: declined, too many NSFs.', bakery).apply).toBe(true);
  });

  it("a lien paid off so the lender is in 1st position is a condition of the approval, not another funder's position paid off", () => {
    const t = `Approved the full 90 at ${terms} The IRS lien needs to be paid off before we fund so we're in 1st position.`;
    expect(read(t, bakery)).toMatchObject({ type: 'approved', offers: [{ amount: 90_000 }] });
    expect(outcome(t, bakery).apply).toBe(true);
    // another funder's position paid off stays another structure (rfix19's holdout5 rule)
    expect(read(`We approved the full 90 at ${terms} But they need to pay off the Kapitus position before we fund.`, bakery).type).toBe('counter');
  });

  it("an offer's deadline to accept is routine; a funder's rules named are the lender's own terms", () => {
    for (const t of [`Approved 90k at ${terms} Offer good through Friday, otherwise the offer is void.`, `Approved 90k at ${terms} If they don't accept by Friday, the offer is off.`, `Approved 90k at ${terms} If the merchant doesn't accept it, the offer is void.`, `Approved 90k at ${terms} If it isn't funded by Thursday, the approval is off.`, `Approved 90k at ${terms} Per the funder's guidelines the merchant must keep the account open through payoff.`]) {
      expect(read(t, bakery).review_reason, t).toBeUndefined();
      expect(outcome(t, bakery).apply, t).toBe(true);
    }
    expect(read(`Approved the full 90 at ${terms} They need to pay off the tax lien first. Otherwise the deal is dead.`, bakery).review_reason).toBe('tentative_terms');
    expect(read(`Per the funder's email, approved 90k at ${terms}`, bakery).review_reason).toBe('tentative_terms');
  });

  it("a checks table's PASS rows beside the lender's own decision row are checks passed, whatever their labels", () => {
    for (const t of [
      'Decision: APPROVED\nAmount: $90,000\nFactor: 1.35\nTerm: 9 months\n\nStips review\nBank statements | PASS\nVoided check | PASS\nDL | PASS',
      'Decision: APPROVED\nAmount: $90,000\nFactor: 1.35\nTerm: 9 months\nTIB: PASS\nAvg daily balance: PASS\nNegative days: PASS',
    ]) {
      const r = read(t, bakery);
      expect(r, t).toMatchObject({ type: 'approved' });
      expect(r.review_reason, t).toBeUndefined();
      expect(r.decline_category, t).toBeUndefined();
    }
    // a decision row reading PASS is the lender's no (rfix19), and a lone labelled pass with no decision row is left as it was
    expect(read('Decision: PASS\nTIB: PASS\nAvg daily balance: PASS', bakery).type).toBe('declined');
  });
});

describe('(rfix21) second-hand declines, another ISO, terms counted from the payments, revisions, Spanish stips', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('a decision the sender only says it sounds like, the official one to follow, goes to a person', () => {
    for (const t of [
      'Passing this on for Greg: he spoke with credit and it looks like they are going to decline Pinecrest. Greg will email you the official decision on Monday.',
      'Heads up, seems like underwriting is leaning toward a pass on the clinic. Will send you the final decision once Greg is back.',
    ]) {
      const { r, out } = hook(t);
      expect(r.type, t).toBe('declined');
      expect(out.apply, t).toBe(false);
    }
    // the lender's own decline, a letter to follow, is applied
    expect(hook('We are declining Pinecrest: too many NSFs in October. The decline letter will follow.').out.apply).toBe(true);
  });

  it('a decision naming a submitting ISO that is not ours goes to a person; ours is applied', () => {
    const other = hook('Unfortunately we must decline.\n\nMerchant: Pinecrest Veterinary Clinic\nBroker: Harbor Point Advance (Mike Ruiz)\nReason: too many NSFs');
    expect(other.r.review_reason).toBe('conflicting_cues');
    expect(other.out.apply).toBe(false);
    const ours = hook('Unfortunately we must decline.\n\nMerchant: Pinecrest Veterinary Clinic\nBroker: Summit Valley Capital / Dana\nReason: too many NSFs');
    expect(ours.r.review_reason ?? null).toBeNull();
    expect(ours.out.apply).toBe(true);
  });

  it('a factor and a payment with no term: the payments that repay it, when they come out whole, are the term', () => {
    expect(extractOffers('Pinecrest: best I can do is 40k at 1.35, $450 a day.')).toMatchObject([{ amount: 40_000, factor_rate: 1.35, term: 120, term_unit: 'days', payment_frequency: 'daily' }]);
    expect(extractOffers('Pinecrest: 24k at 1.30, weekly payments of $1,200.')).toMatchObject([{ amount: 24_000, factor_rate: 1.3, term: 26, term_unit: 'weeks' }]);
    // no whole number of payments: no term, the offer stays incomplete
    expect(extractOffers('Pinecrest: best I can do is 40k at 1.35, $460 a day.')).toMatchObject([{ amount: 40_000, factor_rate: 1.35, term: null }]);
  });

  it('a revision that replaces the earlier offer, which it withdraws, is read as its new terms; a bare withdrawal is not', () => {
    const revised = hook('Updated numbers on Pinecrest. These terms supersede the offer we sent Monday, and that earlier offer is withdrawn.\n\nAmount: $50,000\nFactor: 1.32\nTerm: 40 weeks\nWeekly payment: $1,650.00');
    expect(revised.r).toMatchObject({ type: 'counter', offers: [{ amount: 50_000, factor_rate: 1.32, term: 40, term_unit: 'weeks' }] });
    expect(revised.out.apply).toBe(true);
    const pulled = hook('The earlier offer is withdrawn. We can do $50,000 at 1.32 over 40 weeks, $1,650.00 weekly.');
    expect(pulled.r.review_reason).toBe('approval_withdrawn');
    expect(pulled.out.apply).toBe(false);
  });

  it('Spanish stips around English words: "necesitamos ... y ...", a photo of a document, the owner\'s', () => {
    const { r, out } = hook('Para seguir con Pinecrest necesitamos el MTD de noviembre, voided check y copia del ID del dueño. Gracias');
    expect(r.type).toBe('needs_info');
    expect(r.requested_items).toEqual(expect.arrayContaining(['MTD de noviembre', 'voided check', "owner's ID"]));
    expect(out.apply).toBe(true);
  });

  it('an item the lender forbids sending is no request', () => {
    const items = requestedItems('Please send the signed application and a voided check.\n\nDo not send Social Security numbers by unencrypted email.').items;
    expect(items.some((i) => /social security/i.test(i))).toBe(false);
    expect(items.some((i) => /voided check/i.test(i))).toBe(true);
  });

  it('decline categories: a U.S. territory is a place the lender does not serve; Spanish negative days with the count after', () => {
    expect(read('Declined. We do not fund merchants located in Guam or other U.S. territories.', pinecrest()).decline_category).toBe('restricted_state');
    expect(read('No va, Dana. La cuenta estuvo negativo 9 días en octubre.', pinecrest()).decline_category).toBe('negative_days');
  });
});

describe('(revC) review of rfix20 and rfix21: withdrawals naming the merchant, revisions, counted terms', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('an approval withdrawn by the merchant\'s name ("our approval on X is withdrawn") is a withdrawal; less offered after it goes to a person', () => {
    const less = hook('Our approval on Pinecrest is withdrawn. We can do $50,000 at 1.32 over 40 weeks, $1,650.00 weekly.');
    expect(less.r).toMatchObject({ type: 'counter', review_reason: 'approval_withdrawn' });
    expect(less.out.apply).toBe(false);
    expect(hook('The offer for the clinic was pulled after the bank verification failed.').r).toMatchObject({ type: 'declined', review_reason: 'approval_withdrawn' });
    // a revision saying it supersedes the earlier offer, withdrawn, still stands
    expect(hook('Updated numbers on Pinecrest. These terms supersede the offer we sent Monday, and that earlier offer is withdrawn.\n\nAmount: $50,000\nFactor: 1.32\nTerm: 40 weeks\nWeekly payment: $1,650.00').out.apply).toBe(true);
  });

  it('revised terms named for another merchant ("Updated numbers on <another business>") go to a person, ours stand', () => {
    const rev = (name: string) => `Updated numbers on ${name}. These terms supersede the offer we sent Monday, and that earlier offer is withdrawn.\n\nAmount: $50,000\nFactor: 1.32\nTerm: 40 weeks\nWeekly payment: $1,650.00`;
    const other = hook(rev('Harbor Bakery'));
    expect(other.r.review_reason).toBe('multiple_deals');
    expect(other.out.apply).toBe(false);
    expect(hook(rev('Pinecrest')).out.apply).toBe(true);
  });

  it('a payment said to include or carry a fee counts no term; the plain payment still does', () => {
    expect(extractOffers('Pinecrest: 40k at 1.35, daily payment of $450 (includes a $25 daily ACH fee).')).toMatchObject([{ amount: 40_000, factor_rate: 1.35, term: null }]);
    expect(extractOffers('Pinecrest: 40k at 1.35, $450/day plus a $15 daily processing fee.')).toMatchObject([{ amount: 40_000, factor_rate: 1.35, term: null }]);
    expect(extractOffers('Pinecrest: 40k at 1.35, $450 a day. Origination fee $1,200 taken from funding.')).toMatchObject([{ term: 120, term_unit: 'days' }]);
  });
});

describe('(rfix22) holdout56: records read, shorthand yes and no, other funders\' tallies, contracts to sign, inline numbered and noted items', () => {
  const pinecrest = (requested_amount = 40_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('months of records the lender read are no term: the payments counted are', () => {
    const r = read('After reviewing six months of business bank statements, credit approved the full amount.\n\nPurchase Price ..... $40,000.00\nPurchased Amount ..... $52,000.00\nRemittance ..... $433.33 each business day\nNumber of Remittances ..... 120', pinecrest());
    expect(r.offers).toMatchObject([{ amount: 40_000, factor_rate: 1.3, term: 120, term_unit: 'days' }]);
    expect(read('Approved 40k at 1.30 after 4 months of processing history; 9 months, weekly.', pinecrest()).offers).toMatchObject([{ term: 9, term_unit: 'months' }]);
    // a term of months stays one
    expect(read('Approved 40k at 1.30 for 6 months, daily.', pinecrest()).offers).toMatchObject([{ term: 6, term_unit: 'months' }]);
  });

  it('an approval typed with letters dropped ("aprvd", "aproved", "approvd") is an approval; negated it is none', () => {
    for (const w of ['aprvd', 'aproved', 'approvd', 'aprovd']) {
      const { r, out } = hook(`pinecrest ${w} 40k 1.30 fr 6 mos pmt 400/day`);
      expect(r.type).toBe('approved');
      expect(out.apply).toBe(true);
    }
    expect(read('not aprvd yet, waiting on uw', pinecrest()).type).not.toBe('approved');
    expect(read('Please approve the attached change form.', pinecrest()).type).not.toBe('approved');
  });

  it('"no on <the file>" opening a reply and "isn\'t our thing" are a no; a no on one term is not; medical practices are an industry', () => {
    const { r, out } = hook('no on pinecrest. medical w/ insurance recievables isnt our thing, sry');
    expect(r).toMatchObject({ type: 'declined', decline_category: 'industry' });
    expect(out.apply).toBe(true);
    expect(read("It's a no on Pinecrest, sorry.", pinecrest()).type).toBe('declined');
    expect(read('no on pinecrest vet clinic, sorry', pinecrest()).type).toBe('declined');
    // the kind shrugged off is named first, before another reason
    expect(read("Urgent care isn't really our thing, and the owner's FICO is on the low side anyway.", pinecrest()).decline_category).toBe('industry');
    expect(read('Sorry, urgent care clinics are not really our cup of tea.', pinecrest())).toMatchObject({ type: 'declined', decline_category: 'industry' });
    // a no on a term, a figure or a schedule is a counter's refusal, not a decline
    expect(read('no on 12 months. we can do 40k at 1.35 over 9 months, daily', pinecrest()).type).not.toBe('declined');
    expect(read('no on the weekly. 40k at 1.30, 6 months, $303.33 daily works', pinecrest()).type).not.toBe('declined');
    expect(read('Our thing is speed: approved 40k at 1.30, 6 months, $433.33 daily.', pinecrest()).type).toBe('approved');
  });

  it('other funders\' tally beside a funder\'s approval is not the decision; a tally alone or every funder declining stays', () => {
    const table = 'Funder | Advance | Factor | Term | Payment\nBayview Capital | $40,000 | 1.30 | 6 months | $433.33 daily';
    expect(hook(`Good news: a funder approved this submission.\n\n${table}\n\n4 funders declined and 1 did not respond.`).out.apply).toBe(true);
    expect(hook('Approved: $40,000, 1.30, 6 months, $433.33 daily. Two other lenders on the platform passed on it.').out.apply).toBe(true);
    expect(read('All 5 funders declined this submission.', pinecrest()).type).toBe('declined');
    expect(hook('3 funders declined and 2 are still reviewing.').out.apply).toBe(false);
  });

  it('contracts for the approved deal, "please have the merchant sign by Friday": an approval, no request for information', () => {
    const r = read('Contracts for the approved deal: purchase price $40,000, factor 1.33, 150 daily payments of $354.67.\nPlease have the merchant sign by Friday.', pinecrest());
    expect(r.type).toBe('approved');
    // each on its own: the signature asked is no request beside priced terms; the contracts named for the approved deal are the approval
    expect(read('Purchase price $40,000, factor 1.33, 150 daily payments of $354.67. Please have the merchant sign by Friday.', pinecrest()).type).toBe('approved');
    expect(read('Contracts for the approved deal: purchase price $40,000, factor 1.33, 150 daily payments of $354.67. Please have the merchant send a voided check.', pinecrest()).type).toBe('approved');
    // signing a document asked for is still a request: the signed application is an item
    expect(read('Please have the merchant sign the application and send 3 months of statements.', pinecrest())).toMatchObject({ type: 'needs_info', requested_items: ['application', '3 months of statements'] });
  });

  it('papers named for another business by its legal name (subject or body) go to a person; the deal\'s own name does not', () => {
    const body = 'Contracts for the approved deal: purchase price $40,000, factor 1.33, 150 daily payments of $354.67.\nPlease have the merchant sign by Friday.';
    const subj = (s: string) => classifyReply({ subject: s, text: body }, pinecrest());
    expect(subj('Please DocuSign: Revenue Purchase Agreement - Harbor Bakery LLC')).toMatchObject({ type: 'approved', review_reason: 'multiple_deals' });
    expect(read('Attached are the contracts for Harbor Bakery LLC: purchase price $40,000, factor 1.33, 150 daily payments of $354.67.', pinecrest()).review_reason).toBe('multiple_deals');
    expect(subj('Please DocuSign: Revenue Purchase Agreement - Pinecrest Veterinary Clinic LLC').review_reason).toBeUndefined();
  });

  it('an inline numbered list wrapped across lines, and "a line on X", are items', () => {
    expect(requestedItems('to finish we need the merchant to (1) connect their operating account through Plaid and\n(2) upload the 2024 business tax return. The form is attached.').items).toEqual(['operating account through Plaid', '2024 business tax return']);
    expect(requestedItems('We need: (1) voided check (2) 3 months statements (3) DL').items).toEqual(['voided check', '3 months statements', 'DL']);
    expect(requestedItems('Items Needed | (1) July bank statement; (2) November MTD; (3) voided business check').items).toEqual(['July bank statement', 'November MTD', 'voided business check']);
    expect(requestedItems('Can you send a quick word about the March dip and the October statement?').items).toEqual(['explanation of the March dip', 'October statement']);
    expect(requestedItems('need 2 mo bnk stmts + 2024 tax rtn b4 i price').items).toEqual(['2 mo bnk stmts', '2024 tax rtn']);
  });
});

describe('(rcond) offers on a condition about the deal\'s merit, a decision naming another business without "for", gross and net amounts', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('an offer hanging on what statements still to come will show goes to a person (tentative_terms)', () => {
    for (const text of [
      'If the new statements show no further NSFs we can do $40k at 1.35 over 6 months, weekly.',
      "Assuming the October statement comes in at similar volume we'd go 50k at 1.36 for 8 months, weekly payments.",
      'Provided deposits stay above $70k a month, approved for $60,000 at 1.38, 9 months, daily.',
      'We can do 55k at 1.37 for 8 months weekly as long as the MTD shows no new negative days.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
  });

  it('an offer hanging on an inspection or a site visit still to come, or on a fact about the merchant not verified, goes to a person', () => {
    for (const text of [
      'Subject to a clean site inspection, approved for $60,000 at 1.38, 9 months, daily.',
      'Approved $60,000 at 1.38 for 9 months daily, upon a satisfactory field exam.',
      'If the merchant really has no other positions we can approve $60k at 1.38 over 9 months daily.',
      'Assuming there are no undisclosed advances, approved for $60,000 at 1.38, 9 months, daily.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
  });

  it('routine stips, a lien paid off before funding, the item\'s bare arrival and a later upsize floated on a condition still apply', () => {
    for (const text of [
      'Approved for $60,000 at 1.38, 9 months, daily. Subject to signed contract and bank verification.',
      'Approved $60,000 at 1.38 for 9 months, daily, subject to a funding call with the merchant.',
      'Approved for $60,000 at 1.38, 9 months, daily, conditional on the Kapitus lien being paid off before funding.',
      'Approved subject to landlord letter. $60,000, 1.38, 9 months, daily.',
      "Approved $60,000 at 1.38 for 9 months, daily. Once the MTD comes in I'll send contracts.",
      'Approved 60k at 1.38 for 9 months, daily. If the October statement comes in stronger we can revisit an add-on.',
      'Approved 60k at 1.38 for 9 months, daily. Let us know if the merchant actually wants to proceed.',
    ]) {
      const { r, out } = hook(text);
      expect(r, text).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.38 }] });
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('a decision word right before another business ("Approved Harbor Bakery.", "DECLINED - Harbor Bakery") goes to a person (multiple_deals)', () => {
    for (const text of [
      'Approved Harbor Bakery. $60k at 1.38 for 9 months, daily.',
      'Approved Harbor Bakery - 60k / 1.38 / 9 months / daily',
      'APPROVED - Harbor Bakery\n60k / 1.38 / 9 months / daily',
      'Approval: Harbor Bakery, 60k at 1.38, 9 months daily.',
      'Declined Harbor Bakery. Too many NSFs.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('multiple_deals');
      expect(out.apply, text).toBe(false);
    }
  });

  it('the deal\'s own name, the broker greeted, a label or an adverb after the decision word still apply', () => {
    for (const text of [
      'Approved Pinecrest Veterinary. $60k at 1.38 for 9 months, daily.',
      'Approved Pinecrest Vet - 60k / 1.38 / 9 months / daily',
      'Approved Dana! 60k at 1.38, 9 months daily.',
      'Approved As Submitted. 60k at 1.38, 9 months daily.',
      'Approved In Full - 60k at 1.38, 9 months daily.',
      'Approved 60k at 1.38, 9 months daily.\nApproval Valid Through: 12/15/2026',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('two amounts where the funded one is unclear (a net put as a limit or left unexplained, an approval and a smaller sum only funded) go to a person', () => {
    for (const text of [
      'Approved 90k at 1.35 for 9 months weekly, but we can only fund 70k net after the payoff.',
      'Approved 90k but we can only fund 70k. 1.35, 9 months weekly.',
      "Approved 90k at 1.35, 9 months weekly. We can only put 70k in the merchant's hands.",
      'Approved 90k at 1.35, 9 months weekly. We can fund 70k net.',
    ]) {
      const { r, out } = hook(text, pinecrest(90_000));
      expect(r.review_reason, text).toBe('conflicting_cues');
      expect(out.apply, text).toBe(false);
    }
  });

  it('a net after a named fee or payoff, or beside the gross, is no offer: the gross is logged (the corpus convention)', () => {
    for (const text of [
      'Approved $90k gross / $70k net after payoff, 1.35, 9 months weekly.',
      'Approved $90k gross, $70k net. 1.35, 9 months weekly.',
      'Approved $90,000 at 1.35 for 9 months weekly. Net to merchant $70,000 after the Kapitus payoff.',
      'Approved 90k at 1.35, 9 months weekly. The merchant will net $87,300 after the 3% origination fee.',
    ]) {
      const { r, out } = hook(text, pinecrest(90_000));
      expect(r, text).toMatchObject({ type: 'approved', offers: [{ amount: 90_000, factor_rate: 1.35 }] });
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('a subject line the lender wrote with a decision naming another business goes to a person; one naming this deal applies', () => {
    const withSubject = (subject: string) => {
      const text = '$60k at 1.38 for 9 months, daily. Contracts to follow.';
      const r = read(text, pinecrest(), subject);
      return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
    };
    for (const subject of ['APPROVED - Harbor Bakery', 'Approved: Harbor Bakery', 'Re: Harbor Bakery - Approved']) {
      const { r, out } = withSubject(subject);
      expect(r.review_reason, subject).toBe('multiple_deals');
      expect(out.apply, subject).toBe(false);
    }
    expect(withSubject('Approved - Pinecrest Veterinary Clinic').out.apply).toBe(true);
  });

  it('the same conditions in other words: a figure still to come, "this assumes", a check or search still to come, the merchant\'s word', () => {
    for (const text of [
      "We can do 60k at 1.38 over 9 months daily if October's deposits come in north of $80k.",
      'Approved 60k at 1.38, 9 months daily. This assumes October looks like September.',
      'Approved 60k at 1.38, 9 months daily, pending review of the October statement.',
      "Approved 60k at 1.38, 9 months daily, so long as there's nothing new on the background.",
      'Approved 60k at 1.38, 9 months daily provided the Kapitus balance is what the merchant says.',
      "Approved 60k at 1.38, 9 months daily. Terms hold if the merchant's story on the NSFs checks out.",
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Approved 60k at 1.38, 9 months daily. If the statements show anything new, let me know.',
      'Approved 60k at 1.38, 9 months daily. Please send the October statement when it comes in.',
      'Approved 60k at 1.38, 9 months daily, subject to standard stips and a clean bank verification.',
      'Approved 60k at 1.38, 9 months daily. Assuming the merchant signs this week we can fund Friday.',
      'Approved 60k at 1.38, 9 months daily. Provided the merchant is still interested, send back signed docs.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });
});

describe('(revE) review of rfix22: a decision word asked about, a no on a change, papers named without a suffix, numbered and payoff items', () => {
  const pinecrest = (requested_amount = 40_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('an approval word asked about ("was it aprvd?", "approved? lmk") or still to come ("should be aprvd by eod") is no approval', () => {
    for (const t of ['was it aprvd? merchant keeps asking', 'has pinecrest been aprvd or not?', 'approved? lmk', 'did it get apprvd?', 'r u aprvd on this?', 'should be aprvd by eod, uw is finishing up', 'hoping to get it aprvd tmrw']) {
      const { r, out } = hook(t);
      expect(r.type, t).not.toBe('approved');
      expect(out.apply, t).toBe(false);
    }
    // said, with a question after it or before it, it stands
    expect(hook('aprvd!! 40k 1.30 6 mos 433/day').out.apply).toBe(true);
    expect(hook('Approved 40k at 1.30 for 6 months, $433.33 daily. Want me to send contracts?').r.type).toBe('approved');
    expect(hook('Is this the Pinecrest file? Approved 40k 1.30 6 mos 433/day').r.type).toBe('approved');
  });

  it('"no on" a change, a step or a part of the deal is no decline of the file', () => {
    for (const t of ['no on the ach change request, terms stand', 'hey, no on the funding call today, uw is still reviewing', 'no on the waiver request', 'No on the add-on.']) {
      const { r, out } = hook(t);
      expect(r.type, t).not.toBe('declined');
      expect(out.apply, t).toBe(false);
    }
    expect(hook('No on the owner guarantee waiver. Approved as submitted otherwise.').r.type).toBe('approved');
    expect(read('no on pinecrest vet clinic, sorry', pinecrest()).type).toBe('declined');
    // a no on the file with a condition is for a person
    const cond = hook('No on Pinecrest unless they pay off Kapitus.');
    expect(cond.r.type).not.toBe('declined');
    expect(cond.out.apply).toBe(false);
  });

  it('months of the kind of records read ("4 months of processing") are no term', () => {
    expect(read('We reviewed 6 months of statements and 4 months of processing. Approved 60k at 1.30, daily, 6 months.', pinecrest(60_000)).offers).toMatchObject([{ amount: 60_000, term: 6, term_unit: 'months' }]);
    expect(read('Approved 60k at 1.30 after six months of deposits; 9 months, weekly.', pinecrest(60_000)).offers).toMatchObject([{ term: 9, term_unit: 'months' }]);
  });

  it('contracts named for another business without its suffix go to a person; the deal\'s own name or a person\'s does not', () => {
    const terms = 'purchase price $40,000, factor 1.33, 150 daily payments of $354.67.';
    expect(hook(`Contracts attached for Harbor Bakery: ${terms}`).r).toMatchObject({ type: 'approved', review_reason: 'multiple_deals' });
    expect(classifyReply({ subject: 'Re: Contracts - Harbor Bakery', text: `Contracts attached: ${terms}` }, pinecrest()).review_reason).toBe('multiple_deals');
    expect(hook(`Contracts for Pinecrest Vet attached. ${terms}`).out.apply).toBe(true);
    expect(hook(`Contracts out for Dana Whitfield to review: ${terms}`).out.apply).toBe(true);
  });

  it('numbers right after the verb asking, and a payoff letter naming its balance, are items', () => {
    expect(requestedItems('need (1) 40k payoff letter (2) 3 months statements').items).toEqual(['40k payoff letter', '3 months statements']);
    expect(requestedItems('we need: (1) $12,500 payoff letter from Kapitus (2) 2024 tax rtn').items).toEqual(['$12,500 payoff letter from Kapitus', '2024 tax rtn']);
    expect(requestedItems('Need (1) payoff for the $12,000 OnDeck balance (2) 2 months stmts').items).toEqual(['payoff for the $12,000 OnDeck balance', '2 months stmts']);
    expect(hook('need (1) 40k payoff letter (2) 3 months statements').r.type).toBe('needs_info');
  });
});

describe('(rfix23) holdout57: terms of several files in blocks, a decision still going up, an internal note, categories said another way, glossed Spanish items', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('blocks of terms each headed by a business are one file each: a person decides (multiple_deals), only this deal\'s offer read', () => {
    for (const text of [
      'Aprobados los dos que enviaste / both of your files are approved:\n\nHarbor Bakery LLC\n  Advance: $45,000 | Factor 1.35 | 6 months daily\n\nPinecrest Veterinary Clinic\n  Advance: $60,000 | Factor 1.30 | 39 weekly payments of $2,000',
      'Approved, see below.\n\nHarbor Bakery\nAdvance $45,000, factor 1.35, 6 months daily\n\nPinecrest Veterinary Clinic\nAdvance $60,000, factor 1.30, 9 months weekly',
      'Aprobado los dos que me mandaste:\n\nHarbor Bakery\n  $45,000 a 1.35, 6 meses diario\n\nPinecrest Veterinary Clinic\n  $60,000 a 1.30, 9 meses semanal',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('multiple_deals');
      expect(r.offers.map((o) => o.amount), text).toEqual([60_000]);
      expect(out.apply, text).toBe(false);
    }
    // two other businesses' blocks, neither this deal's: still a person's call
    expect(hook('Good news on two of yours:\n\nHarbor Bakery\n$45k / 1.35 / 6 mo daily\n\nOak Street Dental\n$50k / 1.32 / 8 mo weekly').out.apply).toBe(false);
    // one block headed by this deal, or blocks headed by the trade's own words, are one file's answer
    for (const text of [
      'Approved!\n\nPinecrest Veterinary Clinic\n  Advance: $60,000 | Factor 1.30 | 39 weekly payments of $2,000\n\nContracts to follow.',
      'Two options for Pinecrest:\n\nOption A\n  $60,000 at 1.30, 9 months weekly\nOption B\n  $50,000 at 1.27, 6 months weekly',
    ]) expect(hook(text).r.review_reason, text).toBeUndefined();
  });

  it('a decision the decider is still taking above, or says may change, goes to a person (tentative_terms)', () => {
    for (const text of [
      'Declined for NSFs, 14 this month. Let me ask my manager if he will make an exception.',
      'No on this one for now - too many overdrafts. Let me see what I can do, I might get it through smaller.',
      'Lo siento, declinado por NSFs. Voy a consultar con mi jefe y te aviso.',
      'Declined - 4th position. My boss will see if he can make an exception.',
      'Declined for now on the NSFs. This decision may still change once credit looks again.',
      'Approved 60k at 1.38, 9 months daily. Let me ask my manager if we can do 1.35.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      "Declined for NSFs. I asked my manager and it's still a no.",
      "Declined for NSFs, 14 this month. We'll see what we can do on your next one.",
      'Approved 60k at 1.38, 9 months daily. Let me ask my manager to send the contracts over.',
      'Declined - we make no exceptions on stacking, my manager confirmed.',
    ]) expect(hook(text).out.apply, text).toBe(true);
    // what follows items asked for is a request, no decision that may change
    const items = hook("Need current balances on all three positions, and payoff letters. Then I'll see what we can do.");
    expect(items.r).toMatchObject({ type: 'needs_info' });
    expect(items.r.review_reason).toBeUndefined();
  });

  it('a note that says at its top it is not from the lender is no lender\'s decision (unclassified, for a person)', () => {
    for (const text of [
      'Dana - fwd for the file. Internal, not from the funder.\n\nTalked to Renee by phone about Pinecrest. She said it "looks like a yes" at around $25,000, probably 1.35 over 6 months daily.',
      "FYI, our own note, not from the lender: Marcus said on the phone he'd approve 60k at 1.38 for 9 months daily.",
      'This is an internal memo, not a reply from the lender. Credit said 60k at 1.38 is likely.',
    ]) {
      const { r, out } = hook(text);
      expect(r.type, text).toBe('unclassified');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      "Approved 60k at 1.38, 9 months daily. The stips list is not from the underwriter, it's from ops: voided check.",
      'Internal review is complete. Approved 60k at 1.38, 9 months daily.',
    ]) expect(hook(text).r.type, text).toBe('approved');
  });

  it('revenue that cannot carry the ask is low_revenue; a kind of business shut out in the passive is industry', () => {
    for (const text of [
      'DECLINE - PINECREST. AVG DEPOSITS $16K/MO CANNOT SUPPORT A $20K ASK. RESUBMIT IF VOLUME PICKS UP.',
      "Have to pass. Their sales don't justify a 60k advance right now.",
      'Declined. Monthly deposits of $22k are not enough to support the payment at this size.',
    ]) expect(read(text).decline_category, text).toBe('low_revenue');
    expect(read('Declined. The average balance cannot support a daily payment.').decline_category).toBe('low_balance');
    for (const text of [
      'Unfortunately oilfield service businesses are excluded under our current credit policy, so we are unable to make an offer.',
      'Sorry, cannabis-adjacent merchants are not eligible under our guidelines. Declined.',
    ]) expect(read(text).decline_category, text).toBe('industry');
    expect(read('Declined. Businesses are restricted to one position with us and this one has three open advances.').decline_category).toBe('stacking');
  });

  it('a Spanish item with its English in brackets is filed as the English; an English item\'s aside is dropped as before', () => {
    expect(read("Para Pinecrest necesitamos / we need:\n- estados de cuenta de octubre (October bank statements)\n- copia de la identificación del dueño (owner's ID, front and back)").requested_items)
      .toEqual(['October bank statements', "owner's ID, front and back"]);
    expect(read('Necesito lo siguiente:\n- cheque anulado (voided business check)\n- contrato de arrendamiento (lease agreement)').requested_items).toEqual(['voided business check', 'lease agreement']);
    expect(read("We need:\n- copy of the shop lease (they list a landlord but the app shows the owner's home address)\n- July bank statement (package only has Aug-Oct)").requested_items)
      .toEqual(['copy of the shop lease', 'July bank statement']);
  });
});

describe('(revF) review of rcond: merit conditions, a decision before another business, an unclear funded amount', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('a merit condition in other words ("on the condition that", a review of the last months, a bare background, "another advance", "no tax liens") goes to a person', () => {
    for (const text of [
      'Approved 60k at 1.38, 9 months daily, subject to satisfactory review of the last 3 months statements.',
      '60k at 1.38, 9 months daily is approved on the condition that the December bank statement shows no returned items.',
      'If volume holds at the current level, we\'re approved at 60k, 1.38, 9 months daily.',
      'Approved 60k at 1.38, 9 months daily. Pending clear background.',
      'Approved 60k at 1.38, 9 months daily if the merchant hasn\'t taken another advance since submission.',
      'Approved 60k at 1.38, 9 months daily as long as the merchant has no tax liens.',
      "Approved 60k at 1.38, 9 months daily provided the merchant's FICO comes back over 600.",
      'Approved 60k at 1.38, 9 months daily as long as nothing new shows up on the UCC.',
      "Approved 60k at 1.38, 9 months daily, provided the merchant isn't in any active litigation.",
      'Approved 60k at 1.38, 9 months daily, subject to a satisfactory review of the tax returns.',
      "Approved 60k at 1.38, 9 months daily. This is based on the merchant's stated revenue of 120k/mo; if actuals come in lower the offer changes.",
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Approved 60k at 1.38, 9 months daily, subject to verification of bank account.',
      'Approved 60k at 1.38, 9 months daily. Pending signed contracts and a funding call.',
      'Approved 60k at 1.38, 9 months daily, subject to payoff of the OnDeck balance at funding.',
      'Approved 60k at 1.38, 9 months daily. As long as the merchant signs by Friday this pricing holds.',
      'Approved 60k at 1.38, 9 months daily. Subject to final review of the signed contract.',
      'Approved 60k at 1.38, 9 months daily. No further review needed, send it over for contracts.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('a decision word before another business after a dash opener, before a parenthesis or a legal suffix goes to a person; the ISO greeted applies', () => {
    for (const text of [
      'Good news - Approved Oak Street Dental. 60k at 1.38, 9 months daily.',
      'Approved: Oak Street Dental (60k at 1.38, 9 months daily)',
      'Approved Oak Street Dental LLC 60k at 1.38, 9 months daily.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('multiple_deals');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Approved Summit Valley! 60k at 1.38, 9 months daily.',
      'Approved Happy Thanksgiving! 60k at 1.38, 9 months daily.',
      'Approved Monday. 60k at 1.38, 9 months daily.',
      'Approved As Discussed - 60k at 1.38, 9 months daily.',
      'Good news - Approved Pinecrest Vet (60k at 1.38, 9 months daily)',
      'Thanks Dana - Approved Pinecrest at 60k, 1.38, 9 months daily.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('a sum the merchant is said to get that nothing explains goes to a person; a net a few points under the gross is its fees', () => {
    for (const text of ['Approved 90k at 1.35, 9 months weekly. Merchant receives $70,000.', 'Approved 90k at 1.35, 9 months weekly. Merchant gets 70k.', 'Approved 90k at 1.35, 9 months weekly. Merchant gets 81k.']) {
      const { r, out } = hook(text, pinecrest(90_000));
      expect(r.review_reason, text).toBe('conflicting_cues');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Approved 90k at 1.35, 9 months weekly. Net to merchant $87,300.',
      'Approved 90k at 1.35, 9 months weekly. Merchant gets 87,300 after the 3% fee.',
    ]) {
      const { r, out } = hook(text, pinecrest(90_000));
      expect(r, text).toMatchObject({ type: 'approved', offers: [{ amount: 90_000, factor_rate: 1.35 }] });
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
    // a net far under the gross that nothing explains still goes to a person (rcond)
    expect(hook('Approved 90k at 1.35, 9 months weekly. Net to merchant $70,000.', pinecrest(90_000)).out.apply).toBe(false);
  });
});

describe('(rfix24) holdout58: a rep unsure which file, voicemails left on our line, a letter\'s numbered paragraphs, another file\'s news, guessed figures', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest(), subject?: string) => {
    const r = subject ? read(text, ctx, subject) : read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('a sender who cannot tell which of two files the reply is for goes to a person; a choice between offers does not', () => {
    for (const text of [
      'Hi Dana, hold on - is this the Pinecrest one or the Lakeside clinic you sent last month? Either way I need the October statement and a voided check.',
      "Dana, I can't tell which file underwriting pulled, the two vet clinics are both under 'vet'. For whichever is in review, send the MTD and the lease.",
      'Not sure which of your two deals this is, but I need a signed application and the last 3 months of statements.',
    ]) {
      const { r, out } = hook(text);
      expect(r.type, text).toBe('needs_info');
      expect(r.review_reason, text).toBe('multiple_deals');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Dana, please send the October statement and a voided check. Let me know which one the merchant prefers once we price it.',
      'Need the MTD and a voided check. Is it the 6 month one or the 9 month one they want? Either works for us.',
    ]) {
      const { r } = hook(text);
      expect(r.type, text).toBe('needs_info');
      expect(r.review_reason, text).toBeUndefined();
    }
  });

  it("a voicemail left on our line, delivered as the voice system's notification, is the lender's own word; one passed on is hearsay", () => {
    const notice = (body: string) => `New voicemail from Carla Ruiz (555) 555-0101\nMailbox: Dana (ext 114)\nLength: 0:40\n\nTranscription (automated):\n\n${body}\n\nReply to call back.`;
    const direct = hook(notice('hi dana its carla on the pinecrest vet file we approved the sixty thousand at one point three five for nine months weekly send me the contract request and a voided check thanks bye'));
    expect(direct.r).toMatchObject({ type: 'approved', offers: [{ amount: 60_000, factor_rate: 1.35, term: 9, term_unit: 'months', payment_frequency: 'weekly' }] });
    expect(direct.r.review_reason).toBeUndefined();
    expect(direct.out.apply).toBe(true);
    const decline = hook(notice('dana carla again on pinecrest sorry we have to decline vet clinics are on our restricted industry list nothing to do with the numbers'));
    expect(decline.r.type).toBe('declined');
    expect(decline.r.review_reason).toBeUndefined();
    for (const text of [
      `Hi Dana, Carla asked me to send you the voicemail she left since you were on a call. Transcript below.\n\n${notice('hi dana we approved the sixty thousand at one point three five for nine months weekly bye')}`,
      `Dana - Carla left me this VM on Pinecrest, forwarding the transcript.\n\nVoicemail from: Carla Ruiz\nhey its carla we approved the sixty thousand at one point three five for nine months weekly bye`,
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
  });

  it('statements counted in shorthand and a dry stretch of deposits are no term', () => {
    for (const [text, term] of [
      ['Funded Amt: $55,000\nFactor: 1.36\nTerm: 140 business days, daily\n\nNotes: 4 mo stmts reviewed, 0 NSF. Approved at $55,000 full ask.', 140],
      ['Approved $55,000 at 1.36 for 140 business days, daily. UW note: 3 mos bank stmts clean. $55,000 is the full ask.', 140],
      ['What we can offer is $45,000 at a 1.40, 9 month term, daily. $45,000 works because deposits went quiet for 11 days in Sept.', 9],
      ['What we can offer is $45,000 at a 1.40, 9 month term, daily. Big wires, then nothing for 14 days; $45,000 is the cap.', 9],
    ] as const) expect(extractOffers(text).map((o) => [o.amount, o.term]), text).toEqual([[text.includes('55,000') ? 55_000 : 45_000, term]]);
    // near misses: a term after "for" is still a term
    expect(extractOffers('Approved $45,000 at 1.40 for 9 months daily.').map((o) => [o.amount, o.term])).toEqual([[45_000, 9]]);
    expect(extractOffers('Approved 60k at 1.36, 6 mo daily.').map((o) => [o.amount, o.term, o.term_unit])).toEqual([[60_000, 6, 'months']]);
  });

  it("a letter's numbered paragraphs are no item list; its lettered clauses after a request are", () => {
    const letter = [
      'Dear Ms. Whitfield,', '', 'Re: Application of Pinecrest Veterinary Clinic', '',
      '1. We acknowledge receipt of the above-referenced submission and the bank statements and application accompanying it.', '',
      '2. Our guidelines do not permit the purchase of receivables of any merchant in operation for fewer than two (2) years as of the date of submission.', '',
      '3. The materials furnished indicate that the Merchant began operations approximately fourteen (14) months ago. Accordingly, we must respectfully decline the submission.', '',
    ].join('\n');
    const d = hook(letter);
    expect(d.r.type).toBe('declined');
    expect(d.r.decline_category).toBe('time_in_business');
    expect(d.r.review_reason).toBeUndefined();
    const ask = requestedItems('We are unable to proceed until we have received each of the following: (a) a signed application of each owner; (b) bank statements for July through September, all pages; and (c) a copy of the current lease.');
    expect(ask.items).toEqual(['a signed application of each owner', 'bank statements for July through September, all pages', 'a copy of the current lease']);
    // an approval's conditions in clauses, no request before them, are no items
    expect(requestedItems('Funding is conditioned upon (a) execution of the agreement, (b) a satisfactory verbal verification and (c) confirmation of no new positions.').items).toEqual([]);
    // a stip list still is one
    expect(requestedItems('Please send the following:\n1. Voided check\n2. Driver license\n3. October bank statement').items.length).toBe(3);
  });

  it('a file only reviewed "on a preliminary basis" is no tentative decision; a preliminary approval still is', () => {
    const asks = hook('We have reviewed the file on a preliminary basis only. Before we can render a decision please send the October bank statement and a voided check.');
    expect(asks.r.type).toBe('needs_info');
    expect(asks.r.review_reason).toBeUndefined();
    const prelim = hook('Preliminary approval at 60k, 1.35, 9 months weekly. Final after the bank verification call.');
    expect(prelim.out.apply).toBe(false);
  });

  it("another file's news alone (funded, commission) does not send this deal's answer to a person; another file's decision does", () => {
    const news = hook("Hi Dana,\n\nQuick update on the Lakeside Bakery file from October: it funded Friday, so your comp should hit next week.\n\nOn Pinecrest Veterinary Clinic, sorry, it's a no from us. True monthly revenue is about $12k and our floor is $20k a month.\n\nThanks!");
    expect(news.r.type).toBe('declined');
    expect(news.r.review_reason).toBeUndefined();
    expect(news.out.apply).toBe(true);
    for (const text of [
      "Hi Dana,\n\nQuick update on the Lakeside Bakery file: approved at 30k, contracts out today.\n\nOn Pinecrest Veterinary Clinic, sorry, it's a no from us. Revenue is too low.",
      "Hi Dana,\n\nOn the Lakeside Bakery file I still need the MTD statement.\n\nOn Pinecrest Veterinary Clinic, sorry, it's a no from us. Revenue is too low.",
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('multiple_deals');
      expect(out.apply, text).toBe(false);
    }
  });

  it('a request beside a figure guessed at goes to a person; a plain request does not', () => {
    const guessed = hook("hi dana underwriting looked at it and were probably somewhere around forty but i cant say for sure until i see more so what i need from you is the october bank statement once i have it i can give you real numbers");
    expect(guessed.r.type).toBe('needs_info');
    expect(guessed.r.requested_items.join(' ')).toMatch(/october bank statement/);
    expect(guessed.out.apply).toBe(false);
    const plain = hook('what i need from you is the october bank statement and a voided check, then we can price it');
    expect(plain.r.type).toBe('needs_info');
    expect(plain.out.apply).toBe(true);
  });

  it('an approval only inside its own condition, or a decline on a condition after it, goes to a person; outright ones still apply', () => {
    for (const text of [
      'Still with UW. if aprvd, we would be at 60k/1.32/8 mos daily.',
      'Once it gets approved we would do 60k at 1.35 for 9 months weekly.',
      'Reviewing the October NSFs now. Declined if so.',
      "A pass if there's another position on the statements, checking now.",
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
    for (const text of [
      'Approved 60k at 1.32, 8 months daily, if the merchant wants it.',
      'If approved terms work for the merchant, send the contract request. Approved 60k at 1.32, 8 months daily.',
      'Declined, if you want to resubmit in 90 days send fresh statements.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBeUndefined();
      expect(out.apply, text).toBe(true);
    }
  });

  it('documents on the lines under a request heading alone on its line are items; "and also" starts the next item', () => {
    expect(requestedItems('DOCUMENTS REQUIRED\nSigned renewal application\nVoided business check\nOctober bank statement\n\nThank you.').items).toEqual([
      'Signed renewal application', 'Voided business check', 'October bank statement',
    ]);
    expect(requestedItems('Still needed:\nDriver license, front and back\nLandlord letter').items).toEqual(['Driver license, front and back', 'Landlord letter']);
    // near misses: prose under the heading, or one line only, is not read as a block of lines
    expect(requestedItems('Please upload\nWe reviewed the file and the owner looks solid. Bank statements look clean too.\nThe deal can go to committee.').hits.some((h) => h.startsWith('lines under'))).toBe(false);
    expect(requestedItems('i need the september statement and also the lease for the new location').items).toEqual(['september statement', 'lease for the new location']);
  });
});
describe('(rfix25) holdout59: months of statements, a schedule left apart, a phone\'s "dec -", Spanish, shorthand withdrawals and items', () => {
  const shop = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Riverbend Auto Glass', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = shop()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('months of statements are no term: "two of the three months include ...", a checklist\'s "Three months business bank statements"', () => {
    const a = read('Two of the three months include a tax refund deposit, so less than asked.\n\nAdvance: $40,000\nFactor: 1.36\nTerm: 30 weeks, $1,813.33 weekly', shop(60_000));
    expect(a.offers).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.36, term: 30, term_unit: 'weeks', payment_amount: 1813.33 })]);
    const b = read('Decision: APPROVED\n\n[x] Signed application\n[ ] Three months business bank statements\n\nApproved $40,000 at 1.36, 120 days, $453.33 daily', shop(40_000));
    expect(b.offers).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.36, term: 120, term_unit: 'days' })]);
    // near miss: a term is still a term
    expect(read('We can do $40,000 at 1.36 over 6 months, weekly.', shop(60_000)).offers).toEqual([expect.objectContaining({ term: 6, term_unit: 'months' })]);
  });

  it('a term and payment stated apart from a priced offer that its own term does not repay: a person reads it; a restatement that repays it stands', () => {
    const off = hook('Counter below - 3 of the 5 months look thin.\n\nFunded: $60,000\nFactor: 1.4 (payback $84,000)\nSchedule: 40 weeks, $2,100.00 weekly', shop(80_000));
    expect(off.r.offers[0]?.conflict).toMatch(/stated apart/);
    expect(off.out.apply).toBe(false);
    const ok = hook('We can do $60,000 at a factor of 1.4 over 140 business days (about seven months) at $600.00 per day.', shop(80_000));
    expect(ok.r.offers[0]?.conflict).toBeUndefined();
    expect(ok.r.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.4, term: 140, term_unit: 'days' });
  });

  it('a phone\'s "dec -" with its reason is a decline; "Dec" the month is not', () => {
    expect(read('dec - 5 pos, we stop at 3rd')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Dana\ndec: tib only 8 mos').type).toBe('declined');
    expect(read('merchant took another mca last wk\ndec - stacking')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    for (const text of ['Dec - Feb statements look clean. approved 40k at 1.35, 120 days', 'Oct - 2 nsfs\nNov - 1 nsf\nDec - 3 nsfs', 'owner says it funded in dec - 4 pos now?', 'Dec: $41,250 in deposits']) {
      expect(read(text, ask(40_000)).type, text).not.toBe('declined');
    }
  });

  it('Spanish: "no califica todavía" and the business\'s age ("apenas lleva ocho meses", "requisito es de dos años de operación")', () => {
    expect(read('Dana, apenas lleva ocho meses abierto y nuestro requisito es de dos años de operación. No califica todavía.')).toMatchObject({ type: 'declined', decline_category: 'time_in_business' });
    expect(read('Dana, no pasa nada, aprobado 30k a 1.38, 100 días', ask(30_000)).type).not.toBe('declined');
    // the age is no term beside an offer
    expect(read('Solo tiene 7 meses operando pero lo aprobamos: 30k a 1.38, 100 días, $414 diario', ask(30_000)).offers).toEqual([expect.objectContaining({ amount: 30_000, term: 100, term_unit: 'days' })]);
  });

  it('an approval taken back in shorthand ("scratch the aprvl", "pulling the appvl") goes to a person', () => {
    expect(hook('scratch the aprvl on riverbend, merchant took a 3rd yesterday').r.review_reason).toBe('approval_withdrawn');
    expect(hook('we are pulling the appvl, sorry').r.review_reason).toBe('approval_withdrawn');
    expect(hook('appvl stands: 60k at 1.38, 9 months daily. send the contract request').r.review_reason).not.toBe('approval_withdrawn');
  });

  it('items: "need 4 mos + mtd" names the months of statements; "we need 12 months" alone is no item; a Spanish list after "necesitamos"', () => {
    expect(read('need 4 mos + mtd b4 i can price').requested_items).toEqual(['4 mos', 'mtd']);
    expect(read('only have aug and sep, need 3 mths and the mtd').requested_items).toEqual(expect.arrayContaining(['3 mths']));
    expect(read('tib is short, we need 12 months. sorry').requested_items).toEqual([]);
    const es = read('Hola Dana,\n\nPara seguir necesitamos:\n\n- estados de cuenta de noviembre\n- cheque anulado de la cuenta\n\nGracias');
    expect(es.type).toBe('needs_info');
    expect(es.requested_items).toHaveLength(2);
  });

  it('a net beside a phone\'s "consol" (a consolidation option) is explained; a bare net far under the offer still goes to a person', () => {
    expect(hook('cant do 80 w/ rapid still open. best i got 45k 1.4 120d dly 525\nor consol rapid + net ~22k, lmk', shop(80_000)).out.apply).toBe(true);
    expect(hook('cant do 80. best i got 45k 1.4 120d dly 525\nnet ~22k to merchant, lmk', shop(80_000)).out.apply).toBe(false);
  });

  it('"no on X today - need Y first" is a request for items, not a decline; a no naming first position stays a decline', () => {
    expect(read('no on riverbend for now - still need the November statement first', ask(60_000)).type).toBe('needs_info');
    expect(read('no on riverbend - we need to be in first position', ask(60_000)).type).toBe('declined');
    expect(read('no on riverbend today, sorry', ask(60_000)).type).toBe('declined');
  });

  it('a request before a long-named business "goes to committee" is no tentative approval; an approval still going to committee is', () => {
    const req = hook('before Riverbend Family Auto Glass and Tint goes to committee I need the signed 4506-C.');
    expect(req.r.type).toBe('needs_info');
    expect(req.r.review_reason).toBeUndefined();
    expect(hook('approved 60k 1.38 9 months daily, but it still has to go to credit committee').r.review_reason).toBe('tentative_terms');
  });
});
describe('(revH) review of rfix24 and rfix25: voicemails not the lender\'s own word, figures read out in a row, news tied to this file, month notes, "no on" beside a refusal', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };
  const vm = (body: string) => `New voicemail from Lena Ortiz (555) 555-0142\nMailbox: Dana (ext 114)\n\nTranscription:\n\n${body}\n\nReply to call back.`;

  it('numbers read out in a row are separate numbers: "one point three five nine months" is 1.35 and 9 months, never "five nine" summed', () => {
    expect(wordsToDigits('approved at sixty thousand one point three five nine months weekly')).toBe('approved at $60,000 1.35 9 months weekly');
    expect(wordsToDigits('fifty thousand one point four two six months')).toBe('$50,000 1.42 6 months');
    // near misses: a tens word and its unit are one number
    expect(wordsToDigits('twenty five thousand over thirty six weeks')).toBe('$25,000 over 36 weeks');
    expect(wordsToDigits('forty-two hundred weekly')).toBe('$4200 weekly');
    expect(wordsToDigits('forty two five')).toBe('42.5');
    const { r, out } = hook(vm('hey dana lena on the pinecrest file we approved sixty thousand one point three five nine months weekly send the contract request'));
    expect(r.offers).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.35, term: 9, term_unit: 'months', payment_frequency: 'weekly' })]);
    expect(out.apply).toBe(true);
  });

  it("a voicemail on our line whose caller passes on another's word, is the merchant, or takes it back goes to a person", () => {
    for (const body of [
      'hi dana this is mark the owner of pinecrest the funder called me this morning and said we are approved for sixty thousand at one point three five for nine months',
      'hey dana lena here my manager told me pinecrest is approved sixty thousand one point three five nine months weekly paperwork to follow',
      'hi dana i heard from underwriting that pinecrest got approved at sixty thousand one point three five nine months',
      'hi dana lena on pinecrest we approved sixty thousand one point three five nine months weekly oh wait sorry thats the lakeside one pinecrest is still in underwriting',
    ]) {
      const { out } = hook(vm(body));
      expect(out.apply, body).toBe(false);
    }
    // near miss: the lender's rep speaking for the lender still applies
    const own = hook(vm('hi dana its lena from ridgeline on pinecrest we approved the sixty thousand at one point three five for nine months weekly send me the contract request thanks'));
    expect(own.r.review_reason).toBeUndefined();
    expect(own.out.apply).toBe(true);
  });

  it('terms on a file reviewed only on a preliminary basis go to a person; a request after such a review does not', () => {
    for (const text of [
      'We have reviewed the file on a preliminary basis and can offer $60,000 at 1.35 for 9 months, weekly.',
      'Looked at it on a prelim basis - 60k at 1.35, 9 months weekly looks doable.',
    ]) {
      const { r, out } = hook(text);
      expect(r.review_reason, text).toBe('tentative_terms');
      expect(out.apply, text).toBe(false);
    }
    const asks = hook('We reviewed the file on a preliminary basis. Before a decision please send the November statement and a voided check.');
    expect(asks.r.type).toBe('needs_info');
    expect(asks.out.apply).toBe(true);
    expect(hook('We have reviewed the file and can offer $60,000 at 1.35 for 9 months, weekly.').out.apply).toBe(true);
  });

  it("another file's news that points back at this one (a duplicate, the same owner) is not news alone", () => {
    const dup = hook('Hi Dana,\n\nThe Lakeside Bakery file you sent is a duplicate of this one, same owner and same EIN.\n\nOn Pinecrest Veterinary Clinic, approved 60k at 1.35, 9 months weekly.');
    expect(dup.r.review_reason).toBe('multiple_deals');
    expect(dup.out.apply).toBe(false);
    // near miss: news alone still leaves this deal's answer to apply
    const news = hook('Hi Dana,\n\nLakeside Bakery funded Friday, your comp goes out next week.\n\nOn Pinecrest Veterinary Clinic, approved 60k at 1.35, 9 months weekly.');
    expect(news.r.review_reason).toBeUndefined();
    expect(news.out.apply).toBe(true);
  });

  it('"dec -" heading a line that asks, waits or wonders is the month\'s note, no decline; a "dec -" with its reason stays one', () => {
    for (const text of ['Dec - looks like revenue dropped, need the MTD before we decide', 'dec - pending MTD', 'dec - stacking? looks like 4 pos, confirm w merchant']) {
      const { r, out } = hook(text);
      expect(r.type, text).not.toBe('declined');
      if (r.type !== 'needs_info') expect(out.apply, text).toBe(false);
    }
    expect(read('dec - 4 pos, we stop at 3rd')).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(read('Reviewed Oct and Nov.\nDec - 4 pos now after the new one funded, cant do it').type).toBe('declined');
    expect(read('dec: tib only 8 mos').type).toBe('declined');
  });

  it('"no on X - need Y first" beside a decline reason or a kind refused anyway is a decline for a person, never the request applied', () => {
    for (const text of [
      "no on pinecrest today - need the November statement first. and honestly we don't do vet clinics anyway",
      'no on pinecrest - need to see 12 months in business first',
    ]) {
      const { r, out } = hook(text);
      expect(r.type, text).toBe('declined');
      expect(out.apply, text).toBe(false);
    }
    // near misses: the request alone stays a request
    expect(hook('no on pinecrest today - need the November statement first').r).toMatchObject({ type: 'needs_info' });
    expect(hook('no on pinecrest for now - still need the MTD and a voided check first').out.apply).toBe(true);
  });

  it('Spanish "no califica todavía / por ahora" with something still missing is no decline; with a reason it is', () => {
    for (const text of ['no califica todavía, nos falta el estado de cuenta de noviembre', 'no pasa por ahora, necesitamos el estado de noviembre y el cheque anulado']) {
      const { r, out } = hook(text);
      expect(r.type, text).not.toBe('declined');
      expect(out.apply, text).toBe(false);
    }
    expect(read('No califica por ahora. Tiene 5 posiciones abiertas.').type).toBe('declined');
    expect(read('Dana, apenas lleva ocho meses abierto y nuestro requisito es de dos años de operación. No califica todavía.').type).toBe('declined');
  });

  it('months of statements that something is said of after "that" or "we" are no term', () => {
    expect(read('Approved 60k, 1.40, over the 3 of the 6 months that are strongest we see 20k avg. Term 8 months weekly', ask(60_000)).offers).toEqual([
      expect.objectContaining({ amount: 60_000, factor_rate: 1.4, term: 8, term_unit: 'months' }),
    ]);
    expect(read('Approved 60k at 1.40 over 6 months, weekly.', ask(60_000)).offers).toEqual([expect.objectContaining({ term: 6, term_unit: 'months' })]);
  });
});
describe('(rfix26) holdout60: a reply-all where a colleague at the lender answered first, quoted below', () => {
  const shop = (requested_amount = 75_000): ReplyContext => ({ requested_amount, business_name: 'Harbor Lane Bakery', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = shop()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'mo@northgatefunding.example', own: text, autoReply: false }) };
  };
  const q = (s: string) => s.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
  const submission = [
    'On Mon, Nov 2, 2026 at 9:10 AM Dana Whitfield <dana@summitvalleycap.example> wrote:',
    '',
    '> Hi team,',
    '> Please find attached a new submission for Harbor Lane Bakery.',
    '> Requested amount: $75,000',
    '> Dana Whitfield',
    '> Summit Valley Capital',
  ].join('\n');
  /** The sender's words over a colleague's message (quoted, itself quoting the broker's submission). */
  const thread = (own: string, colleague: string, colleagueAddr = 'Priya Nair <pnair@northgatefunding.example>') =>
    `${own}\n\nOn Tue, Nov 3, 2026 at 2:05 PM ${colleagueAddr} wrote:\n\n${q(`${colleague}\n\nPriya Nair | Underwriting\n\n${submission}`)}\n`;

  it('a condition on a colleague\'s approval ("unless", "her approval holds") is that approval held for a person, never a decline applied', () => {
    const a = hook(thread('Hold on - there is an open IRS lien on the owner. We don\'t close over a federal lien unless there is an installment agreement. If there is one, Priya\'s approval holds.\n\nMo', 'Dana, Harbor Lane Bakery is approved for $75,000 at 1.32, 8 months, weekly.'));
    expect(a.r.type).toBe('approved');
    expect(a.r.offers).toEqual([expect.objectContaining({ amount: 75_000, factor_rate: 1.32, term: 8, term_unit: 'months' })]);
    expect(a.r.review_reason).toBe('conflicting_cues');
    expect(a.out.apply).toBe(false);
    // a colleague's counter overruled at a lower amount: still a person's call
    const b = hook(thread('Dana, Priya - can\'t sign off on 60 in this sector right now. Max is 45k, same factor.\n\nMo', 'We can do $60,000 at 1.35 over 9 months, weekly debits.'));
    expect(b.out.apply).toBe(false);
    // near miss: a colleague's approval taken back ("pulling it ... dead unless it's paid off") is no approval held
    const w = hook(thread('pulling this one, owner took another advance yesterday. dead unless that gets paid off.\n\nMo', 'Dana, Harbor Lane Bakery is approved for $75,000 at 1.32, 8 months, weekly.'));
    expect(w.r.type).not.toBe('approved');
    expect(w.out.apply).toBe(false);
    // near miss: the same decline with no colleague quoted is a decline
    expect(read('There is an open IRS lien on the owner and no installment agreement. We have to decline.\n\nMo', shop()).type).toBe('declined');
  });

  it("the sender's few words read with the colleague's message: a seconded decline keeps its reason, a second item is added, terms confirmed", () => {
    const d = hook(thread('Agree with Priya, I pulled the last two winters and it is the same. Sorry Dana.\n\nMo', 'Dana - I\'m going to decline Harbor Lane Bakery. Monthly revenue averages 28k, too low for a 75k ask.'));
    expect(d.r).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    expect(d.out.apply).toBe(true);
    const n = hook(thread('Also the landlord\'s contact info please.\n\nMo', 'Hi Dana, before we price this can you send the 2025 business tax return?'));
    expect(n.r.type).toBe('needs_info');
    expect(n.r.requested_items.length).toBe(2);
    const c = hook(thread('Confirming Priya\'s figures, that comes to $360.00 a day. Offer good for a week.\n\nMo', 'We can\'t do the 75 but we can do $30,000 at 1.44 over 120 days, daily debit.'));
    expect(c.r.type).toBe('counter');
    expect(c.r.offers).toEqual([expect.objectContaining({ amount: 30_000, factor_rate: 1.44, term: 120, term_unit: 'days', payment_amount: 360 })]);
  });

  it('near misses: the quoted message is the broker\'s own (its domain, or signed with our name), or only the submission: not a colleague\'s', () => {
    // a broker's follow-up quoted over the lender's earlier message: the broker's words are never the lender's
    const broker = hook(`Agree, sorry Dana.\n\nMo\n\nOn Tue, Nov 3, 2026 at 2:05 PM Dana Whitfield <dana@summitvalleycap.example> wrote:\n\n${q('Any word on Harbor Lane Bakery? The merchant says they can do 45k.\n\nDana Whitfield\nSummit Valley Capital\n\nOn Mon, Nov 2, 2026 at 9:10 AM Mo Reyes <mo@northgatefunding.example> wrote:\n\n> approved 45k at 1.35, 6 months daily')}\n`);
    expect(broker.out.apply).toBe(false);
    expect(broker.r.type).not.toBe('approved');
    const signed = hook(thread('Agree, sorry Dana.\n\nMo', 'Dana here from Summit Valley Capital - the merchant is declining the offer, they found cheaper money.', 'Dana W <dana@gmail.example>'));
    expect(signed.r.type).not.toBe('declined');
    // only the submission quoted: the sender's words alone decide
    const alone = hook(`Approved $75,000 at 1.32, 8 months, weekly.\n\nMo\n\n${submission}\n`);
    expect(alone.r).toMatchObject({ type: 'approved' });
    expect(alone.out.apply).toBe(true);
  });
});

describe('(rfix27) holdout61: digests of several files, our own ticket desk, an offer amount stated twice, answers only in an image', () => {
  const deal = (business_name = 'Copper Kettle Catering', requested_amount = 60_000, trace_code: string | null = null): ReplyContext => ({ requested_amount, business_name, trace_code, iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = deal(), subject = 'Re: Submission: Copper Kettle Catering') => {
    const r = read(text, ctx, subject);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@ridgeline.example', own: text, autoReply: false }) };
  };

  it('an offer amount stated twice with its own factor and term, the two disagreeing, goes to a person', () => {
    // a marked-up amount and a summary line below giving another amount for the same pricing
    const a = hook('Amount: $60,000 >> $45,000\nFactor 1.33\nTerm 32 weeks, weekly\n\nFor the merchant: Approved amount $42,000 / Factor 1.33 / 32 weeks weekly', deal());
    expect(a.out.apply).toBe(false);
    const b = hook('Ask of $60,000 struck, now $48,000, factor 1.40, 7 months.\nSummary - Funding amount: $50,000, factor 1.40, 7 months daily.', deal());
    expect(b.out.apply).toBe(false);
    // near miss: the same amount in both places is one offer, applied
    const c = hook('Amount: $60,000 >> $45,000\nFactor 1.33\nTerm 32 weeks, weekly\n\nFor the merchant: Approved amount $45,000 / Factor 1.33 / 32 weeks weekly', deal());
    expect(c.r.offers).toEqual([expect.objectContaining({ amount: 45_000, factor_rate: 1.33, term: 32, term_unit: 'weeks' })]);
    expect(c.out.apply).toBe(true);
    // near miss: an amount of no role with no pricing of its own (an existing balance) beside a labelled offer leaves it alone
    const d = hook('They still owe $18,000 to Bluevine, paid from proceeds.\nApproved amount: $45,000\nFactor: 1.36\nTerm: 8 months, weekly', deal());
    expect(d.r.offers).toEqual([expect.objectContaining({ amount: 45_000, factor_rate: 1.36, term: 8 })]);
    expect(d.out.apply).toBe(true);
  });

  const digest = (entries: string[]) => ['Ridgeline Funding ISO Portal', 'Daily summary: 3 changes on files you follow', '', ...entries.flatMap((e) => ['=====================', e, '']), '=====================', 'Log in to the portal to respond. This mailbox is not read.'].join('\n');
  const otherApproved = 'APPROVED - 10:02\nMaple Ridge Dental Group  (File #RF-20391)\n  Funded: $60,000\n  Buy rate: 1.29\n  Term: 9 months, daily';
  const otherDeclined = 'DECLINED - 11:40\nBlue Heron Marina (File #RF-20412)\n  Reason: 3 open positions';

  it('a digest listing several files: only the entry naming this deal is read (by its business or its trace code), and applied', () => {
    const declined = hook(digest([otherApproved, 'DECLINED - 12:15\nCopper Kettle Catering LLC (File #RF-20455)\n  Reason: revenue too low for the request, avg deposits $21k']));
    expect(declined.r).toMatchObject({ type: 'declined', decline_category: 'low_revenue' });
    expect(declined.out.apply).toBe(true);
    const countered = hook(digest([otherApproved, 'COUNTER - 1:30\nCopper Kettle Catering (File #RF-20455)\n  Funded: $40,000\n  Buy rate: 1.38\n  Term: 30 weeks, weekly', otherDeclined]));
    expect(countered.r.type).toBe('counter');
    expect(countered.r.offers).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.38, term: 30, term_unit: 'weeks' })]);
    expect(countered.out.apply).toBe(true);
    // by our trace code alone, the entry naming the business as the lender shortened it
    const traced = hook(digest([otherDeclined, 'STIPS REQUESTED - 2:05\nCK Catering - SVC-7K3M-9Q2P\n  Need: voided check, October bank statement']), deal('Copper Kettle Catering', 60_000, 'SVC-7K3M-9Q2P'));
    expect(traced.r.type).toBe('needs_info');
    expect(traced.r.requested_items.length).toBe(2);
  });

  it("a digest naming no entry of ours (a near name of another business) is never read as this deal's answer", () => {
    const none = hook(digest([otherApproved, otherDeclined]));
    expect(none.r.type).toBe('unclassified');
    expect(none.out.apply).toBe(false);
    // a near name: another Copper business is not ours
    const near = hook(digest([otherApproved, 'DECLINED - 12:15\nCopper Canyon Roofing (File #RF-20477)\n  Reason: TIB']));
    expect(near.r.type).toBe('unclassified');
    // the model reads the entry the rules read, never the other file's approval beside ours
    const r = readReply({ subject: 'Ridgeline daily summary', text: digest([otherApproved, 'DECLINED - 12:15\nCopper Kettle Catering LLC (File #RF-20455)\n  Reason: revenue too low, avg deposits $21k']) }, deal());
    expect(r.type).toBe('declined');
    expect(r.review_reason ?? null).toBeNull();
    // near miss: one file's notice with rules between its sections is no digest (it names one business only)
    const one = hook(['Ridgeline Funding', '==========', 'Copper Kettle Catering (File #RF-20455)', 'Status: APPROVED', '==========', 'Funded: $60,000 | Buy rate: 1.31 | Term: 9 months, daily', '==========', 'Log in to respond.'].join('\n'));
    expect(one.r.type).toBe('approved');
  });

  const ticket = (blocks: string[], status = 'Waiting on Customer') =>
    [`Case #20931 - Copper Kettle Catering`, '', `Status: ${status}`, 'Group: Funder replies', 'Assignee: Marco Ruiz', '', ...blocks, '', '~~~', 'Reply above this line to add to case #20931.', 'Summit Valley Capital Support - powered by Zendesk'].join('\n');

  it("a reply through our own ticket desk: the lender's block is read, the desk's status words and its footer signed with our name are not", () => {
    const a = hook(ticket(['*** Reply by Jo Tanaka (Ridgeline Funding) ***', 'Approved at the full $60,000, 1.34 factor, 8 months, weekly.'], 'Pending - Awaiting Broker'));
    expect(a.r.type).toBe('approved');
    expect(a.out.apply).toBe(true);
    const d = hook(ticket(['Jo Tanaka replied:', 'We have to decline, 12 NSFs in the last 60 days.'], 'On hold'));
    expect(d.r).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    expect(d.out.apply).toBe(true);
  });

  it("near misses: a desk block written by our own agent, or our internal note, is never the lender's word", () => {
    // our agent's own public reply on the ticket (the assignee): our paraphrase, for a person
    const agent = hook(ticket(['*** Reply by Marco Ruiz ***', 'Approved at the full $60,000, 1.34 factor, 8 months, weekly.']));
    expect(agent.out.apply).toBe(false);
    // only an internal note of ours carries a decision: nothing of the lender's to apply
    const note = hook(ticket(['*** Reply by Jo Tanaka (Ridgeline Funding) ***', 'Still reviewing, will update tomorrow.', '', '== Internal note (agents only) ==', 'Jo told me it is approved at 60k, 1.34, 8 months.']));
    expect(note.r.type).not.toBe('approved');
    expect(note.out.apply).toBe(false);
    // no ticket number: the sign-off with our name is still our own paraphrase
    const plain = hook('Reply by Jo Tanaka: approved at the full $60,000, 1.34 factor, 8 months, weekly.\n\nMarco Ruiz\nSummit Valley Capital');
    expect(plain.out.apply).toBe(false);
  });

  it('the main items of a stip list kept elsewhere ("full list in the portal, the key ones: ...") are asked for', () => {
    const a = hook('Complete conditions list is in the portal. Key ones: a signed 8821 and the landlord contact info.\n\nJo');
    expect(a.r.type).toBe('needs_info');
    expect(a.r.requested_items).toEqual(expect.arrayContaining([expect.stringMatching(/8821/), expect.stringMatching(/landlord/)]));
    // near miss: "the main ones" of something that is no list of items asks for nothing
    const b = hook('Our main ones: Kapitus and Bluevine are both in first position on this merchant.\n\nJo');
    expect(b.r.requested_items).toEqual([]);
  });

  it('an answer only in a picture, the words deciding nothing, is never filled in by the model; words of a decision beside it may be', () => {
    const model = (type: 'approved' | 'counter' | 'declined') => ({ type, probability: 0.999, evidence: [] });
    const img = read("Here's how it shook out on the catering file - see pic.\n\nJo\n\n[image: decision.png]", deal());
    expect(img.type).toBe('unclassified');
    expect(combineReadings(img, model('counter')).type).toBe('unclassified');
    // near miss: the words say it is an offer under the ask; the model's reading goes to a person as before
    const words = read("The offer's in the screenshot, it comes in a bit lower than you asked.\n\nJo\n\n[image: decision.png]", deal());
    expect(combineReadings(words, model('counter'))).toMatchObject({ type: 'counter', review_reason: 'low_confidence' });
    // near miss: no picture at all, the model fills as before (for a person)
    const plain = read("Here's how it shook out on the catering file.\n\nJo", deal());
    expect(combineReadings(plain, model('counter'))).toMatchObject({ type: 'counter', review_reason: 'low_confidence' });
  });
});

describe('(rfix28) a form decided by its field, the ask approved in words over less, offers on a condition, another business in lower case', () => {
  const deal = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic' });
  const doubts = (r: { reasons: string[] }) => r.reasons.filter((x) => /in words, yet every amount|hanging on a condition|a decision naming another business/.test(x));

  it("a template's conditional sentences on the file name no outcome: the field decides", () => {
    const form = (outcome: string, fields: string) =>
      `CREDIT OUTCOME LETTER\n\nMerchant:   Pinecrest Veterinary Clinic\nOutcome:    ${outcome}\n\n${fields}\n\nStanding terms: should the application be declined, the main reason is shown above. ` +
      'In the event the submission is approved, funding remains subject to a site visit. Where the offered terms differ from the request, the terms above govern. ' +
      'Where further documents are needed, the file stays open for 21 days.';
    const ok = read(form('APPROVED', 'Amount Approved:  $50,000\nFactor:  1.30\nTerm:  9 months\nRemittance:  daily ACH\nReviewer Comments:  Approved at the amount requested.'), deal(50_000));
    expect(ok.type).toBe('approved');
    expect(ok.review_reason).toBeUndefined();
    // a field's label ("Reviewer Comments:") before a decision names no other business
    expect(ok.reasons.some((x) => /names another deal/.test(x))).toBe(false);
    const pend = read(form('PENDING - ITEMS REQUIRED', 'Items Required:\n  (a) Voided business check\n  (b) Landlord contact and lease copy'), deal(50_000));
    expect(pend.type).toBe('needs_info');
    expect(pend.review_reason).toBeUndefined();
    // near misses: a decline stated outright, not as a condition on the file, still declines
    expect(read('Unfortunately the application is declined. Reason: eleven NSFs in the last sixty days.', deal(50_000)).type).toBe('declined');
    expect(read('The file was declined by committee this morning, too many open positions.', deal(50_000)).type).toBe('declined');
  });

  it('the full ask approved in words while every amount is below it: a person reads which is right', () => {
    const r = read('Status: Approved in full\nApproved amount: $60,000\nFactor 1.35, 8 months, weekly $2,492.31', deal(90_000));
    expect(doubts(r).length).toBe(1);
    expect(r.review_reason).toBe('conflicting_cues');
    const s = read('Good news - the full amount was approved: 45k at 1.38 over 120 days, $517.50 daily.', deal(70_000));
    expect(s.review_reason).toBeDefined();
    // near misses: the same words at the ask apply; a refusal of the ask as submitted is a plain counter
    const at = read('Status: Approved in full\nApproved amount: $60,000\nFactor 1.35, 8 months, weekly $2,492.31', deal(60_000));
    expect(doubts(at)).toEqual([]);
    expect(at.review_reason).toBeUndefined();
    const no = read("Can't get there as submitted. We can do $60,000 at 1.35 over 8 months, weekly.", deal(90_000));
    expect(doubts(no)).toEqual([]);
    expect(no.type).toBe('counter');
  });

  it('offers hanging on something not yet brought, with another for when it is not: a person', () => {
    const r = read('Provided the merchant can send us a payoff letter on the Kapitus balance, we can go $60,000 at 1.38 over 9 months, daily. If not, $35,000 at 1.34, same term, daily.', deal(70_000));
    expect(doubts(r).length).toBe(1);
    expect(r.review_reason).toBe('tentative_terms');
    const t = read("If they can show me November deposits over 90k I'm at 50k / 1.40 / 8 mo daily. Failing that it's 30k / 1.36 / 8 mo daily.", deal(60_000));
    expect(t.review_reason).toBeDefined();
    // near misses: a menu the merchant picks from conditions nothing on items; a condition with no other offer is a next step
    const menu = read('We can do $40,000 at 1.38 over 9 months daily. If the owner would rather pay weekly, $40,000 at 1.42 over 40 weeks instead.', deal(60_000));
    expect(doubts(menu)).toEqual([]);
    const step = read('Approved $60,000 at 1.35 over 8 months, weekly. If you can send the signed contract today we can fund tomorrow.', deal(60_000));
    expect(doubts(step)).toEqual([]);
  });

  it('a decision opening on a business in lower case that shares no word with this deal: a person files it', () => {
    const r = read('harbor view nail spa approvd 25k 1.40 100 days daily, other file still pending', deal(25_000));
    expect(doubts(r).length).toBe(1);
    expect(r.review_reason).toBe('multiple_deals');
    expect(read('harbor view nail spa - declined, too many nsfs', deal(25_000)).review_reason).toBe('multiple_deals');
    // near misses: this deal's own name in lower case, a shortening of it, or an opening that names no business
    expect(doubts(read('pinecrest vet approved 25k 1.40 100 days daily', deal(25_000)))).toEqual([]);
    expect(doubts(read('pncrst veterinary approved 25k 1.40 100 days daily', deal(25_000)))).toEqual([]);
    expect(doubts(read('good news approved 25k 1.40 100 days daily', deal(25_000)))).toEqual([]);
    expect(doubts(read('thanks for the mtd. we are approved 25k 1.40 100 days daily', deal(25_000)))).toEqual([]);
    expect(doubts(read('this is not the wrong thread, approved 25k at 1.40 over 100 days, daily', deal(25_000)))).toEqual([]);
    expect(doubts(read('spoke with credit - approved 25k 1.40 100 days daily', deal(25_000)))).toEqual([]);
    // a capitalised lead is read where names are (deals.ts), not here
    expect(doubts(read('Everything looks good - approved 25k at 1.40 over 100 days, daily.', deal(25_000)))).toEqual([]);
  });
});

describe('(rfix29) the full ask approved in any words over less money', () => {
  const deal = (requested_amount: number): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic' });
  const doubts = (r: { reasons: string[] }) => r.reasons.filter((x) => /in words, yet every amount/.test(x));

  it('the ask approved in full under any owner or word for it, while every amount is below it: a person', () => {
    for (const words of [
      'Notes: Pinecrest is approved for their entire requested amount.',
      'Summary: we approved you for your full ask, see terms.',
      'The client is approved at 100% of the request per committee.',
      'Merchant approved for everything they asked for.',
      'Your whole request has been approved.',
    ]) {
      const r = read(`Counter terms: $40,000, factor 1.36, 9 months, daily.\n${words}`, deal(60_000));
      expect(doubts(r), words).toHaveLength(1);
      expect(r.review_reason, words).toBe('conflicting_cues');
    }
    // near misses: a form's "Total Amount Approved" field, the full ask refused, or the same words at the ask
    const field = read('Total Amount Approved: $40,000\nFactor 1.36, 9 months, daily.', deal(60_000));
    expect(doubts(field)).toEqual([]);
    const refused = read("We couldn't get approved for your full request; best is $40,000 at 1.36 over 9 months, daily.", deal(60_000));
    expect(doubts(refused)).toEqual([]);
    const atAsk = read('Approved for your full request: $60,000 at 1.36 over 9 months, daily.', deal(60_000));
    expect(doubts(atAsk)).toEqual([]);
    expect(atAsk.review_reason).toBeUndefined();
  });
});

describe('(rfix29) another file named by its town and its trade in lower case', () => {
  const deal: ReplyContext = { requested_amount: 40_000, business_name: 'Corvallis Timberline Bike Works' };
  it("the other file's paragraph is not read for this deal: this deal's decline stands", () => {
    const r = read('Corvallis Timberline Bike Works is a no, too many NSFs in October.\n\nSeparately on the Eugene taqueria file: approved at $40,000, 1.32, 6 months daily. Send the contract request when ready.', deal);
    expect(r.type).toBe('declined');
    expect(r.reasons.some((x) => /names another deal/.test(x))).toBe(true);
    const s = read('Corvallis Timberline Bike Works - declined, stacking.\n\nAnd your Salem flooring deal is approved for $40,000 at 1.30 over 9 months, weekly.', deal);
    expect(s.type).toBe('declined');
    // near misses: the deal's papers or a month named that way name no other file; the answer is read as written
    const paper = read('Approved $40,000 at 1.30 over 9 months, weekly.\n\nThe October bank statement file you sent was unreadable, please resend it with the contract request.', deal);
    expect(paper.reasons.some((x) => /names another deal/.test(x))).toBe(false);
    expect(paper.type).toBe('approved');
    const own = read('On the Corvallis bike file: approved $40,000 at 1.30 over 9 months, weekly.', deal);
    expect(own.reasons.some((x) => /names another deal/.test(x))).toBe(false);
    expect(own.type).toBe('approved');
  });
});

describe('(rfix29) a factor dictated in figures', () => {
  it('"1 point 3 4" is 1.34 when voice-to-text writes the digits apart', () => {
    const r = read('Hi Dana comma we can do thirty five thousand at a 1 point 3 4 factor comma 8 months daily period', { requested_amount: 50_000 });
    expect(r.type).toBe('counter');
    expect(r.offers[0]).toMatchObject({ amount: 35_000, factor_rate: 1.34, term: 8, term_unit: 'months' });
    expect(wordsToDigits('factor 1 point 4')).toBe('factor 1.4');
    // near misses: points of fee, a point made, a digit run that is no factor
    expect(wordsToDigits('we pay 2 points to the iso')).toBe('we pay 2 points to the iso');
    expect(wordsToDigits('1 point to make, the file is thin')).toBe('1 point to make, the file is thin');
    expect(wordsToDigits('1 point 5 percent origination')).toBe('1 point 5 percent origination');
  });
});

describe('(rfix29) a payoff or balance beside the offer is no amount put forward', () => {
  it('"payoff ... is $X" is owed, the approval at the ask stands alone', () => {
    const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic' };
    const r = read('Their balance with us today is $18,940.00 and the per diem is $295.00.\n\nRenewal approved for the full $60,000 at 1.34, 8 months, weekly. We net our balance out of the wire.', deal);
    expect(r.type).toBe('approved');
    expect(r.review_reason).toBeUndefined();
    expect(r.offers).toHaveLength(1);
    // near misses: a funding word after the balance still reads the figure as offered; a smaller amount floated still goes to a person
    const funded = read('The balance is clean so we can fund $45,000 at 1.34, 8 months, weekly.', deal);
    expect(funded.offers[0]?.amount).toBe(45_000);
    const capped = read('With the Fora balance still open, committee capped us at $45,000 instead of $60,000: 1.40 factor, 8 months, weekly.', deal);
    expect(capped.offers[0]?.amount).toBe(45_000);
    const floated = read('Approved for the full $60,000 at 1.34, 8 months, weekly. Honestly I would rather be at $40,000 on this one.', deal);
    expect(floated.review_reason).toBeDefined();
  });
});

describe('(revK) outside attacks on rfix27/28: conditional boilerplate, digests, the ticket desk, the ask approved in words, offers on a condition', () => {
  const deal = (business_name = 'Copper Kettle Catering', requested_amount = 60_000, trace_code: string | null = null): ReplyContext => ({ requested_amount, business_name, trace_code, iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = deal(), subject = 'Re: Submission: Copper Kettle Catering') => {
    const r = read(text, ctx, subject);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@ridgeline.example', own: text, autoReply: false }) };
  };
  const dg = (entries: string[]) => ['Ridgeline Funding ISO Portal', 'Daily summary', '', ...entries.flatMap((e) => ['=====================', e, '']), '=====================', 'Log in to respond.'].join('\n');

  it('held: a template conditional beside the real decision never turns it into another applied answer', () => {
    // the question asked back ("if the file was approved") answered in the same sentence: never applied on half a sentence
    expect(hook('You asked if the file was approved - it was, at $60,000, 1.35 factor, 9 months, daily.\n\nJo').out.apply).toBe(false);
    expect(hook('To answer if the file was approved: not at the ask, we can do $40,000 at 1.38 over 9 months, daily.\n\nJo').out.apply).toBe(false);
    // a conditional about funding after the approval keeps the approval
    expect(hook('Approved $60,000 at 1.35 over 9 months, daily, and if the merchant is funded by Friday we waive the origination fee.\n\nJo').r.offers).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.35 })]);
    // "Should you have questions, the file was declined ..." is a decline
    expect(hook('Should you have questions, the file was declined due to 9 NSFs in the last 60 days.\n\nJo').r.type).toBe('declined');
    // a reversal hidden in a "where the merchant was funded" clause is never applied as the approval
    expect(hook('Sorry, we had it approved at $60,000 but where the merchant was funded by another lender yesterday the file is now declined for stacking.\n\nJo').out.apply).toBe(false);
    // "if ... otherwise" with no offer is a plain decline
    expect(hook('If you can get us three more months of statements we can take another look; otherwise this is a decline, too many NSFs.\n\nJo').r.type).toBe('declined');
  });

  it('held: a single reply with signature rules is no digest; a digest naming this deal twice goes to a person', () => {
    const sig = hook(['Copper Kettle Catering (File #RF-20455) - approved at $60,000, 1.34 factor, 8 months, weekly.', '----', 'Jo Tanaka', 'Ridgeline Funding', '----', 'Previously on your pipeline:', 'Maple Ridge Dental Group (File #RF-20391)  still pending bank statements'].join('\n'));
    expect(sig.r.type).toBe('approved');
    const two = hook(dg(['DECLINED\nCopper Kettle Catering LLC (File #RF-20301)\n  Reason: 3 open positions', 'APPROVED\nCopper Kettle Catering (File #RF-20455)\n  Funded: $60,000\n  Buy rate: 1.31\n  Term: 9 months, daily', 'DECLINED\nBlue Heron Marina (File #RF-20412)\n  Reason: TIB']));
    expect(two.out.apply).toBe(false);
  });

  it('held: a case number in a normal lender subject reads the lender; words outside any author heading are never applied', () => {
    const a = hook('Hi team,\nApproved at the full $60,000, 1.34 factor, 8 months, weekly.\n\nJo Tanaka\nRidgeline Funding', deal(), 'Re: Case #12345 Copper Kettle Catering');
    expect(a.r.type).toBe('approved');
    expect(a.out.apply).toBe(true);
    expect(hook('We had to decline this one, 12 NSFs in the last 60 days.\n\nUpdate from credit:\nThey would look again with three more months of statements.\n\nJo', deal(), 'Re: Case #12345 Copper Kettle Catering').out.apply).toBe(false);
    expect(hook(['Ticket #4410 update', '', 'Approved at the full $60,000, 1.34 factor, 8 months, weekly.', '', 'Comment by Marco Ruiz:', 'thanks, will get the merchant to sign', '', 'Reply above this line to add to ticket #4410.'].join('\n')).out.apply).toBe(false);
  });

  it("fixed: the lender's own ticket desk (its assignee the lender's agent, the other block our broker's) is never read as our desk", () => {
    const c = hook(['Ridgeline Funding Support - Case #88120', 'Assignee: Jo Tanaka', 'Status: Solved', '', 'Jo Tanaka replied:', 'Declined, 12 NSFs in the last 60 days.', '', 'Marco Ruiz replied:', 'Merchant accepted the offer, please send contracts for $60,000 at 1.34, 8 months.', '', '~~~', 'Reply above this line.'].join('\n'));
    expect(c.r.type).not.toBe('approved');
    expect(c.out.apply).toBe(false);
    // near miss: the same blocks on our own desk (its footer carries our name) read the lender's block, the assignee's is ours
    const ours = hook(['Case #88120 - Copper Kettle Catering', 'Assignee: Marco Ruiz', 'Status: Open', '', 'Jo Tanaka replied:', 'Declined, 12 NSFs in the last 60 days.', '', 'Marco Ruiz replied:', 'Thanks Jo, noted.', '', '~~~', 'Reply above this line.', 'Summit Valley Capital Support'].join('\n'));
    expect(ours.r).toMatchObject({ type: 'declined', decline_category: 'nsf' });
    expect(ours.out.apply).toBe(true);
    // a case system naming none of our names: the lender's approval above the first author heading is never dropped for the block below
    const theirs = hook(['Ticket #5521: Re Copper Kettle Catering', 'Approved $60,000 at 1.35, 9 months daily.', 'Reply from Jo Tanaka:', 'We also need a voided check before funding.'].join('\n'));
    expect(theirs.r.type).not.toBe('needs_info');
    expect(theirs.out.apply).toBe(false);
  });

  it('held: the full ask approved in words at the ask applies, however the amount is written', () => {
    expect(hook('Approved in full! $60K at 1.35, 8 months, weekly payment of $2,492.\n\nJo').out.apply).toBe(true);
    expect(hook('Approved as requested - sixty thousand, 1.35 factor, 8 months weekly.\n\nJo').out.apply).toBe(true);
    expect(hook('We approved the full amount requested, though after the Kapitus payoff of $20,000 the merchant nets $40,000. 1.35, 8 months weekly.\n\nJo').r.offers).toEqual([expect.objectContaining({ amount: 60_000 })]);
  });

  it('fixed: two offers, one on a condition said any way ("assuming", "with ...: / without:", "once ... until then", "if ... otherwise" after the offer): a person', () => {
    const cases = [
      'Assuming the Kapitus payoff letter comes in, $60,000 at 1.38 over 9 months daily. Without it, $35,000 at 1.34, 9 months daily.\n\nJo',
      'With a payoff letter: $60,000 / 1.38 / 9 mo daily\nWithout: $35,000 / 1.34 / 9 mo daily\n\nJo',
      'Once the October statement shows $90k+ in deposits we are at $60,000, 1.38, 9 months. Until then best I can do is $30,000, 1.36, 9 months daily.\n\nJo',
      '$60,000 at 1.38 over 9 months daily if the owner signs a personal guarantee, otherwise $40,000 at 1.42 over 9 months daily.\n\nJo',
    ];
    for (const t of cases) {
      const h = hook(t);
      expect(h.r.offers.length).toBe(2);
      expect(h.r.review_reason).toBe('tentative_terms');
      expect(h.out.apply).toBe(false);
    }
    // near misses: a menu with no alternative for a failed condition stays applied
    expect(hook('Two options on this one: $60,000 at 1.38 over 9 months daily, or $45,000 at 1.32 over 9 months daily.\n\nJo').out.apply).toBe(true);
    expect(hook('We can do $40,000 at 1.38 over 9 months daily, or with weekly payments $40,000 at 1.42 over 40 weeks.\n\nJo').r.review_reason).toBeUndefined();
    // one offer and a next step stays applied
    expect(hook('Approved $60,000 at 1.35 for 9 months, daily. Once the contract is signed, we fund within 24 hours.\n\nJo').out.apply).toBe(true);
  });

  it('fixed: another business in lower case before "..." or a comma; an amount corrected in the same message', () => {
    for (const t of ['harbor view nail spa... approved 60k 1.40 100 days daily', 'harbor view nail spa, approved 60k 1.40 100 days daily', 'harbor view nail spa\u2026 declined, too many nsfs', 'fyi harbor view nail spa approved 60k 1.40 100 days daily']) {
      const h = hook(t);
      expect(h.r.review_reason).toBe('multiple_deals');
      expect(h.out.apply).toBe(false);
    }
    // near miss: this deal's own name before the dots
    expect(hook('copper kettle... approved 60k 1.40 100 days daily').r.review_reason).toBeUndefined();
    // "Correction: make that $45,000": which amount stands is for a person, never the first applied
    const c = hook('Approved $60,000 at 1.35 for 9 months, daily. Correction: make that $45,000 at 1.35 for 9 months, daily.\n\nJo');
    expect(c.r.review_reason).toBe('conflicting_cues');
    expect(c.out.apply).toBe(false);
    expect(hook('Approved $60,000 at 1.35 for 9 months, daily. Sorry, make it $45,000 at the same terms.\n\nJo').out.apply).toBe(false);
  });

  it('left (documented): a decline sharing its sentence with a template conditional is blanked with it, never applied', () => {
    // the conditional's sentence is blanked whole (vocabulary.ts BOILERPLATE), the decline in it too: a person reads it, no coverage
    expect(hook('Unfortunately the file is declined, and if the merchant is approved elsewhere we would not be able to take a second position.\n\nJo').out.apply).toBe(false);
    expect(hook('In the event the merchant is declined by us, as it is here, the reason is: 9 NSFs in 60 days. Pre-approval from last week at $60,000 is void.\n\nJo').out.apply).toBe(false);
  });

  it('left (documented): a digest entry naming a shorter or longer form of this business is read as ours', () => {
    // "Copper Kettle Catering Supply" and "Kettle Catering" share this deal's words with nothing beside them differing: read as ours.
    // Kept: a lender's shortening of the merchant is the common case; a broker with two such merchants is rare.
    const sup = hook(dg(['DECLINED\nMaple Ridge Dental Group (File #RF-20391)\n  Reason: TIB', 'APPROVED\nCopper Kettle Catering Supply (File #RF-20455)\n  Funded: $60,000\n  Buy rate: 1.31\n  Term: 9 months, daily']));
    expect(sup.r.type).toBe('approved');
  });
});

describe('(rfix30) term sheets pasted as text, minutes, glossed words, closing holds, another file named without an article', () => {
  const deal = (requested_amount = 60_000, business_name = 'Copper Kettle Catering'): ReplyContext => ({ requested_amount, business_name, iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = deal(), subject = 'Re: Submission: Copper Kettle Catering') => {
    const r = read(text, ctx, subject);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@ridgeline.example', own: text, autoReply: false }) };
  };

  it("a term column's one-letter unit is the term, in any column order; in prose it is no term", () => {
    const a = extractOffers('Term     Funded       Rate    Payments     Sched\n26 W     $40,000.00   1.30    $2,000.00    Weekly');
    expect(a).toEqual([expect.objectContaining({ amount: 40_000, factor_rate: 1.3, term: 26, term_unit: 'weeks', payment_amount: 2000 })]);
    const d = extractOffers('Advance    Factor   Length   Daily Debit\n$30,000    1.38     120 D    $345.00');
    expect(d[0]).toMatchObject({ amount: 30_000, term: 120, term_unit: 'days' });
    const m = extractOffers('Program   Amount      Buy Rate   Term\nTerm Ln   $50,000     1.29       12 M');
    expect(m[0]).toMatchObject({ amount: 50_000, term: 12, term_unit: 'months' });
    // near miss: an address in prose ("39 W Main St") is no term
    expect(extractOffers('Approved $40,000 at 1.30, weekly.\nVisit us at 39 W Main St, Suite 2.')[0]?.term ?? null).toBeNull();
  });

  it('a pasted row whose payment does not repay the payback goes to a person', () => {
    const h = hook('Approved at the full ask. Sheet:\n\nProduct    Funded Amt    Payback      Fctr   Term   Pmt        Freq\nStd        $60,000.00   $81,000.00   1.35   30 W   $2,400.00  Weekly\n\nContracts on request.');
    expect(h.r.offers[0]).toMatchObject({ amount: 60_000, term: 30, term_unit: 'weeks' });
    expect(h.out.apply).toBe(false);
    // near miss: the same row whose payment does repay it is applied
    const ok = hook('Approved at the full ask. Sheet:\n\nProduct    Funded Amt    Payback      Fctr   Term   Pmt        Freq\nStd        $60,000.00   $81,000.00   1.35   30 W   $2,700.00  Weekly\n\nContracts on request.');
    expect(ok.out.apply).toBe(true);
  });

  it('a row whose figures ran together is read by the kind of each figure', () => {
    const o = extractOffers('Option   Amount       Total Back    Factor   Pmt         Term\nB        $45,000.00   $63,000.00 1.40       $1,575.00  40 W');
    expect(o).toEqual([expect.objectContaining({ amount: 45_000, factor_rate: 1.4, term: 40, term_unit: 'weeks', payment_amount: 1575 })]);
    // near miss: a figure too many for the heading is not forced into a column (the row stays as read by position)
    const extra = extractOffers('Option   Amount       Total Back    Factor   Pmt         Term\nB        $45,000.00   $63,000.00 1.40 $9,999.00      $1,575.00  40 W');
    expect(extra.some((x) => x.payment_amount === 9999 && x.missing.length === 0 && x.term === 40)).toBe(false);
  });

  it('a term the merchant insists on, with the lender out if so, is the ask refused, not a second offer', () => {
    for (const t of ['If the client will only take 12 months, we are out.', 'If it has to be 12 months, we will pass.', "If the owner insists on 12 months, then it's a pass."]) {
      const h = hook(`Good on the $60,000 for Copper Kettle, but that term is too long for us. Best we can do:\n\nProduct    Funded Amt   Payback       Fctr   Term   Pmt          Freq\nStd        $60,000.00  $79,800.00   1.33   35 W   $2,280.00   Weekly\n\n${t}`);
      expect(h.r.offers, t).toEqual([expect.objectContaining({ amount: 60_000, term: 35, term_unit: 'weeks' })]);
    }
    // near miss: "we are out" about the office keeps the term
    expect(extractOffers('Approved $60,000 at 1.33 for 12 months, we are out of office Friday.')[0]).toMatchObject({ term: 12, term_unit: 'months' });
  });

  it('another file named without an article ("X file you sent") is another deal: a person', () => {
    for (const t of ['One more - Harbor Point Bakery file you send yesterday, underwriting say it is decline.', 'Also: Dixon Auto Glass deal that you submitted Monday is declined.']) {
      const h = hook(`For Copper Kettle Catering we can do this: $40,000 / factor 1.38 / 32 weeks / weekly.\n\n${t}`);
      expect(h.r.review_reason, t).toBe('multiple_deals');
      expect(h.out.apply).toBe(false);
    }
    // near miss: this deal named that way is no other file
    const own = hook('Copper Kettle Catering file you sent is approved: $60,000 / factor 1.38 / 9 months / daily.');
    expect(own.r.review_reason).toBeUndefined();
  });

  it('papers drawn but held: signing stopped, the file looked at again: a person', () => {
    for (const t of ['Please do not have the merchant sign yet; credit has asked to re-review the file.', "Don't execute the agreement yet. I will confirm whether the approval stands or is withdrawn.", 'Underwriting wants to re-underwrite the deal before closing.']) {
      const h = hook(`Agreement attached for Copper Kettle Catering: Purchase Price $60,000.00, Factor 1.35, Weekly Remittance $2,025.00 (40 remittances).\n\n${t}`);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply).toBe(false);
    }
    // near misses: a deadline to sign or a routine step after signing stays applied
    for (const t of ['Please have the merchant sign by Friday.', 'Once signed we re-verify the bank login and fund.']) {
      expect(hook(`Agreement attached for Copper Kettle Catering: Purchase Price $60,000.00, Factor 1.35, Weekly Remittance $2,025.00 (40 remittances).\n\n${t}`).out.apply, t).toBe(true);
    }
  });

  it('a word in another script with its English gloss is read as the gloss', () => {
    const a = read('Copper Kettle file is 승인 (approved) for full amount.\n- 금액 (amount): $60,000\n- factor: 1.35\n- 기간 (term): 9 months\n- daily\nPlease send to us voided check.', deal());
    expect(a.type).toBe('approved');
    expect(a.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.35, term: 9, term_unit: 'months' });
    expect(read('Copper Kettle file - 심사팀 (underwriting team) say 거절 (declined), too many NSF.', deal()).type).toBe('declined');
    // near miss: the word alone, no gloss, is not read as a decision
    expect(read('Copper Kettle file is 승인. Call me.', deal()).type).not.toBe('approved');
  });

  it("minutes: the discussion's figures are no offer when the outcome states its own", () => {
    const r = read('Agenda:\n1. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- Sam proposed $60k at 9 mo; Lee against.\n- Existing lender pulling ~$300/day.\n\nDecision:\n- Approved at a reduced amount: $45,000 / 1.38 / 6 months / daily.\n\nNext steps:\n- Ana: send the counter to the ISO.', deal());
    expect(r.type).toBe('counter');
    expect(r.offers).toEqual([expect.objectContaining({ amount: 45_000, factor_rate: 1.38, term: 6, term_unit: 'months' })]);
    expect(r.review_reason).toBeUndefined();
    // near miss: an outcome with no figure of its own leaves the minutes read whole
    const whole = read('Discussion:\n- Approved $60,000 at 1.35 over 9 months, daily.\n\nOutcome:\n- Approved as discussed.', deal());
    expect(whole.offers[0]).toMatchObject({ amount: 60_000, factor_rate: 1.35 });
  });

  it('a later add-on on how the merchant performs is no condition on this offer; the offer on it still is', () => {
    const r = read('Approved $60,000 at 1.35 over 9 months, daily.\nWe can revisit an add-on in the spring if the merchant performs.', deal());
    expect(r.review_reason).toBeUndefined();
    expect(read('Approved $60,000 at 1.35 over 9 months, daily, if the merchant performs on the first position.', deal()).review_reason).toBe('tentative_terms');
  });

  it("minutes: the items are the action items' documents, not the discussion's bullets, a task for the lender's people or a lead-in", () => {
    const r = requestedItems('Agenda:\n1. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- Good file; need to understand the catering contracts.\n- Lee: a $15k transfer on 9/30 needs explaining.\n\nOutcome:\n- On hold. No decision until the docs below are in.\n\nNext steps:\n- Broker to send:\n    a) Copy of the two largest catering contracts\n    b) Letter + bank statement for the 9/30 transfer\n- Ana: chase the broker Monday.');
    expect(r.items.length).toBe(2);
    expect(r.items).toEqual(['Copy of the two largest catering contracts', 'Letter + bank statement for the 9/30 transfer']);
    // near miss: a plain request list (no minutes) keeps its lead-in rule as before, and a named document under a person stays
    const plain = requestedItems('We need the following:\n- Copy of the two largest catering contracts\n- Ana: the signed application');
    expect(plain.items).toEqual(['Copy of the two largest catering contracts', 'Ana: the signed application']);
  });

  it("minutes: an outcome line deciding a numbered agenda item is the decision's cue", () => {
    for (const t of ['Outcome:\n- Item 1: APPROVED as requested. $60,000, 1.35 factor, 9 months, daily.', 'Decision:\n- #2 approved: $60,000, 1.35 factor, 9 months, daily.']) {
      expect(read(t, deal()).reasons.some((x) => /^approved [\d.]+: .*(outcome:\s*- item 1: approved|decision:\s*- #2 approved)"/s.test(x)), t).toBe(true);
    }
    // near miss: a figure between the heading and the word is no item label
    expect(read('Outcome:\n- $60,000 approved, 1.35 factor, 9 months, daily.', deal()).reasons.some((x) => /"outcome:/.test(x))).toBe(false);
  });
});

describe('(revL) outside attacks on rfix29 and revK: the lender desk naming us, lower-case other files, conditions, corrections, the ask in words', () => {
  const deal = (business_name = 'Copper Kettle Catering', requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name, trace_code: null, iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = deal(), subject = 'Re: Submission: Copper Kettle Catering') => {
    const r = read(text, ctx, subject);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@ridgeline.example', own: text, autoReply: false }) };
  };

  it("the lender's case system saying our name in a sentence is not our desk: its assignee's decline is never dropped for our broker's words", () => {
    // the footer speaks of us ("because Summit Valley Capital is a registered ISO"): the assignee is the lender's underwriter
    const theirs = hook(['Ridgeline Funding Support - Case #88120', 'Assignee: Jo Tanaka', 'Status: Pending', '', 'Jo Tanaka replied:', 'Declined, 12 NSFs in the last 60 days.', '', 'Marco Ruiz replied:', 'Merchant accepted the offer, please send contracts for $60,000 at 1.34, 8 months weekly.', '', '~~~', 'Reply above this line.', 'You are receiving this because Summit Valley Capital is a registered ISO partner.'].join('\n'));
    expect(theirs.r.type).not.toBe('approved');
    expect(theirs.out.apply).toBe(false);
    // the lender thanking us by name under its own case update: the approval above the heading is not lost for the block below
    const thanks = hook(['Case #44120', '', 'Approved $60,000 at 1.34, 8 months, weekly.', '', 'Jo Tanaka replied:', 'Contract sent to the merchant.', '', 'Thanks, Summit Valley Capital team'].join('\n'));
    expect(thanks.out.apply).toBe(false);
    // near misses: our desk signs with our name and its desk word, or its software: the lender's block is read and applied
    for (const footer of ['Summit Valley Capital Lender Desk - powered by Freshdesk', 'Summit Valley Capital Support', 'Summit Valley Capital Help Desk']) {
      const ours = hook(['Case #88120 - Copper Kettle Catering', 'Assignee: Marco Ruiz', 'Status: Open', '', 'Jo Tanaka replied:', 'Declined, 12 NSFs in the last 60 days.', '', 'Marco Ruiz replied:', 'Thanks Jo, noted.', '', '~~~', 'Reply above this line.', footer].join('\n'));
      expect(ours.r, footer).toMatchObject({ type: 'declined', decline_category: 'nsf' });
      expect(ours.out.apply, footer).toBe(true);
    }
  });

  it('another business in lower case before any word of a decision, any mark, or its figures: a person files it; an opening naming none is read', () => {
    for (const t of [
      'harbor view nail spa is good to go 60k 1.40 100 days daily',
      'harbor view nail spa looks good. 60k 1.40 100 days daily',
      'harbor view nail spa / approved 60k 1.40 100 days daily',
      'harbor view nail spa -> approved 60k 1.40 100 days daily',
      're harbor view nail spa - approval 60k 1.40 100 days daily',
      'harbor view nail spa (approved) 60k 1.40 100 days daily',
      'harbor view nail spa:\napproved 60k 1.40 100 days daily',
      'harbor view nail spa we can do 45k 1.40 100 days daily',
      'lucky dragon - we can do 45k 1.40 100 days daily',
      'harbor view nail spa pass. too many nsfs',
      'harbor view nail spa is a no, too many nsfs',
    ]) {
      const h = hook(t);
      expect(h.r.review_reason, t).toBe('multiple_deals');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: a greeting with a name, how the lender got there, a clause before the offer, this deal's own words
    for (const t of [
      'morning marco, approved 60k 1.40 100 days daily',
      'upon second look, approved 60k 1.40 100 days daily',
      'heads up marco... approved 60k 1.40 100 days daily',
      'bank verification done, approved 60k 1.40 100 days daily',
      'given the nsfs we can do 30k 1.45 100 days daily',
      'tight file but we can do 40k 1.45 100 days daily',
      'copper kettle is good to go 60k 1.40 100 days daily',
      'hi marco\napproved 60k 1.40 100 days daily',
    ]) expect(hook(t).out.apply, t).toBe(true);
    for (const t of ['after further review, declined - too many nsfs', 'sorry dana, declined. too many nsfs']) expect(hook(t).out, t).toMatchObject({ apply: true, body: { response_type: 'declined' } });
  });

  it('two offers, one on a condition and the other for when it fails, said any other way: a person; a menu, or a fallback naming no amount, applies', () => {
    for (const t of [
      'If the PG is signed by both owners: $60,000 at 1.38 over 9 months daily.\nNo PG: $40,000 at 1.42 over 9 months daily.\n\nJo',
      'Should the Kapitus payoff letter come in, we are at $60,000, 1.38, 9 months daily. If it does not, $35,000 at 1.34, 9 months daily.\n\nJo',
      '$60,000 at 1.38 over 9 months daily with a confession of judgment; $40,000 at 1.42 over 9 months daily if the state does not allow it.\n\nJo',
      'With 2 months more of history we could do $60,000 at 1.38 over 9 months daily; today the number is $35,000 at 1.34 over 9 months daily.\n\nJo',
      'If their October deposits clear $90k: $60,000 at 1.38, 9 months daily. Under $90k: $35,000 at 1.34, 9 months daily.\n\nJo',
      'As-is we can do $35,000 at 1.34 over 9 months daily. If they pay off the Fundbox position first, we go to $60,000 at 1.38 over 9 months daily.\n\nJo',
    ]) {
      const h = hook(t);
      expect(h.r.offers.length, t).toBe(2);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: a menu whose "if" is the merchant's preference, a fallback word whose sentence offers no amount
    for (const t of [
      'We can do $60,000 at 1.38 for 9 months daily. If the merchant prefers weekly, $60,000 at 1.42 for 40 weeks. In the meantime send the contract request.\n\nJo',
      'If the merchant wants the larger amount, $60,000 at 1.38 over 9 months daily. If they would rather keep payments low, $40,000 at 1.32 over 9 months daily.\n\nJo',
      'Two options, both good through Friday:\nA) $60,000 at 1.38 over 9 months, daily\nB) $45,000 at 1.32 over 9 months, daily\nToday we can have funds out by 4pm if the contract is back by noon.\n\nJo',
      'Option A with daily payments: $60,000 at 1.38 over 9 months. Option B with weekly payments: $60,000 at 1.42 over 40 weeks. Either works for us, or else we can talk.\n\nJo',
      'Option 1: $40,000 at 1.35 over 110 days, daily.\nOption 2: $30,000 at 1.30 over 90 days, daily.\nWinter is slow (deposits under $40k in Jan and Feb), so neither reaches the ask with the existing position.\n\nJo',
    ]) {
      const h = hook(t);
      expect(h.r.offers.length, t).toBe(2);
      expect(h.out.apply, t).toBe(true);
    }
  });

  it('an amount corrected in the same message in other words: a person; a sign-off or a payment said after "actually" is no correction', () => {
    const approved = 'Approved $60,000 at 1.35 for 9 months, daily.';
    for (const t of [
      `${approved} Apologies - that should be $45,000, same factor and term.\n\nJo`,
      `${approved}\n\nEdit: $45,000 not $60,000, fat-fingered it.\n\nJo`,
      `${approved} Please disregard the amount above; committee lowered it to $45,000 at 1.35, 9 months daily.\n\nJo`,
      `${approved} Ignore the 60 - it is 45k, same terms.\n\nJo`,
      `${approved} Actually, UW just came back at $45,000 instead - same factor and term.\n\nJo`,
      `${approved} Wait - make that forty-five thousand.\n\nJo`,
    ]) {
      const h = hook(t);
      expect(h.r.review_reason, t).toBe('conflicting_cues');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: a sign-off, an "edited to add", a payment or a question after "actually", "actually" opening the only offer
    for (const t of [
      `${approved} Send the contract request.\n\nMake it a great day!\nJo Tanaka | Ridgeline Funding`,
      `${approved}\nEdited to add: funding cutoff is 3pm.\n\nJo`,
      `${approved} Actually, the daily payment will be $450.\n\nJo`,
      `${approved} Actually, can you get me a voided check before funding?\n\nJo`,
      'Actually, we can do $60,000 at 1.35 for 9 months daily after all.\n\nJo',
      'Approved at 60k, 1.35, 9 months daily, that should be around $445 a day.\n\nJo',
    ]) expect(hook(t).out.apply, t).toBe(true);
  });

  it('the full ask approved in more words still over less money: a person; the ask restated or refused beside a counter applies it', () => {
    for (const words of [
      "Good news, we're able to approve the full ask.",
      'Approved at ask.',
      'Approved for the amount requested:',
      'Approved - full amount.',
      'We approved the full amount:',
      'Approved in the amount requested. Terms:',
      'Committee signed off on the full request -',
      'Approved! 100% of the ask -',
    ]) {
      const h = hook(`${words} $45,000 at 1.38 over 9 months, daily.\n\nJo`);
      expect(h.r.review_reason, words).toBe('conflicting_cues');
      expect(h.out.apply, words).toBe(false);
    }
    // near misses: the ask restated after a mark, refused, "full approval" (the final one), the words at the ask
    for (const t of [
      'Approved, requested amount was $60,000; we are at $45,000, 1.38, 9 months daily.\n\nJo',
      "Approved at $45,000, 1.38, 9 months daily - we couldn't approve the full amount requested with the open Kapitus position.\n\nJo",
      'Not able to approve at ask. Approved $45,000 at 1.38 over 9 months daily.\n\nJo',
      'Approved: amount requested $60,000, amount approved $45,000, 1.38, 9 months daily.\n\nJo',
      'Full approval: $45,000 at 1.38 over 9 months daily.\n\nJo',
    ]) expect(hook(t).out, t).toMatchObject({ apply: true, body: { response_type: 'counter', offers: [expect.objectContaining({ amount: 45_000 })] } });
    expect(hook('Approved $60,000 at 1.38 over 9 months daily - the full amount requested.\n\nJo').out).toMatchObject({ apply: true, body: { response_type: 'approved' } });
  });

  it("a tool's or a step's words after a capitalised name are no other file's trade; a town and a trade still are", () => {
    const bikes = deal('Corvallis Timberline Bike Works', 40_000);
    for (const t of [
      'Approved $40,000 at 1.30 over 9 months, weekly.\n\nPlease upload the signed contract to the DocuSign envelope file when ready.\n\nJo',
      'Approved $40,000 at 1.30 over 9 months, weekly. Same terms as your Plaid verified deal last week.\n\nJo',
    ]) {
      const h = hook(t, bikes);
      expect(h.r.reasons.some((x) => /names another deal/.test(x)), t).toBe(false);
      expect(h.out.apply, t).toBe(true);
    }
    const other = hook('Declined - too many NSFs.\n\nThe Salem flooring deal is approved for $40,000 at 1.30 over 9 months, weekly.\n\nJo', bikes);
    expect(other.r.type).toBe('declined');
    expect(other.out.apply).toBe(false);
  });

  it('what is left on an advance is owed, not put forward beside the approval; a remaining amount approved is still offered', () => {
    const h = hook('Renewal approved. Their remaining with us is $22,310; new gross is $60,000 at 1.34 over 8 months weekly.\n\nJo');
    expect(h.r.offers).toEqual([expect.objectContaining({ amount: 60_000 })]);
    expect(h.out.apply).toBe(true);
    // near misses: "remaining" beside a word of funding reads the figure as offered
    for (const t of ['The remaining amount we can approve is $45,000 at 1.38 over 9 months daily.\n\nJo', 'For the remaining term we can do $45,000 at 1.38 over 9 months daily.\n\nJo']) {
      expect(hook(t).out, t).toMatchObject({ apply: true, body: { response_type: 'counter', offers: [expect.objectContaining({ amount: 45_000 })] } });
    }
  });
});

describe('(rfix31) holdout65: change records, Spanish-English, chatty threads, phone corrections', () => {
  const pinecrest = (requested_amount = 60_000): ReplyContext => ({ requested_amount, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = pinecrest()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('a CRM change record is read at its new values and its last stage, whatever the arrow or wording', () => {
    // an approval at the ask, every field set from empty
    const setFromEmpty = hook(['Deal updated by Kim Osei', 'Status: In Review => Approved', 'Funding Amt: (none) => $60,000', 'Buy Rate: -- => 1.34', 'Term: empty => 9 months', 'Pay Freq: (none) => Daily'].join('\n'));
    expect(setFromEmpty.r.type).toBe('approved');
    expect(setFromEmpty.r.offers).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.34, term: 9, term_unit: 'months' })]);
    expect(setFromEmpty.out.apply).toBe(true);
    // an offer replaced: the new values are the offer, never the old ones beside them
    const replaced = hook(['Stage changed from Approved to Counter Offer', 'Offer Amount changed from $60,000 to $42,000', 'Factor changed from 1.33 to 1.38', 'Term changed from 9 months to 8 months', 'Frequency changed from Daily to Weekly'].join('\n'));
    expect(replaced.r.type).toBe('counter');
    expect(replaced.r.offers).toEqual([expect.objectContaining({ amount: 42_000, factor_rate: 1.38, term: 8 })]);
    // a timeline: the last stage counts (newest at the bottom, or at the top when the dates say so)
    const timeline = hook(['Amount → $45,000', 'Rate → 1.40', 'Term → 7 months', 'Payments → Daily', '', 'History:', '2026-11-02 09:10 - Submitted', '2026-11-02 14:00 - Approved', '2026-11-03 10:30 - Countered'].join('\n'));
    expect(timeline.r.type).toBe('counter');
    expect(timeline.r.reasons).toContain(CHANGE_RECORD);
  });

  it('a record whose stage went from approved to declined or withdrawn takes the approval back: a person', () => {
    for (const t of [
      ['Stage: Approved -> Declined', 'Approved Amount: $60,000 -> (blank)', 'Decline Reason: (blank) -> 11 NSFs in October'].join('\n'),
      ['Status changed from Approved to Withdrawn', 'Reason: (blank) -> merchant took another offer; file declined'].join('\n'),
      ['Timeline', '11/04 11:15 AM  Declined', '11/03 04:00 PM  Approved', '11/03 09:00 AM  Submitted', '', 'Decline reason: 11 NSFs'].join('\n'),
    ]) {
      const h = hook(t);
      expect(h.r.type, t).toBe('declined');
      expect(h.r.review_reason, t).toBe('approval_withdrawn');
      expect(h.out.apply, t).toBe(false);
    }
    // near miss: a record going to declined from underwriting is a plain decline
    const plain = hook(['Stage: Underwriting -> Declined', 'Decline Reason: (blank) -> 11 NSFs in October'].join('\n'));
    expect(plain.r.type).toBe('declined');
    expect(plain.r.review_reason).toBeUndefined();
  });

  it('near misses: no change record, nothing rewritten', () => {
    // an arrow in a sentence, dates with amounts, a list of months are not a record
    for (const t of ['Approved $60,000 at 1.35, 9 months daily -> send the contract request.', 'Need: 10/01 statement, 11/01 statement.', 'Deposits:\n10/01 $12,400\n10/15 $9,900']) {
      expect(read(t, pinecrest()).reasons).not.toContain(CHANGE_RECORD);
    }
    // a tracked change in a document ("~~$60,000~~ -> $45,000") is the offer reader's, left as it is for it to weigh against a clean copy
    expect(read('Requested amount: ~~$60,000~~ -> $45,000\nFactor rate: 1.30\nTerm: 10 months, daily', pinecrest()).reasons).not.toContain(CHANGE_RECORD);
    // an update with no decision stays undecided
    expect(hook(['Stage: Submitted -> Underwriting', 'Requested Amount: (blank) -> $60,000.00', 'Assigned UW: (blank) -> Ray'].join('\n')).r.type).toBe('unclassified');
  });
});

describe('(rfix31) Spanish-English declines: the no and its reason in Spanish', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('the pronoun before the verb, no way to do it, "es un no": a decline with its reason', () => {
    const days = read('Hola Dana, Pinecrest no la podemos aprobar. Tiene 12 dias en rojo en octubre. Lo siento.', deal);
    expect([days.type, days.decline_category, days.review_reason]).toEqual(['declined', 'negative_days', undefined]);
    const neg = read('Pinecrest, the numbers are ok pero tiene 7 días en negativo en septiembre. No hay manera de fondearlo ahora.', deal);
    expect([neg.type, neg.decline_category]).toEqual(['declined', 'negative_days']);
    const sector = read('Lo siento, Pinecrest es un no. Sector prohibido para nosotros, nada que ver con los numeros.', deal);
    expect([sector.type, sector.decline_category]).toEqual(['declined', 'industry']);
    const list = read('Sorry Dana, it is mostly a bar y los bares estan en la lista de industrias prohibidas. No se puede hacer.', deal);
    expect([list.type, list.decline_category]).toEqual(['declined', 'industry']);
  });
  it('near misses: less offered after the refusal is a counter; "no hay manera de saber" is no decline; the list named but not this file', () => {
    expect(read('Pinecrest: no lo podemos hacer por los 60, pero podemos hacer $45,000 a 1.38, 9 meses, pagos diarios.', deal).type).toBe('counter');
    expect(read('No hay manera de saber hasta que llegue el estado de noviembre.', deal).type).not.toBe('declined');
    expect(read('Bares y tabaco estan en nuestra lista de industrias restringidas pero esto no. Aprobado $60,000 a 1.35, 9 meses diario.', deal).type).toBe('approved');
  });
});

describe('(rfix31) a ceiling stated below the amount offered, in any language or in words: a person', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('the most in Spanish or English words, the offer above it', () => {
    for (const t of [
      'Con la posicion abierta lo máximo que me dejan es treinta y cinco mil, no los sesenta.\n\nBottom line: $45,000 at 1.40, 9 months daily.',
      'With two positions open the most they let me do is forty thousand, not the sixty.\n\nSo: 45k at 1.45, 120 days, daily $543.75.',
      'El tope para este file es cuarenta mil. We can do $50,000 a 1.38, 9 meses, pago diario.',
    ]) {
      const r = read(t, deal);
      expect(r.type, t).toBe('counter');
      expect(r.review_reason, t).toBe('conflicting_cues');
      expect(r.reasons.some((x) => /a ceiling of \$/.test(x)), t).toBe(true);
    }
  });
  it('near misses: the ceiling at the offer, or above it, or no ceiling at all', () => {
    for (const t of [
      'Con la posicion abierta lo máximo que me dejan es cuarenta y cinco mil, no los sesenta. Bottom line: $45,000 at 1.40, 9 months daily.',
      'Max is 60 but with the position I would rather do $45,000 at 1.38, 9 months daily.',
      'Cuarenta mil de deposito promedio. We can do $45,000 a 1.38, 9 meses, pago diario.',
    ]) {
      const r = read(t, deal);
      expect(r.reasons.some((x) => /a ceiling of \$/.test(x)), t).toBe(false);
    }
    expect(spanishThousands('cuarenta mil, veinticinco mil, ciento veinte mil, cuarenta y cinco mil, mil gracias')).toBe('$40,000, $25,000, $120,000, $45,000, mil gracias');
  });
});

describe('(rfix31) chatty threads: another file named "your <Name> ..."; congratulations on another file are news', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it("another file's approval in this undecided deal's thread is not this deal's: never applied", () => {
    for (const t of [
      'Pinecrest is still with underwriting, waiting on the landlord. But good news on your Harbor Bakery deal - committee approved it today, $40,000 at 1.35, 9 months daily.',
      'Pinecrest is still sitting with Dave. Update on your Copper Kettle catering - approved this afternoon, $45,000 at 1.38, 120 business days, daily at $517.50.',
    ]) {
      const r = read(t, deal);
      expect(r.type, t).not.toBe('approved');
      expect(replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: t, autoReply: false }).apply, t).toBe(false);
    }
  });
  it('congratulations on another file that funded are news: this deal\'s approval applies', () => {
    const t = 'Hope your week is good! Pinecrest went through committee and is approved at the full $60,000 - 1.36, 140 business days, daily at $582.86. And congrats on the Harbor Bakery deal that funded last week, the owner was a pleasure.\n\nSend the contract request!';
    const r = read(t, deal);
    expect(r.type).toBe('approved');
    expect(r.review_reason).toBeUndefined();
    // near misses: another file approved (not news) beside this deal's approval is a person's call
    const two = read('Pinecrest is approved at the full $60,000 - 1.36, 140 business days, daily at $582.86. And congrats, Harbor Bakery is approved too at $30,000.', deal);
    expect(two.review_reason).toBe('multiple_deals');
  });
});

describe('(rfix31) the full amount on another schedule than the one refused: a counter, the refused schedule and term no offer', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('"they would not do weekly payments over twelve months ... daily over 180 business days" is a counter at the daily terms', () => {
    for (const t of [
      'Committee approved the full $60,000, but they would not do weekly payments over twelve months on a vet clinic - the best they would do is 1.37 over 180 business days, daily at $456.67.',
      'Full $60k approved. Credit wouldn\'t go weekly over 12 months, so it is 1.37, 180 business days, daily at $456.67.',
      'You got the whole $60,000 but we couldn\'t approve it on weekly debits for 52 weeks; daily works: 1.37 over 180 business days, $456.67 a day.',
    ]) {
      const r = read(t, deal);
      expect(r.type, t).toBe('counter');
      expect(r.offers, t).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.37, term: 180, term_unit: 'days', payment_frequency: 'daily' })]);
    }
  });
  it('near misses: the refusal names no schedule; the schedule offered is not refused', () => {
    const r = read('Committee approved the full $60,000: 1.37 over 12 months, weekly at $1,580.77. They would not do it any cheaper.', deal);
    expect(r.type).toBe('approved');
    expect(r.offers).toEqual([expect.objectContaining({ term: 12, term_unit: 'months', payment_frequency: 'weekly' })]);
  });
});

describe('(rfix31) a term rounded after it ("8 meses aprox", "8 months or so") yields to the payments counted', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('the count of payments is the term, in Spanish or English', () => {
    for (const t of ['Aprobado $60,000: 1.32, 168 pagos diarios de $471.43 (8 meses aprox).', 'Approved $60,000 at 1.32, 168 daily payments of $471.43 (8 months or so).', 'Approved $60,000 at 1.32, 168 daily payments of $471.43, about 8 months más o menos.']) {
      expect(read(t, deal).offers, t).toEqual([expect.objectContaining({ term: 168, term_unit: 'days', payment_frequency: 'daily' })]);
    }
  });
  it('near miss: a term stated plainly beside the count stays as stated', () => {
    expect(read('Approved $60,000 at 1.32, 168 daily payments of $471.43, 8 month term.', deal).offers).toEqual([expect.objectContaining({ term: 8, term_unit: 'months' })]);
  });
});

describe('(rfix31) a correction naming what it replaces, proven by its restated payback or payment', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('the corrected terms stand when the restated figures repay them, however the correction is typed', () => {
    for (const t of [
      'appr pinecrest full 60k 1.40 140 dly pymts 84k back 600/day\ncorrection 1.38 not 1.40 my bad  82,800 back 591.43 dly  rest same',
      'Approved 60k at 1.40, 140 daily payments of $600.\nCorrection: the rate is 1.38 not 1.40.\nPayback $82,800, $591.43 a day.',
      'Approved $60,000 at 1.40, 140 daily payments of $600. Sorry, typo: 1.40 should be 1.38, so payback $82,800 and $591.43 a day.',
    ]) {
      const r = read(t, deal);
      expect(r.review_reason, t).toBeUndefined();
      expect(r.offers, t).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.38, term: 140, payment_amount: 591.43 })]);
    }
  });
  it('near misses: nothing restated, restated figures that do not repay, or no figure named as replaced: a person', () => {
    for (const t of [
      'Approved $60,000 at 1.40, 140 daily payments of $600. Sorry, typo: 1.40 should be 1.38.',
      'appr 60k 1.40 140 dly 600/day\ncorrection 1.38 not 1.40 my bad 83,000 back rest same',
      'Approved $60,000 at 1.35 for 9 months, daily. Correction: make that $45,000 at 1.35 for 9 months, daily.',
      'appr 60k 1.40 140 dly 600/day\nmy bad, 82,800 back 591.43 dly',
    ]) {
      expect(read(t, deal).review_reason, t).toBe('conflicting_cues');
    }
  });
});

describe('(rfix31) a numbered list saying nothing is needed from the broker is a status note, not a request', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('an acknowledgement in numbered lines asks for nothing', () => {
    for (const t of [
      'Got Pinecrest. For your records:\n1. File number PVC-2291\n2. Underwriter: J. Ames\n3. Decision expected tomorrow\n4. No action needed on your end.',
      'Received Pinecrest Veterinary Clinic.\n1) Logged as file 88-231\n2) Assigned to: K. Moore\n3) Nothing needed from you at this time',
    ]) {
      const r = read(t, deal);
      expect(r.type, t).toBe('unclassified');
      expect(r.requested_items, t).toEqual([]);
    }
  });
  it('near misses: a request list ending "nothing else needed" stays a request', () => {
    expect(read('Pinecrest - before a decision:\n1. October bank statement\n2. Voided check\nNothing else needed.', deal).requested_items).toEqual(['October bank statement', 'Voided check']);
    expect(read('Pinecrest - before a decision:\n1. October bank statement\n2. Voided check\n3. Nothing else needed after that.', deal).type).toBe('needs_info');
  });
});

describe('(revM) closing holds and sign-offs in other words, another file from the broker, a decision still pending', () => {
  const deal = (requested_amount = 60_000, business_name = 'Copper Kettle Catering'): ReplyContext => ({ requested_amount, business_name, iso: { names: ['Summit Valley Capital'] } });
  const hook = (text: string, ctx: ReplyContext = deal(), subject = 'Re: Submission: Copper Kettle Catering') => {
    const r = read(text, ctx, subject);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@ridgeline.example', own: text, autoReply: false }) };
  };
  const AG = 'Agreement attached for Copper Kettle Catering: Purchase Price $60,000.00, Factor 1.35, Weekly Remittance $2,025.00 (40 remittances).\n\n';

  it('papers held in other words (disregard them for now, the merchant to refrain, credit reconsidering, a second review): a person', () => {
    for (const t of [
      'Please disregard the agreement above for now - we may need to redraw it.',
      'Kindly ensure the merchant refrains from signing; credit is reconsidering the factor.',
      'The merchant should not sign it until you hear from me.',
      'FYI the file is going through a second review with our credit team, will advise if anything changes.',
      'Underwriting is taking another look at the deposits.',
      'Funding is on hold for now.',
    ]) {
      const h = hook(AG + t);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: an earlier agreement replaced, a deadline to sign, a review already done stay applied
    for (const t of ['Please disregard the agreement I sent yesterday; this one replaces it. Have the merchant sign today.', 'Merchant should sign by Friday; we fund Monday.']) {
      expect(hook(AG + t).out.apply, t).toBe(true);
    }
    expect(hook('Approved after a second review by credit: $60,000 / 1.35 / 9 months / daily.').out.apply).toBe(true);
  });

  it('a sign-off named before it is still needed, a decision pending, a pre-approval: a person', () => {
    for (const t of [
      'Outcome:\n- Item 1: APPROVED 2-1. $60,000 / 1.35 / 9 months / daily. Final sign-off from CCO still needed.',
      'Copper Kettle Catering - pending approval. $60,000 / 1.35 / 9 months / daily expected.',
      'Copper Kettle Catering - 승인 대기 (pending approval). $60,000 / 1.35 / 9 months / daily.',
      'Copper Kettle Catering: 承認 (approved) は保留 (on hold) です。 $60,000 / 1.35 / 9 months / daily.',
      'Copper Kettle file pre-approval only: $60,000, factor 1.35, 9 months, daily.',
    ]) {
      const h = hook(t);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: the sign-off received, the merchant's approval of the terms, stips pending
    for (const t of [
      'Approved $60,000 / 1.35 / 9 months / daily. Final sign-off from the CCO received this morning.',
      'Approved $60,000 / 1.35 / 9 months / daily, pending approval of the terms by the merchant.',
      'Approved $60,000 / 1.35 / 9 months / daily, pending a voided check and bank verification.',
    ]) expect(hook(t).out.apply, t).toBe(true);
  });

  it('another file named without an article, sent by the broker\'s people or "from you": another deal, a person', () => {
    for (const t of ['Also, Bayou Roofing file your guy sent Tuesday - declined, too many NSFs.', 'Other thing: Bayou Roofing submission from you last week is a decline for us.']) {
      const h = hook(`For Copper Kettle Catering we can do this: $40,000 / factor 1.38 / 32 weeks / weekly.\n\n${t}`);
      expect(h.r.review_reason, t).toBe('multiple_deals');
      expect(h.out.apply, t).toBe(false);
    }
    // near miss: this deal named that way
    expect(hook('Copper Kettle Catering file from you is approved: $60,000 / factor 1.35 / 9 months / daily.').r.review_reason).toBeUndefined();
  });

  it('a bare term beside a weekly or monthly schedule column is counted in its unit, not logged as days', () => {
    const w = extractOffers('Funded Amt   Fctr   Term   Pmt         Freq\n$60,000.00  1.35   40     $2,025.00  W');
    expect(w).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.35, term: 40, term_unit: 'weeks', payment_frequency: 'weekly', payment_amount: 2025 })]);
    expect(extractOffers('Amount       Rate   Length   Schedule\n$60,000.00  1.35   12       Monthly')[0]).toMatchObject({ term: 12, term_unit: 'months' });
    // near misses: a payment that does not fit stays a conflict; a daily schedule or a figure too long for weeks stays days
    const h = read('Approved.\n\nFunded Amt   Fctr   Term   Pmt         Freq\n$60,000.00  1.35   40     $3,000.00  Weekly', ask(60_000));
    expect(replyOutcome(contractClassification(h), { from: 'uw@x.example', own: '', autoReply: false }).apply).toBe(false);
    expect(extractOffers('Funded Amt   Fctr   Term   Pmt         Freq\n$60,000.00  1.35   120     $675.00  D')[0]).toMatchObject({ term: 120, term_unit: 'days', payment_frequency: 'daily' });
    expect(extractOffers('Funded Amt   Fctr   Term   Freq\n$60,000.00  1.35   180     Weekly')[0]).toMatchObject({ term: 180, term_unit: 'days' });
  });

  it('papers held as a stand-by, no signatures to collect, the envelope not to go out, an approval that may be withdrawn: a person', () => {
    for (const t of [
      'Underwriting just flagged a new UCC filing. Stand by before you send these out for signature.',
      'Sit tight on these for a day - we found a new position on the bank statement.',
      'Please do not collect signatures at this time.',
      "Please don't send the DocuSign to the merchant yet.",
      'Heads up: this approval may be withdrawn, compliance is looking into the owner.',
    ]) {
      const h = hook(AG + t);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: "we stand by our offer", a DocuSign sent today, signatures collected by a deadline
    for (const t of ['We stand by our offer; have the merchant sign today.', 'The DocuSign goes to the merchant today.', 'Please collect signatures by Friday.']) {
      expect(hook(AG + t).out.apply, t).toBe(true);
    }
  });

  it("minutes whose agenda lists another deal beside this one: the outcome's item may be another file's, a person", () => {
    const h = hook('Agenda:\n1. Bayou Roofing - $45k ask\n2. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- Bayou: clean.\n- Copper Kettle: need Oct statement.\n\nOutcome:\n- Item 1: APPROVED $45,000 / 1.38 / 6 months / daily.\n- Item 2: deferred to next week.');
    expect(h.r.review_reason).toBe('multiple_deals');
    expect(h.out.apply).toBe(false);
    // near misses: one agenda item, or items all naming this deal, stay this deal's
    expect(hook('Agenda:\n1. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- Sam proposed $50k at 1.38 over 8 months, daily; Lee wanted $40k.\n\nOutcome:\n- Approved as Sam proposed.').out.apply).toBe(true);
    expect(hook('Agenda:\n1. Copper Kettle Catering - $60k ask\n2. Copper Kettle - existing position\n\nDiscussion:\n- Clean file.\n\nOutcome:\n- Item 1: APPROVED as requested. $60,000, 1.35 factor, 9 months, daily.').r.review_reason).toBeUndefined();
  });

  it('a pasted sheet\'s "60 M" amount (thousands in the old notation, millions in the new) goes to a person', () => {
    const h = hook('Approved.\n\nFunded    Fctr    Term\n60 M      1.35    9 M');
    expect(h.out.apply).toBe(false);
    expect(extractOffers('Approved 60M at 1.35 for 9 months')[0].conflict).toBeDefined();
    // near miss: a plain amount keeps no such note
    expect(extractOffers('Approved $60,000 at 1.35 for 9 months')[0].conflict).toBeUndefined();
  });

  it('an amount column named for its product ("Term Loan Amt") is money, not the term, in a row whose figures ran together', () => {
    expect(extractOffers('Term Loan Amt    Fctr    Length   Pmt\n$60,000.00 1.35    40 W     $2,025.00')).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.35, term: 40, term_unit: 'weeks', payment_amount: 2025 })]);
  });

  it('a glossed signature hold ("서명 (signature) 보류 (hold)") is a hold: a person', () => {
    const h = hook('Copper Kettle Catering 승인 (approved) $60,000 / 1.35 / 9 months / daily. 서명 (signature) 보류 (hold) please, 심사 (review) again.');
    expect(h.r.review_reason).toBe('tentative_terms');
    // near miss: the signature line of a routine closing stays applied
    expect(hook('Copper Kettle Catering 승인 (approved) $60,000 / 1.35 / 9 months / daily. 서명 (signature) please by Friday.').out.apply).toBe(true);
  });

  it('a row that ran together beside a net, fee or payoff column is still counted out by kind', () => {
    for (const t of [
      'Net to Merchant   Purchase Price   Payback      Term   Pmt\n$57,000.00 $60,000.00       $81,000.00   40 W   $2,025.00',
      'Funded       Orig Fee    Payback      Fctr   Term   Pmt\n$60,000.00 $1,200.00   $81,000.00   1.35   40 W   $2,025.00',
    ]) expect(extractOffers(t), t).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.35, term: 40, term_unit: 'weeks', payment_amount: 2025 })]);
    // near miss: a money figure too many still counts out wrong and is not forced into a column
    const extra = extractOffers('Funded       Orig Fee    Payback      Fctr   Term   Pmt\n$60,000.00 $1,200.00 $500.00  $81,000.00   1.35   40 W   $2,025.00');
    expect(extra.some((x) => x.payment_amount === 2025 && x.term === 40 && x.missing.length === 0 && !x.conflict && x.amount === 60_000 && x.factor_rate === 1.35)).toBe(false);
  });

  it("a minutes' action item to confirm with a senior officer before sending is no decision yet: a person", () => {
    const m = (a: string) => hook(`Agenda:\n1. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- Clean file.\n\nOutcome:\n- Item 1: APPROVED as requested. $60,000 / 1.35 / 9 months / daily.\n\nAction items:\n- ${a}`);
    expect(m('Ana: confirm with CCO before sending to ISO.').r.review_reason).toBe('tentative_terms');
    // near miss: a routine action item stays applied
    expect(m('Ana: confirm bank details with the merchant before funding.').out.apply).toBe(true);
  });

  it('another file named without an article opening a postscript or a line, its news after a dash: another deal, a person', () => {
    for (const t of ['P.S. Bayou Roofing deal - we sent contracts this morning.', 'Bayou Roofing file: declined, too many NSFs.']) {
      const h = hook(`We can do $40,000 for Copper Kettle Catering, factor 1.38, 32 weeks, weekly.\n\n${t}`);
      expect(h.r.review_reason, t).toBe('multiple_deals');
      expect(h.out.apply, t).toBe(false);
    }
    // near miss: this deal named that way is no other file
    expect(hook('We can do $40,000 for Copper Kettle Catering, factor 1.38, 32 weeks, weekly.\n\nP.S. Copper Kettle Catering deal - contracts go out once the merchant accepts.').r.review_reason).toBeUndefined();
  });

  it("the lender's legal or compliance people still to sign off before the merchant signs: a person", () => {
    const h = hook(AG + 'Legal needs to sign off on the confession of judgment language before the merchant signs.');
    expect(h.r.review_reason).toBe('tentative_terms');
    // near misses: the merchant's own lawyer reviewing is the merchant's step; a re-review already done stays applied
    expect(hook(AG + "The merchant's attorney needs to review it before the merchant signs.").out.apply).toBe(true);
    expect(hook(AG + 'Credit re-reviewed the file this morning and it stands. Have the merchant sign today.').out.apply).toBe(true);
  });

  it("minutes' outcome struck after the approval (reversed, rescinded, a failed motion, moved to hold): no approval applied", () => {
    const H = 'Agenda:\n1. Copper Kettle Catering - $60k ask\n\nDiscussion:\n- New UCC found.\n\nOutcome:\n';
    for (const t of [
      '- Item 1: APPROVED on 11/20 ($60,000 / 1.35 / 9 months / daily) - REVERSED today, new position found.',
      '- Item 1: APPROVED ($60,000 / 1.35 / 9 months / daily) - rescinded.',
      '- Item 1: motion to approve $60,000 / 1.35 / 9 months / daily failed 1-2.',
      '- Item 1: APPROVED -> ON HOLD pending new UCC review. $60,000 / 1.35 / 9 months / daily.',
    ]) {
      const h = hook(H + t);
      expect(h.out.apply, t).toBe(false);
      expect(h.r.type === 'approved' && !h.r.review_reason, t).toBe(false);
    }
    // near misses: a motion carried, a status moved to approved, an approval beside a report pulled stay applied
    for (const t of [
      '- Item 1: motion to approve $60,000 / 1.35 / 9 months / daily carried 3-0.',
      '- Item 1: status pending -> APPROVED. $60,000 / 1.35 / 9 months / daily.',
      '- Item 1: APPROVED $60,000 / 1.35 / 9 months / daily, pulled the bank report this morning and it is clean.',
    ]) expect(hook(H.replace('New UCC found.', 'Clean file.') + t).out.apply, t).toBe(true);
  });

  it('a CCO sign-off still to come, an approval marked expired or lapsed: no approval applied', () => {
    for (const t of [
      'Outcome:\n- Approved pending CCO sign-off. $60,000 / 1.35 / 9 months / daily.\n\nDiscussion:\n- fine.',
      'Approved $60,000 / 1.35 / 9 months / daily. CCO still has to initial it.',
      'Status: Approved (expired 11/25). $60,000 / 1.35 / 9 months / daily.',
      'Decision: Approved - offer lapsed, merchant went elsewhere. $60,000 / 1.35 / 9 months / daily.',
    ]) expect(hook(t).out.apply, t).toBe(false);
    // near misses: an offer's expiry date ahead, a sign-off already given
    for (const t of ['Approved $60,000 / 1.35 / 9 months / daily. Offer expires Friday.', 'Approved $60,000 / 1.35 / 9 months / daily. CCO signed off this morning.']) {
      expect(hook(t).out.apply, t).toBe(true);
    }
  });

  it('a file frozen, no signatures, the papers superseded with new ones to follow: a person', () => {
    for (const t of ['We are freezing this file until the new UCC is explained - no signatures please.', 'These papers are superseded; new ones to follow after credit re-prices.']) {
      const h = hook(AG + t);
      expect(h.r.review_reason, t).toBe('tentative_terms');
      expect(h.out.apply, t).toBe(false);
    }
    // near misses: earlier papers superseded by the attached ones, signatures asked for
    for (const t of ['The earlier papers are superseded by the attached ones. Have the merchant sign today.', 'No changes to the terms; signatures by Friday please.']) {
      expect(hook(AG + t).out.apply, t).toBe(true);
    }
  });
});

describe('(rfix32) holdout66: the schedule the deal asks, from the hook or the broker\'s quoted message; an aside on another file by town and trade', () => {
  const deal = (extra: Partial<ReplyContext> = {}): ReplyContext => ({ requested_amount: 60_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] }, ...extra });
  const hook = (text: string, ctx: ReplyContext = deal()) => {
    const r = read(text, ctx);
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };
  const quoting = (answer: string, ask: string) => `${answer}\n\nOn Tue, Nov 3, 2026 at 9:12 AM Dana Whitfield <dana@summitvalleycap.com> wrote:\n> Hi,\n>\n> ${ask}\n>\n> Requested amount: $60,000\n> Thanks!\n> Dana`;

  it('the full amount on another schedule than the deal asks is a counter: the hook\'s requested_frequency, or the broker\'s quoted ask', () => {
    const daily = 'Yes, the full 60 works. Daily only on this industry: 1.36, 140 business days, $582.86 a day.';
    expect(read(daily, deal({ requested_frequency: 'weekly' })).type).toBe('counter');
    for (const ask of [
      'Owner would much prefer weekly payments (jobs pay net-30).',
      'The owner really wants weekly - can you do weekly?',
      'Could you structure it as weekly? Their receivables land on Fridays.',
      'Payment frequency requested: weekly',
      'Merchant is asking for weekly debits if at all possible.',
    ]) {
      const h = hook(quoting(daily, ask));
      expect(h.r.type, ask).toBe('counter');
      expect(h.r.offers, ask).toEqual([expect.objectContaining({ amount: 60_000, factor_rate: 1.36, payment_frequency: 'daily' })]);
    }
    // and the other way round: weekly offered on a deal asking daily
    const weekly = 'Approved, full $60,000 at 1.30, 40 weeks, weekly $1,950.00.';
    expect(hook(quoting(weekly, 'Owner prefers daily, their sales are daily card swipes.')).r.type).toBe('counter');
  });

  it('near misses: the schedule asked is the one offered, two schedules asked, a schedule only mentioned, or nothing quoted: an approval', () => {
    const daily = 'Yes, the full 60 works: 1.36, 140 business days, $582.86 a day.';
    expect(read(daily, deal({ requested_frequency: 'daily' })).type).toBe('approved');
    for (const ask of [
      'Owner would prefer daily, whatever gets the best factor.',
      'Owner wants weekly or daily, either is fine - can you do weekly or daily?',
      'Their last advance was weekly and they paid it as agreed.',
      'Existing positions: None',
    ]) {
      const r = read(quoting(daily, ask), deal());
      expect(r.type, ask).toBe('approved');
    }
    // the ask in the reply's own words, not quoted, is the reply's own reading (askedFrequency), unchanged
    expect(read(daily, deal()).type).toBe('approved');
  });

  it('a short decline with a P.S. naming another file by its town and trade, terms to follow: a person records the other file', () => {
    const hz: ReplyContext = { requested_amount: 110_000, business_name: 'Hazleton Anthracite Trucking LLC', iso: { names: ['Summit Valley Capital'] } };
    for (const t of [
      'Sorry, we\'ll pass on Hazleton - fourth position isn\'t for us. Cheers.\n\nP.S. The Bethlehem brewpub looks lovely though, terms to follow separately.',
      'Have to pass on Hazleton, too many positions.\n\nSeparately, your Ogden bakery is approved - offer going out today.',
      'No on Hazleton, sorry - fourth position.\n\nPS: that Provo spa is with credit, contracts tomorrow.',
    ]) {
      const h = hook(t, hz);
      expect(h.r.type, t).toBe('declined');
      expect(h.r.review_reason, t).toBe('multiple_deals');
      expect(h.out.apply, t).toBe(false);
    }
  });

  it('near misses: the aside is this deal\'s, names a lender\'s position or a paper, or has no aside: the decline is applied', () => {
    const hz: ReplyContext = { requested_amount: 110_000, business_name: 'Hazleton Anthracite Trucking LLC', iso: { names: ['Summit Valley Capital'] } };
    for (const t of [
      'Sorry, we\'ll pass on Hazleton - fourth position isn\'t for us.\n\nP.S. The Hazleton trucks are lovely though, shame.',
      'Sorry, we\'ll pass on Hazleton - fourth position isn\'t for us.\n\nP.S. The Mantis position alone would have been fine.',
      'Sorry, we\'ll pass on Hazleton - fourth position isn\'t for us.\n\nP.S. The October statements were fine.',
      'Sorry, we\'ll pass on Hazleton - fourth position isn\'t for us. The Bethlehem brewpub is a nice place though.',
    ]) {
      const h = hook(t, hz);
      expect(h.r.type, t).toBe('declined');
      expect(h.r.review_reason, t).toBeUndefined();
      expect(h.out.apply, t).toBe(true);
    }
  });
});

describe('(rfix32) a letter-grade scorecard: rows graded A or B name no decline reason, the failing row does', () => {
  const deal: ReplyContext = { requested_amount: 40_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('the failing row names the reason, whatever the passing rows\' notes say', () => {
    const cases: Array<[string, string]> = [
      [['UNDERWRITING SCORECARD', '', 'Revenue:   B   $34k, steady', 'Balances:  B   ADB $9k', 'Positions: A   none', 'Industry:  F   cannabis dispensary, restricted', '', 'VERDICT: DECLINE. Please don\'t resubmit.'].join('\n'), 'industry'],
      [['Revenue | A | $120k', 'Average daily balance | B+ | $6k, low-ish but ok', 'NSFs | F | 14 nsfs in 60 days', 'Industry | A | restaurant', '', 'Decision: Decline'].join('\n'), 'nsf'],
      [['Revenue: A-   strong', 'Balances: A   ADB $15k, no negative days', 'Positions: F   4 open advances, stacked', 'Credit: B   690', 'Verdict: declined'].join('\n'), 'stacking'],
    ];
    for (const [t, cat] of cases) {
      const r = read(t, deal);
      expect(r.type, t).toBe('declined');
      expect(r.decline_category, t).toBe(cat);
    }
  });
  it('near misses: fewer than three graded rows, or a failing grade on the row named, are read as before', () => {
    // two rows are no scorecard: the balance named is read as the reason
    const two = read(['Balances: B  ADB only $900, too thin', 'Credit: A  720', '', 'We have to decline.'].join('\n'), deal);
    expect(two.decline_category).toBe('low_balance');
    // a card whose balances row fails: that row is the reason
    const failing = read(['Revenue: B   $60k', 'Balances: F   ADB $400, 22 negative days', 'Credit: A   740', 'Industry: A   vet', 'VERDICT: DECLINE'].join('\n'), deal);
    expect(failing.decline_category).toBe('low_balance');
  });
});

describe('(rfix32) an approval that turns into a decline on a condition: a person', () => {
  const deal: ReplyContext = { requested_amount: 55_000, business_name: 'Pinecrest Veterinary Clinic', iso: { names: ['Summit Valley Capital'] } };
  it('"if the lien is open, this becomes a decline", "otherwise it\'s a decline": held for a person, never applied', () => {
    for (const t of [
      'CONDITIONAL APPROVAL - full $55,000 at 1.34, 7 months, daily. Condition: proof the tax lien is released. If the lien is open, this becomes a decline.',
      'Approved $55,000 at 1.34 over 7 months, daily. Need the payoff letter from Fora by Friday - otherwise it\'s a decline.',
      'Approved full 55k @ 1.34, 7 mos daily, provided the landlord confirms the lease. If not, the approval reverts to a decline.',
    ]) {
      const r = read(t, deal);
      expect(r.review_reason, t).toBe('tentative_terms');
      expect(replyOutcome(contractClassification(r), { from: 'uw@lender.example', own: t, autoReply: false }).apply, t).toBe(false);
    }
  });
  it('near misses: a condition that lowers nothing to a no, or a decline reason told as history: the approval stands', () => {
    for (const t of [
      'Approved $55,000 at 1.34 over 7 months, daily. If the lien is open, send the payment plan with the contracts.',
      'Approved $55,000 at 1.34, 7 months daily. If the lien is open, it becomes part of the payoff at funding.',
    ]) {
      const r = read(t, deal);
      expect(r.type, t).toBe('approved');
      expect(r.review_reason, t).toBeUndefined();
    }
  });
});

describe('(stop 54) a word in another script whose English gloss says the opposite decision: a person', () => {
  const deal: ReplyContext = { requested_amount: 60_000, business_name: 'Copper Kettle Catering', iso: { names: ['Summit Valley Capital'] } };
  const hook = (text: string) => {
    const r = read(text, deal, 'Re: Submission: Copper Kettle Catering');
    return { r, out: replyOutcome(contractClassification(r), { from: 'uw@hanbit.example', own: text, autoReply: false }) };
  };
  const TERMS = ' $60,000 / 1.35 / 9 months / daily.';
  it('a refusal glossed "approved", an approval glossed "declined", a negated approval glossed "approved": conflicting_cues, never applied', () => {
    for (const t of [
      `Copper Kettle Catering: 거절 (approved).${TERMS}`,
      `Copper Kettle Catering - 거절 (approved) 입니다. 60,000 at 1.35 for 9 months daily`,
      `Copper Kettle Catering: отказ (approved).${TERMS}`,
      `Copper Kettle Catering: 불승인 (approved).${TERMS}`,
      'Copper Kettle Catering: 승인 (declined) - too many positions.',
      'Copper Kettle Catering: 承認 (declined) - stacking.',
    ]) {
      const h = hook(t);
      expect(h.r.review_reason, t).toBe('conflicting_cues');
      expect(h.out.apply, t).toBe(false);
    }
  });
  it('near misses: a gloss agreeing with its word, a negated approval glossed declined, a gloss of no decision, an approval awaited', () => {
    for (const t of [
      `Copper Kettle Catering: 승인 (approved).${TERMS}`,
      `Copper Kettle Catering: одобрено (approved)${TERMS}`,
      `Copper Kettle Catering: 기간 (term) 9 months, 승인 (approved) $60,000 / 1.35 daily.`,
      'Copper Kettle Catering: 거절 (declined) - too many positions.',
      'Copper Kettle Catering: 불승인 (declined) - too many positions.',
      'Copper Kettle Catering: не одобрено (declined) - stacking.',
    ]) {
      const h = hook(t);
      expect(h.out.apply, t).toBe(true);
      expect(h.r.review_reason, t).toBeUndefined();
    }
    // awaited, not contradicted: still a person, for its own reason
    expect(hook(`Copper Kettle Catering - 승인 대기 (pending approval).${TERMS}`).r.review_reason).toBe('tentative_terms');
  });
});

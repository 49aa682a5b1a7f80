// The lender-reply classifier against its fixture corpus (contract-tests/fixtures/replies): every
// .eml is a real RFC 822 message, parsed with mailparser, then classified. No database, no network.
// Must-pass cases are asserted one by one; the corpus as a whole must stay above the accuracy bars.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { classifyReply, DECLINE_CATEGORIES, toResponseType } from '../../src/features/inbound/classifier';
import { contractClassification, loggableOffers, replyOutcome } from '../../src/features/inbound/reply-outcome';
import { htmlToText, splitReply } from '../../src/features/inbound/reply-text';
import { BLIND_SETS, EML_DIR, fixtureTable, hookMetrics, hookSummary, loadManifest, metrics, runCorpus, summary, type FixtureResult } from '../fixtures/replies/evaluate';

const manifest = loadManifest();
let results: FixtureResult[] = [];
const byFile = (file: string) => {
  const r = results.find((x) => x.expected.file === file);
  if (!r) throw new Error(`no fixture ${file}`);
  return r;
};

// A budget, not a speed rule: the corpus grows by 30 replies a batch (1,825 now), each parsed and read
// by the rules and the model; on a loaded worker the run outgrew the default 120 s hook budget.
beforeAll(async () => {
  results = await runCorpus();
}, 300_000);

describe('the corpus', () => {
  it('has at least 40 fixtures, one manifest entry per .eml file and back', () => {
    const files = readdirSync(EML_DIR).filter((f) => f.endsWith('.eml')).sort();
    expect(manifest.length).toBeGreaterThanOrEqual(40);
    expect(manifest.map((m) => m.file).sort()).toEqual(files);
  });

  it('is made of real messages: From, Date, Message-ID and a subject on every one', () => {
    for (const r of results) {
      expect(r.headers.from, r.expected.file).toBeTruthy();
      expect(r.headers.messageId, r.expected.file).toMatch(/^<.+@.+>$/);
      expect(r.headers.date?.getTime(), r.expected.file).toBeGreaterThan(0);
    }
  });

  it('covers every class, every decline category, HTML parts, quoted threads and forwards', () => {
    for (const c of ['approved', 'declined', 'needs_info', 'counter', 'unclassified'] as const) {
      expect(manifest.filter((m) => m.type === c).length, c).toBeGreaterThanOrEqual(5);
    }
    const categories = new Set(manifest.map((m) => m.decline_category).filter(Boolean));
    for (const c of DECLINE_CATEGORIES) expect(categories.has(c), c).toBe(true);
    const raw = manifest.map((m) => readFileSync(join(EML_DIR, m.file), 'latin1'));
    expect(raw.filter((r) => /multipart\/alternative/i.test(r)).length).toBeGreaterThanOrEqual(10);
    expect(raw.filter((r) => /^Content-Type: text\/html/im.test(r) && !/multipart/i.test(r)).length).toBeGreaterThanOrEqual(3);
    expect(results.filter((r) => r.got.reasons[0].includes('quoted line')).length).toBeGreaterThanOrEqual(30);
    expect(results.filter((r) => /forward/.test(r.got.reasons[0])).length).toBeGreaterThanOrEqual(3);
  });

  it('uses the contract enums and field names (openapi.yaml)', () => {
    const spec = parseYaml(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    const offer = spec.components.schemas.Offer.properties;
    const request = spec.components.schemas.RecordSubmissionResponseRequest.properties;
    const categoryPattern = new RegExp(request.decline_category.pattern);
    for (const m of manifest) {
      for (const o of m.offers ?? []) {
        expect(Object.keys(o).every((k) => k in offer), m.file).toBe(true);
        if (o.term_unit) expect(offer.term_unit.enum).toContain(o.term_unit);
        if (o.payment_frequency) expect(offer.payment_frequency.enum).toContain(o.payment_frequency);
      }
      if (m.decline_category) expect(m.decline_category).toMatch(categoryPattern);
      // a label the reader may never emit (the contract's enum for a reading) measures nothing
      if (m.decline_category) expect(spec.components.schemas.InboundEmailClassification.properties.decline_category.enum, m.file).toContain(m.decline_category);
      const responseType = toResponseType(m.type);
      if (responseType) expect(request.response_type.enum).toContain(responseType);
    }
    for (const c of DECLINE_CATEGORIES) expect(c).toMatch(categoryPattern);
    // the categories the contract documents for replies are exactly the classifier's
    const classification = spec.components.schemas.InboundEmailClassification.properties;
    expect(classification.decline_category.enum).toEqual([...DECLINE_CATEGORIES, null]);
    expect(classification.type.enum).toEqual(['approved', 'declined', 'needs_info', 'counter', 'unclassified']);
    // what the classifier returns is what the contract accepts
    for (const r of results) {
      for (const o of r.got.offers) {
        if (o.term_unit) expect(offer.term_unit.enum).toContain(o.term_unit);
        if (o.payment_frequency) expect(offer.payment_frequency.enum).toContain(o.payment_frequency);
        expect(o.amount).toBeGreaterThan(0);
      }
      if (r.got.decline_category) expect(r.got.decline_category).toMatch(categoryPattern);
      expect(r.got.decline_reason?.length ?? 0).toBeLessThanOrEqual(request.decline_reason.maxLength);
      expect(r.got.requested_items.length).toBeLessThanOrEqual(request.requested_items.maxItems);
      expect(r.got.confidence).toBeGreaterThanOrEqual(0);
      expect(r.got.confidence).toBeLessThanOrEqual(1);
    }
  });
});

describe('must-pass cases', () => {
  it.each([
    ['meridian-ironclad.eml', 'declined', 'the quote says "approved ... for $100,000"'],
    ['titan-brightside.eml', 'declined', 'the signature says "approvals up to $500,000"'],
    ['granite-silverspoon.eml', 'approved', 'the quote says "declined by two funders"'],
    ['h-lighthouse-silverspoon.eml', 'approved', 'the quote says "declined by two funders"'],
    ['blueharbor-lopez-thread.eml', 'approved', 'an earlier stip request sits in the quote'],
    ['apex-oakstreet.eml', 'needs_info', 'a prospective "approval ... around $50k"'],
    ['keystone-coastal.eml', 'approved', 'the disclaimer says "declined"'],
    ['blueharbor-hudson.eml', 'declined', '"Not approved"'],
    ['cardinal-peak.eml', 'counter', '"Approved, but not at the requested amount"'],
  ])('%s is %s (%s)', (file, type) => {
    const r = byFile(file);
    expect(r.got.type, r.got.reasons.join('\n')).toBe(type);
    if (type !== 'approved' && type !== 'counter') expect(r.got.offers).toEqual([]);
  });

  it('never reads the quoted thread as the answer: no offer, category or class taken from it', () => {
    // amounts in the quoted submission ("Requested amount: $100,000", "a $20,000 advance with Fora")
    expect(byFile('atlas-sunrise.eml').got.offers.map((o) => o.amount)).toEqual([75000]);
    expect(byFile('redwood-sunrise.eml').got.offers.map((o) => o.amount)).toEqual([65000]);
    expect(byFile('titan-sunrise.eml').got.offers.map((o) => o.amount)).toEqual([60000]);
    expect(byFile('granite-silverspoon.eml').got.offers.map((o) => o.amount)).toEqual([45000]);
    expect(byFile('h-lighthouse-silverspoon.eml').got.offers.map((o) => o.amount)).toEqual([45000]);
    // words in the quoted submission ("Time in business", "Industry") are not the decline reason
    expect(byFile('keystone-maple.eml').got.decline_category).toBe('other');
    expect(byFile('h-meadow-maple.eml').got.decline_category).toBe('other');
    expect(byFile('blueharbor-hudson.eml').got.decline_category).toBe('default_history');
    // the lender's own earlier stip request, quoted under today's approval ($22,500 on a $30,000
    // ask: a counter by issue 26's rule, labelled `approved` under the older one)
    expect(byFile('h2-prairie-bellavista-thread.eml').got.type).toBe('counter');
    expect(byFile('h2-prairie-bellavista-thread.eml').got.requested_items).toEqual([]);
    expect(byFile('blueharbor-lopez-thread.eml').got.requested_items.join(' ')).not.toMatch(/voided check|driver's license|october/i);
    // "please send ..." in the quoted submission is not a stip request
    expect(byFile('h-capstone-lopez-dupe.eml').got.type).toBe('unclassified');
  });

  it.each([
    'harborline-harbor-ooo.eml', 'keystone-sunrise-ooo.eml', 'velocity-ack.eml', 'bounce-meridian.eml', 'meridian-ooo-html.eml',
    'h-granitestate-ooo.eml', 'h2-prairie-holiday.eml', 'h2-redline-elm-ooo.eml',
  ])('auto-reply %s is unclassified from its text alone', (file) => {
    const r = byFile(file);
    expect(r.got.type, r.got.reasons.join('\n')).toBe('unclassified');
    expect(r.got.offers).toEqual([]);
  });

  it('flags auto-replies by header, but not portal decisions sent as auto-generated', () => {
    for (const f of ['harborline-harbor-ooo.eml', 'velocity-ack.eml', 'bounce-meridian.eml', 'meridian-ooo-html.eml']) expect(byFile(f).autoHeader, f).not.toBeNull();
    for (const f of ['liberty-oakstreet.eml', 'liberty-rivera.eml', 'meridian-peak-portal.eml', 'atlas-sunrise.eml']) expect(byFile(f).autoHeader, f).toBeNull();
  });

  it.each([
    ['atlas-sunrise.eml', 'prose'],
    ['brightline-precision.eml', 'HTML table with payback, fee and net funding'],
    ['harborline-lopez.eml', 'plain-text table of three options'],
    ['northstar-greenleaf.eml', 'HTML table, options as columns'],
    ['liberty-oakstreet.eml', 'portal table with buy and max sell rate'],
    ['redwood-sunrise.eml', 'table with the requested amount too'],
    ['crescent-nguyen-fwd.eml', 'inside a forward'],
    ['keystone-lopez-word.eml', 'windows-1252 quoted-printable Outlook HTML'],
    ['granite-harbor.eml', 'bare thousands, two options'],
  ])('offer figures are exact: %s (%s)', (file) => {
    const r = byFile(file);
    const got = r.got.offers.map(({ missing: _missing, ...o }) => o);
    const want = r.expected.offers!.map((o) => ({
      amount: o.amount,
      factor_rate: o.factor_rate,
      term: o.term,
      term_unit: o.term_unit ?? null,
      payment_frequency: o.payment_frequency ?? null,
      payment_amount: o.payment_amount ?? null,
    }));
    expect(got).toEqual(want);
  });

  it('reads the forwarded message when the sender only says "see below"', () => {
    expect(byFile('crescent-nguyen-fwd.eml').got.type).toBe('approved');
    expect(byFile('velocity-hudson-applefwd.eml').got).toMatchObject({ type: 'declined', decline_category: 'stacking' });
    expect(byFile('crescent-metro-fwd.eml').got.requested_items).toHaveLength(3);
  });

  it('lists the items of a stip request as the lender wrote them', () => {
    expect(byFile('atlas-harbor.eml').got.requested_items).toEqual([
      'Most recent 4 months bank statements (missing October)', 'Voided check', "Copy of driver's license (front and back)", 'Landlord name and phone number',
    ]);
    expect(byFile('meridian-peak-portal.eml').got.requested_items).toEqual(['Voided Check', "Driver's License", 'Landlord Contact']);
    expect(byFile('velocity-precision.eml').got.requested_items).toEqual(['MTD', 'signed app']);
  });

  it('names the decline category and keeps the reason in the lender\'s words', () => {
    expect(byFile('velocity-bellavista.eml').got).toMatchObject({ decline_category: 'nsf', decline_reason: 'Decline - 9 NSFs in the last 60 days.' });
    expect(byFile('atlas-cornerstone.eml').got.decline_reason).toContain('FICO 512');
  });
});

describe('the pieces', () => {
  it('turns HTML tables into rows and blockquotes into quoted lines', () => {
    const text = htmlToText('<p>Hi&nbsp;Dana,</p><table><tr><td>Amount</td><td>$50,000</td></tr><tr><td>Factor</td><td>1.42</td></tr></table><blockquote>old <b>stuff</b><br>more</blockquote>');
    expect(text).toBe('Hi Dana,\n\nAmount | $50,000\nFactor | 1.42\n\n> old stuff\n> more');
  });

  it('cuts a wrapped Gmail attribution and everything quoted under it', () => {
    const parts = splitReply('Approved 50k.\n\nOn Tue, Nov 3, 2026 at 11:05 AM Dana <\ndana@x.com> wrote:\n\n> Requested amount: $100,000\n');
    expect(parts.own).toBe('Approved 50k.');
    expect(parts.markers).toContain('On ... wrote:');
  });

  it('is deterministic and needs neither HTML nor a subject', () => {
    const input = { subject: '', text: 'Approved for $40,000 at 1.30, 120 days, $433.33 daily.', html: null };
    const a = classifyReply(input);
    expect(classifyReply(input)).toEqual(a);
    expect(a).toMatchObject({ type: 'approved', offers: [{ amount: 40000, factor_rate: 1.3, term: 120, term_unit: 'days', payment_frequency: 'daily', payment_amount: 433.33, missing: [] }] });
    expect(classifyReply({ subject: '', text: '' }).type).toBe('unclassified');
  });

  it('keeps an out-of-office unclassified even when it talks about declines and approvals', () => {
    const ooo = classifyReply({
      subject: 'Out of Office: Submission: Sunrise Bakery LLC - SVC-7K3M-9Q2P',
      text: 'I am out of the office until 11/9 with limited access to email. Declined files can be resubmitted after the 15th; approved deals go to funding@atlascapfunding.com.',
    });
    expect(ooo.type, ooo.reasons.join('\n')).toBe('unclassified');
    expect(ooo.reasons).toContain('automatic reply');
  });

  it('does bounded work on huge or malformed messages', () => {
    // A guard against runaway work (a regular expression backtracking without end), not a speed
    // target: this process's CPU time, which other processes on a loaded machine do not inflate
    // (wall time did: 6 s at load 9.5 for about 1.8 s of CPU); runaway work costs minutes.
    const started = process.cpuUsage();
    const big = classifyReply({ subject: 'Re: x', text: '', html: `<p>Declined - 9 NSFs.</p>${'<table><tr><td>Amount</td><td>$1,000</td></tr></table>'.repeat(40_000)}` });
    const broken = classifyReply({ subject: 'x', text: '', html: `<p>Pass.</p>${'<a href="x '.repeat(20_000)}` });
    const oneLine = classifyReply({ subject: 'x', text: '$1,000 1.35 12 months daily '.repeat(20_000) });
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000, 'CPU ms for the three huge messages').toBeLessThan(5_000);
    expect([big.type, broken.type]).toEqual(['declined', 'declined']);
    expect(oneLine.offers.length).toBeGreaterThan(0);
  });

  it('maps classes to the contract response_type', () => {
    expect(['approved', 'declined', 'needs_info', 'counter', 'unclassified'].map((t) => toResponseType(t as never))).toEqual(['approved', 'declined', 'more_info', 'counter', null]);
  });
});

describe('accuracy on the whole corpus', () => {
  it('type >= 85%, offers exact (amount + factor + term) >= 80% of fixtures with offers (sets used for development; a fresh blind set is reported)', () => {
    const m = metrics(results.filter((r) => !BLIND_SETS.has(r.expected.set)));
    console.log(`${fixtureTable(results)}\n\n${summary(m)}`);
    expect(m.typeAccuracy).toBeGreaterThanOrEqual(0.85);
    expect(m.offers.accuracy).toBeGreaterThanOrEqual(0.8);
  });
});

describe('issue 26: what the hook does with a reading (reply-outcome.ts, as the hook uses it)', () => {
  const outcomeOf = (text: string, requested?: number) => {
    const c = classifyReply({ subject: 'Re: Submission', text }, requested ? { requested_amount: requested } : undefined);
    return { c, outcome: replyOutcome(contractClassification(c), { from: 'uw@lender.example', own: text, autoReply: false }) };
  };

  it('counter is about terms: the same words are an approval of the full ask and a counter below it', () => {
    const text = 'Harbor Seafood approved at 40k. 1.39, 6 months, $441.27 daily.';
    expect(outcomeOf(text, 40_000).c.type).toBe('approved');
    expect(outcomeOf(text, 75_000).c.type).toBe('counter');
    expect(byFile('h3-granite-harbor-approved40.eml').got.type).toBe('counter');
    expect(byFile('h3-ember-tricounty-approved50.eml').got.type).toBe('counter');
    // "Declined at 150k. Approved at 50k": a no and a priced offer on other terms is a counter
    expect(byFile('h3-harborline-metro-declinedat.eml')).toMatchObject({ got: { type: 'counter' }, applied: true });
    // another product for the asked amount
    expect(byFile('h3-ridge-silverspoon-product.eml').got.type).toBe('counter');
  });

  it('reads amounts in words and in thousands against the ask, and the factor from the payback', () => {
    expect(byFile('h3-kestrel-pinecrest-cantget.eml').got).toMatchObject({ type: 'counter', offers: [{ amount: 40_000, factor_rate: 1.36, term: 120, term_unit: 'days' }] });
    expect(byFile('h3-tidewater-lopez-words.eml').got.offers).toMatchObject([{ amount: 40_000, factor_rate: 1.39, term: 6, term_unit: 'months' }]);
    expect(byFile('h3-kestrel-coastal-payback.eml').got.offers).toMatchObject([{ amount: 50_000, factor_rate: 1.39, term: 120 }]);
    expect(byFile('h3-clearpath-empire-notify.eml').got.offers).toMatchObject([{ amount: 30_000, factor_rate: 1.38, term: 110, payment_amount: 376.36 }]);
    // without the ask, a bare "40" is not read as money
    expect(classifyReply({ subject: '', text: 'can do 40, 1.36 / 120 days' }).offers).toEqual([]);
  });

  it('logs every complete offer whatever its unit; payment amount and frequency only as stated or derivable', () => {
    const months = loggableOffers({ offers: [{ amount: 50_000, factor_rate: 1.4, term: 5, term_unit: 'months', payment_frequency: null, payment_amount: null, missing: [] }] });
    expect(months).toEqual({ offers: [{ amount: 50_000, factor_rate: 1.4, term: 5, term_unit: 'months', payment_frequency: 'monthly' }], incomplete: [] });
    const weekly = loggableOffers({ offers: [{ amount: 65_000, factor_rate: 1.35, term: 9, term_unit: 'months', payment_frequency: 'weekly', payment_amount: 2250, missing: [] }] });
    expect(weekly.offers).toEqual([{ amount: 65_000, factor_rate: 1.35, term: 9, term_unit: 'months', payment_frequency: 'weekly', payment_amount: 2250 }]);
    expect(byFile('h3-harborline-rivera-columns.eml').logged.map((o) => `${o.amount}@${o.factor_rate}/${o.term}${o.term_unit}`)).toEqual(['35000@1.3/4months', '35000@1.36/6months', '35000@1.42/8months']);
  });

  it('sends an offer that cannot be completed to review (incomplete_offer), never applied without it', () => {
    const { c, outcome } = outcomeOf('Approved! $50,000 for 6 months, factor to follow from credit.', 50_000);
    expect(c.type).toBe('approved');
    expect(outcome).toMatchObject({ apply: false, review_reason: 'incomplete_offer' });
  });

  it('sends doubt to a person with a specific reason', () => {
    expect(byFile('h3-kestrel-lakeside-pulled.eml')).toMatchObject({ got: { type: 'declined', review_reason: 'approval_withdrawn' }, applied: false });
    expect(byFile('h3-granite-greenleaf-upto60.eml')).toMatchObject({ got: { type: 'approved', review_reason: 'tentative_terms' }, applied: false });
    expect(byFile('h3-tidewater-oakstreet-signoff.eml').outcome).toMatchObject({ apply: false, review_reason: 'tentative_terms' });
    expect(byFile('h3-ridge-sunrise-twodeals.eml')).toMatchObject({ got: { type: 'approved', review_reason: 'multiple_deals' }, applied: false });
    expect(byFile('h3-harborline-bellavista-subject.eml').got.type).toBe('counter');
    // a decline and an offer at the full ask: no rule settles it
    const conflict = outcomeOf('Declined by credit. Approved $50,000 at 1.35, 120 days, $562.50 daily.', 50_000);
    expect(conflict.outcome).toMatchObject({ apply: false, review_reason: 'conflicting_cues' });
    // a reading that barely wins: approval words against a stip request
    const close = outcomeOf('Good news on this one, looks good. Can you send the MTD?', 50_000);
    expect(close.c).toMatchObject({ type: 'needs_info', review_reason: 'low_confidence' });
    expect(close.c.confidence).toBeLessThan(0.35);
    expect(close.outcome).toMatchObject({ apply: false, review_reason: 'low_confidence' });
    // every reading carries its evidence and a confidence
    for (const r of results) {
      expect(r.got.reasons.length, r.expected.file).toBeGreaterThan(0);
      expect(r.got.confidence).toBeGreaterThanOrEqual(0);
    }
  });

  it('every expected_review fixture goes to a person; holdout3 is applied with no wrong application', () => {
    for (const r of results.filter((x) => x.expected.expected_review && !BLIND_SETS.has(x.expected.set))) expect(r.applied, r.expected.file).toBe(false);
    const h3 = results.filter((r) => r.expected.set === 'holdout3');
    const h = hookMetrics(h3);
    const m = metrics(h3);
    console.log(`holdout3\n${hookSummary(h, m)}`);
    expect(h.appliedWrong).toBe(0);
    expect(m.typeAccuracy).toBeGreaterThanOrEqual(0.95);
    expect(h.offers.loggedExact / h.offers.fixtures).toBeGreaterThanOrEqual(24 / 26);
    expect(h.appliedRight / h.shouldApply).toBeGreaterThanOrEqual(0.9);
    expect(m.category.ok).toBe(m.category.fixtures);
  });

  it('holdout5 (after its fixes) meets the hidden corpus\'s bar through the hook; the whole corpus applies nothing wrong', () => {
    const h5 = results.filter((r) => r.expected.set === 'holdout5');
    const h = hookMetrics(h5);
    const m = metrics(h5);
    console.log(`holdout5\n${hookSummary(h, m)}`);
    expect(h5.length).toBe(54);
    expect(h.appliedWrong).toBeLessThanOrEqual(1);
    expect(m.typeAccuracy).toBeGreaterThanOrEqual(0.95);
    expect(h.offers.loggedExact / h.offers.fixtures).toBeGreaterThanOrEqual(24 / 26);
    expect(h.appliedRight / h.shouldApply).toBeGreaterThanOrEqual(0.9);
    expect(m.category.ok).toBe(m.category.fixtures);
    expect(hookMetrics(results.filter((r) => !BLIND_SETS.has(r.expected.set))).appliedWrong).toBeLessThanOrEqual(1);
  });

  it('on the whole corpus (sets used for development), every offer of a reply to apply is logged as read', () => {
    const h = hookMetrics(results.filter((r) => !BLIND_SETS.has(r.expected.set)));
    expect(h.offers.loggedExact / h.offers.fixtures).toBeGreaterThanOrEqual(0.95);
  });
});

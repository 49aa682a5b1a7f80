import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllJobs } from '../../src/background';
import { Worker } from '../../src/jobs/worker';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Lender matching reads the deal's bank statements (issue 27): real statement PDFs from
// contract-tests/fixtures/statements go through the documented upload flow and the real analysis
// jobs; their figures come from truth.json (computed from the generated transactions, not from the
// PDF text). The statements move a lender from eligible to not eligible and back, each reason names
// its figure and source, the deal's revenue_check flags a gap over 20%, and a submission records the
// figures it was matched on.

const DIR = 'contract-tests/fixtures/statements';
type Truth = { file: string; expected: string; periodStart: string; periodEnd: string; trueRevenue: number; averageDailyBalance: number; negativeBalanceDays: number; nsfCount: number; mcaFunders: unknown[] };
const truth: Truth[] = JSON.parse(readFileSync(`${DIR}/truth.json`, 'utf8')).statements;
const fixture = (file: string) => ({ truth: truth.find((t) => t.file === file)!, bytes: new Uint8Array(readFileSync(`${DIR}/${file}`)) });

// February 2026, $27,700.30 of true revenue, 3 advance funders; January 2026, $60,162.29;
// September 2025, 20 negative days and 8 NSFs; a supplier invoice (not a statement: fails).
const FEB = fixture('keel-kinfolk-coffee-2026-02.pdf');
const JAN = fixture('keel-northwind-software-2026-01.pdf');
const SEP = fixture('empire-city-five-boroughs-tire-2025-09.pdf');
const INVOICE = fixture('negative-invoice-ridgeway-supply.pdf');

let h: Harness;
let t: Tenant;
let worker: Worker;

beforeAll(async () => {
  registerAllJobs();
  h = await startHarness();
  t = await h.tenant('Statement Matching Brokers');
  worker = new Worker(h.deps, { concurrency: 2 });
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
});

type Json = Record<string, any>;
async function post(path: string, body?: object) {
  const req = h.api.post(path).set(t.auth('admin'));
  return (body === undefined ? await req : await req.send(body)) as unknown as { status: number; body: Json };
}
const get = async (path: string) => ((await h.api.get(path).set(t.auth('admin'))) as unknown as { status: number; body: Json }).body;
async function upload(dealId: string, bytes: Uint8Array, filename: string): Promise<string> {
  h.clock.advance(1000);
  const slot = (await post(`/v1/deals/${dealId}/documents`, { filename, content_type: 'application/pdf', size_bytes: bytes.length, category: 'bank_statement' })).body.data;
  const u = new URL(slot.upload_url);
  expect((await h.api.put(u.pathname + u.search).set(slot.upload_headers).send(Buffer.from(bytes))).status).toBe(200);
  expect((await post(`/v1/documents/${slot.document.id}/finalize`)).status).toBe(200);
  return slot.document.id;
}
async function lender(name: string, criteria: object): Promise<string> {
  h.clock.advance(10);
  const res = await post('/v1/lenders', { name, submission_email: `subs@${name.toLowerCase().replace(/\W+/g, '')}.example` });
  expect(res.status).toBe(201);
  expect((await h.api.put(`/v1/lenders/${res.body.data.id}/criteria`).set(t.auth('admin')).send(criteria)).status).toBe(200);
  return res.body.data.id;
}
const match = async (dealId: string, lenderId: string) => ((await get(`/v1/deals/${dealId}/lender-matches?limit=100`)).data as Json[]).find((m) => m.lender_id === lenderId)!;
const reason = (m: Json, criterion: string) => (m.reasons as Json[]).find((r) => r.criterion === criterion)!;
const cents = (d: number) => Math.round(d * 100);
const usd = (d: number) => `$${(Math.round(d * 100) / 100).toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(d) ? 0 : 2, maximumFractionDigits: 2 })}`;
const period = (docId: string, f: { truth: Truth }) => ({ document_id: docId, period_start: f.truth.periodStart, period_end: f.truth.periodEnd });

describe(`lender matching from bank statements (${ENGINE})`, () => {
  it('statements move a lender from eligible to not eligible and back; reasons name figures and sources; revenue_check; the submission snapshot', async () => {
    const biz = (await post('/v1/businesses', { legal_name: 'Kinfolk Coffee LLC', business_start_date: '2019-03-15', state: 'OR' })).body.data.id;
    const deal = (await post('/v1/deals', { business_id: biz, requested_amount: 60000, annual_revenue: 480000 })).body.data.id; // $40,000 a month stated
    const harbor = await lender('Harbor Funding', { min_monthly_revenue: 30000, min_time_in_business_months: 24, hard_gates: ['min_monthly_revenue'] });

    // 1. No statement: the stated revenue, named as stated.
    let m = await match(deal, harbor);
    expect(m).toMatchObject({ eligible: true, score: 100 });
    expect(reason(m, 'min_monthly_revenue')).toEqual({
      criterion: 'min_monthly_revenue', passed: true, hard_gate: true, source: 'deal', statements: [],
      message: 'Monthly revenue $40,000 (stated on the deal) meets the $30,000 minimum',
    });
    expect(reason(m, 'min_time_in_business_months')).toMatchObject({ passed: true, source: 'business', message: expect.stringMatching(/^\d+ months in business \(since the business start date\) meets the 24 month minimum$/) });
    expect((await get(`/v1/deals/${deal}`)).data.revenue_check).toBeNull();

    // 2. February's statement and an invoice uploaded, not read yet: not used, and the reason says so.
    const feb = await upload(deal, FEB.bytes, 'feb.pdf');
    const invoice = await upload(deal, INVOICE.bytes, 'invoice.pdf');
    m = await match(deal, harbor);
    expect(m.eligible).toBe(true);
    expect(reason(m, 'min_monthly_revenue')).toMatchObject({ source: 'deal', message: 'Monthly revenue $40,000 (stated on the deal) meets the $30,000 minimum; 2 statements still processing are not used' });

    // 3. Read: the bank shows $27,700.30 a month; the lender is no longer eligible; a 30.7% gap is flagged.
    await worker.drain();
    const analysis = (await get(`/v1/deals/${deal}/statement-analysis`)).data;
    expect(analysis.statements.find((s: Json) => s.document_id === feb)).toMatchObject({ parsed: true, true_revenue: FEB.truth.trueRevenue });
    expect(analysis.statements.find((s: Json) => s.document_id === invoice)).toMatchObject({ parsed: false });
    m = await match(deal, harbor);
    expect(m).toMatchObject({ eligible: false, score: 50 });
    const gapFeb = Math.round(((4_000_000 - cents(FEB.truth.trueRevenue)) / 4_000_000) * 1000) / 10;
    expect(gapFeb).toBe(30.7);
    expect(reason(m, 'min_monthly_revenue')).toEqual({
      criterion: 'min_monthly_revenue', passed: false, hard_gate: true, source: 'statements', statements: [period(feb, FEB)],
      message: `True monthly revenue ${usd(FEB.truth.trueRevenue)} (read from 1 statement, 2026-02-01 to 2026-02-28, average per statement) is below the $30,000 minimum; stated $40,000 on the deal is 30.7% above the statements: flagged (over 20%); 1 statement that could not be read is not used`,
    });
    expect((await get(`/v1/deals/${deal}`)).data.revenue_check).toEqual({ stated_monthly_revenue: 40000, analyzed_monthly_revenue: FEB.truth.trueRevenue, gap_percent: 30.7, flagged: true, statements_used: 1 });
    const listed = ((await get(`/v1/deals?limit=100`)).data as Json[]).find((d) => d.id === deal)!;
    expect(listed.revenue_check).toMatchObject({ flagged: true, gap_percent: 30.7 });

    // The submission made now records the figures it was matched on.
    h.clock.advance(1000);
    const sub = await h.api.post(`/v1/deals/${deal}/submissions`).set(t.auth('admin')).set('Idempotency-Key', `ms-${deal}`).send({ lender_ids: [harbor], force: true }); // ineligible now: its hard gate needs force
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const subId = sub.body.data[0].id;
    const snapshot = { match_score: 50, match_eligible: false, forced: true };
    expect(sub.body.data[0]).toMatchObject(snapshot);
    const figures = {
      monthly_revenue: { value: FEB.truth.trueRevenue, source: 'statements' },
      average_daily_balance: { value: FEB.truth.averageDailyBalance, source: 'statements' },
      negative_days: { value: FEB.truth.negativeBalanceDays, source: 'statements' },
      nsf_count: { value: FEB.truth.nsfCount, source: 'statements' },
      positions: { value: FEB.truth.mcaFunders.length, source: 'statements' },
      withhold_percent: { value: expect.any(Number), source: 'statements' },
      time_in_business_months: { value: expect.any(Number), source: 'business' },
      statements: [period(feb, FEB)],
      statements_not_used: [{ document_id: invoice, status: 'failed' }],
      revenue_check: { stated_monthly_revenue: 40000, analyzed_monthly_revenue: FEB.truth.trueRevenue, gap_percent: 30.7, flagged: true, statements_used: 1 },
    };
    expect(sub.body.data[0].match_figures).toEqual(figures);

    // 4. January's statement (more revenue) read too: the average is over the 20% line and the minimum again.
    const jan = await upload(deal, JAN.bytes, 'jan.pdf');
    await worker.drain();
    m = await match(deal, harbor);
    const avg = Math.round((cents(FEB.truth.trueRevenue) + cents(JAN.truth.trueRevenue)) / 2) / 100;
    expect(avg).toBeGreaterThan(30000);
    expect(m).toMatchObject({ eligible: true, score: 100 });
    const gapBoth = Math.round(((4_000_000 - cents(avg)) / 4_000_000) * 1000) / 10;
    expect(reason(m, 'min_monthly_revenue')).toEqual({
      criterion: 'min_monthly_revenue', passed: true, hard_gate: true, source: 'statements', statements: [period(jan, JAN), period(feb, FEB)],
      message: `True monthly revenue ${usd(avg)} (read from 2 statements, 2026-01-01 to 2026-02-28, average per statement) meets the $30,000 minimum; 1 statement that could not be read is not used`,
    });
    expect((await get(`/v1/deals/${deal}`)).data.revenue_check).toEqual({ stated_monthly_revenue: 40000, analyzed_monthly_revenue: avg, gap_percent: gapBoth, flagged: false, statements_used: 2 });

    // The submission keeps its snapshot.
    expect((await get(`/v1/submissions/${subId}`)).data).toMatchObject({ ...snapshot, match_figures: figures });

    // 5. February uploaded again (a replacement of the same period): counted once, the later copy.
    const feb2 = await upload(deal, FEB.bytes, 'feb-again.pdf');
    await worker.drain();
    m = await match(deal, harbor);
    expect(reason(m, 'min_monthly_revenue').statements).toEqual([period(jan, JAN), period(feb2, FEB)]);
    expect(reason(m, 'min_monthly_revenue').message).toContain(`True monthly revenue ${usd(avg)} (read from 2 statements`);
  });

  it('the statement criteria: unknown without statements, then read from the worst month, the most recent statement, day-weighted', async () => {
    const biz = (await post('/v1/businesses', { legal_name: 'Statement Criteria LLC', business_start_date: '2018-01-01' })).body.data.id;
    const deal = (await post('/v1/deals', { business_id: biz, requested_amount: 50000, annual_revenue: 600000 })).body.data.id;
    const strict = await lender('Strict Capital', {
      min_average_daily_balance: 5000, max_negative_days: 5, max_nsf_count: 3, max_positions: 2, max_withhold_percent: 60,
      hard_gates: ['max_negative_days'],
    });
    let m = await match(deal, strict);
    expect(m).toMatchObject({ eligible: false, score: 20 }); // positions: 0 advances recorded passes; the four statement figures are unknown
    expect(reason(m, 'max_negative_days')).toMatchObject({ passed: false, source: 'statements', statements: [], message: 'Negative days per month are unknown (no bank statement of the deal has been read); the maximum is 5 a month' });
    expect(reason(m, 'min_average_daily_balance').message).toBe('Average daily balance is unknown (no bank statement of the deal has been read); the minimum is $5,000');
    expect(reason(m, 'max_positions')).toMatchObject({ passed: true, source: 'advances', message: '0 existing positions (advances recorded on the business) is within the 2 position maximum' });

    const jan = await upload(deal, JAN.bytes, 'jan.pdf');
    const feb = await upload(deal, FEB.bytes, 'feb.pdf');
    await worker.drain();
    m = await match(deal, strict);
    // Day-weighted balance: 31 January days and 28 February days.
    const adb = Math.round((cents(JAN.truth.averageDailyBalance) * 31 + cents(FEB.truth.averageDailyBalance) * 28) / 59) / 100;
    expect(reason(m, 'min_average_daily_balance')).toEqual({
      criterion: 'min_average_daily_balance', passed: true, hard_gate: false, source: 'statements', statements: [period(jan, JAN), period(feb, FEB)],
      message: `Average daily balance ${usd(adb)} (read from 2 statements, 2026-01-01 to 2026-02-28, day-weighted) meets the $5,000 minimum`,
    });
    // Positions: February (the most recent) shows three advance funders, over the maximum of 2.
    expect(FEB.truth.mcaFunders).toHaveLength(3);
    expect(reason(m, 'max_positions')).toEqual({
      criterion: 'max_positions', passed: false, hard_gate: false, source: 'statements', statements: [period(feb, FEB)],
      message: '3 open positions (advance funders debiting the most recent statement, 2026-02-01 to 2026-02-28) exceeds the 2 position maximum',
    });
    expect(reason(m, 'max_withhold_percent')).toMatchObject({ source: 'statements', statements: [period(feb, FEB)], message: expect.stringMatching(/^Existing advances withhold [\d.]+% of true revenue \(most recent statement, 2026-02-01 to 2026-02-28\)/) });
    expect(reason(m, 'max_negative_days')).toMatchObject({ passed: true, message: expect.stringMatching(/^0 negative days in the worst month \(statement 2026-0\d-01 to 2026-0\d-\d\d, of 2 statements read\) is within the 5 day a month maximum$/) });
    expect(m.eligible).toBe(true);

    // September 2025: 20 negative days and 8 NSFs in one month; the worst month decides, a hard gate fails.
    expect([SEP.truth.negativeBalanceDays, SEP.truth.nsfCount]).toEqual([20, 8]);
    const sep = await upload(deal, SEP.bytes, 'sep.pdf');
    await worker.drain();
    m = await match(deal, strict);
    expect(m.eligible).toBe(false);
    expect(reason(m, 'max_negative_days')).toEqual({
      criterion: 'max_negative_days', passed: false, hard_gate: true, source: 'statements', statements: [period(sep, SEP)],
      message: '20 negative days in the worst month (statement 2025-09-01 to 2025-09-30, of 3 statements read) exceeds the 5 day a month maximum',
    });
    expect(reason(m, 'max_nsf_count')).toMatchObject({ passed: false, statements: [period(sep, SEP)], message: '8 NSFs in the worst month (statement 2025-09-01 to 2025-09-30, of 3 statements read) exceeds the 3 NSF a month maximum' });
    // Still the most recent statement for positions.
    expect(reason(m, 'max_positions').statements).toEqual([period(feb, FEB)]);
  });
});

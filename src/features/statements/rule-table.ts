import { readFileSync } from 'node:fs';
import knowledge from './knowledge.json' with { type: 'json' };
import { personSender } from './sender';

// What a bank statement's transaction descriptions mean for underwriting, as data: the rows of
// ./knowledge.json (bundled into dist/ by esbuild like any import) plus the operator's rows from the
// JSON file STATEMENT_RULES_FILE names (read at start by bootstrap.ts; a bad row stops the start
// with the row named). Every row is validated and compiled once, here: phrases are indexed by their
// first word, so classifying a description is one split and a few look-ups per word (about 8 µs for
// the four questions the reader asks, whatever the table's size).
//
// A row: { "class", "name", "match": [phrases], "regex": [sources], "unless": [phrases], "sender", "note" }.
// A phrase matches whole words in the upper-cased description, with any run of spaces or
// punctuation between its words ("FORWARD FIN" matches "ACH DEBIT FORWARD FIN PMT", not
// "FORWARD FINISH"); a word ending in `*` matches any word it begins ("FORWARD FINANC*": FINANCIN,
// FINANCING, the 16-character truncations banks print); the word `~` matches any word of the
// funding trade (FINANCE, FINANCIAL, FINANCING, FUNDING, FUND, CAPITAL, ADVANCE, LENDING, their
// abbreviations FIN, FDG, CAP, ADV and their cuts CAPI, FUNDIN...), so "RAPID ~" matches "RAPID
// FINANCIAL SERVICES LLC", "RAPID CAPI" and "RAPID FUNDING" alike. `regex` (optional) are JavaScript regular
// expressions tested on the upper-cased description. A row with `unless` does not match a
// description that contains any of those phrases. A row with `"sender": "organisation"` settles a
// credit only when its sender is not plainly a person (sender.ts `personSender`: a Zelle, Venmo or
// Cash App payment, a wire or transfer from an individual's name, with no company's or public body's
// word): a person citing an invoice or a pay application may be a relative's loan or the owner's
// own money, so such a credit is left to the doubt rules (the "Customer payments" row).
//
// Classes, and what they decide:
// - mca_funder: a debit is a payment on an existing merchant-cash-advance position (mcaFunder gives
//   the funder's name; positions are counted by distinct name); a credit is that advance's funding.
// - processor: card processors and marketplaces, and consumer / patient financing programs (the
//   customer's lender pays the merchant for the job); their payouts are revenue.
// - revenue: other credits known to carry sales: cash, branch, ATM and mobile/remote check deposits,
//   customers' payments (AP/vendor payments, invoices, insurance claim payments).
// - loan: loan proceeds, SBA disbursements, line-of-credit draws, advance fundings: not revenue.
// - own_transfer: transfers between the merchant's own accounts: not revenue.
// - refund: refunds, reversals, chargebacks, returned-item credits: not revenue.
// - nsf: NSF, returned-item, unpaid-item and overdraft (paid item) fees and events.
// - nsf_reversal: the reversal or refund of such a fee, a returned-item credit: neither an NSF nor revenue.
// - recovery: collection or recovery activity (collections, levies, judgments).
// - deposited_return: a check or item the merchant DEPOSITED coming back unpaid, and the bank's
//   charge for it: the merchant's customer bounced, not the merchant; never an NSF (it outweighs
//   the nsf rows' "ITEM RETURNED UNPAID", "RETURNED ITEM"), and a settled debit.
// - not_funder: a payee whose name carries the funding trade's words (FUNDING, CAPITAL, ADVANCE,
//   FINANCIAL, CREDIT) or pulls like an advance and is no merchant-cash-advance funder: payroll and
//   benefit (HSA, 401k) funding, equipment lessors and vehicle lenders, consumer and SBA lenders,
//   insurance premium finance. A debit to one is never an MCA position, known or guessed from the
//   funder words (doubt.ts asks this row first), and is settled (debt service, payroll, a lease or a
//   premium); the row says nothing of a credit (a dealer paid by an equipment lessor for its
//   customer's lease has made a sale), which the other rows and the doubt read as before. A debit
//   both a funder row and a not_funder row name is doubted, never counted either way. Its phrase
//   counts only in the words that name the payee (rules.ts `notFunderOf`): an ACH line also prints
//   the receiver's name, the merchant's own ("INDN:GUSTO TRATTORIA LLC"), which names no payee.
// - factor: a factoring company (freight factors above all: Triumph Business Capital, Apex Capital,
//   TAFS, RTS Financial, OTR Solutions, Riviera Finance, Commercial Capital). Its payment for the
//   merchant's invoices is sales, as a card processor's payout is (rules.ts `factoringSale`); its
//   ADVANCE, fuel advance, loan, reserve release or chargeback, counted as sales by some underwriters
//   and as financing by others, is doubted whatever another row or rule says (rules.ts
//   `debatableCredit`); a debit to one is never an MCA position, known or guessed, nor settled.
//
// Precedence for a credit (depositKind): nsf_reversal, refund or nsf -> refund; mca_funder or
// loan -> loan; processor -> revenue; own_transfer -> transfer; revenue or nothing -> revenue (and
// creditDoubt says whether that default may hide funding or a transfer). For a debit
// (mcaFunder): an NSF, fee reversal, refund or recovery line is never a position, even when it
// names a funder ("NSF FEE LG FUNDING"); a not_funder line is never a position either.

export const RULE_CLASSES = ['mca_funder', 'processor', 'revenue', 'loan', 'own_transfer', 'refund', 'nsf', 'nsf_reversal', 'recovery', 'deposited_return', 'not_funder', 'factor'] as const;
export type RuleClass = (typeof RULE_CLASSES)[number];

export interface RuleRow {
  class: RuleClass;
  /** The funder's, processor's or not-a-funder payee's name (required for those classes; positions are counted by it). */
  name?: string;
  match?: string[];
  regex?: string[];
  unless?: string[];
  /** "organisation": the row settles a credit only when its sender is not plainly a person (sender.ts `personSender`). */
  sender?: 'organisation';
  note?: string;
}

const ROW_KEYS = new Set(['class', 'name', 'match', 'regex', 'unless', 'sender', 'note']);
const NAMED: ReadonlySet<RuleClass> = new Set(['mca_funder', 'processor', 'not_funder', 'factor']);
const MAX_PHRASE = 100;
const MAX_REGEX = 500;
const MAX_ITEMS = 200;

/** A phrase's words: letters and digits, `*` only at a word's end, `~` alone (any trade word). */
const wordsOf = (phrase: string) => phrase.toUpperCase().split(/[^A-Z0-9*~]+/).filter(Boolean);

/** The funding trade's words, their abbreviations, and (4 letters or more) their cuts. */
const TRADE_FULL = ['FINANCE', 'FINANCIAL', 'FINANCING', 'FUNDING', 'FUNDERS', 'CAPITAL', 'ADVANCE', 'ADVANCES', 'LENDING', 'LENDERS'];
const TRADE_ABBR = new Set(['FIN', 'FINL', 'FUND', 'FDG', 'FNDG', 'CAP', 'CAPL', 'ADV', 'LEND']);
export const isTradeWord = (w: string): boolean => TRADE_ABBR.has(w) || (w.length >= 4 && TRADE_FULL.some((f) => f.startsWith(w)));

function phraseProblem(p: unknown): string | null {
  if (typeof p !== 'string') return 'must be a string';
  if (p.length > MAX_PHRASE) return `is longer than ${MAX_PHRASE} characters`;
  const words = wordsOf(p);
  if (!words.length) return 'has no letters or digits';
  if (words.some((w) => w.includes('~') && w !== '~')) return 'the word ~ (any trade word) must stand alone';
  if (words[0] === '~' || words.filter((w) => w === '~').length > 1) return 'the word ~ (any trade word) may appear once, after the name it follows';
  for (const w of words) {
    if (w === '~') continue;
    const min = words.length === 1 ? 3 : 2;
    if (w.indexOf('*') !== -1 && (w.indexOf('*') !== w.length - 1 || w.length - 1 < min)) {
      return `word "${w}": * may only end a word, after at least ${min} letters or digits`;
    }
  }
  if (words.join('').replace(/[*~]/g, '').length < 3) return 'needs at least 3 letters or digits (a shorter phrase matches too much)';
  return null;
}

function listProblems(row: Record<string, unknown>, key: 'match' | 'regex' | 'unless', check: (item: unknown) => string | null): string[] {
  const v = row[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) return [`${key} must be an array of strings`];
  if (v.length > MAX_ITEMS) return [`${key} has more than ${MAX_ITEMS} entries`];
  return v.flatMap((item, i) => {
    const p = check(item);
    return p ? [`${key}[${i}] ${typeof item === 'string' ? JSON.stringify(item) : ''} ${p}`.replace(/ {2}/, ' ')] : [];
  });
}

function regexProblem(src: unknown): string | null {
  if (typeof src !== 'string' || !src) return 'must be a non-empty string';
  if (src.length > MAX_REGEX) return `is longer than ${MAX_REGEX} characters`;
  let re: RegExp;
  try {
    re = new RegExp(src);
  } catch (err) {
    return `is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`;
  }
  if (re.test('') || re.test(' ') || re.test('ACH DEBIT')) return 'matches (almost) any description';
  return null;
}

/** Everything wrong with one row (empty when it is valid). */
export function rowProblems(row: unknown): string[] {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return ['must be an object'];
  const r = row as Record<string, unknown>;
  const problems: string[] = [];
  for (const k of Object.keys(r)) if (!ROW_KEYS.has(k)) problems.push(`unknown field "${k}" (fields: ${[...ROW_KEYS].join(', ')})`);
  if (!RULE_CLASSES.includes(r.class as RuleClass)) problems.push(`class must be one of ${RULE_CLASSES.join(', ')}`);
  if (r.name !== undefined && (typeof r.name !== 'string' || !r.name.trim() || r.name.length > 200)) problems.push('name must be a non-empty string of at most 200 characters');
  if (NAMED.has(r.class as RuleClass) && r.name === undefined) problems.push(`name is required for class ${String(r.class)}`);
  if (r.note !== undefined && typeof r.note !== 'string') problems.push('note must be a string');
  if (r.sender !== undefined && r.sender !== 'organisation') problems.push('sender must be "organisation" (the row settles a credit only from a sender that is no person)');
  problems.push(...listProblems(r, 'match', phraseProblem), ...listProblems(r, 'regex', regexProblem), ...listProblems(r, 'unless', phraseProblem));
  const n = (k: string) => (Array.isArray(r[k]) ? (r[k] as unknown[]).length : 0);
  if (!n('match') && !n('regex')) problems.push('needs at least one phrase in match (or a regex)');
  return problems;
}

/** "row 3 (mca_funder "Acme Funding")" */
function rowLabel(row: unknown, i: number): string {
  const r = (row && typeof row === 'object' ? row : {}) as Record<string, unknown>;
  const what = [typeof r.class === 'string' ? r.class : null, typeof r.name === 'string' ? JSON.stringify(r.name) : null].filter(Boolean).join(' ');
  return `row ${i + 1}${what ? ` (${what})` : ''}`;
}

/** Validates a list of rows; throws one error naming every bad row. */
export function validateRows(rows: unknown, source: string): RuleRow[] {
  if (!Array.isArray(rows)) throw new Error(`${source}: expected a JSON array of rows (or an object with "rows")`);
  const problems = rows.flatMap((row, i) => rowProblems(row).map((p) => `${rowLabel(row, i)}: ${p}`));
  if (problems.length) throw new Error(`${source}: ${problems.length} problem${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}`);
  return rows as RuleRow[];
}

// Matching works on the description's words (runs of letters and digits, upper-cased): each phrase
// is indexed by its first word, so a description costs one split and a few map look-ups per word,
// whatever the size of the table; only `regex` rows run a regular expression. A description's
// classification is computed once and kept (the reader asks several questions of each).

interface Phrase {
  words: string[];
  prefix: boolean[];
  /** `~`: any trade word. */
  trade: boolean[];
  row: number;
  unless: boolean;
}
interface Compiled {
  rows: RuleRow[];
  byFirst: Map<string, Phrase[]>;
  /** Phrases whose first word is a prefix (`REFUND*`). */
  starredFirst: Phrase[];
  regexRows: Array<{ row: number; re: RegExp }>;
}

/**
 * An ACH company name is at most 16 characters (NACHA), so banks print a funder's or processor's
 * name cut there ("FOX BUSINESS FUNDING" -> "FOX BUSINESS FUN"). A phrase of a named row longer than
 * that also matches its first 16 characters, the cut word as a prefix, when the cut falls inside a
 * word and leaves at least 3 of its letters and one whole word before it (a cut at a word boundary,
 * "GLOBAL FINANCIAL", or after 1-2 letters, "SECURE ACCOUNT S", would match too much).
 */
export function achCut(phrase: string): string | null {
  // A starred last word ("DELTA BRIDGE FUND*") is a name that goes on past the star.
  const p = phrase.toUpperCase().replace(/\s+/g, ' ').trim().replace(/\*$/, '');
  if (p.length <= 16 || p.includes('*') || p.includes('~')) return null;
  const head = p.slice(0, 16);
  if (/[A-Z0-9]/.test(p[16]) === false || !/[A-Z0-9]$/.test(head)) return null;
  const words = wordsOf(head);
  const last = words[words.length - 1];
  if (words.length < 2 || !/^[A-Z0-9]{3,}$/.test(last)) return null;
  return `${words.join(' ')}*`;
}

function compile(rows: RuleRow[]): Compiled {
  const c: Compiled = { rows, byFirst: new Map(), starredFirst: [], regexRows: [] };
  const add = (phrase: string, row: number, unless: boolean) => {
    const raw = wordsOf(phrase);
    const p: Phrase = { words: raw.map((w) => w.replace(/\*$/, '')), prefix: raw.map((w) => w.endsWith('*')), trade: raw.map((w) => w === '~'), row, unless };
    if (p.prefix[0]) c.starredFirst.push(p);
    else c.byFirst.set(p.words[0], [...(c.byFirst.get(p.words[0]) ?? []), p]);
  };
  rows.forEach((r, i) => {
    for (const m of r.match ?? []) {
      add(m, i, false);
      if (NAMED.has(r.class)) {
        const cut = achCut(m);
        if (cut) add(cut, i, false);
      }
    }
    for (const u of r.unless ?? []) add(u, i, true);
    if (r.regex?.length) c.regexRows.push({ row: i, re: new RegExp(r.regex.map((x) => `(?:${x})`).join('|')) });
  });
  return c;
}

export type Classification = Record<RuleClass, RuleRow | null>;

function phraseAt(p: Phrase, words: string[], i: number): boolean {
  if (i + p.words.length > words.length) return false;
  for (let k = 0; k < p.words.length; k++) {
    const w = words[i + k];
    if (p.trade[k]) {
      if (!isTradeWord(w)) return false;
      continue;
    }
    if (p.prefix[k] ? !w.startsWith(p.words[k]) : w !== p.words[k]) return false;
  }
  return true;
}

const SPLIT = /[^A-Z0-9]+/;

function classifyUpper(c: Compiled, d: string): Classification {
  const words = d.split(SPLIT);
  // Rows in the order they matched (word by word, so the earliest in the description first), and
  // the rows an `unless` phrase vetoes.
  const hits: number[] = [];
  let vetoed: number[] | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w) continue;
    const exact = c.byFirst.get(w);
    if (exact) for (const p of exact) if (phraseAt(p, words, i)) (p.unless ? (vetoed ??= []) : hits).push(p.row);
    for (const p of c.starredFirst) if (w.startsWith(p.words[0]) && phraseAt(p, words, i)) (p.unless ? (vetoed ??= []) : hits).push(p.row);
  }
  for (const r of c.regexRows) if (r.re.test(d)) hits.push(r.row);
  const out: Classification = { mca_funder: null, processor: null, revenue: null, loan: null, own_transfer: null, refund: null, nsf: null, nsf_reversal: null, recovery: null, deposited_return: null, not_funder: null, factor: null };
  // A row that needs an organisation sender settles nothing a person sent.
  let person: boolean | null = null;
  for (const row of hits) {
    if (vetoed && vetoed.includes(row)) continue;
    const r = c.rows[row];
    if (r.sender === 'organisation' && (person ??= personSender(d))) continue;
    if (out[r.class] === null) out[r.class] = r;
  }
  return out;
}

const BUILT_IN: RuleRow[] = validateRows((knowledge as { rows: unknown }).rows, 'src/features/statements/knowledge.json');
let operatorRows: RuleRow[] = [];
let compiled = compile(BUILT_IN);
const memo = new Map<string, Classification>();

/** The classification of a description (kept for the next questions about it). */
export function classOf(description: string): Classification {
  const d = description.toUpperCase();
  let got = memo.get(d);
  if (!got) {
    if (memo.size >= 5000) memo.clear();
    got = classifyUpper(compiled, d);
    memo.set(d, got);
  }
  return got;
}

/**
 * Whether an upper-cased text holds any `unless` phrase of the built-in row so named, matched as
 * the row's own are (whole words, `*` a prefix): the knowledge table's words asked by a rule of
 * rules.ts that needs the same list (the public bodies' row's words for what is no price of work).
 * Throws at load when no such row exists, so a renamed row cannot silently empty the list.
 */
export function builtInUnless(rowName: string): (upper: string) => boolean {
  const at = BUILT_IN.findIndex((r) => r.name === rowName);
  if (at < 0 || !BUILT_IN[at].unless?.length) throw new Error(`knowledge.json: no row "${rowName}" with unless phrases`);
  const c = compile([]);
  for (const u of BUILT_IN[at].unless!) {
    const raw = wordsOf(u);
    const p: Phrase = { words: raw.map((w) => w.replace(/\*$/, '')), prefix: raw.map((w) => w.endsWith('*')), trade: raw.map((w) => w === '~'), row: 0, unless: true };
    if (p.prefix[0]) c.starredFirst.push(p);
    else c.byFirst.set(p.words[0], [...(c.byFirst.get(p.words[0]) ?? []), p]);
  }
  return (upper: string) => {
    const words = upper.split(SPLIT);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (!w) continue;
      for (const p of c.byFirst.get(w) ?? []) if (phraseAt(p, words, i)) return true;
      for (const p of c.starredFirst) if (w.startsWith(p.words[0]) && phraseAt(p, words, i)) return true;
    }
    return false;
  };
}

/** The rows in force: the built-in table, then the operator's. */
export function statementRules(): { builtIn: readonly RuleRow[]; operator: readonly RuleRow[] } {
  return { builtIn: BUILT_IN, operator: operatorRows };
}

/** Replaces the operator's rows (tests; loadStatementRulesFile at start). Validates them first. */
export function setOperatorRules(rows: unknown, source = 'operator rules'): number {
  const valid = validateRows(rows, source);
  operatorRows = valid;
  compiled = compile([...BUILT_IN, ...operatorRows]);
  memo.clear();
  return valid.length;
}

/**
 * Reads the operator's rows: the JSON file STATEMENT_RULES_FILE names, an array of rows (or an
 * object with `rows`), added to the built-in table. Throws a plain error naming every bad row; no
 * path leaves the built-in rows alone.
 */
export function loadStatementRulesFile(path: string | undefined): number {
  if (!path) return setOperatorRules([]);
  const source = `STATEMENT_RULES_FILE (${path})`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${source}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const rows = parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'rows' in parsed ? (parsed as { rows: unknown }).rows : parsed;
  return setOperatorRules(rows, source);
}

// Normalising a lender's text (spaces, dashes, continental numbers) and HTML to plain text (tables to rows,
// blockquotes to "> " lines): the first stage of reading a reply; reply-text.ts cuts the quoted thread.
// Pure functions, no I/O.
import { FOREIGN_DECISION_WORDS } from './vocabulary';

// ---------------------------------------------------------------- normalisation

/**
 * Numbers written the continental way ("25.000 USD", "factor 1,38", "287,50 daily") read as the trade's
 * ("25000", "1.38", "287.50"). Only when the text shows both signs of that style: a dot grouping
 * thousands and a comma before two decimals. A lone "1,2" or "1.350" stays as written.
 */
const DOT_THOUSANDS = /(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d]|[.,]\d)/g;
const COMMA_DECIMAL = /(?<![\d.,])\d{1,3}(?:\.\d{3})*,\d{2}(?![\d]|[.,]\d)/g;
export function continentalNumbers(s: string): string {
  DOT_THOUSANDS.lastIndex = 0;
  COMMA_DECIMAL.lastIndex = 0;
  if (!DOT_THOUSANDS.test(s) || !COMMA_DECIMAL.test(s)) return s;
  return s.replace(COMMA_DECIMAL, (n) => n.replace(/\./g, '').replace(',', '.')).replace(DOT_THOUSANDS, (n) => n.replace(/\./g, ''));
}

/**
 * A pure string function remembering its last few results by input: the readers normalise and rewrite the same reply's
 * text many times over (the rules' passes, then the model). Bounded (a few entries, short texts only), so a long-running
 * process holds no more than a few replies' text.
 */
export function memoText(fn: (s: string) => string, size = 8, maxChars = 65_536): (s: string) => string {
  const cache = new Map<string, string>();
  return (s: string) => {
    if (s.length > maxChars) return fn(s);
    const hit = cache.get(s);
    if (hit !== undefined) return hit;
    const out = fn(s);
    if (cache.size >= size) cache.delete(cache.keys().next().value as string);
    cache.set(s, out);
    return out;
  };
}

/** Smart quotes, dashes, odd spaces -> ASCII; line ends -> \n; continental numbers as the trade writes them. */
export const normalizeText = memoText(normalizeTextOnce);

function normalizeTextOnce(s: string): string {
  return continentalNumbers(s)
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2015\u2212]/g, '-')
    .replace(/[\u00A0\u2007\u202F\u2009\u200A]/g, ' ')
    .replace(/[\u200B\u200C\u200D\u2060\uFEFF\u00AD]/g, '')
    .replace(/\u2022/g, '-')
    .replace(/\u2026/g, '...')
    .replace(GLOSSED, (whole: string, gloss: string) => (glossContradicts(whole, gloss) ? `${gloss} ${GLOSS_CONTRADICTED}` : gloss));
}

/**
 * (rfix30) A word in another script with its English gloss in brackets, as a writer whose first language is not English
 * writes the trade's terms: "승인 (approved)", "기간 (term): 120 business days", "거절 (decline)", "одобрено (approved)": read
 * as the gloss (the words in the other script are not read at all; the gloss is what the writer means the reader to see).
 */
const GLOSSED = /(?:[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}\p{Script=Greek}]+[ \t]*)+\(([A-Za-z][A-Za-z0-9 ,'/&.-]{0,60})\)/gu;

/** Written after a gloss that says the opposite of the word it glosses; the classifier sends such a reply to a person. */
export const GLOSS_CONTRADICTED = '[the gloss contradicts its word]';

/** The decision a word in another script carries (vocabulary.ts FOREIGN_DECISION_WORDS), null when none or both. */
function foreignDecision(word: string): 'approve' | 'decline' | null {
  const W = FOREIGN_DECISION_WORDS;
  let approve = false;
  let decline = W.decline.some((d) => word.includes(d));
  for (const a of W.approve) {
    for (let i = word.indexOf(a); i >= 0; i = word.indexOf(a, i + 1)) {
      if (W.negations.some((n) => word.slice(0, i).endsWith(n))) decline = true;
      else approve = true;
    }
  }
  return approve === decline ? null : approve ? 'approve' : 'decline';
}

/** The gloss's own decision: approval words, or refusal words; null when none or both, or when the approval is only awaited. */
function glossDecision(gloss: string): 'approve' | 'decline' | null {
  const g = gloss.toLowerCase();
  const approve = /\bapprov/.test(g) && !/\b(not|pending|awaiting|dis|un)\b|disapprov|unapprov/.test(g);
  const decline = /\b(declin|reject|denied|deny|refus|turned down|no go)/.test(g) || /\bnot approved\b|disapprov|unapprov/.test(g);
  return approve === decline ? null : approve ? 'approve' : 'decline';
}

function glossContradicts(whole: string, gloss: string): boolean {
  const word = whole.slice(0, whole.lastIndexOf('('));
  const a = foreignDecision(word);
  const b = glossDecision(gloss);
  return !!a && !!b && a !== b;
}

// ---------------------------------------------------------------- HTML -> text

const ENTITIES: Record<string, string> = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", rsquo: "'", lsquo: "'", rdquo: '"', ldquo: '"',
  ndash: '-', mdash: '-', hellip: '...', bull: '-', middot: '-', copy: '(c)', reg: '(r)', trade: '(tm)', zwnj: '',
  zwj: '', shy: '', ensp: ' ', emsp: ' ', thinsp: ' ', laquo: '"', raquo: '"', times: 'x', dollar: '$', percnt: '%',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
    }
    const v = ENTITIES[e.toLowerCase()];
    return v ?? m;
  });
}

interface HNode {
  tag: string; // '#text' for text
  attrs: string;
  text?: string;
  children: HNode[];
  parent?: HNode;
}

const VOID = new Set(['br', 'hr', 'img', 'meta', 'link', 'input', 'col', 'wbr', 'area', 'base', 'source', 'param', 'embed']);
const SKIP = new Set(['head', 'style', 'script', 'title', 'noscript', 'template', 'xml']);
const BLOCK = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table', 'tr', 'thead', 'tbody', 'tfoot', 'section',
  'article', 'header', 'footer', 'center', 'pre', 'address', 'dl', 'dt', 'dd', 'body', 'html', 'form', 'fieldset', 'main', 'nav',
  'aside', 'figure', 'caption',
]);

const COLUMN_STYLE = /\bdisplay\s*:\s*inline-block\b/i;
const WIDTH_STYLE = /(?:^|[\s;"'])(?:min-)?width\s*:\s*\d|\bwidth\s*=\s*["']?\d/i;

function parseHtml(html: string): HNode {
  const root: HNode = { tag: '#root', attrs: '', children: [] };
  let cur = root;
  const open = (tag: string, attrs: string) => {
    const n: HNode = { tag, attrs, children: [], parent: cur };
    cur.children.push(n);
    if (!VOID.has(tag)) cur = n;
  };
  const closeTo = (tag: string, stopAt: string[] = []) => {
    for (let n: HNode | undefined = cur; n && n !== root; n = n.parent) {
      if (stopAt.includes(n.tag)) return false;
      if (n.tag === tag) {
        cur = n.parent ?? root;
        return true;
      }
    }
    return false;
  };
  // bounded repetitions: an unclosed comment, quote or tag costs at most a few thousand characters
  const re = /<!--[\s\S]{0,20000}?-->|<!\[CDATA\[[\s\S]{0,20000}?\]\]>|<![^>]{0,2000}>|<\?[^>]{0,2000}>|<\/\s*([a-zA-Z][\w:-]{0,40})\s*>|<([a-zA-Z][\w:-]{0,40})((?:[^>"']|"[^"]{0,2000}"|'[^']{0,2000}'){0,200})>|([^<]+)|</g;
  let m: RegExpExecArray | null;
  let skipping: string | null = null;
  while ((m = re.exec(html))) {
    const [whole, closeTag, openTag, attrs, text] = m;
    if (skipping) {
      if (closeTag && closeTag.toLowerCase() === skipping) skipping = null;
      continue;
    }
    if (text !== undefined || whole === '<') {
      cur.children.push({ tag: '#text', attrs: '', text: text ?? '<', children: [], parent: cur });
    } else if (openTag) {
      const tag = openTag.toLowerCase();
      if (SKIP.has(tag)) {
        if (!/\/\s*$/.test(attrs ?? '')) skipping = tag;
        continue;
      }
      // implied closes
      if (tag === 'p') closeTo('p', ['div', 'td', 'th', 'li', 'blockquote', 'table']);
      if (tag === 'li') closeTo('li', ['ul', 'ol']);
      if (tag === 'td' || tag === 'th') closeTo('td', ['tr', 'table']) || closeTo('th', ['tr', 'table']);
      if (tag === 'tr') closeTo('tr', ['table']);
      open(tag, attrs ?? '');
      if (/\/\s*$/.test(attrs ?? '') && cur.tag === tag && !VOID.has(tag)) cur = cur.parent ?? root;
    } else if (closeTag) {
      closeTo(closeTag.toLowerCase());
    }
  }
  return root;
}

const inline = (s: string) => s.replace(/\s+/g, ' ').trim();

function rowCells(tr: HNode): HNode[] {
  return tr.children.filter((c) => c.tag === 'td' || c.tag === 'th');
}

function tableRows(table: HNode): HNode[] {
  const rows: HNode[] = [];
  const walk = (n: HNode) => {
    for (const c of n.children) {
      if (c.tag === 'tr') rows.push(c);
      else if (c.tag === 'thead' || c.tag === 'tbody' || c.tag === 'tfoot') walk(c);
    }
  };
  walk(table);
  return rows;
}

const containsTag = (n: HNode, tag: string): boolean => n.children.some((c) => c.tag === tag || containsTag(c, tag));

function render(n: HNode, pre = false): string {
  if (n.tag === '#text') {
    const t = decodeEntities(n.text ?? '');
    return pre ? t : t.replace(/[ \t\r\n\f]+/g, ' ');
  }
  const kids = () => n.children.map((c) => render(c, pre || n.tag === 'pre')).join('');
  switch (n.tag) {
    case 'br':
      return '\n';
    case 'hr':
      return '\n\n';
    case 'img':
      return '';
    case 'blockquote': {
      const body = kids()
        .split('\n')
        .map((l) => l.trim());
      while (body.length && !body[0]) body.shift();
      while (body.length && !body[body.length - 1]) body.pop();
      return `\n${body.map((l) => (l ? `> ${l}` : '>')).join('\n')}\n`;
    }
    case 'li': {
      const parent = n.parent;
      let marker = '- ';
      if (parent?.tag === 'ol') marker = `${parent.children.filter((c) => c.tag === 'li').indexOf(n) + 1}. `;
      return `\n${marker}${inline(kids())}\n`;
    }
    case 'table': {
      const out: Array<string | string[]> = [];
      for (const tr of tableRows(n)) {
        const cells = rowCells(tr);
        const layout = cells.length < 2 || cells.some((c) => containsTag(c, 'table'));
        if (layout) out.push(cells.map((c) => render(c)).join('\n'));
        else out.push(cells.map((c) => inline(render(c))));
      }
      return `\n${slashColumns(out).map((r) => (typeof r === 'string' ? r : r.join(' | '))).join('\n')}\n`;
    }
    default: {
      if (BLOCK.has(n.tag)) return `\n${kids()}\n`;
      // (holdout18) a label in a fixed-width inline block beside its value ("<span style='display:inline-block;width:190px'>
      // Required doc 1</span><span>Photo ID</span>"): two columns on screen, so two cells here, never "Required doc 1Photo ID"
      if (COLUMN_STYLE.test(n.attrs) && WIDTH_STYLE.test(n.attrs)) {
        const sibs = n.parent?.children ?? [];
        const next = sibs.slice(sibs.indexOf(n) + 1).find((c) => c.tag !== '#text' || (c.text ?? '').trim());
        if (next && next.tag !== '#text' && !BLOCK.has(next.tag) && next.tag !== 'br') return `${inline(kids())} | `;
      }
      return kids();
    }
  }
}

/**
 * (holdout30) Two options typed side by side in one cell per row, split by " / " ("Option 1 / Option 2", "$50,000.00 /
 * $40,000.00", "1.35 / 1.29"): when every row's last cell splits into the same number of parts (three rows at least),
 * the parts are columns, as if the table had one column per option.
 */
function slashColumns(rows: Array<string | string[]>): Array<string | string[]> {
  const cells = rows.filter((r): r is string[] => typeof r !== 'string');
  if (cells.length < 3 || cells.length !== rows.length || cells.some((r) => r.length !== cells[0].length)) return rows;
  const parts = cells.map((r) => r[r.length - 1].split(/\s+\/\s+/));
  const n = parts[0].length;
  if (n < 2 || n > 4 || parts.some((p) => p.length !== n || p.some((x) => !x.trim()))) return rows;
  return cells.map((r, i) => [...r.slice(0, -1), ...parts[i]]);
}

/** HTML -> plain text: block elements on their own lines, table rows as "a | b | c", blockquotes as "> ". */
export function htmlToText(html: string): string {
  const text = render(parseHtml(html));
  const lines = normalizeText(text)
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim());
  const out: string[] = [];
  for (const l of lines) {
    if (!l && (!out.length || !out[out.length - 1])) continue;
    out.push(l);
  }
  while (out.length && !out[out.length - 1]) out.pop();
  return out.join('\n');
}

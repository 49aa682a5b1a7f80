// Nothing in the package can run: actions and scripts copied from merchant PDFs are removed.
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFObject } from 'pdf-lib';

/** Actions a package may keep: jumps inside it, viewer menu items, and web or mail links. */
const SAFE_ACTIONS = new Set(['GoTo', 'Named', 'URI']);
const SAFE_URI = /^(https?|mailto):/i;
const ACTION_KEYS = ['A', 'OpenAction', 'Next'].map((k) => PDFName.of(k));

function actionType(d: PDFDict): string | null {
  const s = d.get(PDFName.of('S'));
  return s instanceof PDFName ? s.decodeText() : null;
}

function isSafeAction(d: PDFDict): boolean {
  const type = actionType(d);
  if (!type || !SAFE_ACTIONS.has(type)) return false;
  if (type !== 'URI') return true;
  const uri = d.get(PDFName.of('URI'));
  // Leading spaces and control characters are ignored by viewers ("  javascript:...").
  const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText().replace(/^[\s\x00-\x1f]+/, '') : '';
  return SAFE_URI.test(text);
}

/**
 * Removes everything that could run from the package, on every object of the output (not only the
 * copied pages' own entries, so that no path is missed): additional actions (/AA on pages,
 * annotations and form fields), document-level scripts (a /JavaScript name tree), and every action
 * dictionary but a safe one (GoTo, Named, an http(s) or mailto URI), wherever it sits: an
 * annotation's or a field's /A, a /Next chain (one dictionary or an array, to any depth), a field's
 * /Parent or /Kids, an outline item, /OpenAction. An unsafe action is emptied where it is stored and
 * every reference to it (/A, /OpenAction, a /Next entry) is then dropped, so a safe action keeps
 * only the safe rest of its chain.
 */
export function stripActiveContent(doc: PDFDocument): void {
  const ctx = doc.context;
  const seen = new Set<PDFDict>();
  const all: PDFDict[] = [];
  const collect = (o: PDFObject | undefined): void => {
    if (o instanceof PDFStream) return collect(o.dict);
    if (o instanceof PDFArray) return o.asArray().forEach(collect);
    if (!(o instanceof PDFDict) || seen.has(o)) return;
    seen.add(o);
    all.push(o);
    for (const [, v] of o.entries()) collect(v);
  };
  for (const [, obj] of ctx.enumerateIndirectObjects()) collect(obj);
  // Pass 1: empty every unsafe action; drop additional actions and document scripts. An action is
  // what /A, /OpenAction or /Next holds (a dictionary with /S, or an array of them), or any
  // dictionary typed /Action or carrying a script (/JS); other dictionaries with /S (transparency
  // groups, soft masks, page labels, structure elements) are left alone.
  const actions = new Set<PDFDict>();
  const asDict = (o: PDFObject | undefined) => (o instanceof PDFRef ? ctx.lookup(o) : o);
  for (const d of all) {
    d.delete(PDFName.of('AA'));
    d.delete(PDFName.of('JavaScript'));
    if (d.get(PDFName.of('Type'))?.toString() === '/Action' || d.has(PDFName.of('JS'))) actions.add(d);
    for (const key of ACTION_KEYS) {
      const v = asDict(d.get(key));
      for (const e of v instanceof PDFArray ? v.asArray().map(asDict) : [v]) {
        if (e instanceof PDFDict && (e.has(PDFName.of('S')) || e.has(PDFName.of('JS')))) actions.add(e);
      }
    }
  }
  const emptied = new Set<PDFDict>();
  for (const a of actions) {
    if (isSafeAction(a)) continue;
    for (const key of a.keys()) a.delete(key);
    emptied.add(a);
  }
  // Pass 2: drop references to what was emptied.
  const gone = (o: PDFObject | undefined): boolean => {
    const r = asDict(o);
    return r instanceof PDFDict && emptied.has(r);
  };
  for (const d of all) {
    for (const key of ACTION_KEYS) {
      const v = d.get(key);
      if (v === undefined) continue;
      const resolved = v instanceof PDFRef ? ctx.lookup(v) : v;
      if (resolved instanceof PDFArray) {
        const keep = resolved.asArray().filter((e) => !gone(e));
        if (!keep.length) d.delete(key);
        else if (keep.length !== resolved.size()) d.set(key, ctx.obj(keep));
      } else if (gone(v)) {
        d.delete(key);
      }
    }
  }
}

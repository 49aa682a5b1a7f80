// Reading the app's server-rendered pages in supertest: a form by its action, its hidden fields
// (the CSRF token, the idempotency key) kept, the person's fields added, as a browser would send it.

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]) : undefined;
};

/** The hidden fields of the first form posting to `action` (throws when the page has none). */
export function formFields(page: string, action: string): Record<string, string> {
  const forms = page.match(/<form\b[^>]*>[\s\S]*?<\/form>/g) ?? [];
  const form = forms.find((f) => attr(f.slice(0, f.indexOf('>') + 1), 'action') === action);
  if (!form) throw new Error(`no form posting to ${action} on this page`);
  const fields: Record<string, string> = {};
  for (const tag of form.match(/<input\b[^>]*>/g) ?? []) {
    if (attr(tag, 'type') === 'hidden' && attr(tag, 'name')) fields[attr(tag, 'name')!] = attr(tag, 'value') ?? '';
  }
  return fields;
}

/** The page's visible text, roughly (tags dropped, entities decoded, spaces collapsed). */
export const textOf = (page: string): string => decode(page.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();

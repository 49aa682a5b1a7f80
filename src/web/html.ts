// Server-rendered pages without a template engine: `html` escapes every interpolated value unless
// it is already markup made by `html` itself (Safe), so untrusted text cannot become markup.

export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Safe) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  let out = strings[0];
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1];
  });
  return new Safe(out);
}

/**
 * Headers of every page: a strict Content-Security-Policy (scripts and styles only from this
 * origin, no inline code, forms only to this origin, no framing), no caching, no referrer (the
 * magic link must never leak to another site), no MIME sniffing.
 */
export function pageHeaders(connectSrc: string[] = [], formAction: string[] = []): Record<string, string> {
  const connect = ["'self'", ...connectSrc].join(' ');
  const forms = ["'self'", ...formAction].join(' ');
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src ${connect}; form-action ${forms}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

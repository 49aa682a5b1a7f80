/** A page as a browser got it: status, body, where it redirects, headers. */
export type Page = { status: number; text: string; location: string | null; headers: Headers };

/** A browser's cookie jar: the OAuth pages belong to the browser that started the authorization. */
export class Jar {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(i + 1).trim());
    }
  }
}

/** GET `url` (or POST `form` as a browser would), relative to `base`, with the jar's cookies; no redirect followed. */
export async function browseAt(base: string, url: string, form: Record<string, string | string[]> | undefined, browser: Jar | null): Promise<Page> {
  const body = form ? new URLSearchParams(Object.entries(form).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]]))) : undefined;
  const headers: Record<string, string> = form ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
  if (browser?.cookies.size) headers.cookie = browser.header();
  const res = await fetch(new URL(url, base), { method: form ? 'POST' : 'GET', body, redirect: 'manual', headers });
  browser?.keep(res);
  return { status: res.status, text: await res.text(), location: res.headers.get('location'), headers: res.headers };
}

import type { Request } from 'express';
import { randomBase62, sha256Hex } from '../lib/crypto';

// The browser an authorization belongs to (audit H2). /authorize sets an HttpOnly, SameSite=Lax
// cookie with a random value (or keeps the one this browser already has, so two assistants can sign
// in side by side) and stores its SHA-256 on the authorization. Every sign-in, account and consent
// page and form needs that cookie, and the forms' CSRF token is derived from it: a link to our pages
// sent to someone else opens nothing, and nobody but the browser that signed in can approve.
// Lax, not Strict: the sign-in page is reached by a redirect that started on the assistant's site,
// and a Strict cookie would not be sent with it.

const VALUE = /^[0-9A-Za-z]{43}$/;

/** `__Host-` (Secure, Path=/, no Domain) on HTTPS; plain HTTP is loopback only (development). */
export const browserCookieName = (publicBaseUrl: string) => (publicBaseUrl.startsWith('https:') ? '__Host-oauth_browser' : 'oauth_browser');

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('Cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** This browser's binding value, if it sent a well-formed one. */
export function browserOf(req: Request, publicBaseUrl: string): string | undefined {
  const value = cookieOf(req, browserCookieName(publicBaseUrl));
  return value && VALUE.test(value) ? value : undefined;
}

export const newBrowserValue = () => randomBase62(43);
export const browserHash = (value: string) => sha256Hex(`oauth-browser:${value}`);

export function browserCookie(publicBaseUrl: string, value: string, maxAgeSeconds: number): string {
  const secure = publicBaseUrl.startsWith('https:');
  return `${browserCookieName(publicBaseUrl)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

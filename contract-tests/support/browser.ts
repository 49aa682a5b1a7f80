import { existsSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Debian's Chromium (no browser is downloaded); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** In CI (`CI=true`) the browser tests are required: a missing Chromium fails them instead of skipping them. */
export const browserRequired = process.env.CI === 'true';
/** Skipped only on a developer machine without Chromium; never in CI. */
export const skipBrowserTests = !haveChromium && !browserRequired;

/**
 * Says why the browser tests do not run here (a warning), or nothing. In CI, a missing Chromium is
 * an error at the first launch (launchBrowser), so the tests fail rather than pass as skipped.
 */
export function warnIfNoBrowser(file: string): void {
  if (skipBrowserTests) console.warn(`${file} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); with CI=true this fails instead`);
}

/** Headless Chromium with a profile in `dir`, quiet (no background networking, updates or sync). */
export function launchBrowser(dir: string): Promise<Browser> {
  if (!haveChromium) {
    return Promise.reject(new Error(`No Chromium at ${CHROMIUM}: the browser tests are required when CI=true (install chromium, or set CHROMIUM_PATH)`));
  }
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: join(dir, 'profile'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

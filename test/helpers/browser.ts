/**
 * Debian's headless Chromium for the browser tests (docs pages, CORS), driven by playwright-core:
 * no browser download works on these machines (TOOLCHAIN.md), so CI installs the `chromium` package.
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium (TOOLCHAIN.md: no browser download works here); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  /** Another context of the same browser: a second reader, its storage and cookies its own. */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1400, height: 1000 };

/** A headless Chromium (flags per TOOLCHAIN.md; playwright adds --headless) and a first context. */
export async function launchBrowser(): Promise<Browser> {
  // A missing browser fails the suite with the fix, never skips it.
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = () => browser.newContext({ viewport: VIEWPORT });
  return { context: await newContext(), newContext, close: () => browser.close() };
}

/**
 * Debian's chromium (playwright-core, never a downloaded browser), launched once per test process
 * and shared by the browser tests of every file that process runs: vitest runs files one after
 * another in each of its forks, with the module graph kept between them (`isolate: false`,
 * vitest.config.ts), so this module's launch outlives the file that made it. A launch costs about
 * 2 CPU s (the browser, its renderer and network processes, ~1.4 s of wall); once per file it was
 * ~15 s of a suite bound by its two cores.
 *
 * A test opens its own pages (`browser.newPage()`: a fresh context each, no cookies or storage
 * from another test) and closes them; none closes the browser. It goes with the process:
 * playwright kills the browsers it launched when the process exits, and chromium ends when its
 * control pipe closes.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Says in the test output why FILE's browser tests are skipped, when they are. */
export function warnWithoutChromium(file: string): void {
  if (!hasChromium) console.warn(`${file}: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);
}

let launching: Promise<Browser> | undefined;

/**
 * The process's chromium: launched at the first call (start it early, e.g. in a beforeAll, and await
 * it where it is needed); launched again if it failed or has gone since. A failed launch is handled
 * here, so it fails the test that awaits it, never the process as an unhandled rejection.
 */
export function sharedBrowser(): Promise<Browser> {
  if (launching === undefined) {
    const launch = chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    launching = launch;
    launch.then(
      (browser) =>
        browser.once('disconnected', () => {
          if (launching === launch) launching = undefined;
        }),
      () => {
        if (launching === launch) launching = undefined;
      },
    );
  }
  return launching;
}

// Writes full-page and per-section screenshots of the tutorial at desktop and phone widths, light and dark:
// `npm run screenshots [-- outDir]` (default /tmp/embedlab-screenshots). Not a test; not committed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, waitForPage } from './browser.mjs';

const outDir = process.argv[2] ?? '/tmp/embedlab-screenshots';
mkdirSync(outDir, { recursive: true });

const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const schemes = (process.env.SCREENSHOT_SCHEMES ?? 'light,dark').split(',');
const { server, url, browser } = await launch();
try {
  for (const [name, viewport] of Object.entries(viewports)) {
    for (const colorScheme of schemes) {
      const { context, page, problems } = await openPage(browser, url, viewport, { colorScheme, deviceScaleFactor: 1 });
      await waitForPage(page);
      const file = join(outDir, `${name}-${colorScheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      for (const id of await page.locator('main > section').evaluateAll((list) => list.map((s) => s.id))) {
        await page.locator(`#${id}`).screenshot({ path: join(outDir, `${name}-${colorScheme}-${id}.png`) });
      }
      console.log(file, problems.length ? problems : '');
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}

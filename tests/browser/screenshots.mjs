// Writes full-page and per-section screenshots of the tutorial at desktop and phone widths, light and dark:
// `npm run screenshots [-- outDir]` (default /tmp/embedlab-screenshots). Not a test; not committed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, waitForPage } from './browser.mjs';

const outDir = process.argv[2] ?? '/tmp/embedlab-screenshots';
mkdirSync(outDir, { recursive: true });

const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const schemes = (process.env.SCREENSHOT_SCHEMES ?? 'light,dark').split(',');
// SCREENSHOT_RACE_STEPS=N runs section 7's race (N steps per run, the fewest fine-tuning steps) before the shots.
async function runRace(page, steps) {
  await page.getByTestId('beyond-race-steps').fill(steps);
  await page.getByTestId('beyond-race-fine-tune').fill('10');
  await page.getByTestId('beyond-race-start').click();
  await page.waitForFunction(
    () => ['done', 'error'].includes(document.querySelector('[data-testid="beyond-race-status"]').dataset.state),
    null,
    { timeout: 1_800_000, polling: 1000 },
  );
}

// Section 1's comparison with every open model's vocabulary loaded (the page fetches each only when it is picked).
async function loadOpenModels(page) {
  await page.getByTestId('tokenize-compare').scrollIntoViewIfNeeded();
  const all = page.getByTestId('tokenize-compare-load-all');
  if (await all.isVisible()) {
    await all.click();
  }
  await page.waitForFunction(
    () =>
      !document.querySelector('.tok-compare-row:is([data-state="loading"], [data-state="idle"])') &&
      !document.querySelector('[aria-busy="true"]'),
    null,
    { timeout: 300_000 },
  );
  await page.evaluate(() => window.scrollTo(0, 0));
}

// Section 2's experiment and section 7's small race start when the reader comes near them: brought near, and waited for.
async function runNearbyWork(page) {
  for (const [near, status] of [
    ['#embeddings-arms-figure', 'embeddings-frozen-status'],
    ['[data-testid="beyond-race-loss"]', 'beyond-race-small-status'],
  ]) {
    // The page's own scrollIntoView: Playwright's lands elsewhere on a phone, where chapters off screen (not rendered,
    // content-visibility) are estimated shorter than they are.
    await page.locator(near).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForFunction(
      (id) => ['done', 'error'].includes(document.querySelector(`[data-testid="${id}"]`).dataset.state),
      status,
      { timeout: 600_000, polling: 1000 },
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

const { server, url, browser } = await launch();
try {
  for (const [name, viewport] of Object.entries(viewports)) {
    for (const colorScheme of schemes) {
      const { context, page, problems } = await openPage(browser, url, viewport, { colorScheme, deviceScaleFactor: 1 });
      await waitForPage(page);
      await loadOpenModels(page);
      await runNearbyWork(page);
      if (process.env.SCREENSHOT_RACE_STEPS) {
        await runRace(page, process.env.SCREENSHOT_RACE_STEPS); // section 7's race runs on a click only
      }
      const file = join(outDir, `${name}-${colorScheme}.png`);
      // Chapters off screen are not rendered (content-visibility: auto), and a full-page shot does not scroll to them:
      // rendered for this shot, as they are for printing.
      const chapters = page.locator('main > section');
      await chapters.evaluateAll((list) => list.forEach((s) => (s.style.contentVisibility = 'visible')));
      await page.screenshot({ path: file, fullPage: true });
      await chapters.evaluateAll((list) => list.forEach((s) => (s.style.contentVisibility = '')));
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

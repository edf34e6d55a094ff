// Assembles the tutorial page: web/index.html with each `<!-- include sections/NAME.html -->` line replaced by
// that chapter's fragment (indented to the marker), written to the site folder. The page stays static files:
// the includes are resolved here, once, not in the browser.
// It also lists, after the page's script, the modules its first numbers need (page-preloads.mjs: the library and
// section 1's), so that the browser fetches them side by side instead of one import level at a time.
// `node scripts/build-page.mjs [webDir] [siteDir]` (defaults: web, build/site; the site's js/ and embedlab/ already
// copied); the fragments are not copied.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageModules } from './page-preloads.mjs';

const INCLUDE = /^( *)<!-- include (sections\/[\w-]+\.html) -->$/;

/** Indents the lines, but not the text inside a <textarea> or <pre>: there the spaces would be content. */
function indentOutsideText(lines, indent) {
  let inText = false;
  return lines.map((line) => {
    const out = inText || line === '' ? line : indent + line;
    inText = (inText || /<(textarea|pre)\b/i.test(line)) && !/<\/(textarea|pre)>/i.test(line);
    return out;
  });
}

/** The page of `webDir` with every include marker replaced by its fragment. */
function assemblePage(webDir) {
  const lines = readFileSync(join(webDir, 'index.html'), 'utf8').split('\n');
  return lines
    .map((line) => {
      const match = INCLUDE.exec(line);
      if (!match) {
        return line;
      }
      const [, indent, file] = match;
      const fragment = readFileSync(join(webDir, file), 'utf8').trimEnd();
      return indentOutsideText(fragment.split('\n'), indent).join('\n');
    })
    .join('\n');
}

const [webDir = 'web', siteDir = 'build/site'] = process.argv.slice(2);
const page = assemblePage(webDir);
if (page.includes('<!-- include')) {
  throw new Error(
    `build-page: an include marker in ${webDir}/index.html is not of the form <!-- include sections/NAME.html -->`,
  );
}
const SCRIPT = /^( *)<script type="module" src="js\/main\.js"><\/script>$/m;
const script = SCRIPT.exec(page);
if (!script) {
  throw new Error(`build-page: ${webDir}/index.html has no line <script type="module" src="js/main.js"></script>`);
}
const preloads = pageModules(siteDir).map((path) => `${script[1]}<link rel="modulepreload" href="${path}" />`);
writeFileSync(
  join(siteDir, 'index.html'),
  page.replace(SCRIPT, (line) => [line, ...preloads].join('\n')),
);
rmSync(join(siteDir, 'sections'), { recursive: true, force: true });

// The modules the page's start needs, for build-page.mjs to list as <link rel="modulepreload">: js/main.js's static
// imports, followed to the end, and the first section it imports by name (its first './sections/….js' string: the
// chapter at the top of the page, whose numbers come first), with its own. Without the list the browser finds each
// module only once the one importing it has arrived: the library alone is seven imports deep, and its wasm and
// vocabulary are fetched only after the last one. The other sections are not listed: main.js imports them as it
// starts, while the library compiles, and every listed module is a request the parser starts in its one long task
// (111 of them made it 28-37 ms of CPU instead of 7-12).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';

// `import … from '…'`, `export … from '…'` and `import '…'`; comments and strings elsewhere hold none of these forms.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const SECTION_MODULE = /['"](\.\/sections\/[\w/-]+\.js)['"]/g;

/** Relative module specifiers that `source` imports statically. */
function staticImports(source) {
  return [...source.matchAll(STATIC_IMPORT)].map((m) => m[1]).filter((s) => s.startsWith('.'));
}

/**
 * Paths relative to siteDir (forward slashes) of every module the page's start imports, in the order found, without
 * main.js itself (the page's own script tag loads it). A specifier naming no file stops the build.
 */
export function pageModules(siteDir, entry = 'js/main.js') {
  const found = new Set();
  const visit = (file, specifiers) => {
    for (const specifier of specifiers) {
      const target = join(dirname(file), specifier);
      if (!existsSync(target)) {
        throw new Error(`page-preloads: ${relative(siteDir, file)} imports ${specifier}, which is not in the site`);
      }
      const key = relative(siteDir, target).split(sep).join(posix.sep);
      if (!found.has(key)) {
        found.add(key);
        visit(target, staticImports(readFileSync(target, 'utf8')));
      }
    }
  };
  const main = join(siteDir, entry);
  const source = readFileSync(main, 'utf8');
  visit(main, staticImports(source));
  visit(main, [...source.matchAll(SECTION_MODULE)].map((m) => m[1]).slice(0, 1));
  found.delete(entry);
  return [...found];
}

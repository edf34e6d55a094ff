// Fails when the package's or the page's JavaScript imports itself in a circle. A circle makes the order in which
// modules run depend on which one is loaded first (a binding read before its module ran throws), and it means
// two files that cannot be understood apart: the shared piece belongs in a module below both.
// Follows relative module references only: static imports, `export … from`, dynamic `import('./…')`,
// `require('./…')` and workers started from `new URL('./x.js', import.meta.url)` (a worker's imports make it one
// more module of the graph). References outside the folders read (the site's embedlab/, packages) are not followed.
// `node scripts/check-import-cycles.mjs [folder…]` (default: src/js web/js); names each circle as
// "a.js -> b.js -> a.js" (paths relative to the working folder) and exits 1, or prints
// "import-cycles: none among N files".
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const EXTENSIONS = ['.js', '.mjs', '.cjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);

/** Every .js, .mjs and .cjs file under `dir` (absolute paths), leaving out node_modules and dist folders. */
function listModules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return SKIPPED_FOLDERS.has(entry.name) ? [] : listModules(path);
    }
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) ? [path] : [];
  });
}

const relativePath = (text) => /^\.{1,2}\//.test(text);

/** `import.meta.url`, the base of a worker's `new URL('./x.js', import.meta.url)`. */
const isImportMetaUrl = (node) =>
  ts.isPropertyAccessExpression(node) && node.name.text === 'url' && ts.isMetaProperty(node.expression);

/**
 * The relative specifiers a module refers to: static imports, `export … from`, `import('./…')`, `require('./…')`
 * and `new URL('./…', import.meta.url)`. TypeScript's parser reads the module, so comments, strings, templates and
 * regular expressions that merely contain such text are not references.
 */
export function referencesOf(source) {
  const file = ts.createSourceFile('module.js', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        found.push(node.arguments[0]);
      }
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [specifier, base] = node.arguments ?? [];
      if (base !== undefined && isImportMetaUrl(base)) {
        found.push(specifier);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found
    .filter((node) => ts.isStringLiteralLike(node))
    .map((node) => node.text)
    .filter(relativePath);
}

/** The module a specifier names, among `modules` (a Set of absolute paths), or null (outside them, or no such file). */
function resolveSpecifier(from, specifier, modules) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => join(base, 'index' + ext)),
  ];
  return candidates.find((path) => modules.has(path)) ?? null;
}

/** Each module's set of referenced modules (absolute paths). */
function importGraph(modules) {
  const known = new Set(modules);
  return new Map(
    modules.map((file) => {
      const targets = referencesOf(readFileSync(file, 'utf8'))
        .map((specifier) => resolveSpecifier(file, specifier, known))
        .filter((target) => target !== null);
      return [file, [...new Set(targets)].sort()];
    }),
  );
}

/** Strongly connected components (Tarjan): each a list of modules that can all reach one another. */
function stronglyConnected(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of graph.keys()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return components;
}

/** The shortest path from `from` to `to` inside `members` (breadth first), as a list of modules. */
function shortestPath(graph, members, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) {
      const path = [];
      for (let w = v; w !== null; w = previous.get(w)) {
        path.unshift(w);
      }
      return path;
    }
    for (const w of graph.get(v)) {
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return null;
}

/**
 * The circles of the graph: for every reference that lies on one (a reference inside a strongly connected
 * component), the shortest circle through it; each circle once, starting at its first module in sorted order.
 * So every import that takes part in a circle is named, without listing the exponentially many longer circles.
 */
export function findCycles(graph) {
  const cycles = new Map();
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    for (const v of component) {
      for (const w of graph.get(v).filter((target) => members.has(target))) {
        const back = shortestPath(graph, members, w, v); // w === v: a module that imports itself
        const loop = [v, ...back.slice(0, w === v ? 0 : -1)];
        const start = loop.indexOf([...loop].sort()[0]);
        const rotated = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.set(rotated.join('\n'), [...rotated, rotated[0]]);
      }
    }
  }
  return [...cycles.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** Checks the folders; returns {files, cycles} with paths relative to the working folder. */
export function checkImportCycles(folders) {
  const modules = folders.flatMap((folder) => listModules(resolve(folder))).sort();
  const graph = importGraph(modules);
  const name = (path) => relative(process.cwd(), path).split(sep).join('/');
  return { files: modules.length, cycles: findCycles(graph).map((cycle) => cycle.map(name)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const chosen = folders.length ? folders : ['src/js', 'web/js'];
  const missing = chosen.filter((folder) => !existsSync(folder) || !statSync(folder).isDirectory());
  if (missing.length) {
    console.error(`import-cycles: no such folder: ${missing.join(', ')}`);
    process.exit(2);
  }
  const { files, cycles } = checkImportCycles(chosen);
  if (cycles.length) {
    console.error(`import-cycles: ${cycles.length} circle${cycles.length === 1 ? '' : 's'} among ${files} files:`);
    for (const cycle of cycles) {
      console.error(`  ${cycle.join(' -> ')}`);
    }
    process.exit(1);
  }
  console.log(`import-cycles: none among ${files} files`);
}

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

// After these characters a `/` starts a regular expression literal, not a division.
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const KEYWORDS_BEFORE_REGEX = /\b(return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;

/** Whether a literal's text could name a module: a relative path ('./x.js', '../y/z.js'). */
const relativePath = (text) => /^\.{1,2}\//.test(text);

/**
 * The code of a module with everything that is not code blanked (replaced by spaces, newlines kept): comments, so
 * a commented-out import is not followed, and the text of strings, template literals and regular expressions,
 * so code quoted in them is not either; a string (or a template without `${…}`) that holds a relative path stays,
 * as it may be an import's specifier. A `//` inside a literal does not start a comment.
 */
export function codeOnly(source) {
  const out = source.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; k++) {
      if (out[k] !== '\n') {
        out[k] = ' ';
      }
    }
  };
  const braces = []; // for each open `${`, the depth of ordinary braces inside it
  let i = 0;
  let last = ''; // the last significant character (or word) before i
  const skipString = (quote) => {
    const from = ++i;
    while (i < source.length && source[i] !== quote && source[i] !== '\n') {
      i += source[i] === '\\' ? 2 : 1;
    }
    if (!relativePath(source.slice(from, i))) {
      blank(from, i);
    }
    i++;
  };
  const plainRelativeTemplate = (from) => {
    const end = source.indexOf('`', from);
    const text = source.slice(from, end === -1 ? source.length : end);
    return relativePath(text) && !text.includes('${') && !text.includes('\\');
  };
  const skipTemplate = (keep) => {
    // From just after a backtick or a closing `}` of an expression: to the closing backtick, or into a `${`.
    const from = i;
    while (i < source.length) {
      if (source[i] === '\\') {
        i += 2;
      } else if (source[i] === '`') {
        break;
      } else if (source[i] === '$' && source[i + 1] === '{') {
        braces.push(0);
        break;
      } else {
        i++;
      }
    }
    if (!keep) {
      blank(from, i);
    }
    i += source[i] === '`' ? 1 : 2;
  };
  const skipRegex = () => {
    const from = ++i;
    let inClass = false;
    while (i < source.length && source[i] !== '\n' && (inClass || source[i] !== '/')) {
      if (source[i] === '\\') {
        i++;
      } else if (source[i] === '[') {
        inClass = true;
      } else if (source[i] === ']') {
        inClass = false;
      }
      i++;
    }
    blank(from, i);
    i++;
    while (/[a-z]/i.test(source[i] ?? '')) {
      i++; // flags
    }
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const to = end === -1 ? source.length : end;
      blank(i, to);
      i = to;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const to = end === -1 ? source.length : end + 2;
      blank(i, to);
      i = to;
    } else if (c === '/') {
      const regex = last === '' || BEFORE_REGEX.has(last) || KEYWORDS_BEFORE_REGEX.test(last);
      if (regex) {
        skipRegex();
        last = 'regex';
      } else {
        i++;
        last = '/';
      }
    } else if (c === '"' || c === "'") {
      skipString(c);
      last = 'string';
    } else if (c === '`') {
      i++;
      skipTemplate(plainRelativeTemplate(i));
      last = 'string';
    } else if (c === '{' && braces.length) {
      braces[braces.length - 1]++;
      i++;
      last = c;
    } else if (c === '}' && braces.length && braces[braces.length - 1] === 0) {
      braces.pop(); // the end of a template's `${…}`: back into the template's text
      i++;
      skipTemplate(false);
      last = 'string';
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[\w$]/.test(c)) {
      const word = /^[\w$]+/.exec(source.slice(i, i + 64))[0];
      i += word.length;
      last = word;
    } else {
      if (c === '}' && braces.length) {
        braces[braces.length - 1]--;
      }
      i++;
      last = c;
    }
  }
  return out.join('');
}

const SPECIFIER = String.raw`(['"\x60])(\.{1,2}\/[^'"\x60\s]+)\1`;
const REFERENCES = [
  // import … from './x', import './x'
  new RegExp(String.raw`\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?${SPECIFIER}`, 'g'),
  new RegExp(String.raw`\bexport\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*${SPECIFIER}`, 'g'),
  new RegExp(String.raw`\bimport\s*\(\s*${SPECIFIER}\s*[,)]`, 'g'),
  new RegExp(String.raw`\brequire\s*\(\s*${SPECIFIER}\s*\)`, 'g'),
  new RegExp(String.raw`\bnew\s+URL\s*\(\s*${SPECIFIER}\s*,\s*import\.meta\.url\s*\)`, 'g'),
];

/** The relative specifiers a module refers to (see REFERENCES), in its code only (see codeOnly). */
export function referencesOf(source) {
  const code = codeOnly(source);
  return REFERENCES.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[2]));
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

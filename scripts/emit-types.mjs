// The package's types come from its JavaScript: type-checks src/js (src/js/tsconfig.json: checkJs, strict, JSDoc
// types) and writes the declarations tsc generates from the JSDoc into OUTDIR (default build/types), as tsc
// --declaration --emitDeclarationOnly does, with three changes: members tagged @internal are left out
// (--stripInternal works on TypeScript sources only), so are the `#private;` marks of classes with private fields
// (which a user's tsc refuses below target es2015), and a file's `/// <reference path>` lines are kept
// (runtime/wasm_handle.js's, which brings the global names of runtime/types.d.ts). The hand-written type-only files
// (*/types.d.ts: option and result shapes) are copied beside them. Then checks what a user gets: the entries'
// declarations type-check with --strict and lib es2022 alone, at tsc's default target, and no public member is
// typed `any` (a parameter without a JSDoc type). Exits 1 with tsc's messages on any error; scripts/lint.sh runs it
// (check "types"), scripts/build-package.sh writes dist/ with it. Usage: node scripts/emit-types.mjs [OUTDIR]
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = fileURLToPath(new URL('..', import.meta.url));
const source = join(repo, 'src', 'js');
const outDir = resolve(process.argv[2] ?? join(repo, 'build', 'types'));
const ENTRIES = ['index.d.ts', 'tokenizer.d.ts'];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile(join(source, 'tsconfig.json'), {}, host);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });

function fail(diagnostics) {
  const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => repo, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, format));
  process.exit(1);
}

const isInternal = (node) => ts.getJSDocTags(ts.getOriginalNode(node)).some((tag) => tag.tagName.text === 'internal');

/** Drops declarations tagged @internal (class members, statements) and restores the file's reference paths. */
const stripInternal = (context) => (file) => {
  const visit = (node) => {
    if ((ts.isClassElement(node) || ts.isStatement(node)) && isInternal(node)) {
      return undefined;
    }
    // `#private;`, tsc's mark of a class with private fields, which a user's tsc refuses below target es2015.
    if (ts.isPropertyDeclaration(node) && ts.isPrivateIdentifier(node.name)) {
      return undefined;
    }
    return ts.visitEachChild(node, visit, context);
  };
  const stripped = ts.visitEachChild(file, visit, context);
  const original = program.getSourceFile(ts.getOriginalNode(file).fileName);
  return ts.factory.updateSourceFile(
    stripped,
    stripped.statements,
    true,
    original?.referencedFiles ?? stripped.referencedFiles,
    stripped.typeReferenceDirectives,
    stripped.hasNoDefaultLib,
    stripped.libReferenceDirectives,
  );
};

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  fail(diagnostics);
}

const writeFile = (fileName, text) => {
  if (!fileName.endsWith('.d.ts')) {
    return; // the CommonJS entries' .d.cts come from scripts/generate-cjs-types.mjs
  }
  const target = join(outDir, relative(config.options.outDir, fileName));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
};
const { diagnostics: emitted } = program.emit(undefined, writeFile, undefined, true, {
  afterDeclarations: [stripInternal],
});
if (emitted.length > 0) {
  fail(emitted);
}
// runtime/glue.d.ts, which stands in for the built Emscripten glue, is for tsc over src/js alone.
for (const file of readdirSync(source, { recursive: true }).filter((f) => basename(f) === 'types.d.ts')) {
  mkdirSync(dirname(join(outDir, file)), { recursive: true });
  copyFileSync(join(source, file), join(outDir, file));
}

// What a user's tsc sees: the entries with lib es2022 alone (no DOM, no @types/node), strict, libraries checked.
const published = ts.createProgram({
  rootNames: ENTRIES.map((entry) => join(outDir, entry)),
  options: {
    strict: true,
    noEmit: true,
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES5, // tsc's default
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  },
});
const problems = [...ts.getPreEmitDiagnostics(published)];
const isTaggedInternal = (node) => ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
for (const file of published.getSourceFiles().filter((f) => f.fileName.startsWith(outDir))) {
  const visit = (node, internal) => {
    const inside = internal || isTaggedInternal(node);
    if (node.kind === ts.SyntaxKind.AnyKeyword && !inside) {
      problems.push({
        category: ts.DiagnosticCategory.Error,
        code: 0,
        file,
        start: node.getStart(file),
        length: node.getWidth(file),
        messageText: 'a published declaration is typed `any`: give the JavaScript a JSDoc type',
      });
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(file, false);
}
if (problems.length > 0) {
  fail(problems);
}

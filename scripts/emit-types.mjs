// The package's types come from its JavaScript: type-checks src/js (src/js/tsconfig.json: checkJs, strict, JSDoc
// types) and writes the declarations tsc generates from the JSDoc into OUTDIR, as tsc --declaration
// --emitDeclarationOnly does, with two things tsc leaves undone for JavaScript input: members tagged @internal
// are left out (--stripInternal works on TypeScript sources only), and a file's `/// <reference path>` lines are
// kept (runtime/wasm_handle.js's, which brings the global names of runtime/types.d.ts). The hand-written type-only
// files (*/types.d.ts) are not emitted: scripts/build-package.sh copies them with the rest of src/js. Exits 1 with
// tsc's messages on any error. Usage: node scripts/emit-types.mjs [OUTDIR] (without OUTDIR: check only).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = fileURLToPath(new URL('..', import.meta.url));
const source = join(repo, 'src', 'js');
const outDir = process.argv[2] ? resolve(process.argv[2]) : null;

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
if (outDir !== null) {
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
}

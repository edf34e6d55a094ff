// Minifies an Emscripten glue file in place (mangled local names, compressed code) with the oxc minifier that
// ships in rolldown (Vite's bundler, a dev dependency through vite): Emscripten 3.1.6 only shortens names with
// the Closure Compiler, which is not installed. Run by the wasm build after each link of a package module.
// Usage: node scripts/minify-glue.mjs dist/embedlab-simd.js [...]
import { readFileSync, writeFileSync } from 'node:fs';
import { minify } from 'rolldown/experimental';

for (const file of process.argv.slice(2)) {
  const source = readFileSync(file, 'utf8');
  const { code, errors } = await minify(file, source, { compress: true, mangle: true, module: true });
  if (errors.length > 0) {
    throw new Error(`${file}: ${errors.map((error) => error.message).join('; ')}`);
  }
  writeFileSync(file, code);
}

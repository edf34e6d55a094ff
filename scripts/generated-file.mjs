// The write-or-check step of the scripts that generate committed source files (the Unicode tables): without
// --check, write `text` to `outputPath`; with it, exit 1 when the committed file differs from `text`.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * @param {string} outputPath
 * @param {string} text the freshly generated file
 * @param {string} script the generator, for the message that says how to refresh the file
 * @param {string} source what the file is generated from, for the message that it matches
 */
export function writeOrCheck(outputPath, text, script, source) {
  if (!process.argv.includes('--check')) {
    writeFileSync(outputPath, text);
    console.log(`wrote ${outputPath}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(outputPath, 'utf8');
  } catch {
    // A missing file counts as a difference.
  }
  if (committed !== text) {
    console.error(`${outputPath} is out of date: run node ${script}`);
    process.exit(1);
  }
  console.log(`${basename(outputPath)} matches ${source}`);
}

// README.md and docs/*.md link to each other by relative paths and heading anchors, as GitHub and the npm tarball
// (which ships docs/) show them: every such link must name a file that exists and, after a #, a heading of that file.
// README stays one screen per audience: at most 450 lines, the rest in docs/.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';

import { repoRoot } from './pack.mjs';

const DOCUMENTS = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((file) => `docs/${file}`)].filter((file) =>
  file.endsWith('.md'),
);

/** The lines of a Markdown file outside its fenced code blocks. */
function prose(file) {
  let inFence = false;
  return readFileSync(join(repoRoot, file), 'utf8')
    .split('\n')
    .filter((line) => {
      if (/^ *```/.test(line)) {
        inFence = !inFence;
        return false;
      }
      return !inFence;
    });
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(file) {
  const seen = new Map();
  return prose(file)
    .map((line) => /^#{1,6} +(.*?) *#*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => {
      const slug = match[1]
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      return count === 0 ? slug : `${slug}-${count}`;
    });
}

test('README and docs/ link to files and headings that exist', () => {
  const broken = [];
  let checked = 0;
  for (const file of DOCUMENTS) {
    for (const line of prose(file)) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) {
          continue; // https:, mailto:
        }
        checked++;
        const [path, anchor] = target.split('#');
        const linked = path === '' ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(repoRoot, linked))) {
          broken.push(`${file}: ${target} (no file ${linked})`);
        } else if (anchor !== undefined && !anchors(linked).includes(anchor)) {
          broken.push(`${file}: ${target} (no heading #${anchor} in ${linked})`);
        }
      }
    }
  }
  assert.ok(checked > 50, `links checked: ${checked}`);
  assert.deepEqual(broken, []);
});

test('README stays within 450 lines, and the docs it links to exist', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  assert.ok(readme.split('\n').length <= 450, `README.md has ${readme.split('\n').length} lines`);
  for (const doc of ['guide', 'long-contexts', 'benchmarks', 'developing']) {
    assert.ok(readme.includes(`](docs/${doc}.md`), `README links to docs/${doc}.md`);
  }
});

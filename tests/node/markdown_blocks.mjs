// The fenced code blocks of one section of the project's Markdown (README.md, docs/*.md), for the tests that run
// the examples as written. A section is a heading and everything up to the next heading of the same or a higher
// level, so a "## Runtimes" section holds its "### Node" and "### Cloudflare Workers" subsections; a "#" line
// inside a fenced block is code, not a heading.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './pack.mjs';

const FENCE = /^( *)```(\S*)\s*$/; // a fence may be indented, in a list item
const HEADING = /^(#{1,6}) +(.*?) *#*$/;

/** The lines of `file` (relative to the repository) under `heading` (its text, without the #s), heading excluded. */
export function markdownSection(file, heading) {
  const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
  let inFence = false;
  let level = 0;
  const found = [];
  const section = [];
  for (const line of lines) {
    const match = inFence ? null : HEADING.exec(line);
    if (FENCE.test(line)) {
      inFence = !inFence;
    }
    if (match && level > 0 && match[1].length <= level) {
      level = 0;
    }
    if (match && match[2] === heading) {
      level = match[1].length;
      found.push(line);
    } else if (level > 0) {
      section.push(line);
    }
  }
  assert.equal(found.length, 1, `${file} has one heading "${heading}": ${found.length} found`);
  return section.join('\n');
}

/** The fenced blocks of `language` (the word after the opening ```) in that section, in order, as source text. */
export function fencedBlocks(file, heading, language) {
  const blocks = [];
  let block = null;
  for (const line of markdownSection(file, heading).split('\n')) {
    const fence = FENCE.exec(line);
    if (block === null) {
      if (fence && fence[2] !== '') {
        block = { language: fence[2], indent: fence[1].length, lines: [] };
      }
    } else if (fence && fence[2] === '') {
      if (block.language === language) {
        blocks.push(block.lines.join('\n') + '\n');
      }
      block = null;
    } else {
      block.lines.push(line.slice(Math.min(block.indent, line.length - line.trimStart().length)));
    }
  }
  return blocks;
}

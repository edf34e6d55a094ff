// Section 1's token list, drawn lazily: a tokenizer worker result ({ids, starts, utf8}) holds every token, and the
// list shows the first PAGE_TOKENS of them with a button for the next page, so a pasted book costs a few
// thousand list items, not a million.
import { visibleWhitespace } from '../../ui/format.js';

export const PAGE_TOKENS = 300;
const COLOURS = 5; // token backgrounds cycle through 5 light tints (CSS classes t0..t4)
const decoder = new TextDecoder('utf-8'); // as the library's tokens() gives a token's text: U+FFFD where incomplete

/** Token i of a result: {id, start, end, bytes, text}, as tokenizer.tokens() would give it. */
export function tokenAt({ ids, starts, utf8 }, i) {
  const bytes = utf8.subarray(starts[i], starts[i + 1]);
  return { id: ids[i], start: starts[i], end: starts[i + 1], bytes, text: decoder.decode(bytes) };
}

function item(token, i) {
  const li = document.createElement('li');
  li.className = `token t${i % COLOURS}`;
  li.dataset.id = String(token.id);
  const piece = document.createElement('span');
  piece.className = 'piece';
  piece.textContent = visibleWhitespace(token.text);
  if (token.text.includes('\uFFFD')) {
    li.classList.add('partial');
  }
  const meta = document.createElement('small');
  meta.textContent = `${token.id} · ${token.start}–${token.end}`;
  const hex = Array.from(token.bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
  li.title = `id ${token.id}, bytes ${token.start} to ${token.end}: ${hex}`;
  li.append(piece, meta);
  return li;
}

/** List items of tokens [from, to) of a result. */
export function tokenItems(result, from, to) {
  const items = [];
  for (let i = from; i < Math.min(to, result.ids.length); i++) {
    items.push(item(tokenAt(result, i), i));
  }
  return items;
}

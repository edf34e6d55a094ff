// The text `embedlab bench` and the CLI threads benchmark tokenize when given no file.

// About `bytes` of seeded words of random letters, lengths and case, with digits and punctuation: a text that
// repeats nothing, so no cache of pieces makes the figures look better than on real text. Another `seed`, another
// text.
export function variedText(lab, bytes, seed = 7) {
  const uniforms = lab.randomUniform(bytes, { seed });
  const letters = 'etaoinshrdlucmfwypvbgkjqxz';
  const words = [];
  let length = 0;
  for (let i = 0; length < bytes;) {
    const size = 1 + Math.floor(uniforms[i++ % bytes] * 9);
    let word = '';
    for (let k = 0; k < size; k++) {
      word += letters[Math.floor(uniforms[i++ % bytes] ** 2 * letters.length)];
    }
    const r = uniforms[i++ % bytes];
    word = r < 0.1 ? word[0].toUpperCase() + word.slice(1) : r < 0.15 ? String(Math.floor(r * 1e5)) : word;
    words.push(word + (r > 0.93 ? '. ' : r > 0.88 ? ', ' : ' '));
    length += word.length + 1;
  }
  return words.join('');
}

// The notice a section shows while it uses the vocabulary trained in section 1 instead of a built-in one: what
// changed there, and a button that goes back to the built-in vocabulary in one click.
/**
 * Adds a notice to a section, hidden while a built-in vocabulary is in use. `id` names the notice (prefix it with
 * the section's id: it is also its data-testid); `before` is the element the notice goes in front of; `effect`
 * says what the trained vocabulary changes in that section ("the sentences are cut into its tokens"); `where` names
 * the section ("section 3, the order problem"): four such buttons share a visible text, so their names say which.
 */
export function vocabularyNotice(ctx, { id, before, effect, where }) {
  const notice = document.createElement('div');
  notice.id = id;
  notice.dataset.testid = id;
  notice.className = 'vocab-notice';
  notice.setAttribute('role', 'status');
  notice.hidden = true;
  const text = document.createElement('p');
  text.id = `${id}-text`;
  const back = document.createElement('button');
  back.type = 'button';
  back.dataset.testid = `${id}-back`;
  back.setAttribute('aria-describedby', text.id);
  back.addEventListener('click', async () => {
    back.disabled = true;
    try {
      await ctx.useBuiltInTokenizer();
    } finally {
      back.disabled = false;
    }
  });
  notice.append(text, back);
  before.before(notice);
  const update = () => {
    const trained = ctx.tokenizerName === 'trained';
    notice.hidden = !trained;
    notice.dataset.vocab = ctx.tokenizerName;
    if (trained) {
      text.textContent = `Your vocabulary trained in section 1 (${ctx.tokenizer.vocabSize} tokens) is in use here, not ${ctx.builtInName}: ${effect}.`;
      back.textContent = `Back to ${ctx.builtInName}`;
      back.setAttribute('aria-label', `Back to ${ctx.builtInName} in ${where}`);
    }
  };
  ctx.onTokenizer(update);
  update();
  return notice;
}

// A text box that takes pastes of any size. Chromium lays out all of a textarea's text on the main thread (seconds
// for a few megabytes), so a paste over LARGE_PASTE characters is held here instead: the box shows its beginning,
// read-only, and a note says how much is held; "Edit" goes back to an ordinary box with that beginning.

export const LARGE_PASTE = 100000; // characters
const PREVIEW = 5000; // characters shown of a held text

export class LargePaste {
  #box;
  #note;
  #edit;
  #held = null;

  /** box: the textarea; onChange() is called when the text changes by a held paste or by leaving one. */
  constructor(box, onChange) {
    this.#box = box;
    const row = document.createElement('p');
    row.className = 'note';
    row.hidden = true;
    this.#note = document.createElement('span');
    this.#note.dataset.testid = `${box.id}-held`;
    this.#edit = document.createElement('button');
    this.#edit.type = 'button';
    this.#edit.dataset.testid = `${box.id}-edit`;
    this.#edit.textContent = 'Edit a shorter text';
    this.#edit.addEventListener('click', () => {
      this.#hold(null);
      onChange();
    });
    row.append(this.#note, ' ', this.#edit);
    box.after(row);
    box.addEventListener('paste', (event) => {
      const pasted = event.clipboardData?.getData('text/plain') ?? '';
      const { selectionStart: start, selectionEnd: end, value } = box;
      if (this.#held === null && value.length - (end - start) + pasted.length <= LARGE_PASTE) {
        return; // an ordinary paste: the box takes it and fires 'input'
      }
      event.preventDefault();
      // Pasting into a held text replaces all of it (its preview cannot be edited in place). The preview is made
      // of the pasted string, which is flat: slicing the joined text would copy all of it here.
      const before = this.#held === null ? value.slice(0, start) : '';
      const text = this.#held === null ? before + pasted + value.slice(end) : pasted;
      this.#hold(text, (before.slice(0, PREVIEW) + pasted.slice(0, PREVIEW)).slice(0, PREVIEW));
      onChange();
    });
  }

  /** The whole text: the held one, or the box's. */
  get text() {
    return this.#held ?? this.#box.value;
  }

  /** Replaces the whole text (a held one too); the caller tokenizes it. */
  set text(text) {
    this.#hold(text, text.slice(0, PREVIEW));
  }

  /** Holds `text` if it is large, showing `preview` (its beginning), else makes it the box's editable text. */
  #hold(text, preview) {
    this.#held = text !== null && text.length > LARGE_PASTE ? text : null;
    const held = this.#held !== null;
    this.#box.readOnly = held;
    this.#box.value = held ? preview : (text ?? this.#box.value).slice(0, LARGE_PASTE);
    this.#note.parentElement.hidden = !held;
    this.#note.textContent = held
      ? `The box shows the first ${PREVIEW} of ${this.#held.length} characters pasted; the tokens below are of all of them.`
      : '';
  }
}

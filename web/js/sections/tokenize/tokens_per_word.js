// Section 1's table of tokens per word: the sample texts (sample_texts.js) under each tokenizer of the comparison,
// the counts the comparison worker returns. A row's name is a button that puts its text into the text box.
import { headerCell } from '../../ui/dom.js';
import { grouped } from '../../ui/format.js';
import { SAMPLES, unitsOf } from './sample_texts.js';

/**
 * The table's head and rows: one column per tokenizer (columns: [{key, label}]). A column stays hidden until it is
 * filled: an open model's only once the reader loads it, so that the counted columns fit without scrolling.
 */
export function buildPerWordTable(table, columns, useSample) {
  const head = document.createElement('tr');
  head.append(headerCell('Text', 'col'), headerCell('Words', 'col'));
  for (const { key, label } of columns) {
    const th = headerCell(label, 'col');
    th.dataset.key = key;
    th.hidden = true;
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren(
    ...SAMPLES.map((sample) => {
      const tr = document.createElement('tr');
      tr.dataset.sample = sample.key;
      const th = document.createElement('th');
      th.scope = 'row';
      const use = document.createElement('button');
      use.type = 'button';
      use.className = 'link-button';
      use.textContent = sample.label;
      use.title = `Tokenize this text above: ${sample.text}`;
      use.addEventListener('click', () => useSample(sample.text));
      th.append(use);
      const units = unitsOf(sample);
      const words = document.createElement('td');
      words.textContent = sample.perCharacter ? `${grouped(units)} characters` : grouped(units);
      words.dataset.units = String(units);
      const cells = columns.map(({ key }) => {
        const td = document.createElement('td');
        td.dataset.key = key;
        td.textContent = '—';
        td.hidden = true;
        return td;
      });
      tr.append(th, words, ...cells);
      return tr;
    }),
  );
}

/**
 * Fills the cells of the tokenizers in `results` ({key: {counts}}, counts[i + 1] being SAMPLES[i]'s); in each row
 * the fewest tokens per word are marked.
 */
export function fillPerWordTable(table, results) {
  for (const th of table.tHead.querySelectorAll('th[data-key]')) {
    th.hidden &&= results[th.dataset.key]?.counts === undefined;
  }
  SAMPLES.forEach((sample, i) => {
    const row = table.tBodies[0].rows[i];
    const units = unitsOf(sample);
    for (const td of row.querySelectorAll('td[data-key]')) {
      const count = results[td.dataset.key]?.counts?.[i + 1];
      if (count !== undefined) {
        td.textContent = (count / units).toFixed(2);
        td.dataset.count = String(count);
        td.title = `${count} tokens for ${units} ${sample.perCharacter ? 'characters' : 'words'}`;
        td.hidden = false;
      }
    }
    const filled = [...row.querySelectorAll('td[data-count]')];
    const fewest = Math.min(...filled.map((td) => Number(td.dataset.count)));
    filled.forEach((td) => td.classList.toggle('fewest', Number(td.dataset.count) === fewest));
  });
}

/**
 * Shows `hint` ("scroll sideways") while the table is wider than its scrolling box `box`, on any change of size. The
 * observer's first report (after the next layout) sets it: measured now, the page would be laid out here and again.
 */
export function hintWhenWider(box, hint) {
  const update = () => {
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  };
  const observer = new ResizeObserver(update);
  observer.observe(box);
  observer.observe(box.firstElementChild);
}

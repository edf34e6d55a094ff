// Section 2, trained or frozen: the tiny GPT trained twice from the same start on the same batches, once with its
// token table trained and once with it frozen (lab.createModel's `frozen`), in a worker; loss curves and neighbours.
import { $, numberInputValue, redrawOnResize } from '../dom.js';
import { fixed3, visibleWhitespace } from '../format.js';
import { liveNearest, neighboursText, wordsOf } from '../glove.js';
import { TrainingRow } from '../jobs.js';
import { drawLines, PALETTE } from '../plot.js';

export const RUNS = ['trained', 'frozen'];
const STYLE = { trained: { colour: PALETTE[0] }, frozen: { colour: PALETTE[1], dash: [6, 4] } };

let ctx;
let row;
let losses = { trained: [], frozen: [] };
let results = {}; // run → {wte, valid}
let labels = [];
let isWord = () => true; // which labels get a row in the table (section 2's nouns and verbs)

function drawLoss() {
  drawLines(
    $('embeddings-frozen-loss'),
    RUNS.map((run) => ({ values: losses[run], ...STYLE[run] })),
    { xLabel: 'step', x0: 1 },
  );
}

/** Word, nearest three in the trained table, nearest three in the frozen one. */
function drawNeighbours() {
  if (!results.trained || !results.frozen) {
    return;
  }
  const words = wordsOf(labels);
  const rows = [];
  labels.forEach((label, i) => {
    if (!isWord(label) || words[i] === null) {
      return;
    }
    const tr = document.createElement('tr');
    tr.dataset.word = words[i];
    tr.insertCell().textContent = visibleWhitespace(label);
    for (const run of RUNS) {
      const cell = tr.insertCell();
      cell.dataset.col = run;
      cell.textContent = neighboursText(liveNearest(ctx.lab, words, results[run].wte, i));
    }
    rows.push(tr);
  });
  $('embeddings-frozen-rows').replaceChildren(...rows);
}

async function train() {
  const steps = numberInputValue('embeddings-steps');
  losses = { trained: [], frozen: [] };
  results = {};
  $('embeddings-frozen-rows').replaceChildren();
  const done = await row.run('trainedVsFrozen', { encoding: 'r50k_base', steps }, (m) => {
    if (m.kind === 'data') {
      labels = m.labels;
    } else if (m.kind === 'progress') {
      losses[m.run].push(m.loss);
      row.progress.value = (m.step + (m.run === 'frozen' ? steps : 0)) / (2 * steps);
      row.status.textContent = `${m.run === 'trained' ? 'Table trained' : 'Table frozen'}: step ${m.step} of ${m.steps}, loss ${m.loss.toFixed(3)}`;
      if (m.step % 10 === 0) {
        drawLoss();
      }
    } else if (m.kind === 'run') {
      results[m.run] = m;
    }
  });
  if (!done) {
    return;
  }
  drawLoss();
  drawNeighbours();
  const { trained, frozen } = results;
  const last = (run) => losses[run].at(-1);
  row.done(
    `${steps} steps each, same start and batches. Table trained: final training loss ${fixed3(last('trained'))}, validation ${fixed3(trained.valid)}. Table frozen: ${fixed3(last('frozen'))}, validation ${fixed3(frozen.valid)}.`,
    {
      steps: String(steps),
      trainedLoss: String(last('trained')),
      frozenLoss: String(last('frozen')),
      trainedValid: String(trained.valid),
      frozenValid: String(frozen.valid),
    },
  );
}

/** Starts the section's two runs now; `wordFilter(label)` picks the rows of the neighbour table. */
export function initFrozen(context, wordFilter) {
  ctx = context;
  isWord = wordFilter;
  row = new TrainingRow('embeddings-frozen');
  $('embeddings-frozen-train').addEventListener('click', train);
  redrawOnResize('embeddings', drawLoss);
  return train();
}

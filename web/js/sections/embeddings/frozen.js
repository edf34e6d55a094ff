// Section 2, trained or frozen: the tiny GPT trained twice from the same start on the same batches, once with its
// token table trained and once with it frozen (lab.createModel's `frozen`), in a worker; loss curves and neighbours.
import { $, redrawOnResize } from '../../ui/dom.js';
import { divergenceMessage } from '../../training/divergence.js';
import { fixed3, visibleWhitespace } from '../../ui/format.js';
import { liveNearest, neighboursText, wordsOf } from './glove_text.js';
import { TrainingRow } from '../../workers/jobs_client.js';
import { readNumberInput } from '../../ui/number_input.js';
import { drawLines, PALETTE } from '../../draw/plot.js';

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

/** Both runs at the steps and learning rate of the row above (the same model, trained twice). */
async function train() {
  const steps = readNumberInput('embeddings-steps', 'Steps');
  const learningRate = readNumberInput('embeddings-rate', 'Learning rate');
  if (steps === null || learningRate === null) {
    return;
  }
  losses = { trained: [], frozen: [] };
  results = {};
  $('embeddings-frozen-rows').replaceChildren();
  const params = { encoding: 'r50k_base', steps, options: { learningRate } };
  const done = await row.run('trainedVsFrozen', params, (m) => {
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
  if (done.diverged) {
    const { run, step } = done.diverged;
    const which = run === 'trained' ? 'The run with the table trained' : 'The run with the table frozen';
    row.diverged(
      `${which} diverged at step ${step}: no comparison.`,
      divergenceMessage(done.diverged, learningRate, `${which} is dropped, and the comparison with it.`),
    );
    return;
  }
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

// What `embedlab --help` and `embedlab COMMAND --help` print, from the commands' own descriptions (options.js): the
// whole usage lists every command's line; a command's help has its line, what it does and only its own options.
import { COMMANDS } from './options.js';

const WIDTH = 100;

// `text` in lines of at most WIDTH columns, each after `indent` spaces (the first line's indent already written).
function wrapped(text, indent) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** `embedlab COMMAND ...`: the command's usage line. */
export function usageLine(command) {
  return `usage: embedlab ${COMMANDS[command].usage}`;
}

/** Every command's usage line, and where to read more. */
export function fullUsage() {
  const lines = Object.values(COMMANDS).map(({ usage }) => `  embedlab ${usage}`);
  return `usage:\n${lines.join('\n')}\n${wrapped(
    "embedlab COMMAND --help describes that command and its options; embedlab --version prints the package's version.",
    0,
  )}`;
}

/** Whether the help of `command` reads the loaded library (an option's help is a function of it: its defaults). */
export function helpNeedsLab(command) {
  return Object.values(COMMANDS[command].options).some((option) => typeof option.help === 'function');
}

/**
 * The help of one command: its usage line, what it does, and each of its options.
 * @param {string} command
 * @param {any} [lab] the loaded library, for the commands whose help shows its defaults (helpNeedsLab)
 */
export function commandHelp(command, lab) {
  const { summary, options } = COMMANDS[command];
  const names = Object.entries(options).map(([name, option]) => {
    const flag = option.short === undefined ? `--${name}` : `-${option.short}, --${name}`;
    const help = typeof option.help === 'function' ? option.help(lab) : option.help;
    return [option.type === 'string' ? `${flag} ${option.value}` : flag, help];
  });
  const column = Math.max(0, ...names.map(([flag]) => flag.length)) + 4;
  const lines = [usageLine(command), wrapped(summary, 0)];
  if (names.length > 0) {
    lines.push('options:', ...names.map(([flag, help]) => `  ${flag.padEnd(column - 2)}${wrapped(help, column)}`));
  }
  return lines.join('\n');
}

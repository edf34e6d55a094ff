// A command line the commands cannot run (an unknown option, a missing argument, a value out of range): main.js
// prints its message and the command's usage line on stderr and exits with status 2, where any other error exits 1.
export class UsageError extends Error {
  /** `command`: the command whose usage line follows the message (none: the whole usage). */
  constructor(message, command) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

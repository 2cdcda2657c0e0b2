import { runCommandLine } from './command-line.js';

// The `tessera` command: its arguments run (command-line.ts), and the process exits with the outcome's
// code once nothing is left to do; serve and worker keep running.
runCommandLine(process.argv.slice(2)).then((outcome) => {
  if (outcome !== 'running') process.exitCode = outcome;
});

// Runs a command (`node scripts/plain-when-piped.mjs vitest run`) with NO_COLOR=1 when standard
// output is not a terminal, so logs, CI output and files get plain text instead of ANSI colour
// codes. vitest colours its output unless told otherwise (NO_COLOR, --no-color), terminal or
// not. A NO_COLOR or FORCE_COLOR the caller set is left as it is.

import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/plain-when-piped.mjs <command> [args...]');
  process.exit(2);
}

const env = { ...process.env };
if (!process.stdout.isTTY && env.NO_COLOR === undefined && env.FORCE_COLOR === undefined) {
  env.NO_COLOR = '1';
}

// npm puts node_modules/.bin on PATH for scripts; Windows needs a shell to run its .cmd shims.
const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
// Ctrl-C reaches the child from the terminal by itself; a SIGTERM sent to this process is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('error', (error) => {
  console.error(`could not run ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});

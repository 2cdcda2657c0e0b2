/**
 * A secret the CLI must not take as a flag (it would sit in the shell history and in `ps`): typed
 * at a prompt that does not echo it when stdin is a terminal, else read whole from stdin (a pipe
 * or a file), less one trailing newline.
 */
export async function readSecret(what: string): Promise<string> {
  const secret = process.stdin.isTTY ? await prompt(`${what}: `) : await readAll();
  if (secret === '') throw new Error(`the ${what.toLowerCase()} is empty: give it on stdin or at the prompt`);
  return secret;
}

async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** One line typed at the terminal without echo; Ctrl-C or Ctrl-D on an empty line gives up. */
function prompt(question: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(question);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error: Error | null) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (text: string) => {
      for (const ch of text) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003' || (ch === '\u0004' && typed === '')) return done(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else if (ch >= ' ') typed += ch;
      }
    };
    input.on('data', onData);
  });
}

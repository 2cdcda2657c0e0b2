import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

/**
 * `tessera <args>` from its sources, in a process group of its own (stopping it stops anything it
 * started). Keeps every stdout line and stderr whole; the environment is exactly `env` plus PATH.
 */
export class TesseraProcess {
  readonly lines: string[] = [];
  #stderr = '';
  #partial = '';
  readonly #child: ChildProcess;
  readonly #exit: Promise<number | NodeJS.Signals>;

  constructor(args: string[], env: Record<string, string>) {
    this.#child = spawn(process.execPath, ['--conditions=tessera-source', '--import', 'tsx', MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.#child.stdout?.on('data', (d: Buffer) => {
      const parts = (this.#partial + d.toString('utf8')).split('\n');
      this.#partial = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    this.#child.stderr?.on('data', (d: Buffer) => {
      this.#stderr += d.toString('utf8');
    });
    this.#exit = new Promise((resolve) =>
      this.#child.once('close', (code, signal) => {
        if (this.#partial) this.lines.push(this.#partial);
        resolve(code ?? (signal as NodeJS.Signals));
      }),
    );
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Every stdout line parsed as JSON (throws on the first line that is not). */
  logs(): Record<string, unknown>[] {
    return this.lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
  }

  /** Waits for a stdout line that parses and satisfies `match`; fails if the process ends first. */
  async waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    let exited = false;
    void this.#exit.then(() => {
      exited = true;
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = this.lines.map(parse).find((l) => l !== null && match(l));
      if (found) return found;
      if (exited || Date.now() > deadline) {
        throw new Error(`no such log line; stdout:\n${this.lines.join('\n')}\nstderr:\n${this.#stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The exit code (or the signal that ended it), once it has exited. */
  exited(): Promise<number | NodeJS.Signals> {
    return this.#exit;
  }

  /** Sends `signal` to its process group and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | NodeJS.Signals> {
    const pid = this.#child.pid;
    if (pid !== undefined && this.#child.exitCode === null && this.#child.signalCode === null) {
      try {
        process.kill(-pid, signal);
      } catch {
        // already gone
      }
    }
    return this.#exit;
  }
}

function parse(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

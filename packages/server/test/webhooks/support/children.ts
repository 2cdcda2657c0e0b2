import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from '../../support/runtime.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

/**
 * A `tessera serve` or `tessera worker` process. Started without the bin wrapper, so SIGKILL hits
 * the process that does the work. Its JSON log lines are kept (`lines`).
 */
export class TesseraProcess {
  readonly lines: string[] = [];
  #stderr = '';
  readonly #child: ChildProcess;

  private constructor(args: string[], env: Record<string, string>) {
    this.#child = spawn(process.execPath, ['--conditions=tessera-source', '--import', 'tsx', MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', TESSERA_SECRET: TEST_SECRET, TESSERA_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    this.#child.stdout?.on('data', (d: Buffer) => {
      const text = partial + d.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      this.lines.push(...parts.filter(Boolean));
    });
    this.#child.stderr?.on('data', (d: Buffer) => {
      this.#stderr += d.toString('utf8');
    });
  }

  /** `tessera serve --port <port>`, once /healthz answers. */
  static async serve(port: number, env: Record<string, string>): Promise<TesseraProcess> {
    const p = new TesseraProcess(['serve', '--port', String(port)], env);
    await p.#ready(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    });
    return p;
  }

  /** `tessera worker`, once it logged that it started (needs TESSERA_LOG_LEVEL info or debug). */
  static async worker(env: Record<string, string>): Promise<TesseraProcess> {
    const p = new TesseraProcess(['worker'], env);
    await p.#ready(async () => p.lines.some((l) => l.includes('webhook delivery worker started')));
    return p;
  }

  async #ready(check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.#child.exitCode !== null) throw new Error(`tessera exited: ${this.#output()}`);
      if (await check()) return;
      if (Date.now() > deadline) throw new Error(`tessera did not start: ${this.#output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Everything it wrote: a crash is a JSON line at level fatal on stdout, among the others. */
  #output(): string {
    return [this.#stderr, ...this.lines].filter(Boolean).join('\n');
  }

  /** The parsed JSON log lines. */
  logs(): Record<string, unknown>[] {
    return this.lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /** Whether the process is still running (it has neither exited nor been killed). */
  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** What the process wrote on stderr: nothing, since its every line is a JSON log line on stdout. */
  get stderr(): string {
    return this.#stderr;
  }

  kill(signal: NodeJS.Signals): Promise<void> {
    return new Promise((resolve) => {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) return resolve();
      this.#child.once('exit', () => resolve());
      this.#child.kill(signal);
    });
  }
}

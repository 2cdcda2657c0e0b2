/**
 * Calls running at once, in all and per key (a host, an origin, an org), under caps: a call over
 * a cap is refused at once, never queued. The outbound fetchers (client metadata documents,
 * connections' providers) and the per-org cap of connections' calls share it.
 */
export class CallsInFlight {
  #total = 0;
  readonly #perKey = new Map<string, number>();

  /**
   * Runs `call` as one more call on `key` when fewer than `max` run in all and fewer than
   * `maxPerKey` on `key`; otherwise returns `refused` without running it.
   */
  async run<T>(
    key: string,
    caps: { max: number; maxPerKey: number },
    call: () => Promise<T>,
    refused: (over: 'total' | 'key') => T | Promise<T>,
  ): Promise<T> {
    const onKey = this.#perKey.get(key) ?? 0;
    if (this.#total >= caps.max) return refused('total');
    if (onKey >= caps.maxPerKey) return refused('key');
    this.#total++;
    this.#perKey.set(key, onKey + 1);
    try {
      return await call();
    } finally {
      this.#total--;
      const left = (this.#perKey.get(key) ?? 1) - 1;
      if (left === 0) this.#perKey.delete(key);
      else this.#perKey.set(key, left);
    }
  }
}

import { clock } from '../../src/domain/clock.js';

/**
 * Runs `work` with the domain's clock `ms` ahead of the real one (still moving), and puts the clock
 * back afterwards, whether `work` succeeded or not.
 */
export async function withClockAhead<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const real = clock.now;
  clock.now = () => real() + ms;
  try {
    return await work();
  } finally {
    clock.now = real;
  }
}

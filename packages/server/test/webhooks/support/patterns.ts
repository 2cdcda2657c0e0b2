/** The verbs of routing keys (spec "Events"). */
export const VERBS = ['created', 'updated', 'deleted', 'login'];

/**
 * 10,000 patterns: 200 webhooks × 50, literals over 500 entity types, `entity.*`, `*.verb` and a few
 * catch-all `#`. Shared by the matcher test and bench/webhooks, so both measure the same table.
 */
export function tenThousandPatterns(): { id: string; events: string[] }[] {
  return Array.from({ length: 200 }, (_, w) => ({
    id: `whk_${w}`,
    events: Array.from({ length: 50 }, (_, p) => {
      const n = w * 50 + p;
      if (n % 997 === 0) return '#';
      if (n % 7 === 0) return `entity${n % 500}.*`;
      if (n % 11 === 0) return `*.${VERBS[n % 4]}`;
      return `entity${n % 500}.${VERBS[n % 4]}`;
    }),
  }));
}

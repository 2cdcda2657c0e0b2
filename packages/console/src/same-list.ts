/** Whether two lists hold the same values in the same order: an edit form sends a list only when it changed. */
export const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

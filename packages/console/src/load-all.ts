/** Several loads at once: each answer under the name its promise has, once all have answered. */
export async function loadAll<T extends object>(loads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const answers = await Promise.all(Object.entries(loads).map(async ([name, load]) => [name, await load]));
  return Object.fromEntries(answers) as T;
}

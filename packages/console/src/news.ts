/**
 * A line for the next screen to announce once (a thing just deleted, on its list): kept in this tab's
 * memory only, and gone once taken.
 */
export function oneTimeNews() {
  let line: string | null = null;
  return {
    set: (news: string) => {
      line = news;
    },
    take: (): string | null => {
      const news = line;
      line = null;
      return news;
    },
  };
}

/** A line kept for the next screen to announce once (oneTimeNews). */
export type OneTimeNews = ReturnType<typeof oneTimeNews>;

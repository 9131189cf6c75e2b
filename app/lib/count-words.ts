// Counts in words for the back office: "1 lead", "3 leads", "1,204 leads" (never "1 rows").

/** `count` and the noun that goes with it; `plural` for nouns that do not just add an s. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString("en-GB")} ${count === 1 ? singular : plural}`;
}

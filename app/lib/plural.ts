/** "1 day", "5 days": a count with its noun in the right number (English; `many` for irregular plurals). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

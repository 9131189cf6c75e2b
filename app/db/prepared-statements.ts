import { type RawBuilder, sql } from "kysely";

// A statement that starts with this mark is sent to PostgreSQL as a named prepared statement: parsed,
// analysed and planned once per connection instead of on every call. On the lead submission path
// that was most of PostgreSQL's work: replaying a website lead's statements on one connection took
// about 780 µs of the backend's CPU per lead unnamed and 420 µs prepared (issue 32 point 17,
// docs/performance.md). SQLite reads the mark as a comment.
const MARK = "/* prepared */ ";

/** Put first in a hot statement whose text is one of a few fixed shapes (the values are parameters). */
export const preparedOnPostgres: RawBuilder<unknown> = sql.raw(MARK);

// Each distinct text gets a name of its own for the life of the process (a connection keeps every
// statement it prepared). The cap keeps a statement that was marked by mistake but built with its
// values in the text from growing every connection without bound: past it, texts go unnamed.
const MAX_NAMED_TEXTS = 64;
const names = new Map<string, string>();

/** The prepared statement's name for this text, or undefined when it is not marked (or past the cap). */
export function preparedStatementName(text: string): string | undefined {
  if (!text.startsWith(MARK)) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_TEXTS) {
    name = `clausebridge_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

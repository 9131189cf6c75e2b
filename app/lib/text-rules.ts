// What text from outside may contain (issue 9 point 6, ADR 009). Shared by the browser's instant
// checks and the server's final word. NUL breaks PostgreSQL text and C0/C1 controls have no place in
// a name or an address; bidirectional overrides can make a name or an email read differently from
// what it is (the "Trojan Source" trick), so they are refused where staff judge a lead by its text.

/**
 * C0 and C1 control characters, DEL, and the Unicode line and paragraph separators (a line break by
 * another name): refused in one-line fields.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const ONE_LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The same, but tab, line feed and carriage return are allowed (message boxes: forms send CRLF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const MULTI_LINE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export type TextRule = "one-line" | "multi-line" | "one-line-no-bidi" | "no-nul";

/** True when `value` breaks the rule: such input is refused with the field's own 400 message. */
export function breaksTextRule(value: string, rule: TextRule): boolean {
  switch (rule) {
    case "one-line":
      return ONE_LINE_CONTROLS.test(value);
    case "one-line-no-bidi":
      return ONE_LINE_CONTROLS.test(value) || BIDI_CONTROLS.test(value);
    case "multi-line":
      return MULTI_LINE_CONTROLS.test(value);
    case "no-nul":
      return value.includes("\u0000");
  }
}

// The back office's plain e-mails (alerts, meetings): lines of text, and the same lines as HTML
// paragraphs with everything a person typed escaped.

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The lines as a minimal HTML document, one paragraph a non-empty line. */
export function linesAsHtml(lines: readonly string[]): string {
  return `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${lines
    .filter(Boolean)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join("")}</body></html>`;
}

/** More than any password (256 characters) and its confirmation, even in 4-byte UTF-8. */
export const MAX_PIPED_BYTES = 4 * 1024;

export class PipedPasswordError extends Error {}

/**
 * The password in piped input (issue 9 point 10): the first line; an optional second line must
 * repeat it (a confirmation, as the prompt asks twice). One trailing newline is not part of the
 * password. Anything else is refused rather than guessed at: a password joined from several lines
 * could never be typed into the sign-in form.
 */
export function passwordFromPipedText(text: string): string {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length > 2) {
    throw new PipedPasswordError(
      `The input has ${lines.length} lines: give the password on the first line and, optionally, the same password again on the second.`,
    );
  }
  const [password = "", confirmation] = lines;
  if (confirmation !== undefined && confirmation !== password)
    throw new PipedPasswordError("The two passwords differ.");
  return password;
}

/** Reads piped input up to MAX_PIPED_BYTES (refusing more without buffering it) and takes its password. */
export async function readPipedPassword(input: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    bytes += buffer.byteLength;
    if (bytes > MAX_PIPED_BYTES) {
      throw new PipedPasswordError(
        `The input is longer than ${MAX_PIPED_BYTES / 1024} KB: pipe the password alone, on one line.`,
      );
    }
    chunks.push(buffer);
  }
  return passwordFromPipedText(Buffer.concat(chunks).toString("utf8"));
}

import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// Test-only: a plain SMTP server on loopback that records each message it accepts, for the tests
// that follow a lead email, a notice or an alert through the outbox to a real mail server. It can
// refuse (451) or answer late, to test the outbox's retries and leases.

export type ReceivedMail = {
  /** The envelope's recipients. */
  to: string[];
  /** Unfolded headers, by lower-case name. */
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  /** The decoded text/plain part, with \n line ends. */
  text: string;
  raw: string;
};

export type SmtpBehaviour = { refuse: boolean; delayMs: number };

export type TestSmtp = {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Change it at any time: each message's answer reads it when the message has arrived. */
  behaviour: SmtpBehaviour;
  /** Resolves when the next message's DATA has started arriving. */
  nextData(): Promise<void>;
  close(): Promise<void>;
};

/** Headers (unfolded, lower-case names) and the decoded text/plain part: enough to check what people read. */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = rest.join("\r\n\r\n");
  const part =
    /Content-Type: text\/plain[^\r\n]*\r\nContent-Transfer-Encoding: ([\w-]+)\r\n\r\n([\s\S]*?)\r\n--/i.exec(
      body,
    );
  const [, encoding = "7bit", content = ""] = part ?? [];
  const text =
    encoding.toLowerCase() === "quoted-printable"
      ? Buffer.from(
          content
            .replace(/=\r\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        ).toString("utf8")
      : encoding.toLowerCase() === "base64"
        ? Buffer.from(content, "base64").toString("utf8")
        : content;
  return { headers, text: text.replace(/\r\n/g, "\n") };
}

/**
 * The first MIME part of `raw` whose type starts with `type` ("text/calendar"), decoded, with its
 * Content-Type line (e.g. `text/calendar; charset=utf-8; method=REQUEST`); null when there is none.
 */
export function mimePart(raw: string, type: string): { contentType: string; content: string } | null {
  const unfolded = raw.replace(/\r\n[ \t]+/g, " ");
  const pattern = new RegExp(
    `Content-Type: (${type.replace("/", "\\/")}[^\\r\\n]*)\\r\\n(?:[\\w-]+: [^\\r\\n]*\\r\\n)*?Content-Transfer-Encoding: ([\\w-]+)\\r\\n(?:[\\w-]+: [^\\r\\n]*\\r\\n)*\\r\\n([\\s\\S]*?)\\r\\n--`,
    "i",
  );
  const match = pattern.exec(unfolded);
  if (!match) return null;
  const [, contentType = "", encoding = "7bit", body = ""] = match;
  const content =
    encoding.toLowerCase() === "base64"
      ? Buffer.from(body, "base64").toString("utf8")
      : encoding.toLowerCase() === "quoted-printable"
        ? Buffer.from(
            body
              .replace(/=\r\n/g, "")
              .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            "latin1",
          ).toString("utf8")
        : body;
  return { contentType, content };
}

/** Listens on `port` (0: any free one) on 127.0.0.1. */
export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const behaviour: SmtpBehaviour = { refuse: false, delayMs: 0 };
  let dataStarted: (() => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: without this, nodemailer upgrades to TLS and rejects the self-signed cert.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 500,
    onData(stream, session, callback) {
      dataStarted?.();
      dataStarted = undefined;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        setTimeout(() => {
          if (behaviour.refuse) {
            callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
            return;
          }
          const raw = Buffer.concat(chunks).toString("utf8");
          const { headers, text } = parseMail(raw);
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            headers,
            subject: headers.get("subject") ?? "",
            messageId: headers.get("message-id") ?? "",
            text,
            raw,
          });
          callback();
        }, behaviour.delayMs);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    behaviour,
    nextData: () => new Promise((resolve) => (dataStarted = resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

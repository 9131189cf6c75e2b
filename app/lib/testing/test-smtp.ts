import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// Test-only: a plain SMTP server on loopback that records each message it accepts, for the tests
// that follow a notice or an alert through the outbox to a real mail server.

export type ReceivedMail = {
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
};

export type TestSmtp = {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
};

/** A header's value, with folded continuation lines unfolded. */
export function mailHeader(raw: string, name: string): string {
  return new RegExp(`^${name}: *(.*)$`, "im").exec(raw.replace(/\r\n[ \t]+/g, " "))?.[1]?.trim() ?? "";
}

export function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: without this, nodemailer upgrades to TLS and rejects the self-signed cert.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 500,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        raw += chunk;
      });
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: mailHeader(raw, "Subject"),
          messageId: mailHeader(raw, "Message-ID"),
          raw,
        });
        callback();
      });
    },
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
        received,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

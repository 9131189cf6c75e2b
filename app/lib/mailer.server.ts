import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

/** What the outbox needs from a mail transport; tests can pass their own. */
export type MailTransport = {
  sendMail(message: nodemailer.SendMailOptions): Promise<unknown>;
  close(): void;
};

/**
 * nodemailer's defaults wait up to two minutes for a connection and ten for an idle socket; a mail
 * server that accepts the connection and then says nothing would hold the worker that long.
 */
export const SMTP_TIMEOUT_MS = 10_000;

/**
 * An SMTP transport from SMTP_URL: `smtps://` is TLS from the first byte (port 465 by default),
 * `smtp://` upgrades with STARTTLS when the server offers it (port 587 by default). User and
 * password come from the URL, percent-decoded.
 */
export function createMailTransport(smtpUrl: string, timeoutMs: number = SMTP_TIMEOUT_MS): MailTransport {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Messages carry visitor-typed text: never let any of it be read as a file path or URL to fetch.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  return nodemailer.createTransport(options);
}

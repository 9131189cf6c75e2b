import type { Lead } from "./lead-repository.server.ts";

export type LeadEmailSettings = {
  /** MAIL_FROM */
  from: string;
  /** LEAD_NOTIFICATION_TO */
  to: string;
  /** PUBLIC_URL, for the link to the dashboard; no link without it. */
  publicUrl?: string;
};

/** The parts of a nodemailer message this email uses (nodemailer.SendMailOptions accepts it). */
export type LeadEmail = {
  from: string;
  to: string;
  replyTo: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
};

const INVESTOR_TYPE_LABELS = {
  angel: "Angel investor",
  vc: "Venture capital",
  introducer: "Introducer",
  other: "Other",
} as const;

/**
 * The email sales receive for a new lead: every field the visitor entered, where they came from and
 * when, with Reply-To set to the visitor so answering the email answers them.
 */
export function composeLeadEmail(lead: Lead, settings: LeadEmailSettings, outboxId: number): LeadEmail {
  const kind = lead.requestType === "investor" ? "New investor interest" : "New demo request";
  const fields = leadFields(lead);
  const dashboard = settings.publicUrl ? `${settings.publicUrl.replace(/\/+$/, "")}/admin/dashboard` : null;
  const intro = `${kind} from the website.`;

  const width = Math.max(...fields.map(([label]) => label.length)) + 2;
  const text = [
    intro,
    "",
    ...fields.map(([label, value]) =>
      /[\r\n]/.test(value) ? `${label}:\n${indent(value)}` : `${`${label}:`.padEnd(width)}${value}`,
    ),
    "",
    ...(dashboard ? [`Open the dashboard: ${dashboard}`, ""] : []),
    "Reply to this email to answer the sender directly.",
    "",
  ].join("\n");

  const html = [
    "<!doctype html>",
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(intro)}</p>`,
    '<table cellpadding="4" style="border-collapse: collapse">',
    ...fields.map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td style="white-space: pre-wrap">${escapeHtml(value)}</td></tr>`,
    ),
    "</table>",
    ...(dashboard ? [`<p><a href="${escapeHtml(dashboard)}">Open the dashboard</a></p>`] : []),
    "<p>Reply to this email to answer the sender directly.</p>",
    "</body></html>",
  ].join("\n");

  return {
    from: settings.from,
    to: settings.to,
    replyTo: { name: oneLine(lead.fullName), address: oneLine(lead.email) },
    subject: oneLine(`${kind}: ${lead.fullName}, ${lead.company}`),
    text,
    html,
    messageId: `<lead-${lead.id}.outbox-${outboxId}@${mailDomain(settings.from)}>`,
    // RFC 3834: out-of-office replies from the sales mailbox would otherwise go to the visitor.
    headers: { "Auto-Submitted": "auto-generated" },
  };
}

function leadFields(lead: Lead): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ["Name", lead.fullName],
    ["Email", lead.email],
    ["Company", lead.company],
    ["Phone", lead.phone],
  ];
  if (lead.requestType === "investor") {
    const types = (Object.keys(INVESTOR_TYPE_LABELS) as Array<keyof typeof INVESTOR_TYPE_LABELS>)
      .filter((key) => lead.investorType[key])
      .map((key) => INVESTOR_TYPE_LABELS[key]);
    fields.push(["Investor type", types.length > 0 ? types.join(", ") : "(none ticked)"]);
    if (lead.otherDetails) fields.push(["Other details", lead.otherDetails]);
  }
  fields.push(
    ["Message", lead.message ?? "(none)"],
    ["Source page", lead.sourcePage ?? "(unknown)"],
    ["Received", formatReceived(lead.createdAt)],
    ["Lead ID", String(lead.id)],
  );
  return fields;
}

/** UK time, as sales read it, with the zone named so GMT and BST are never confused. */
function formatReceived(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: "Europe/London",
  }).format(new Date(iso));
}

/** The domain of MAIL_FROM ("Name <no-reply@example.com>" → example.com), for Message-IDs. */
export function mailDomain(from: string): string {
  return /@([^\s<>@]+?)>?\s*$/.exec(from)?.[1] ?? "localhost";
}

/**
 * Header values on one line. nodemailer already folds line breaks into spaces; doing it here as well
 * keeps a visitor's CR/LF from ever reaching a header, whatever the transport.
 */
function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

function indent(value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => `  ${line}`)
    .join("\n");
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

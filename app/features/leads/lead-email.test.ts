import { describe, expect, it } from "vitest";
import { composeLeadEmail, mailDomain } from "./lead-email.ts";
import type { Lead } from "./lead-repository.server.ts";

const investor: Lead = {
  id: 42,
  requestType: "investor",
  type: "investor",
  fullName: "Jonas Berg",
  email: "jonas@nordicangels.se",
  company: "Nordic Angels",
  phone: "+46 70 123",
  message: "Investor interest from landing page",
  investorType: { angel: true, vc: false, introducer: true, other: true },
  otherDetails: "Family office",
  sourcePage: "/invest",
  source: "form",
  privacyNoticeVersion: "2025-04-01",
  policyVersion: "2025-04-01",
  isSpam: false,
  spamReason: null,
  spamScore: 0,
  spamReasons: [],
  spamLevel: "clean",
  ownerId: null,
  status: "new",
  createdAt: "2026-07-01T10:05:00.000Z",
  updatedAt: "2026-07-01T10:05:00.000Z",
};

const settings = { from: "Website <no-reply@clausebridge.co.uk>", to: "sales@clausebridge.co.uk" };

describe("lead email", () => {
  it("addresses sales, replies to the visitor and names the kind of lead in the subject", () => {
    const email = composeLeadEmail(investor, settings, 7);
    expect(email).toMatchObject({
      from: settings.from,
      to: settings.to,
      replyTo: { name: "Jonas Berg", address: "jonas@nordicangels.se" },
      subject: "New investor interest: Jonas Berg, Nordic Angels",
      messageId: "<lead-42.outbox-7@clausebridge.co.uk>",
    });
  });

  it("lists every field, the investor types ticked and the time in UK time", () => {
    const { text } = composeLeadEmail(investor, settings, 7);
    expect(text).toBe(
      [
        "New investor interest from the website.",
        "",
        "Name:          Jonas Berg",
        "Email:         jonas@nordicangels.se",
        "Company:       Nordic Angels",
        "Phone:         +46 70 123",
        "Investor type: Angel investor, Introducer, Other",
        "Other details: Family office",
        "Message:       Investor interest from landing page",
        "Source page:   /invest",
        "Received:      1 July 2026 at 11:05 BST",
        "Lead ID:       42",
        "",
        "Reply to this email to answer the sender directly.",
        "",
      ].join("\n"),
    );
  });

  it("links to the dashboard only when PUBLIC_URL is known", () => {
    const withUrl = composeLeadEmail(investor, { ...settings, publicUrl: "https://example.test/" }, 7);
    expect(withUrl.text).toContain("Open the dashboard: https://example.test/admin/dashboard");
    expect(withUrl.html).toContain('<a href="https://example.test/admin/dashboard">');
    expect(composeLeadEmail(investor, settings, 7).html).not.toContain("dashboard");
  });

  it("escapes every value in the HTML part", () => {
    const hostile = {
      ...investor,
      company: `<script>alert("x")</script> & 'Sons'`,
      otherDetails: "<b>bold</b>",
    };
    const { html } = composeLeadEmail(hostile, settings, 7);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Sons&#39;");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toMatch(/<script|<b>/);
  });

  it("puts header values on one line", () => {
    const email = composeLeadEmail({ ...investor, fullName: "Eve\r\nBcc: x@example.com" }, settings, 7);
    expect(email.subject).toBe("New investor interest: Eve Bcc: x@example.com, Nordic Angels");
    expect(email.replyTo.name).toBe("Eve Bcc: x@example.com");
  });

  it("takes the Message-ID domain from MAIL_FROM", () => {
    expect(mailDomain("Clausebridge website <no-reply@localhost>")).toBe("localhost");
    expect(mailDomain("alerts@mail.example.com")).toBe("mail.example.com");
    expect(mailDomain("no address")).toBe("localhost");
  });
});

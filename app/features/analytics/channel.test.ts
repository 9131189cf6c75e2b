import { describe, expect, it } from "vitest";
import { channelOf, type VisitSource } from "./channel.ts";

const visit = (overrides: Partial<VisitSource> = {}): VisitSource => ({
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  paidClick: false,
  referrerHost: null,
  referrerPath: null,
  ...overrides,
});
const from = (host: string, path = "/") => ({ referrerHost: host, referrerPath: path });

describe("channelOf, the documented rules in order", () => {
  it("is Paid for a click id or a paid medium, whatever else the visit carries", () => {
    expect(channelOf(visit({ paidClick: true }))).toBe("Paid");
    expect(channelOf(visit({ paidClick: true, ...from("www.google.com") }))).toBe("Paid");
    for (const medium of ["cpc", "PPC", "paid", "paid_social", "paidsearch", "display", "cpm"])
      expect(channelOf(visit({ utmSource: "google", utmMedium: medium })), medium).toBe("Paid");
  });

  it("is Email for the email and newsletter mediums, even when a webmail referred the click", () => {
    expect(channelOf(visit({ utmSource: "newsletter", utmMedium: "email", utmCampaign: "launch" }))).toBe(
      "Email",
    );
    expect(channelOf(visit({ utmMedium: "Newsletter", ...from("mail.google.com") }))).toBe("Email");
    expect(channelOf(visit({ utmMedium: "e-mail" }))).toBe("Email");
  });

  it("is Social for a social medium or a social network's referral, subdomains included", () => {
    expect(channelOf(visit({ utmSource: "linkedin", utmMedium: "social" }))).toBe("Social");
    expect(channelOf(visit(from("l.facebook.com", "/l.php")))).toBe("Social");
    expect(channelOf(visit(from("t.co", "/abc")))).toBe("Social");
    expect(channelOf(visit(from("www.linkedin.com", "/feed/")))).toBe("Social");
  });

  it("is Campaign for any other UTM value", () => {
    expect(channelOf(visit({ utmCampaign: "spring" }))).toBe("Campaign");
    expect(channelOf(visit({ utmSource: "partner-site" }))).toBe("Campaign");
    expect(channelOf(visit({ utmSource: "google", utmMedium: "organic", ...from("www.google.com") }))).toBe(
      "Campaign",
    );
  });

  it("is Organic search for a search engine's referral, on any of its country domains", () => {
    for (const host of [
      "www.google.com",
      "www.google.co.uk",
      "google.de",
      "www.bing.com",
      "duckduckgo.com",
      "yandex.ru",
      "search.brave.com",
    ])
      expect(channelOf(visit(from(host))), host).toBe("Organic search");
  });

  it("is Referral for any other site, and not for a look-alike of a search engine or network", () => {
    expect(channelOf(visit(from("news.ycombinator.com", "/item")))).toBe("Referral");
    expect(channelOf(visit(from("notgoogle.com")))).toBe("Referral");
    expect(channelOf(visit(from("facebook.com.example.org")))).toBe("Referral");
  });

  it("is Direct with nothing to go on, and an internal move (this site's host, no path) is nothing", () => {
    expect(channelOf(visit())).toBe("Direct");
    expect(channelOf(visit({ referrerHost: "www.clausebridge.co.uk", referrerPath: null }))).toBe("Direct");
  });
});

import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_URL_LENGTH, parseCreateWebhook, WEBHOOK_MESSAGES } from "./webhook-schema.ts";

describe("parseCreateWebhook", () => {
  const events = ["lead.created"];

  it("keeps an http(s) URL without its fragment, and the events once each in the documented order", () => {
    expect(
      parseCreateWebhook({
        url: "  https://crm.example.com/hooks?token=abc#section ",
        events: ["lead.deleted", "lead.created", "lead.deleted"],
      }),
    ).toEqual({
      success: true,
      data: { url: "https://crm.example.com/hooks?token=abc", events: ["lead.created", "lead.deleted"] },
    });
    expect(parseCreateWebhook({ url: "http://10.1.2.3:8080/in", events })).toMatchObject({ success: true });
  });

  it("refuses other schemes, bare hosts, credentials, controls and over-long URLs with the field's message", () => {
    const urlError = (url: unknown) => {
      const parsed = parseCreateWebhook({ url, events });
      return parsed.success ? null : parsed.errors.url;
    };
    expect(urlError("")).toBe(WEBHOOK_MESSAGES.urlRequired);
    expect(urlError(undefined)).toBe(WEBHOOK_MESSAGES.urlRequired);
    expect(urlError("crm.example.com/hooks")).toBe(WEBHOOK_MESSAGES.urlInvalid);
    expect(urlError("ftp://crm.example.com/")).toBe(WEBHOOK_MESSAGES.urlInvalid);
    expect(urlError("javascript:alert(1)")).toBe(WEBHOOK_MESSAGES.urlInvalid);
    expect(urlError("https://user:pass@crm.example.com/")).toBe(WEBHOOK_MESSAGES.urlCredentials);
    expect(urlError("https://crm.example.com/a\u0000b")).toBe(WEBHOOK_MESSAGES.urlControl);
    expect(urlError("https://crm.example.com/a b")).toBe(WEBHOOK_MESSAGES.urlControl);
    expect(urlError(`https://crm.example.com/${"a".repeat(MAX_WEBHOOK_URL_LENGTH)}`)).toBe(
      WEBHOOK_MESSAGES.urlTooLong,
    );
  });

  it("needs at least one known event", () => {
    const eventsError = (value: unknown) => {
      const parsed = parseCreateWebhook({ url: "https://crm.example.com/", events: value });
      return parsed.success ? null : parsed.errors.events;
    };
    expect(eventsError([])).toBe(WEBHOOK_MESSAGES.eventsRequired);
    expect(eventsError(undefined)).toBe(WEBHOOK_MESSAGES.eventsRequired);
    expect(eventsError(["lead.exploded"])).toBe(WEBHOOK_MESSAGES.eventsInvalid);
  });
});

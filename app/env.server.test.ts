import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server.ts";

describe("parseEnv", () => {
  it("gives the documented defaults", () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: 3000,
      TRUST_PROXY: 0,
      HSTS: "auto",
      LOG_LEVEL: "info",
      DATABASE_POOL_SIZE: 10,
      DATABASE_WAIT_MS: 5000,
      SQLITE_SYNCHRONOUS: "NORMAL",
      LEAD_RATE_LIMIT: 10,
      LEAD_RATE_WINDOW_SECONDS: 600,
      API_KEY_RATE_LIMIT: 600,
      LEAD_MIN_FILL_SECONDS: 3,
      SESSION_IDLE_MINUTES: 120,
      SESSION_MAX_HOURS: 24,
      STAFF_2FA_REQUIRED: false,
      ACCESS_LOG_DAYS: 365,
      MAIL_FROM: "Clausebridge website <no-reply@localhost>",
      AUDIT_ALLOW_PRIVATE_TARGETS: false,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      CALDAV_ALLOW_PRIVATE_TARGETS: false,
      AUDIT_MAX_RUNNING: 2,
      AUDIT_MAX_QUEUED: 4,
      WATCH_POLL_SECONDS: 30,
      ANALYTICS: "on",
      ANALYTICS_RAW_DAYS: 30,
      LEAD_RETENTION_MONTHS: 24,
      SPAM_RETENTION_DAYS: 30,
      OUTBOX_RETENTION_DAYS: 90,
    });
  });

  it("bounds the retention periods to whole months or days, and names the bad one", () => {
    expect(
      parseEnv({ LEAD_RETENTION_MONTHS: "36", SPAM_RETENTION_DAYS: "14", OUTBOX_RETENTION_DAYS: "365" }),
    ).toMatchObject({ LEAD_RETENTION_MONTHS: 36, SPAM_RETENTION_DAYS: 14, OUTBOX_RETENTION_DAYS: 365 });
    for (const [key, bad] of [
      ["LEAD_RETENTION_MONTHS", "0"],
      ["LEAD_RETENTION_MONTHS", "241"],
      ["LEAD_RETENTION_MONTHS", "1.5"],
      ["SPAM_RETENTION_DAYS", "366"],
      ["SPAM_RETENTION_DAYS", "month"],
      ["OUTBOX_RETENTION_DAYS", "0"],
    ] as const)
      expect(() => parseEnv({ [key]: bad }), `${key}=${bad}`).toThrowError(
        new RegExp(`${key}: ${key} must be`),
      );
  });

  it("keeps raw page views 1 to 3650 days, whole days only", () => {
    expect(parseEnv({ ANALYTICS_RAW_DAYS: "90" }).ANALYTICS_RAW_DAYS).toBe(90);
    for (const bad of ["0", "2.5", "3651", "month"])
      expect(() => parseEnv({ ANALYTICS_RAW_DAYS: bad }), bad).toThrowError(
        /ANALYTICS_RAW_DAYS: ANALYTICS_RAW_DAYS must be/,
      );
  });

  it("turns analytics off with ANALYTICS=off and refuses other values", () => {
    expect(parseEnv({ ANALYTICS: "off" }).ANALYTICS).toBe("off");
    expect(() => parseEnv({ ANALYTICS: "false" })).toThrowError(/ANALYTICS: ANALYTICS must be on or off/);
  });

  it("bounds the audit limits: at least one running, a queue of zero or more", () => {
    expect(parseEnv({ AUDIT_MAX_RUNNING: "1", AUDIT_MAX_QUEUED: "0" })).toMatchObject({
      AUDIT_MAX_RUNNING: 1,
      AUDIT_MAX_QUEUED: 0,
    });
    expect(() => parseEnv({ AUDIT_MAX_RUNNING: "0" })).toThrowError(/AUDIT_MAX_RUNNING/);
    expect(() => parseEnv({ AUDIT_MAX_QUEUED: "-1" })).toThrowError(/AUDIT_MAX_QUEUED/);
  });

  it("reads the audits' private-target switch as a boolean and refuses other spellings", () => {
    expect(parseEnv({ AUDIT_ALLOW_PRIVATE_TARGETS: "true" }).AUDIT_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(parseEnv({ AUDIT_ALLOW_PRIVATE_TARGETS: "false" }).AUDIT_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(() => parseEnv({ AUDIT_ALLOW_PRIVATE_TARGETS: "yes" })).toThrowError(
      /AUDIT_ALLOW_PRIVATE_TARGETS: AUDIT_ALLOW_PRIVATE_TARGETS must be true or false/,
    );
  });

  it("takes CHROMIUM_PATH as an absolute path only, so a typo says so at start-up", () => {
    expect(parseEnv({}).CHROMIUM_PATH).toBeUndefined();
    expect(parseEnv({ CHROMIUM_PATH: "/opt/chrome/chrome" }).CHROMIUM_PATH).toBe("/opt/chrome/chrome");
    expect(() => parseEnv({ CHROMIUM_PATH: "chromium" })).toThrowError(
      /CHROMIUM_PATH: CHROMIUM_PATH must be an absolute path/,
    );
  });

  it("reads the webhooks' own private-target switch, independent of the audits' one", () => {
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      AUDIT_ALLOW_PRIVATE_TARGETS: false,
    });
    expect(parseEnv({ AUDIT_ALLOW_PRIVATE_TARGETS: "true" }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" })).toThrowError(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/,
    );
  });

  it("reads the calendars' own private-target switch, independent of the others", () => {
    expect(parseEnv({ CALDAV_ALLOW_PRIVATE_TARGETS: "true" })).toMatchObject({
      CALDAV_ALLOW_PRIVATE_TARGETS: true,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      AUDIT_ALLOW_PRIVATE_TARGETS: false,
    });
    expect(
      parseEnv({ AUDIT_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })
        .CALDAV_ALLOW_PRIVATE_TARGETS,
    ).toBe(false);
    expect(() => parseEnv({ CALDAV_ALLOW_PRIVATE_TARGETS: "yes" })).toThrowError(
      /CALDAV_ALLOW_PRIVATE_TARGETS must be true or false/,
    );
  });

  it("reads STAFF_2FA_REQUIRED as a boolean and refuses other spellings (a typo must not leave it off)", () => {
    expect(parseEnv({ STAFF_2FA_REQUIRED: "true" }).STAFF_2FA_REQUIRED).toBe(true);
    expect(parseEnv({ STAFF_2FA_REQUIRED: "false" }).STAFF_2FA_REQUIRED).toBe(false);
    expect(() => parseEnv({ STAFF_2FA_REQUIRED: "1" })).toThrowError(
      /STAFF_2FA_REQUIRED must be true or false/,
    );
  });

  it("requires the sales address when SMTP is configured", () => {
    expect(() => parseEnv({ SMTP_URL: "smtp://mail.example.com:587" })).toThrowError(
      /LEAD_NOTIFICATION_TO: LEAD_NOTIFICATION_TO is required when SMTP_URL is set/,
    );
    expect(
      parseEnv({ SMTP_URL: "smtps://user:pw@mail.example.com", LEAD_NOTIFICATION_TO: "sales@example.com" })
        .SMTP_URL,
    ).toBe("smtps://user:pw@mail.example.com");
  });

  it("refuses a short APP_SECRET and a non-SMTP mail URL", () => {
    expect(() => parseEnv({ APP_SECRET: "short" })).toThrowError(/APP_SECRET must be at least 32 characters/);
    expect(() => parseEnv({ SMTP_URL: "http://mail.example.com" })).toThrowError(/SMTP_URL/);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", PUBLIC_URL: "" }).PORT).toBe(3000);
  });

  it("lists every bad variable at once", () => {
    expect(() => parseEnv({ PORT: "99999", HSTS: "sometimes", PUBLIC_URL: "ftp://x" })).toThrowError(
      /PORT[\s\S]*PUBLIC_URL[\s\S]*HSTS|PORT[\s\S]*HSTS[\s\S]*PUBLIC_URL/,
    );
  });

  it("accepts an https public URL", () => {
    expect(parseEnv({ PUBLIC_URL: "https://www.example.co.uk" }).PUBLIC_URL).toBe(
      "https://www.example.co.uk",
    );
  });
});

import { describe, expect, it } from "vitest";
import { SALT_LIFETIME_MS } from "#app/features/analytics/daily-salt.server.ts";
import { DELIVERY_RETENTION_DAYS } from "#app/features/webhooks/webhook-store.server.ts";
import {
  FIRST_POLICY_DATE,
  formatPolicyDate,
  POLICY_VERSION,
  privacyPolicyChanges,
} from "#app/lib/site/privacy-changes.ts";
import { PUBLISHED_RETENTION } from "#app/lib/site/retention-periods.ts";
import { site } from "#app/lib/site/site.ts";

describe("the privacy policy's changes", () => {
  it("keep the pinned first version, and list later changes in date order, each with what changed", () => {
    expect(site.privacyPolicyVersion).toBe("1 April 2025");
    expect(formatPolicyDate(FIRST_POLICY_DATE)).toBe(site.privacyPolicyVersion);
    let previous = FIRST_POLICY_DATE;
    for (const change of privacyPolicyChanges) {
      expect(change.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${change.date}T00:00:00.000Z`).toISOString().slice(0, 10)).toBe(change.date);
      expect(change.date > previous, `${change.date} after ${previous}`).toBe(true);
      expect(change.changes.length).toBeGreaterThan(0);
      previous = change.date;
    }
  });

  it("stores the latest change's date with each lead", () => {
    expect(POLICY_VERSION).toBe(privacyPolicyChanges.at(-1)?.date ?? FIRST_POLICY_DATE);
    expect(formatPolicyDate("2026-11-26")).toBe("26 November 2026");
  });
});

describe("the published retention periods", () => {
  it("are the ones the code applies where no setting changes them", () => {
    expect(PUBLISHED_RETENTION.analyticsSaltHours * 3_600_000).toBe(SALT_LIFETIME_MS);
    expect(PUBLISHED_RETENTION.webhookDeliveryDays).toBe(DELIVERY_RETENTION_DAYS);
  });
});

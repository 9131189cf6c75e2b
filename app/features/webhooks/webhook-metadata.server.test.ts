import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SafeFetchError } from "#app/lib/safe-fetch/safe-connect.server.ts";
import {
  type FakeNetwork,
  METADATA_NAMES_RESOLVED,
  METADATA_URLS,
  startFakeNetwork,
} from "#app/lib/safe-fetch/testing/fake-network.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { postWebhook } from "./webhook-http.server.ts";
import { createWebhook } from "./webhook-service.server.ts";
import { listWebhooks } from "./webhook-store.server.ts";

// Issue 32 point 1 for webhooks: creation and every delivery refuse cloud metadata in every
// spelling, even with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, and creation refuses "localhost." as it
// refuses "localhost". The network is injected: nothing but loopback is ever connected to.

const REFUSED = /^Refused: .* a cloud metadata address \(.*\); cloud metadata is never reached/;

let network: FakeNetwork;
beforeEach(async () => {
  network = await startFakeNetwork(METADATA_NAMES_RESOLVED);
});
afterEach(async () => {
  expect(network.outward()).toEqual([]);
  expect(network.metadataHits()).toBe(0);
  await network.close();
});

describe("a webhook delivery, with WEBHOOK_ALLOW_PRIVATE_TARGETS=true", () => {
  it.each(METADATA_URLS)("refuses %s before connecting", async (url) => {
    const posted = postWebhook(url, { body: "{}", headers: {}, allowPrivate: true, ...network });
    await expect(posted).rejects.toBeInstanceOf(SafeFetchError);
    await expect(posted).rejects.toThrow(REFUSED);
  });
});

describeEachDatabase("creating a webhook", (use) => {
  it.each(METADATA_URLS)("refuses %s, whatever WEBHOOK_ALLOW_PRIVATE_TARGETS says", async (url) => {
    for (const allowPrivate of [true, false]) {
      const outcome = await createWebhook(use().db, { url, events: ["lead.created"] }, "tester", {
        allowPrivate,
        resolve: network.resolve,
      });
      expect(outcome).toMatchObject({ ok: false, status: 400 });
      expect(outcome.ok ? "" : outcome.errors.url).toMatch(REFUSED);
    }
    expect(await listWebhooks(use().db)).toEqual([]);
  });

  it.each([
    "http://localhost/hook",
    "http://localhost./hook",
    "http://LOCALHOST../hook",
    "http://api.localhost./hook",
  ])("refuses %s as a loopback target, without asking DNS", async (url) => {
    const outcome = await createWebhook(use().db, { url, events: ["lead.created"] }, "tester", {
      allowPrivate: false,
      resolve: network.resolve,
    });
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(outcome.ok ? "" : outcome.errors.url).toMatch(
      /^Refused: \S*localhost\.* resolves to a loopback address \(127\.0\.0\.0\/8\)\. Webhooks only reach public addresses; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true/i,
    );
    expect(network.resolve.calls).toEqual([]);
    expect(await listWebhooks(use().db)).toEqual([]);
  });
});

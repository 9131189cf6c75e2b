import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { runStaffForm } from "./staff-forms.server.ts";
import { createUser } from "./users.server.ts";

// Issue 22 point 4: a set-password link carries a one-time credential, so where it points must come
// from the configuration, never from a header the client chose. Behind TRUST_PROXY the request's
// host is X-Forwarded-Host, which anyone can send: the request below is what such a request becomes.

const PUBLIC_URL = "https://www.clausebridge.co.uk";
const forwarded = () =>
  new Request("https://attacker.example/admin/staff", {
    method: "POST",
    headers: { "X-Forwarded-Host": "attacker.example" },
  });

describeEachDatabase("set-password links on the staff page", (use) => {
  it("puts the link on PUBLIC_URL, whatever host the request names, for a new account and a reset", async () => {
    const admin = await createUser(use().db, {
      username: "links-boss",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const actor = { id: Number(admin.id), username: admin.username };
    const created = await runStaffForm(
      use().db,
      forwarded(),
      new URLSearchParams({ intent: "create", username: "links-invitee", method: "link" }),
      actor,
      undefined,
      PUBLIC_URL,
    );
    expect(created.kind).toBe("link");
    if (created.kind !== "link") return;
    expect(created.link.url).toMatch(/^https:\/\/www\.clausebridge\.co\.uk\/admin\/set-password\/[\w-]{43}$/);

    const reset = await runStaffForm(
      use().db,
      forwarded(),
      new URLSearchParams({ intent: "issue-link", id: String(created.link.userId) }),
      actor,
      undefined,
      PUBLIC_URL,
    );
    expect(reset.kind === "link" && reset.link.url).toMatch(
      /^https:\/\/www\.clausebridge\.co\.uk\/admin\/set-password\//,
    );
  });

  it("uses the request's own origin when PUBLIC_URL is not set", async () => {
    const admin = await createUser(use().db, {
      username: "links-boss-2",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const outcome = await runStaffForm(
      use().db,
      new Request("http://127.0.0.1:3000/admin/staff", { method: "POST" }),
      new URLSearchParams({ intent: "create", username: "links-invitee-2", method: "link" }),
      { id: Number(admin.id), username: admin.username },
      undefined,
    );
    expect(outcome.kind === "link" && outcome.link.url).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/admin\/set-password\//,
    );
  });
});

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

// Issue 23: the role comes with the form (a new account's, a row's "Save role"), checked against the
// three roles; the last admin keeps the role.
describeEachDatabase("roles on the staff page's forms", (use) => {
  const post = (fields: Record<string, string>, actor: { id: number; username: string }) =>
    runStaffForm(
      use().db,
      new Request("http://127.0.0.1:3000/admin/staff", { method: "POST" }),
      new URLSearchParams(fields),
      actor,
      undefined,
    );
  const roleOf = async (username: string) =>
    await use()
      .db.selectFrom("users")
      .select(["role", "isAdmin"])
      .where("username", "=", username)
      .executeTakeFirstOrThrow();

  it("creates an account with the chosen role, changes it, refuses an unknown role and the last admin's", async () => {
    const admin = await createUser(use().db, {
      username: "roles-boss",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    const actor = { id: admin.id, username: admin.username };
    const created = await post(
      { intent: "create", username: "roles-marketer", method: "link", role: "marketing" },
      actor,
    );
    expect(created.kind).toBe("link");
    expect(await roleOf("roles-marketer")).toEqual({ role: "marketing", isAdmin: 0 });
    const id = created.kind === "link" ? String(created.link.userId) : "";

    expect(await post({ intent: "role", id, role: "sales" }, actor)).toMatchObject({
      kind: "done",
      notice: "role",
    });
    expect(await roleOf("roles-marketer")).toEqual({ role: "sales", isAdmin: 1 });

    expect(await post({ intent: "role", id, role: "owner" }, actor)).toMatchObject({
      kind: "refused",
      status: 400,
    });
    expect(
      await post({ intent: "create", username: "roles-x", method: "link", role: "root" }, actor),
    ).toMatchObject({
      kind: "refused",
      status: 400,
      errors: { role: "Choose a role." },
    });
    expect(await post({ intent: "role", id: String(admin.id), role: "marketing" }, actor)).toMatchObject({
      kind: "refused",
      status: 409,
    });
    expect(await roleOf("roles-boss")).toEqual({ role: "admin", isAdmin: 1 });
  });
});

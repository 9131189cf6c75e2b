import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createStaffMember, findStaffMember, listStaff, setStaffEmail } from "./staff.server.ts";
import { checkStaffEmail, STAFF_EMAIL_MESSAGE } from "./staff-email.ts";
import { UserInputError } from "./users.server.ts";

// Issue 34: a staff account's e-mail address, where invitations to the meetings it hosts go.

const ACTOR = { id: null, username: "command line" };
let number = 0;
const name = () => `email-${++number}-${Math.random().toString(36).slice(2, 8)}`;

describe("checkStaffEmail", () => {
  it("keeps one address, lower-cases its domain and leaves its mailbox as typed", () => {
    expect(checkStaffEmail("  Dana.Host@Example.CO.UK ")).toEqual({
      ok: true,
      email: "Dana.Host@example.co.uk",
    });
    expect(checkStaffEmail("a+meetings@sub.example.com")).toEqual({
      ok: true,
      email: "a+meetings@sub.example.com",
    });
  });

  it("takes empty, null and absent as no address", () => {
    for (const empty of ["", "   ", null, undefined])
      expect(checkStaffEmail(empty)).toEqual({ ok: true, email: null });
  });

  it("refuses anything but one address of at most 254 characters without line breaks", () => {
    const refused = [
      "dana@example.com\r\nBcc: everyone@example.com",
      "dana@example.com\n",
      "dana@example.com, eve@example.com",
      "dana@example.com eve@example.com",
      "Dana <dana@example.com>",
      "dana",
      "dana@",
      "@example.com",
      "dana@localhost",
      "dana@@example.com",
      `${"a".repeat(64)}@${"b".repeat(186)}.com`,
      42,
    ];
    for (const value of refused)
      expect(checkStaffEmail(value), String(value)).toEqual({ ok: false, message: STAFF_EMAIL_MESSAGE });
    const longest = `${"a".repeat(64)}@${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(61)}.com`;
    expect(longest.length).toBe(254);
    expect(checkStaffEmail(longest).ok).toBe(true);
    expect(
      checkStaffEmail(`${"a".repeat(64)}@${"b".repeat(62)}.${"c".repeat(61)}.${"d".repeat(61)}.com`).ok,
    ).toBe(false);
  });
});

describeEachDatabase("staff e-mail addresses", (use) => {
  it("is set when an account is created, changed, cleared and listed", async () => {
    const username = name();
    const { member } = await createStaffMember(
      use().db,
      { username, password: "a long enough passphrase", role: "sales", email: "Sam@Example.COM" },
      ACTOR,
    );
    expect(member.email).toBe("Sam@example.com");
    expect((await listStaff(use().db)).find((one) => one.id === member.id)?.email).toBe("Sam@example.com");

    expect((await setStaffEmail(use().db, { id: member.id, email: "sam.sales@example.org" })).email).toBe(
      "sam.sales@example.org",
    );
    expect((await findStaffMember(use().db, member.id))?.email).toBe("sam.sales@example.org");
    const row = await use()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", member.id)
      .executeTakeFirst();
    expect(row?.email).toBe("sam.sales@example.org");

    expect((await setStaffEmail(use().db, { id: member.id, email: "" })).email).toBeNull();
    expect((await findStaffMember(use().db, member.id))?.email).toBeNull();
  });

  it("refuses a bad address and changes nothing", async () => {
    const { member } = await createStaffMember(
      use().db,
      { username: name(), password: "a long enough passphrase", email: "kept@example.com" },
      ACTOR,
    );
    await expect(
      setStaffEmail(use().db, { id: member.id, email: "a@example.com\r\nBcc: x@example.com" }),
    ).rejects.toThrow(UserInputError);
    expect((await findStaffMember(use().db, member.id))?.email).toBe("kept@example.com");
    await expect(
      createStaffMember(
        use().db,
        { username: name(), password: "a long enough passphrase", email: "two@a.com, b@c.com" },
        ACTOR,
      ),
    ).rejects.toThrow(STAFF_EMAIL_MESSAGE);
  });

  it("lets two accounts share one address", async () => {
    for (let i = 0; i < 2; i++) {
      const { member } = await createStaffMember(
        use().db,
        { username: name(), password: "a long enough passphrase", email: "shared@example.com" },
        ACTOR,
      );
      expect(member.email).toBe("shared@example.com");
    }
  });
});

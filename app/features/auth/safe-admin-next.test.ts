import { describe, expect, test } from "vitest";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { safeAdminNext } from "./safe-admin-next.ts";

describe("safeAdminNext", () => {
  test("keeps a back-office path with its query", () => {
    expect(safeAdminNext("/admin/leads/12")).toBe("/admin/leads/12");
    expect(safeAdminNext("/admin/dashboard?status=new&page=2")).toBe("/admin/dashboard?status=new&page=2");
    expect(safeAdminNext("/admin")).toBe("/admin");
  });

  test.each([
    null,
    "",
    "admin/dashboard",
    "//evil.example/admin",
    "/\\evil.example/admin",
    "https://evil.example/admin",
    "javascript:alert(1)",
    "/blog",
    "/administrator",
    "/admin/login",
    "/admin/../blog",
  ])("sends %j to the dashboard", (next) => {
    expect(safeAdminNext(next)).toBe(DASHBOARD_PATH);
  });
});

import { describe, expect, test } from "vitest";
import { DASHBOARD_PATH, safeAdminNext } from "./admin-paths.ts";
import { formatLeadDate, LEAD_STATUS_OPTIONS, statusBadgeClass, statusLabel } from "./lead-format.ts";
import { withNotice } from "./lead-forms.server.ts";
import { pageWindow } from "./pagination.tsx";

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

describe("formatLeadDate", () => {
  test("short month, day, year, hour and minute in UK time, with plain spaces", () => {
    expect(formatLeadDate("2026-11-21T10:05:00.000Z")).toBe("Nov 21, 2026, 10:05 AM");
    // British Summer Time is an hour ahead of UTC.
    expect(formatLeadDate("2026-07-01T23:30:00.000Z")).toBe("Jul 2, 2026, 12:30 AM");
  });

  test("shows text it cannot read as a date unchanged", () => {
    expect(formatLeadDate("yesterday")).toBe("yesterday");
  });
});

describe("statuses", () => {
  test("the five of SPEC section 4, capitalised, with their badge colours", () => {
    expect(LEAD_STATUS_OPTIONS).toEqual(["new", "contacted", "qualified", "unqualified", "customer"]);
    expect(LEAD_STATUS_OPTIONS.map(statusLabel)).toEqual([
      "New",
      "Contacted",
      "Qualified",
      "Unqualified",
      "Customer",
    ]);
    expect(statusBadgeClass("new")).toContain("blue");
    expect(statusBadgeClass("contacted")).toContain("yellow");
    expect(statusBadgeClass("qualified")).toContain("green");
    expect(statusBadgeClass("unqualified")).toContain("red");
    expect(statusBadgeClass("customer")).toContain("slate");
    expect(statusBadgeClass("archived")).toContain("slate");
  });
});

describe("pageWindow", () => {
  test("lists every page when there are few", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  test("keeps the first, the last and two either side of the current page", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, null, 20]);
    expect(pageWindow(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 18, 19, 20]);
  });
});

test("withNotice keeps the page's filters and drops React Router's ?index", () => {
  expect(withNotice("/admin/dashboard?q=acme&page=2&index", "updated")).toBe(
    "/admin/dashboard?q=acme&page=2&notice=updated",
  );
  expect(withNotice("/admin/dashboard?notice=deleted", "updated")).toBe("/admin/dashboard?notice=updated");
});

test("withNotice sends a hydrated page's data request back to the page itself", () => {
  expect(withNotice("/admin/leads/7.data", "note")).toBe("/admin/leads/7?notice=note");
  expect(withNotice("/admin/dashboard.data?q=acme", "bulk")).toBe("/admin/dashboard?q=acme&notice=bulk");
});

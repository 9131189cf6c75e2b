import { expect, test } from "vitest";
import { withNotice } from "./lead-forms.server.ts";

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

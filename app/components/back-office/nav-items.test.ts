import { describe, expect, it } from "vitest";
import { currentNavTarget, NAV_ITEMS, SPAM_VIEW_PATH, visibleNavItems } from "./nav-items.ts";

describe("the back office's sections", () => {
  it("name a permission each, and an admin sees them all in order", () => {
    const all = NAV_ITEMS.map((item) => item.permission);
    expect(
      visibleNavItems({ username: "sam", roleLabel: "Admin", permissions: all }).map((item) => item.label),
    ).toEqual([
      "Leads",
      "My tasks",
      "Meetings",
      "People's data",
      "Analytics",
      "Website audits",
      "Watches",
      "Content",
      "Availability",
      "Meeting types",
      "Staff accounts",
      "API keys",
      "Webhooks",
      "Access log",
    ]);
    // Each section once; Audits and Watches share audits.use.
    expect(new Set(NAV_ITEMS.map((item) => item.to)).size).toBe(NAV_ITEMS.length);
    expect(visibleNavItems({ username: "pat", roleLabel: "No role", permissions: [] })).toEqual([]);
    expect(
      visibleNavItems({
        username: "mo",
        roleLabel: "Marketing",
        permissions: ["leads.counts", "analytics.read", "audits.use", "content.publish", "account.self"],
      }).map((item) => item.label),
    ).toEqual(["Analytics", "Website audits", "Watches", "Content"]);
    // Sales works the leads and reads analytics: no content studio.
    expect(
      visibleNavItems({
        username: "sol",
        roleLabel: "Sales",
        permissions: ["leads.read", "leads.write", "leads.export", "leads.counts", "analytics.read"],
      }).map((item) => item.label),
    ).toEqual(["Leads", "Meetings", "Analytics"]);
  });

  it("mark the current one: a lead belongs to Leads, the spam view is its own, search is none", () => {
    expect(currentNavTarget("/admin/dashboard", "?status=new")).toBe("/admin/dashboard");
    expect(currentNavTarget("/admin/leads/42", "")).toBe("/admin/dashboard");
    expect(currentNavTarget("/admin/dashboard", "?spam=only&page=2")).toBe(SPAM_VIEW_PATH);
    expect(currentNavTarget("/admin/access-log", "")).toBe("/admin/access-log");
    expect(currentNavTarget("/admin/account", "")).toBe("/admin/account");
    expect(currentNavTarget("/admin/search", "?q=x")).toBeNull();
    // A post's editor and its revisions belong to Content.
    expect(currentNavTarget("/admin/content", "?status=draft")).toBe("/admin/content");
    expect(currentNavTarget("/admin/content/new", "")).toBe("/admin/content");
    expect(currentNavTarget("/admin/content/12/revisions", "")).toBe("/admin/content");
    expect(currentNavTarget("/admin/watches/3", "?run=7")).toBe("/admin/watches");
    expect(currentNavTarget("/admin/meetings", "?when=past")).toBe("/admin/meetings");
  });
});

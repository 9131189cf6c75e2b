import type { ServerBuild } from "react-router";
import { expect, it } from "vitest";
import { matchRoutePattern, routePatterns } from "./route-patterns.ts";

// The shape of build.routes for a few of app/routes.ts's routes, layouts included.
const routes = {
  root: { id: "root", path: "" },
  "site/layout": { id: "site/layout", parentId: "root" },
  "site/home": { id: "site/home", parentId: "site/layout", index: true },
  "site/problem": { id: "site/problem", parentId: "site/layout", path: "problem" },
  "blog/post": { id: "blog/post", parentId: "site/layout", path: "blog/:slug" },
  "site/not-found": { id: "site/not-found", parentId: "site/layout", path: "*" },
  "admin/layout": { id: "admin/layout", parentId: "root" },
  "admin/guarded": { id: "admin/guarded", parentId: "admin/layout" },
  "admin/lead": { id: "admin/lead", parentId: "admin/guarded", path: "admin/leads/:id" },
  "admin/dashboard": { id: "admin/dashboard", parentId: "admin/guarded", path: "admin/dashboard" },
  "api/leads": { id: "api/leads", parentId: "root", path: "api/admin/leads" },
  "api/export": { id: "api/export", parentId: "root", path: "api/admin/leads/export" },
  "api/lead": { id: "api/lead", parentId: "root", path: "api/admin/leads/:id" },
  "api/notes": { id: "api/notes", parentId: "root", path: "api/admin/leads/:id/notes" },
} as unknown as ServerBuild["routes"];

const patterns = routePatterns(routes);

it.each([
  ["/", "/"],
  ["/problem", "/problem"],
  ["/blog/seven-signs", "/blog/:slug"],
  ["/admin/leads/42", "/admin/leads/:id"],
  ["/admin/dashboard.data", "/admin/dashboard"],
  ["/_root.data", "/"],
  ["/api/admin/leads", "/api/admin/leads"],
  ["/api/admin/leads/export", "/api/admin/leads/export"],
  ["/api/admin/leads/7", "/api/admin/leads/:id"],
  ["/api/admin/leads/7/notes", "/api/admin/leads/:id/notes"],
  ["/no/such/page", "/*"],
  ["/blog/a/b", "/*"],
])("labels %s as %s", (path, label) => {
  expect(matchRoutePattern(patterns, path)).toBe(label);
});

it("keeps the label set to the build's patterns however many different paths arrive", () => {
  const labels = new Set(
    Array.from({ length: 500 }, (_, i) => matchRoutePattern(patterns, `/admin/leads/${i}`)),
  );
  expect([...labels]).toEqual(["/admin/leads/:id"]);
});

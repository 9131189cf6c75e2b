import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// The one place that lists every URL of the product (SPEC section 2).
export default [
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("problem", "routes/site/problem.tsx"),
    route("solution", "routes/site/solution.tsx"),
    route("features", "routes/site/features.tsx"),
    route("demo", "routes/site/demo.tsx"),
    route("invest", "routes/site/invest.tsx"),
    route("investor-deck", "routes/site/investor-deck.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("blog", "routes/blog/blog-index.tsx"),
    route("blog/:slug", "routes/blog/blog-post.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
  // The back office (SPEC sections 2 and 6): server-rendered per request, never prerendered. The
  // guarded layout's middleware admits admins only; login, simple and logout stay open.
  layout("routes/admin/layout.tsx", [
    route("admin/login", "routes/admin/login.tsx"),
    route("admin/simple", "routes/admin/simple.tsx"),
    layout("routes/admin/guarded-layout.tsx", [
      route("admin/dashboard", "routes/admin/dashboard.tsx"),
      route("admin/leads/:id", "routes/admin/lead-detail.tsx"),
      route("admin/audit", "routes/admin/audit.tsx"),
      route("admin/api-keys", "routes/admin/api-keys.tsx"),
      route("admin/staff", "routes/admin/staff.tsx"),
      route("admin/webhooks", "routes/admin/webhooks.tsx"),
      route("admin/account", "routes/admin/account.tsx"),
    ]),
    // Public: the person opening a set-password link has no password yet.
    route("admin/set-password/:token", "routes/admin/set-password.tsx"),
  ]),
  route("admin", "routes/admin/admin-index.ts"),
  route("admin/logout", "routes/admin/logout.ts"),
  // The blog's 'Stay Updated' card links here (SPEC section 2); it is the demo request form.
  route("demo-request", "routes/site/demo-request-redirect.ts"),
  route("investor-deck-pdf", "routes/site/investor-deck-pdf.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("rss.xml", "routes/seo/rss.ts"),
  // The JSON API of SPEC section 7 (resource routes).
  route("api/demo-request", "routes/api/demo-request.ts"),
  route("api/user", "routes/api/user.ts"),
  route("api/login", "routes/api/login.ts"),
  route("api/logout", "routes/api/logout.ts"),
  route("api/admin/leads", "routes/api/admin/leads.ts"),
  route("api/admin/leads/export", "routes/api/admin/leads-export.ts"),
  route("api/admin/leads/bulk", "routes/api/admin/leads-bulk.ts"),
  route("api/admin/leads/:id", "routes/api/admin/lead.ts"),
  route("api/admin/leads/:id/notes", "routes/api/admin/lead-notes.ts"),
  route("api/admin/api-keys", "routes/api/admin/api-keys.ts"),
  route("api/admin/api-keys/:id", "routes/api/admin/api-key.ts"),
  route("api/admin/security-audit", "routes/api/admin/security-audit.ts"),
  route("api/admin/security-audits", "routes/api/admin/security-audits.ts"),
  route("api/admin/performance-check", "routes/api/admin/performance-check.ts"),
  route("api/admin/users", "routes/api/admin/users.ts"),
  route("api/admin/users/:id", "routes/api/admin/user.ts"),
  route("api/admin/users/:id/sessions", "routes/api/admin/user-sessions.ts"),
  route("api/admin/sessions", "routes/api/admin/sessions.ts"),
  route("api/admin/sessions/:id", "routes/api/admin/session.ts"),
  route("api/admin/webhooks", "routes/api/admin/webhooks.ts"),
  route("api/admin/webhooks/:id", "routes/api/admin/webhook.ts"),
  route("api/admin/webhooks/:id/deliveries", "routes/api/admin/webhook-deliveries.ts"),
  route("api/admin/webhooks/:id/test", "routes/api/admin/webhook-test.ts"),
  route("api/admin/webhooks/:id/rotate-secret", "routes/api/admin/webhook-rotate-secret.ts"),
] satisfies RouteConfig;

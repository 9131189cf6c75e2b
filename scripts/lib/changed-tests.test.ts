import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { HEALTH_PATH, READY_PATH } from "../../server/http-server.ts";
import { METRICS_PATH } from "../../server/metrics-endpoint.ts";
import {
  pathPattern,
  type RouteNode,
  routeModules,
  SERVER_PATHS,
  type SelectionInput,
  selectTests,
  staleBuild,
} from "./changed-tests.ts";

// `npm run test:changed` (issue 33): the tests related to what changed since main. Vitest's import
// graph chooses the unit tests; the e2e files, which reach the app over HTTP, are chosen by the
// paths of the route modules that changed.

const ROUTES: RouteNode[] = [
  {
    file: "routes/site/layout.tsx",
    children: [
      { file: "routes/site/home.tsx", index: true },
      { file: "routes/site/demo.tsx", path: "demo" },
      { file: "routes/blog/blog-post.tsx", path: "blog/:slug" },
      { file: "routes/site/not-found.tsx", path: "*" },
    ],
  },
  {
    file: "routes/admin/layout.tsx",
    children: [
      { file: "routes/admin/login.tsx", path: "admin/login" },
      { file: "routes/admin/webhooks.tsx", path: "admin/webhooks" },
      { file: "routes/admin/lead-detail.tsx", path: "admin/leads/:id" },
    ],
  },
  { file: "routes/api/admin/webhooks.ts", path: "api/admin/webhooks" },
];

// Sources as written: `#{…}` stands for a template's placeholder.
const js = (text: string) => text.replaceAll("#{", "$" + "{");
const E2E: Record<string, string> = Object.fromEntries(
  Object.entries({
    "tests/e2e/webhooks.test.ts":
      'await openPage("/admin/webhooks");\nawait page.goto(`#{baseUrl}/admin/webhooks.data`);',
    "tests/e2e/webhook-api.test.ts": 'await fetch(`#{baseUrl}/api/admin/webhooks`, { method: "POST" });',
    "tests/e2e/lead-page.test.ts": "await openPage(`/admin/leads/#{lead.id}`); // not /admin/leads/3/notes",
    "tests/e2e/login.test.ts": 'await openPage("/admin/login?next=%2Fadmin%2Fdashboard");',
    "tests/e2e/home.test.ts": 'const response = await fetch(new URL("/", baseUrl));',
    "tests/e2e/blog.test.ts": 'await openPage("/blog/hello-world"); await openPage("/demo");',
    "tests/e2e/not-found.test.ts":
      'await openPage("/no-such-page"); await fetch(`#{baseUrl}/admin/nope`); readFileSync("/proc/1/stat");',
    "tests/e2e/health.test.ts": "await fetch(`#{baseUrl}/healthz`); await fetch(`#{baseUrl}/metrics`);",
    "tests/e2e/assets.test.ts": "await fetch(`#{baseUrl}/favicon.ico`); readFileSync(`/proc/#{pid}/stat`);",
  }).map(([file, text]) => [file, js(text)]),
);

const select = (input: Partial<SelectionInput>) =>
  selectTests({ changed: [], routes: ROUTES, e2eSources: E2E, related: [], ...input });
const files = (input: Partial<SelectionInput>) => select(input).map((test) => test.file);

describe("selectTests", () => {
  it("runs nothing when nothing related changed", () => {
    expect(select({ changed: ["docs/testing.md"] })).toEqual([]);
    expect(select({ changed: [] })).toEqual([]);
  });

  it("takes Vitest's import-graph selection, saying which changed and which import a change", () => {
    const selected = select({
      changed: ["app/lib/slug.ts", "app/lib/slug.test.ts"],
      related: ["app/lib/slug.test.ts", "app/features/posts/posts.server.test.ts", "tests/e2e/blog.test.ts"],
    });
    expect(selected).toEqual([
      {
        file: "app/features/posts/posts.server.test.ts",
        project: "unit",
        reasons: ["imports a changed file"],
      },
      { file: "app/lib/slug.test.ts", project: "unit", reasons: ["changed"] },
      { file: "tests/e2e/blog.test.ts", project: "e2e", reasons: ["imports a changed file"] },
    ]);
  });

  it("chooses the e2e files that mention a changed route module's path, and only those", () => {
    const selected = select({ changed: ["app/routes/admin/webhooks.tsx"] });
    expect(selected).toEqual([
      {
        file: "tests/e2e/webhooks.test.ts",
        project: "e2e",
        reasons: ["mentions /admin/webhooks, served by app/routes/admin/webhooks.tsx"],
      },
    ]);
    // /api/admin/webhooks is another route: its own file, not the page's.
    expect(files({ changed: ["app/routes/api/admin/webhooks.ts"] })).toEqual([
      "tests/e2e/webhook-api.test.ts",
    ]);
  });

  it("matches a parameter to any one segment, a template's placeholder included", () => {
    expect(files({ changed: ["app/routes/admin/lead-detail.tsx"] })).toEqual(["tests/e2e/lead-page.test.ts"]);
    expect(files({ changed: ["app/routes/blog/blog-post.tsx"] })).toEqual(["tests/e2e/blog.test.ts"]);
  });

  it("runs the files that request a path no route serves when the catch-all route changed", () => {
    expect(select({ changed: ["app/routes/site/not-found.tsx"] })).toEqual([
      {
        file: "tests/e2e/not-found.test.ts",
        project: "e2e",
        reasons: ["requests /no-such-page, /admin/nope, which only app/routes/site/not-found.tsx serves"],
      },
    ]);
  });

  it("knows the paths the server answers itself", () => {
    expect(SERVER_PATHS).toEqual([HEALTH_PATH, READY_PATH, METRICS_PATH]);
  });

  it("serves a layout's children's paths from the layout, and every path from app/root.tsx", () => {
    expect(files({ changed: ["app/routes/admin/layout.tsx"] })).toEqual([
      "tests/e2e/lead-page.test.ts",
      "tests/e2e/login.test.ts",
      "tests/e2e/webhooks.test.ts",
    ]);
    // The site's layout serves its 404 page too.
    expect(files({ changed: ["app/routes/site/layout.tsx"] })).toEqual([
      "tests/e2e/blog.test.ts",
      "tests/e2e/home.test.ts",
      "tests/e2e/not-found.test.ts",
    ]);
    expect(files({ changed: ["app/root.tsx"] })).toEqual([
      "tests/e2e/blog.test.ts",
      "tests/e2e/home.test.ts",
      "tests/e2e/lead-page.test.ts",
      "tests/e2e/login.test.ts",
      "tests/e2e/not-found.test.ts",
      "tests/e2e/webhook-api.test.ts",
      "tests/e2e/webhooks.test.ts",
    ]);
  });

  it("runs an e2e file that changed itself, and every e2e file when their global setup changed", () => {
    expect(select({ changed: ["tests/e2e/login.test.ts", "tests/e2e/deleted.test.ts"] })).toEqual([
      { file: "tests/e2e/login.test.ts", project: "e2e", reasons: ["changed"] },
    ]);
    const all = select({ changed: ["tests/e2e/support/global-setup.ts"] });
    expect(all.map((test) => test.file)).toEqual(Object.keys(E2E).sort());
    expect(all[0]?.reasons).toEqual(["tests/e2e/support/global-setup.ts changed: it serves every e2e file"]);
  });

  it("says why when a config file makes Vitest select everything", () => {
    const selected = select({ changed: ["package.json"], related: ["app/lib/slug.test.ts"] });
    expect(selected[0]?.reasons).toEqual(["package.json changed: Vitest runs every test"]);
  });

  it("chooses tests/e2e/webhooks.test.ts for the real app/routes/admin/webhooks.tsx", () => {
    const dir = join(import.meta.dirname, "..", "..", "tests", "e2e");
    const sources: Record<string, string> = {};
    for (const name of readdirSync(dir).filter((entry) => entry.endsWith(".test.ts")))
      sources[`tests/e2e/${name}`] = readFileSync(join(dir, name), "utf8");
    const chosen = selectTests({
      changed: ["app/routes/admin/webhooks.tsx"],
      routes: routes as RouteNode[],
      e2eSources: sources,
      related: [],
    }).map((test) => test.file);
    expect(chosen).toContain("tests/e2e/webhooks.test.ts");
    // Not every e2e file: a page's change is not a reason to run the public site's journeys.
    expect(chosen).not.toContain("tests/e2e/forms.test.ts");
    expect(chosen.length).toBeLessThan(Object.keys(sources).length / 2);
  });
});

describe("routeModules and pathPattern", () => {
  it("joins nested paths and gives a module every path it serves", () => {
    const modules = routeModules(ROUTES);
    expect(modules.get("app/routes/site/home.tsx")).toEqual(["/"]);
    expect(modules.get("app/routes/admin/lead-detail.tsx")).toEqual(["/admin/leads/:id"]);
    expect(modules.get("app/routes/admin/layout.tsx")).toEqual([
      "/admin/login",
      "/admin/webhooks",
      "/admin/leads/:id",
    ]);
    expect(modules.get("app/root.tsx")).toHaveLength(8);
  });

  it("matches a path as a whole, not inside a longer one", () => {
    const webhooks = pathPattern("/admin/webhooks");
    expect(webhooks?.test('"/admin/webhooks"')).toBe(true);
    expect(webhooks?.test(js("`#{base}/admin/webhooks?tab=log`"))).toBe(true);
    expect(webhooks?.test('"/api/admin/webhooks"')).toBe(false);
    expect(webhooks?.test('"/admin/webhooks/3"')).toBe(false);
    expect(webhooks?.test('"/admin/webhooks-old"')).toBe(false);
    expect(pathPattern("/")?.test('fetch("/")')).toBe(true);
    expect(pathPattern("/")?.test('fetch("/demo")')).toBe(false);
    expect(pathPattern("/*")).toBeUndefined();
  });
});

describe("staleBuild", () => {
  it("builds when there is none, or when a build input changed after it", () => {
    expect(staleBuild(undefined, [])).toBe("there is no build yet");
    expect(staleBuild(1_000, [{ path: "app/routes/admin/webhooks.tsx", modifiedMs: 2_000 }])).toBe(
      "app/routes/admin/webhooks.tsx changed after the last build",
    );
    expect(
      staleBuild(1_000, [
        { path: "server/http-server.ts", modifiedMs: 2_000 },
        { path: "content/blog/a.md", modifiedMs: 3_000 },
      ]),
    ).toBe("server/http-server.ts and 1 more changed after the last build");
  });

  it("does not build for changes older than the build, tests, docs or scripts", () => {
    expect(staleBuild(5_000, [{ path: "app/routes/admin/webhooks.tsx", modifiedMs: 2_000 }])).toBeUndefined();
    expect(
      staleBuild(1_000, [
        { path: "tests/e2e/webhooks.test.ts", modifiedMs: 2_000 },
        { path: "app/lib/slug.test.ts", modifiedMs: 2_000 },
        { path: "docs/testing.md", modifiedMs: 2_000 },
        { path: "README.md", modifiedMs: 2_000 },
        { path: "scripts/run-tests.ts", modifiedMs: 2_000 },
      ]),
    ).toBeUndefined();
  });
});

// Which tests `npm run test:changed` runs (issue 33): those related to the files changed since the
// branch left main. Pure: the changed paths, the route table, the e2e files' sources and Vitest's
// own `--changed` selection in, the test files and why each was chosen out (scripts/test-changed.ts
// reads git, app/routes.ts and the disk, and runs them).
//
// - Vitest's import graph (`vitest list --changed <merge-base>`): a test file that changed, or that
//   imports a changed file however indirectly. That covers the unit tests, and the e2e files that
//   import what changed (their support files, fixtures).
// - The e2e files run against the production build over HTTP and mostly import no app code: a
//   changed route module (app/routes.ts maps URL paths to them; a layout serves its children's
//   paths, app/root.tsx every path) selects each e2e file that mentions one of its paths
//   ("/admin/webhooks", "/admin/leads/${id}" for admin/leads/:id); the catch-all route (`*`, the
//   404 page), each e2e file that requests a path no other route serves ("/no-such-page").
// - tests/e2e/support/global-setup.ts serves every e2e file: changed, all of them run.

/** A node of app/routes.ts's table, as React Router's route helpers build it. */
export type RouteNode = { file: string; path?: string; index?: boolean; id?: string; children?: RouteNode[] };

/** The paths each route module serves: project-relative file (app/routes/…) → URL paths. */
export type RouteModules = Map<string, string[]>;

export type SelectedTest = { file: string; project: "unit" | "e2e"; reasons: string[] };

export type SelectionInput = {
  /** Project-relative paths changed since the merge base: committed, staged, unstaged, untracked, deleted. */
  changed: string[];
  /** app/routes.ts's default export (undefined: it could not be read; e2e files are then chosen by imports only). */
  routes?: RouteNode[];
  /** Every e2e test file (project-relative) and its source. */
  e2eSources: Record<string, string>;
  /** Vitest's `--changed` selection, project-relative. */
  related: string[];
};

export const APP_DIR = "app";
export const ROOT_ROUTE = "app/root.tsx";
export const E2E_DIR = "tests/e2e/";
export const E2E_GLOBAL_SETUP = "tests/e2e/support/global-setup.ts";
/** Vitest's default forceRerunTriggers: when one changed, `--changed` selects every test. */
const RERUN_ALL = /(^|\/)(package\.json|(vitest|vite)\.config\.[^/]+)$/;

const joinPath = (parent: string, child: string) =>
  `/${[parent, child].filter((part) => part !== "" && part !== "/").join("/")}`
    .replace(/\/+/g, "/")
    .replace(/(.)\/$/, "$1");

/** Each route module's URL paths: its own, and a layout's children's (app/root.tsx serves them all). */
export function routeModules(routes: RouteNode[]): RouteModules {
  const modules: RouteModules = new Map();
  const add = (file: string, paths: string[]) => {
    const key = `${APP_DIR}/${file}`;
    const list = modules.get(key) ?? [];
    for (const path of paths) if (!list.includes(path)) list.push(path);
    modules.set(key, list);
  };
  const walk = (nodes: RouteNode[], parent: string): string[] => {
    const all: string[] = [];
    for (const node of nodes) {
      const own = node.index
        ? joinPath(parent, "")
        : node.path !== undefined
          ? joinPath(parent, node.path)
          : undefined;
      const below = walk(node.children ?? [], own ?? parent);
      const paths = [...(own !== undefined ? [own] : []), ...below];
      add(node.file, paths);
      all.push(...paths);
    }
    return all;
  };
  const every = walk(routes, "");
  modules.set(ROOT_ROUTE, [...new Set(every)]);
  return modules;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * How a test's source mentions a URL path: `/admin/webhooks` but not `/api/admin/webhooks` or
 * `/admin/webhooks/3`; `:id` stands for any one segment (`${lead.id}` too); `/` only as a whole
 * string. Undefined for a path no source can name (the catch-all `*` at the root).
 */
export function pathPattern(path: string): RegExp | undefined {
  if (path === "/") return /["'`]\/[?#"'`]/;
  const literal = path.split("*")[0]?.replace(/\/$/, "") ?? "";
  if (literal === "" || literal === "/") return undefined;
  const open = path.includes("*");
  const segments = literal
    .split("/")
    .slice(1)
    .map((segment) =>
      segment.startsWith(":") ? "[^\\s\"'`/?#]+" : escapeRegExp(segment.replace(/\?$/, "")),
    );
  return new RegExp(`(?<![A-Za-z_./-])/${segments.join("/")}${open ? "(?![\\w-])" : "(?![\\w/-])"}`);
}

/** A path as a whole (`:id` any one segment), to tell which paths no route serves. */
function exactPattern(path: string): RegExp {
  const segments = path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)));
  return new RegExp(`^${segments.join("/")}$`);
}

/** What server/ answers before React Router does (HEALTH_PATH, READY_PATH, METRICS_PATH). */
export const SERVER_PATHS = ["/healthz", "/readyz", "/metrics"];

/** Folders of the machine, not URLs (tests read /proc, run /usr/bin/nginx). */
const NOT_A_URL = /^\/(proc|sys|dev|etc|usr|bin|sbin|tmp|var|home|root|nonexistent)(\/|$)/;

/**
 * The paths a source requests that no route but a catch-all serves (`/no-such-page`): the catch-all
 * (app/routes/site/not-found.tsx) answers those, though no source can name its path `*`. Paths
 * written as strings (after a quote, or after `${base}`), files (`/favicon.ico`) left out.
 */
export function unservedPaths(source: string, servedPaths: string[]): string[] {
  const served = [...servedPaths, ...SERVER_PATHS].filter((path) => !path.includes("*")).map(exactPattern);
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:["'`]|\})(\/[A-Za-z0-9][\w.~%@${}/-]*)(?=["'`?#])/g)) {
    const written = match[1] as string;
    const path = written.replace(/\.data$/, "").replace(/(.)\/$/, "$1");
    if (NOT_A_URL.test(path) || /\.[a-z0-9]+$/i.test(path.split("/").at(-1) ?? "")) continue;
    if (!served.some((pattern) => pattern.test(path))) found.add(written);
  }
  return [...found];
}

export const isTestFile = (path: string) => /\.test\.tsx?$/.test(path);
export const isE2eTest = (path: string) => path.startsWith(E2E_DIR) && isTestFile(path);

/** The tests to run for these changes, in path order, each with why (unit first, then e2e). */
export function selectTests(input: SelectionInput): SelectedTest[] {
  const changed = new Set(input.changed);
  const selected = new Map<string, SelectedTest>();
  const choose = (file: string, reason: string) => {
    const entry = selected.get(file) ?? { file, project: isE2eTest(file) ? "e2e" : "unit", reasons: [] };
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    selected.set(file, entry);
  };

  const rerunAll = input.changed.find((path) => RERUN_ALL.test(path));
  for (const file of input.related) {
    if (changed.has(file)) choose(file, "changed");
    else if (rerunAll) choose(file, `${rerunAll} changed: Vitest runs every test`);
    else choose(file, "imports a changed file");
  }

  const e2eFiles = Object.keys(input.e2eSources).sort();
  for (const file of e2eFiles) if (changed.has(file)) choose(file, "changed");
  if (changed.has(E2E_GLOBAL_SETUP))
    for (const file of e2eFiles) choose(file, `${E2E_GLOBAL_SETUP} changed: it serves every e2e file`);

  if (input.routes) {
    const modules = routeModules(input.routes);
    const every = modules.get(ROOT_ROUTE) ?? [];
    for (const [module, paths] of modules) {
      if (!changed.has(module)) continue;
      // A catch-all at the root: the files that request a path no other route serves.
      if (paths.some((path) => path.includes("*") && pathPattern(path) === undefined))
        for (const file of e2eFiles) {
          const unserved = unservedPaths(input.e2eSources[file] ?? "", every);
          if (unserved.length > 0)
            choose(file, `requests ${unserved.slice(0, 2).join(", ")}, which only ${module} serves`);
        }
      const patterns = paths
        .map((path) => ({ path, pattern: pathPattern(path) }))
        .filter((entry): entry is { path: string; pattern: RegExp } => entry.pattern !== undefined);
      for (const file of e2eFiles) {
        const source = input.e2eSources[file] ?? "";
        const mentioned = patterns.filter((entry) => entry.pattern.test(source)).map((entry) => entry.path);
        if (mentioned.length === 0) continue;
        const shown =
          mentioned.slice(0, 2).join(", ") + (mentioned.length > 2 ? ` (+${mentioned.length - 2})` : "");
        choose(file, `mentions ${shown}, served by ${module}`);
      }
    }
  }

  return [...selected.values()].sort((a, b) =>
    a.project === b.project ? a.file.localeCompare(b.file) : a.project === "unit" ? -1 : 1,
  );
}

/** Changed files that go into the production build (what the e2e tests run against). */
export function isBuildInput(path: string): boolean {
  if (isTestFile(path)) return false;
  if (/^(tests|docs|\.ci|\.github)\//.test(path)) return false;
  if (/^[^/]+\.md$/.test(path)) return false;
  if (path.startsWith("scripts/"))
    return path === "scripts/postbuild.ts" || path === "scripts/lib/page-scripts-plugin.ts";
  return true;
}

/**
 * Whether the e2e tests need a fresh build: none yet, or a changed build input modified after it
 * (`modifiedMs`: its mtime, or for a deleted file its folder's). Undefined when the build is current.
 */
export function staleBuild(
  buildMs: number | undefined,
  inputs: { path: string; modifiedMs: number }[],
): string | undefined {
  if (buildMs === undefined) return "there is no build yet";
  const newer = inputs.filter((input) => isBuildInput(input.path) && input.modifiedMs > buildMs);
  if (newer.length === 0) return undefined;
  const first = newer[0]?.path;
  return `${first}${newer.length > 1 ? ` and ${newer.length - 1} more` : ""} changed after the last build`;
}

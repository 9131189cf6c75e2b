import type { ServerBuild } from "react-router";

// The route pattern a request path matched ("/admin/leads/:id"), for the request metrics' `route`
// label: a small fixed set however many leads, articles or tokens there are, and no visitor's text.

type Segment = { kind: "static"; value: string } | { kind: "param" } | { kind: "splat" };
type Pattern = { label: string; segments: Segment[]; score: number };

/** Every URL pattern of the build's routes: each route's path joined with its parents'. */
export function routePatterns(routes: ServerBuild["routes"]): Pattern[] {
  const fullPath = (id: string): string => {
    const route = routes[id];
    if (!route) return "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
  };
  const labels = new Set<string>();
  for (const id of Object.keys(routes)) labels.add(fullPath(id) || "/");
  return [...labels].map((label) => {
    const segments: Segment[] = label
      .split("/")
      .filter(Boolean)
      .map((part) =>
        part === "*"
          ? { kind: "splat" }
          : part.startsWith(":")
            ? { kind: "param" }
            : { kind: "static", value: part },
      );
    // The most specific match wins, as in React Router: literal segments over parameters over "*".
    const score = segments.reduce(
      (sum, s) => sum + (s.kind === "static" ? 10 : s.kind === "param" ? 3 : -100),
      0,
    );
    return { label, segments, score };
  });
}

/** The label of the most specific pattern `path` matches, or "unmatched". */
export function matchRoutePattern(patterns: Pattern[], path: string): string {
  // Single-fetch data requests (/admin/dashboard.data, /_root.data) belong to the page's route.
  const page = path.endsWith(".data") ? path.slice(0, -5).replace(/^\/_root$/, "/") : path;
  const parts = page.split("/").filter(Boolean);
  let best: Pattern | undefined;
  for (const pattern of patterns) {
    if (best && pattern.score <= best.score) continue;
    if (matches(pattern.segments, parts)) best = pattern;
  }
  return best?.label ?? "unmatched";
}

function matches(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === "splat") return true;
    const part = parts[i];
    if (part === undefined) return false;
    if (segment.kind === "static" && segment.value !== part) return false;
  }
  return segments.length === parts.length;
}

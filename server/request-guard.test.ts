import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bodyLimitFor } from "../app/lib/body-limits.ts";
import {
  declaresTooLargeBody,
  isValidHost,
  originFormTarget,
  refuseRequest,
  trailingSlashTarget,
} from "./request-guard.ts";

const request = (method: string, headers: Record<string, string> = {}) =>
  ({ method, headers: { host: "www.clausebridge.co.uk", ...headers } }) as unknown as IncomingMessage;

describe("the trailing-slash redirect stays on this site (issue 9 point 1)", () => {
  it.each([
    ["/problem/", "/problem"],
    ["/blog/some-article//", "/blog/some-article"],
  ])("%s -> %s", (path, target) => {
    expect(trailingSlashTarget(path)).toBe(target);
  });

  it.each(["//evil.example/", "///evil.example/", "/\\evil.example/", "/\\/evil.example/", "//"])(
    "refuses %s (a browser would leave the site): 404 instead",
    (path) => {
      expect(trailingSlashTarget(path)).toBeNull();
    },
  );

  it("reduces an absolute-form target to its path and refuses `*` and other forms", () => {
    expect(originFormTarget("http://evil.example/x/?a=1")).toBe("/x/?a=1");
    expect(originFormTarget("*")).toBeNull();
    expect(originFormTarget("evil.example:443")).toBeNull();
    expect(originFormTarget("/ok")).toBe("/ok");
  });
});

describe("request guard (issue 9 point 5)", () => {
  it("answers route data of an API route 404: it has no page (issue 22)", () => {
    expect(refuseRequest(request("GET"), "/api/admin/leads/export.data")).toMatchObject({ status: 404 });
    expect(refuseRequest(request("GET"), "/api/admin/leads/export")).toBeNull();
    expect(refuseRequest(request("GET"), "/admin/dashboard.data")).toBeNull();
  });

  it("accepts well-formed hosts and refuses malformed ones", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1:8080",
      "[::1]:3000",
      "www.clausebridge.co.uk",
    ])
      expect(isValidHost(host)).toBe(true);
    for (const host of [undefined, "", "localhost:99999", "a b", "evil.example/", "x:y", "[::1"])
      expect(isValidHost(host)).toBe(false);
  });

  it("answers unknown methods 405 with Allow, and pages only GET, HEAD, POST and OPTIONS", () => {
    expect(refuseRequest(request("TRACE"), "/admin/login")).toMatchObject({ status: 405 });
    expect(refuseRequest(request("PROPFIND"), "/api/user")).toMatchObject({
      status: 405,
      headers: { Allow: "GET, HEAD, POST, PATCH, DELETE, OPTIONS" },
    });
    for (const method of ["PUT", "PATCH", "DELETE"])
      expect(refuseRequest(request(method), "/admin/login")).toMatchObject({
        status: 405,
        headers: { Allow: "GET, HEAD, POST, OPTIONS" },
      });
    expect(
      refuseRequest(
        request("PATCH", { "content-length": "2", "content-type": "application/json" }),
        "/api/admin/leads/1",
      ),
    ).toBeNull();
  });

  it("answers 400 to a missing or malformed Host", () => {
    expect(refuseRequest(request("GET", { host: "localhost:99999" }), "/")).toMatchObject({ status: 400 });
    const noHost = { method: "GET", headers: {} } as unknown as IncomingMessage;
    expect(refuseRequest(noHost, "/admin/login")).toMatchObject({ status: 400 });
  });

  it("answers 415 to a page action sent as JSON or text, and lets forms through", () => {
    for (const type of ["application/json", "text/plain", "multipart/form-data; boundary=x"])
      expect(
        refuseRequest(request("POST", { "content-type": type, "content-length": "10" }), "/admin/login"),
      ).toMatchObject({ status: 415 });
    expect(refuseRequest(request("POST", { "content-length": "10" }), "/demo")).toMatchObject({
      status: 415,
    });
    expect(
      refuseRequest(
        request("POST", { "content-type": "application/x-www-form-urlencoded", "content-length": "10" }),
        "/admin/login",
      ),
    ).toBeNull();
    // An empty body reaches the action, which answers with its own 400 messages.
    expect(refuseRequest(request("POST", { "content-length": "0" }), "/admin/login")).toBeNull();
  });

  it("takes a file upload on the import page only (issue 23), up to its 5 MB limit", () => {
    const upload = request("POST", {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": "10",
    });
    expect(refuseRequest(upload, "/admin/leads/import")).toBeNull();
    expect(refuseRequest(upload, "/admin/leads/import.data")).toBeNull();
    expect(refuseRequest(upload, "/admin/leads/new")).toMatchObject({ status: 415 });
    expect(bodyLimitFor("/api/admin/leads/import")).toBeGreaterThan(5 * 1024 * 1024);
    expect(bodyLimitFor("/admin/leads/new")).toBe(64 * 1024);
    const tooBig = request("POST", {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(6 * 1024 * 1024),
    });
    expect(declaresTooLargeBody(tooBig, "/admin/leads/import")).toBe(true);
  });

  it("gives the media upload API (issue 24) its 10 MB image and no more", () => {
    expect(bodyLimitFor("/api/admin/media")).toBe(10 * 1024 * 1024 + 64 * 1024);
    // Only the collection takes a file: an image's own address answers JSON within the default limit.
    expect(bodyLimitFor("/api/admin/media/1")).toBe(64 * 1024);
    const upload = (length: number) =>
      request("POST", {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(length),
      });
    expect(declaresTooLargeBody(upload(10 * 1024 * 1024), "/api/admin/media")).toBe(false);
    expect(declaresTooLargeBody(upload(11 * 1024 * 1024), "/api/admin/media")).toBe(true);
  });

  it("answers 404 to a data request for an image variant, which is no page", () => {
    expect(refuseRequest(request("GET"), "/media/1/480-0123456789abcdef.avif.data")).toMatchObject({
      status: 404,
    });
    expect(refuseRequest(request("GET"), "/media/1/480-0123456789abcdef.avif")).toBeNull();
  });

  it("takes a post of 100,000 characters on the posts API (issue 24), and no more than that anywhere else", () => {
    // 100,000 characters of up to 3 bytes each in UTF-8, with the other fields.
    for (const path of ["/api/admin/posts", "/api/admin/posts/12"]) {
      expect(bodyLimitFor(path)).toBeGreaterThanOrEqual(300_000 + 16 * 1024);
      expect(bodyLimitFor(path)).toBeLessThan(1024 * 1024);
    }
    expect(bodyLimitFor("/api/admin/posts/12/publish")).toBe(64 * 1024);
    expect(bodyLimitFor("/api/admin/posts/12/revisions/3/restore")).toBe(64 * 1024);
    expect(bodyLimitFor("/api/admin/posts/x")).toBe(64 * 1024);
    const big = request("PATCH", {
      "content-type": "application/json",
      "content-length": String(350 * 1024),
    });
    expect(declaresTooLargeBody(big, "/api/admin/posts/12")).toBe(false);
    expect(declaresTooLargeBody(big, "/api/admin/leads/12")).toBe(true);
  });

  it("takes the editor's form of a 100,000-character body URL-encoded (up to 9 bytes a character)", () => {
    for (const path of ["/admin/content/new", "/admin/content/12", "/admin/content/12.data"]) {
      expect(bodyLimitFor(path)).toBeGreaterThanOrEqual(900_000 + 32 * 1024);
      expect(bodyLimitFor(path)).toBeLessThanOrEqual(1024 * 1024);
    }
    // The list and the revisions page post nothing large.
    expect(bodyLimitFor("/admin/content")).toBe(64 * 1024);
    expect(bodyLimitFor("/admin/content/12/revisions")).toBe(64 * 1024);
    expect(bodyLimitFor("/admin/content/x")).toBe(64 * 1024);
  });

  it("answers 400 to a malformed Content-Length", () => {
    expect(refuseRequest(request("POST", { "content-length": "-1" }), "/api/login")).toMatchObject({
      status: 400,
    });
  });
});

describe("body limits (issue 9 point 4): one table", () => {
  it("gives sign-in 4 KB, the lead forms and API 16 KB, every other action 64 KB", () => {
    expect(bodyLimitFor("/admin/login")).toBe(4 * 1024);
    expect(bodyLimitFor("/admin/login.data")).toBe(4 * 1024);
    expect(bodyLimitFor("/api/login")).toBe(4 * 1024);
    for (const path of ["/", "/_root.data", "/demo", "/demo.data", "/invest", "/api/demo-request"])
      expect(bodyLimitFor(path)).toBe(16 * 1024);
    for (const path of [
      "/admin/dashboard",
      "/admin/leads/3",
      "/admin/audit",
      "/api/admin/leads/3",
      "/api/admin/security-audit",
    ])
      expect(bodyLimitFor(path)).toBe(64 * 1024);
  });

  it("sends no 100 Continue for a declared length over the limit", () => {
    expect(
      declaresTooLargeBody(request("POST", { "content-length": String(300 * 1024 * 1024) }), "/admin/login"),
    ).toBe(true);
    expect(declaresTooLargeBody(request("POST", { "content-length": "4096" }), "/admin/login")).toBe(false);
    expect(declaresTooLargeBody(request("POST", { "content-length": "4097" }), "/admin/login")).toBe(true);
  });
});

describe("a NUL in the request target is refused before any handler (issue 32 point 4)", () => {
  const at = (url: string, method = "GET") =>
    ({ method, url, headers: { host: "127.0.0.1" } }) as unknown as IncomingMessage;

  it.each([
    "/blog/%00",
    "/blog/a%00b",
    "/admin/leads/%00",
    "/api/admin/leads/%00",
    "/api/admin/posts/1%00/publish",
    "/blog?page=%00",
    "/api/admin/leads?q=abc%00",
    "/admin/dashboard.data?status=%00",
    "/?utm_source=%00",
    "/blog/x\u0000y",
  ])("%s: 400", (url) => {
    const path = url.split("?")[0] ?? "/";
    expect(refuseRequest(at(url), path)).toMatchObject({
      status: 400,
      message: "Bad request: the address holds a NUL character (%00).",
    });
    expect(refuseRequest(at(url, "POST"), path)).toMatchObject({ status: 400 });
  });

  it.each(["/blog/%2500", "/blog/100", "/api/admin/leads?q=%2000", "/blog/a%0a"])(
    "%s: not a NUL, served",
    (url) => {
      expect(refuseRequest(at(url), url.split("?")[0] ?? "/")).toBeNull();
    },
  );
});

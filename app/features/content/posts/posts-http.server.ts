import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { DEFAULT_BODY_LIMIT, POST_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { type JsonBody, readJsonObject, readLimitedBytes } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { diffPosts } from "./post-diff.ts";
import { POST_KINDS, POST_STATUSES } from "./post-fields.ts";
import type { Actor, Post } from "./post-rows.server.ts";
import {
  fieldErrors,
  type PostFieldErrors,
  PublishSchema,
  parsePostCreate,
  parsePostPatch,
  RestoreSchema,
} from "./post-schema.ts";
import { postsServices } from "./posts-context.server.ts";
import type { PostsService } from "./posts-service.server.ts";
import { DEFAULT_POSTS_PAGE_SIZE, MAX_POSTS_PAGE_SIZE } from "./posts-store.server.ts";

// /api/admin/posts… (issue 24): the content studio's JSON API, for integrations and tests; the
// editor's pages use the same service. Every call needs `content.publish` (marketing and admin;
// ADR 021): 401 signed out, 403 for any other role. Changes also refuse cross-site requests, read
// at most POST_BODY_LIMIT (a 100,000-character body with its fields), and check the body with the
// schema the editor uses. Publishing, scheduling, unpublishing, restoring and deleting are recorded
// in the access log by the store, in the change's own transaction.

type Context = Readonly<RouterContextProvider>;

const json = (body: unknown, status = 200, headers?: HeadersInit) => Response.json(body, { status, headers });
const notFound = () => json({ message: "No such post." }, 404);
const invalid = (errors: PostFieldErrors, message = "Please check the highlighted fields.") =>
  json({ message, errors }, 400);

export const CONFLICT_MESSAGE =
  "Someone saved this post after you opened it. Nothing was saved: compare your version with theirs, then save again on the latest.";

const actorOf = (user: { id: number; username: string }): Actor => ({ id: user.id, username: user.username });

/** A path's id: digits only, else the post cannot exist (404, not 400: ids are opaque). */
function idOf(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

async function posts(context: Context): Promise<PostsService> {
  return (await postsServices(context)).posts;
}

/** A post as the API answers it: its fields, status, dates, revision, and a fresh preview link. */
function view(service: PostsService, post: Post) {
  return { ...post, previewUrl: service.previewUrl(post.id) };
}

/** 409 for a save or restore made on an older revision: both versions and what differs between them. */
function conflict(
  service: PostsService,
  result: { baseRevision: number; yours: Parameters<typeof diffPosts>[0]; latest: Post },
): Response {
  return json(
    {
      message: CONFLICT_MESSAGE,
      code: "revision-conflict",
      baseRevision: result.baseRevision,
      yours: result.yours,
      latest: view(service, result.latest),
      differences: diffPosts(result.yours, result.latest),
    },
    409,
  );
}

/** A post in a state that refuses the change (publishing a published post, deleting a live one). */
const refused = (message: string) => json({ message, code: "post-state" }, 409);

/**
 * The query of a GET, by `schema` (empty parameters left out, as a form sends them): the parsed
 * value, or the 400 naming the first bad parameter.
 */
function parseQuery<T>(
  request: Request,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; response: Response } {
  const params = Object.fromEntries(
    [...new URL(request.url).searchParams].filter(([, value]) => value !== ""),
  );
  const parsed = schema.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    response: json(
      { message: `Invalid ${String(issue?.path[0] ?? "query")}: ${issue?.message ?? "bad value"}` },
      400,
    ),
  };
}

/**
 * A JSON body that may be left out (publish, unpublish, restore): no body and no Content-Type is
 * `{}`; anything sent must be a JSON object within the default limit.
 */
async function readOptionalJson(request: Request): Promise<JsonBody> {
  if (!request.headers.get("content-type")) {
    const bytes = await readLimitedBytes(request, DEFAULT_BODY_LIMIT);
    if (bytes !== null && bytes.byteLength === 0) return { ok: true, value: {} };
  }
  return readJsonObject(request, DEFAULT_BODY_LIMIT);
}

const TEXT_QUERY = z
  .string()
  .trim()
  .max(100, "Keep the search to 100 characters or fewer")
  .refine((value) => !breaksTextRule(value, "one-line"), "The search may not contain control characters");

// Unknown parameters are ignored, as the lead list's are (a cache-buster must not fail the call).
const ListQuerySchema = z.object({
  status: z.enum(POST_STATUSES, `status must be one of ${POST_STATUSES.join(", ")}`).optional(),
  kind: z.enum(POST_KINDS, `kind must be one of ${POST_KINDS.join(", ")}`).optional(),
  q: TEXT_QUERY.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_POSTS_PAGE_SIZE).default(DEFAULT_POSTS_PAGE_SIZE),
});

/** GET /api/admin/posts?status=&kind=&q=&page=&pageSize= */
export async function handleListPosts(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "content.publish");
  const query = parseQuery(request, ListQuerySchema);
  if (!query.ok) return query.response;
  return json(await (await posts(context)).list(query.value));
}

/** POST /api/admin/posts: a new draft → 201 with the post and its preview link. */
export async function handleCreatePost(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const body = await readJsonObject(request, POST_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = parsePostCreate(body.value);
  if (!parsed.success) return invalid(parsed.errors);
  const service = await posts(context);
  const result = await service.create(parsed.data, actorOf(user));
  if (result.kind === "invalid") return invalid(result.errors);
  return json(view(service, result.post), 201, { Location: `/api/admin/posts/${result.post.id}` });
}

/** GET /api/admin/posts/:id */
export async function handleGetPost(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "content.publish");
  const id = idOf(rawId);
  if (id === null) return notFound();
  const service = await posts(context);
  const post = await service.get(id);
  return post ? json(view(service, post)) : notFound();
}

/**
 * PATCH /api/admin/posts/:id `{ revision, autosave?, ...fields }`: a save made on `revision`. 409
 * when that is not the latest, with both versions (`yours`, `latest`) and what differs between them.
 */
export async function handlePatchPost(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = idOf(rawId);
  if (id === null) return notFound();
  const body = await readJsonObject(request, POST_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = parsePostPatch(body.value);
  if (!parsed.success) return invalid(parsed.errors);
  const { revision, autosave = false, slugFromTitle = false, ...changes } = parsed.data;
  const service = await posts(context);
  const result = autosave
    ? await service.autosave(id, changes, revision, actorOf(user), { slugFromTitle })
    : await service.update(id, changes, revision, actorOf(user), { slugFromTitle });
  switch (result.kind) {
    case "saved":
      return json({ ...view(service, result.post), changed: result.changed });
    case "conflict":
      return conflict(service, result);
    case "invalid":
      return invalid(result.errors);
    case "refused":
      return refused(result.message);
    case "not-found":
      return notFound();
  }
}

/** DELETE /api/admin/posts/:id: a draft that was never published → 204. */
export async function handleDeletePost(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = idOf(rawId);
  if (id === null) return notFound();
  const result = await (await posts(context)).deleteDraft(id, actorOf(user), {
    clientAddress: context.get(clientAddressContext),
  });
  if (result.kind === "not-found") return notFound();
  if (result.kind === "refused") return refused(result.message);
  return new Response(null, { status: 204 });
}

/** How far ahead a post may be scheduled. */
const MAX_SCHEDULE_MS = 5 * 366 * 86_400_000;

/** POST /api/admin/posts/:id/publish `{ at? }`: now, or scheduled when `at` is in the future. */
export async function handlePublishPost(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = idOf(rawId);
  if (id === null) return notFound();
  const body = await readOptionalJson(request);
  if (!body.ok) return body.response;
  const parsed = PublishSchema.safeParse(body.value);
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const at = parsed.data.at === undefined ? null : new Date(parsed.data.at);
  if (at && at.getTime() - Date.now() > MAX_SCHEDULE_MS)
    return invalid({ at: "Choose a time within the next five years" });
  const service = await posts(context);
  const result = await service.publish(id, actorOf(user), {
    at,
    clientAddress: context.get(clientAddressContext),
  });
  switch (result.kind) {
    case "published":
    case "scheduled":
      return json({ ...view(service, result.post), changed: result.changed });
    case "not-ready":
      return json({ message: "The post is not ready to publish yet.", errors: result.errors }, 422);
    case "refused":
      return refused(result.message);
    case "not-found":
      return notFound();
  }
}

/** POST /api/admin/posts/:id/unpublish: off the site (or a schedule cancelled). */
export async function handleUnpublishPost(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = idOf(rawId);
  if (id === null) return notFound();
  const body = await readOptionalJson(request);
  if (!body.ok) return body.response;
  if (Object.keys(body.value).length > 0) return invalid({ form: "Send no fields to unpublish a post" });
  const service = await posts(context);
  const result = await service.unpublish(id, actorOf(user), {
    clientAddress: context.get(clientAddressContext),
  });
  if (result.kind === "not-found") return notFound();
  if (result.kind === "refused") return refused(result.message);
  return json(view(service, result.post));
}

const REVISION_NUMBER = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const RevisionsQuerySchema = z
  .object({
    before: REVISION_NUMBER.optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
    from: REVISION_NUMBER.optional(),
    to: REVISION_NUMBER.optional(),
  })
  .refine((query) => (query.from === undefined) === (query.to === undefined), {
    message: "give both from and to to compare two revisions",
    path: ["from"],
  });

/**
 * GET /api/admin/posts/:id/revisions[?before=&limit=]: newest first. With `from` and `to`, also
 * `diff`: what changed from one revision to the other (fields, and the body line by line).
 */
export async function handleListRevisions(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "content.publish");
  const id = idOf(rawId);
  if (id === null) return notFound();
  const query = parseQuery(request, RevisionsQuerySchema);
  if (!query.ok) return query.response;
  const { before, limit, from, to } = query.value;
  const service = await posts(context);
  const list = await service.listRevisions(id, { before, limit });
  if (!list) return notFound();
  if (from === undefined || to === undefined) return json(list);
  const diff = await service.diffRevisions(id, from, to);
  if (!diff) return json({ message: `This post has no revision ${from} or ${to}.` }, 404);
  return json({ ...list, diff });
}

/**
 * POST /api/admin/posts/:id/revisions/:revision/restore `{ revision? }`: the old fields back, as a
 * new revision (the address stays). `revision`, when sent, is the one the person was looking at.
 */
export async function handleRestoreRevision(
  request: Request,
  context: Context,
  rawId: string | undefined,
  rawRevision: string | undefined,
) {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = idOf(rawId);
  const revision = idOf(rawRevision);
  if (id === null || revision === null) return notFound();
  const body = await readOptionalJson(request);
  if (!body.ok) return body.response;
  const parsed = RestoreSchema.safeParse(body.value);
  if (!parsed.success) return invalid(fieldErrors(parsed.error));
  const service = await posts(context);
  const result = await service.restoreRevision(id, revision, actorOf(user), {
    clientAddress: context.get(clientAddressContext),
    baseRevision: parsed.data.revision,
  });
  switch (result.kind) {
    case "restored":
      return json({ ...view(service, result.post), restoredFrom: result.from, changed: result.changed });
    case "conflict":
      return conflict(service, result);
    case "invalid":
      return invalid(result.errors);
    case "no-such-revision":
      return json({ message: `This post has no revision ${revision}.` }, 404);
    case "not-found":
      return notFound();
  }
}

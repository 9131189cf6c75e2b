import { data, type RouterContextProvider, redirect } from "react-router";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { mediaServices } from "../media/media-context.server.ts";
import type { PostFields } from "../posts/post-fields.ts";
import { renderPostBody } from "../posts/post-markdown-worker.server.ts";
import type { Actor, Post } from "../posts/post-rows.server.ts";
import {
  mediaIdOf,
  type PostChanges,
  type PostFieldErrors,
  parsePostCreate,
  parsePostPatch,
  publishProblems,
} from "../posts/post-schema.ts";
import { type PostsServices, postsServices, type StaffAuthor } from "../posts/posts-context.server.ts";
import type { PostsService } from "../posts/posts-service.server.ts";
import { PREVIEW_TTL_MS } from "../posts/preview-token.server.ts";
import { fromLondonLocal, londonZoneName, toLondonLocal } from "./london-time.ts";
import { CONFLICT_MESSAGE, type ConflictData, conflictDifferences } from "./post-conflict.ts";
import {
  type EditorValues,
  EMPTY_VALUES,
  isKind,
  readEditorValues,
  schemaInput,
  valuesOf,
} from "./post-form.ts";
import { type BodyPreview, mediaIdsIn, PREVIEW_PROBLEM, type PreviewImage } from "./post-preview.ts";
import { CONTENT_PATH, type EditorNotice, editorPath, readNotice, withNotice } from "./studio-paths.ts";

// The post editor's server side (issue 24): /admin/content/new and /admin/content/<id>. The page is
// one form; every button posts it with an `intent`, so it works the same without JavaScript:
// `save`, `publish`, `schedule` (with `publishAt` in UK time) and `unpublish` save what is typed
// first (on the revision the page was opened on: a newer one is a conflict, answered 409 with both
// versions), then do what they say and redirect back with a notice. `preview` saves nothing and
// answers the typed text rendered; `merge` answers the conflict's "keep editing on theirs";
// `delete` deletes a draft readers never saw (after the page's confirmation step). With
// JavaScript the editor also saves a draft by itself, through the posts API (ui/autosave.ts).

type Context = Readonly<RouterContextProvider>;

const notFound = () => data("No such post", { status: 404 });

/** How many library images the form without JavaScript offers as a cover. */
const COVER_CHOICES = 24;
/** How many images of a body the preview loads at most (a body naming more shows the rest as text). */
const MAX_BODY_IMAGES = 60;
/** How far ahead a schedule may be (the API's limit). */
const MAX_SCHEDULE_MS = 5 * 366 * 86_400_000;

export const EDITOR_MESSAGES = {
  scheduleInPast: "Choose a time in the future, or publish it now",
  scheduleTooFar: "Choose a time within the next five years",
  invalid: "Nothing was saved: please check the highlighted fields.",
  unknownIntent: "That button does nothing here. Reload the page and try again.",
  revision: "This page is out of date. Reload it and make your change again.",
} as const;

/** A path's id: "new", or digits (anything else: no such post). */
export function parsePostId(raw: string | undefined): number | "new" | null {
  if (raw === "new") return "new";
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A staff account whose username is the author's name, linked as the post's author. */
function authorAccount(author: string, staff: StaffAuthor[]): number | null {
  const name = author.trim().toLowerCase();
  if (!name) return null;
  return staff.find((member) => member.username.toLowerCase() === name)?.id ?? null;
}

/** What the page shows about a post's state, formatted here so the server and the browser agree. */
export function postState(post: Post) {
  return {
    id: post.id,
    kind: post.kind,
    slug: post.slug,
    status: post.status,
    revision: post.revision,
    publishAt: post.publishAt,
    publishAtText: post.publishAt
      ? `${formatDateTime(post.publishAt)} ${londonZoneName(post.publishAt)}`
      : null,
    firstPublished: post.firstPublishedAt ? formatDateTime(post.firstPublishedAt) : null,
    updatedAt: post.updatedAt,
    updated: formatDateTime(post.updatedAt),
    publicUrl:
      post.kind === "press" ? post.originalUrl : post.status === "published" ? `/blog/${post.slug}` : null,
  };
}
export type PostState = ReturnType<typeof postState>;

type MediaLibraryPort = Awaited<ReturnType<typeof mediaServices>>["media"];

/** The library images the values name (cover and body), for the preview and the cover's thumbnail. */
async function imagesFor(media: MediaLibraryPort, values: EditorValues): Promise<PreviewImage[]> {
  const cover = mediaIdOf(values.coverImage || null);
  const ids = [...new Set([...(cover === null ? [] : [cover]), ...mediaIdsIn(values.body)])].slice(
    0,
    MAX_BODY_IMAGES,
  );
  const found = await Promise.all(ids.map((id) => media.get(id)));
  return found.filter((item) => item !== undefined).map(toPreviewImage);
}

/**
 * The preview of a body as the server sends it: rendered off the event loop, so opening the editor
 * of a hostile body (or asking for its preview without JavaScript) never stalls other requests.
 */
async function bodyPreviewOf(body: string, images: PreviewImage[]): Promise<BodyPreview> {
  const rendered = await renderPostBody(body, new Map(images.map((image) => [image.id, image])));
  return { body, html: rendered.html, problem: rendered.ok ? null : PREVIEW_PROBLEM };
}

function toPreviewImage(item: PreviewImage): PreviewImage {
  return {
    id: item.id,
    url: item.url,
    width: item.width,
    height: item.height,
    alt: item.alt,
    variants: item.variants.map(({ format, width, height, url }) => ({ format, width, height, url })),
  };
}

/** A fresh preview link for the post: its full address and when it stops working. */
function previewLink(request: Request, services: PostsServices, id: number) {
  const origin = services.publicUrl ? new URL(services.publicUrl).origin : new URL(request.url).origin;
  const expiresAt = new Date(Date.now() + PREVIEW_TTL_MS).toISOString();
  return {
    url: new URL(services.posts.previewUrl(id), origin).href,
    expiresAt,
    expires: formatDateTime(expiresAt),
  };
}

/** Who saved the post last and when (its newest revision), for the editor and the conflict screen. */
async function lastSave(posts: PostsService, id: number) {
  const list = await posts.listRevisions(id, { limit: 1 });
  const latest = list?.revisions[0];
  return latest
    ? { by: latest.savedByUsername ?? "the import", at: formatDateTime(latest.savedAt), kind: latest.kind }
    : null;
}

/** A time for the schedule box to start from: the next whole hour, in UK time. */
function nextHour(now = new Date()): string {
  const next = new Date(Math.ceil((now.getTime() + 60_000) / 3_600_000) * 3_600_000);
  return toLondonLocal(next);
}

export async function loadPostEditor(request: Request, context: Context, rawId: string | undefined) {
  const id = parsePostId(rawId);
  if (id === null) throw notFound();
  const services = await postsServices(context);
  const { media } = await mediaServices(context);
  const url = new URL(request.url);
  const post = id === "new" ? undefined : await services.posts.get(id);
  if (id !== "new" && !post) throw notFound();
  const kind = url.searchParams.get("kind") ?? "";
  const notice = readNotice(url);
  const values = post ? valuesOf(post) : { ...EMPTY_VALUES, kind: isKind(kind) ? kind : EMPTY_VALUES.kind };
  const [authors, library, images, saved] = await Promise.all([
    services.staffAuthors(),
    media.list({ limit: COVER_CHOICES }),
    imagesFor(media, values),
    post ? lastSave(services.posts, post.id) : null,
  ]);
  return {
    post: post ? postState(post) : null,
    values,
    bodyPreview: await bodyPreviewOf(values.body, images),
    authors: authors.map((author) => author.username),
    library: library.items.map(toPreviewImage),
    images,
    preview: post ? previewLink(request, services, post.id) : null,
    lastSaved: saved,
    scheduleDefault:
      post?.status === "scheduled" && post.publishAt ? toLondonLocal(post.publishAt) : nextHour(),
    notice,
    /** A draft readers never saw can be deleted (after `?delete` asks to confirm). */
    deletable: post ? post.status === "draft" && post.firstPublishedAt === null : false,
    confirmDelete: url.searchParams.has("delete"),
    /** After a refused publication: what the post still needs, by field. */
    problems: post && notice === "not-ready" ? publishProblems(post) : {},
  };
}
export type EditorLoaderData = Awaited<ReturnType<typeof loadPostEditor>>;

export type { ConflictData } from "./post-conflict.ts";

export type EditorActionData =
  | {
      kind: "invalid";
      message: string;
      errors: PostFieldErrors & { publishAt?: string };
      values: EditorValues;
    }
  | { kind: "refused"; message: string; values: EditorValues }
  | { kind: "preview"; values: EditorValues; images: PreviewImage[]; bodyPreview: BodyPreview }
  | { kind: "merge"; yours: EditorValues }
  | ConflictData;

type SaveOutcome =
  | { ok: true; post: Post; changed: boolean; created: boolean }
  | { ok: false; response: ReturnType<typeof data<EditorActionData>> };

/** Saves what was typed: creates the post on /new, else saves it on the revision the page was opened on. */
async function saveValues(
  services: PostsServices,
  id: number | "new",
  form: URLSearchParams,
  values: EditorValues,
  actor: Actor,
): Promise<SaveOutcome> {
  const staff = await services.staffAuthors();
  const input = { ...schemaInput(values), authorUserId: authorAccount(values.author, staff) };
  // The address is still the title's suggestion (the page says so while it follows the title): a
  // taken one becomes the next free one instead of refusing the save.
  const slugFromTitle = form.get("slugFromTitle") === "1";
  const invalid = (errors: PostFieldErrors) => ({
    ok: false as const,
    response: data<EditorActionData>(
      { kind: "invalid", message: EDITOR_MESSAGES.invalid, errors, values },
      { status: 400 },
    ),
  });
  if (id === "new") {
    const parsed = parsePostCreate({ ...input, ...(slugFromTitle ? { slugFromTitle } : {}) });
    if (!parsed.success) return invalid(parsed.errors);
    const created = await services.posts.create(parsed.data, actor);
    if (created.kind === "invalid") return invalid(created.errors);
    return { ok: true, post: created.post, changed: true, created: true };
  }
  // An address left empty keeps the one the post has (a new post's is suggested from its title).
  const { slug, ...rest } = input;
  const parsed = parsePostPatch({
    ...rest,
    ...(values.slug.trim() ? { slug } : {}),
    revision: Number(form.get("revision") ?? Number.NaN),
  });
  if (!parsed.success) {
    if (parsed.errors.revision)
      return {
        ok: false,
        response: data<EditorActionData>(
          { kind: "refused", message: EDITOR_MESSAGES.revision, values },
          { status: 400 },
        ),
      };
    return invalid(parsed.errors);
  }
  const { revision, autosave: _autosave, ...changes } = parsed.data;
  const result = await services.posts.update(id, changes as PostChanges, revision, actor, { slugFromTitle });
  switch (result.kind) {
    case "saved":
      return { ok: true, post: result.post, changed: result.changed, created: false };
    case "invalid":
      return invalid(result.errors);
    case "refused":
      return {
        ok: false,
        response: data<EditorActionData>(
          { kind: "refused", message: result.message, values },
          { status: 409 },
        ),
      };
    case "not-found":
      throw notFound();
    case "conflict":
      return {
        ok: false,
        response: data<EditorActionData>(await conflictData(services, values, result.yours, result.latest), {
          status: 409,
        }),
      };
  }
}

async function conflictData(
  services: PostsServices,
  values: EditorValues,
  yours: PostFields,
  latest: Post,
): Promise<ConflictData> {
  const saved = await lastSave(services.posts, latest.id);
  return {
    kind: "conflict",
    message: CONFLICT_MESSAGE,
    yours: values,
    latest: valuesOf(latest),
    latestRevision: latest.revision,
    latestBy: { by: saved?.by ?? null, at: saved?.at ?? formatDateTime(latest.updatedAt) },
    differences: conflictDifferences(latest, yours),
  };
}

const done = (id: number, notice: EditorNotice) => redirect(withNotice(editorPath(id), notice));

/**
 * The editor's form posts. Answers a redirect after every change that went through (so reloading
 * never posts twice), or the page's data saying what stopped it.
 */
export async function postEditorAction(
  request: Request,
  context: Context,
  rawId: string | undefined,
  actor: Actor,
) {
  const id = parsePostId(rawId);
  if (id === null) throw notFound();
  const form = await readForm(request);
  const intent = form.get("intent") ?? "save";
  const values = readEditorValues(form);
  const services = await postsServices(context);
  const clientAddress = context.get(clientAddressContext);
  // A post that does not exist (erased, or a wrong number) is that, whatever the form says.
  if (id !== "new" && !(await services.posts.get(id))) throw notFound();

  if (intent === "preview") {
    const { media } = await mediaServices(context);
    const images = await imagesFor(media, values);
    return data<EditorActionData>({
      kind: "preview",
      values,
      images,
      bodyPreview: await bodyPreviewOf(values.body, images),
    });
  }
  if (intent === "merge") return data<EditorActionData>({ kind: "merge", yours: values });

  if (intent === "delete" && id !== "new") {
    const result = await services.posts.deleteDraft(id, actor, { clientAddress });
    if (result.kind === "not-found") throw notFound();
    if (result.kind === "refused")
      return data<EditorActionData>({ kind: "refused", message: result.message, values }, { status: 409 });
    throw redirect(withNotice(CONTENT_PATH, "deleted"));
  }

  if (!["save", "overwrite", "publish", "schedule", "unpublish"].includes(intent))
    return data<EditorActionData>(
      { kind: "refused", message: EDITOR_MESSAGES.unknownIntent, values },
      { status: 400 },
    );

  // A schedule's time is checked before anything is saved, so a typo costs nothing.
  let at: Date | null = null;
  if (intent === "schedule") {
    const parsed = fromLondonLocal(form.get("publishAt") ?? "");
    const refuse = (message: string) =>
      data<EditorActionData>(
        { kind: "invalid", message, errors: { publishAt: message }, values },
        { status: 400 },
      );
    if (!parsed.ok) return refuse(parsed.message);
    if (parsed.date.getTime() <= Date.now()) return refuse(EDITOR_MESSAGES.scheduleInPast);
    if (parsed.date.getTime() - Date.now() > MAX_SCHEDULE_MS) return refuse(EDITOR_MESSAGES.scheduleTooFar);
    at = parsed.date;
  }

  const saved = await saveValues(services, id, form, values, actor);
  if (!saved.ok) return saved.response;
  const { post } = saved;
  const savedNotice: EditorNotice = saved.created ? "created" : saved.changed ? "saved" : "unchanged";
  if (intent === "save" || intent === "overwrite") throw done(post.id, savedNotice);

  if (intent === "unpublish") {
    const result = await services.posts.unpublish(post.id, actor, { clientAddress });
    if (result.kind === "not-found") throw notFound();
    if (result.kind === "refused")
      return data<EditorActionData>({ kind: "refused", message: result.message, values }, { status: 409 });
    throw done(post.id, post.status === "scheduled" ? "unscheduled" : "unpublished");
  }

  const result = await services.posts.publish(post.id, actor, { at, clientAddress });
  switch (result.kind) {
    case "published":
      throw done(post.id, "published");
    case "scheduled":
      throw done(post.id, "scheduled");
    case "not-ready":
      // Saved (perhaps just created), not published: the page says what is missing, by field.
      throw done(post.id, "not-ready");
    case "refused":
      if (saved.created) throw done(post.id, "created");
      return data<EditorActionData>({ kind: "refused", message: result.message, values }, { status: 409 });
    case "not-found":
      throw notFound();
  }
}

import type { RouterContextProvider } from "react-router";
import { DEFAULT_BODY_LIMIT, MEDIA_UPLOAD_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject, readMultipart } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import type { Slot } from "#app/lib/work-slots.ts";
import { mediaServices } from "./media-context.server.ts";
import { MEDIA_MAX_PAGE_SIZE, type MediaLibrary } from "./media-library.server.ts";
import { MEDIA_MESSAGES, VARIANT_MIME } from "./media-rules.ts";
import { parseVariantAddress } from "./media-urls.ts";

// The media library over HTTP (issue 24): the staff API the editor's image picker uses, and the
// public address every variant is served from. The API needs `content.publish` (marketing and
// admin) and refuses cross-site changes, like every other /api/admin call.

type Context = Readonly<RouterContextProvider>;

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });
/** What a busy refusal tells the client to wait, as the library's own busy refusal does. */
const MEDIA_RETRY_AFTER_SECONDS = 5;
const notFound = () => json({ message: "Not found" }, 404);

function parseMediaId(raw: string | undefined): number | null {
  const id = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * POST /api/admin/media, multipart: `file` (JPEG, PNG, WebP or AVIF, at most 10 MB) and `alt`.
 * 201 with the image and its variants, and `notices` (what was removed from it).
 */
export async function handleUpload(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const { media } = await mediaServices(context);
  // A place in the processing line before a byte of the body is read (issue 32): 20 uploads at once
  // read 20 files of up to 10 MB (several copies each while parsed) before 15 of them were told to
  // come back, 1.15 GB. Now one file is read and processed at a time, a few wait unread, and the
  // rest are told to come back at once.
  const slot = media.reserve();
  if (!slot)
    return json({ message: MEDIA_MESSAGES.busy, errors: { file: MEDIA_MESSAGES.busy } }, 503, {
      "Retry-After": String(MEDIA_RETRY_AFTER_SECONDS),
    });
  try {
    return await uploadWithSlot(request, media, user.id, slot);
  } finally {
    slot.release();
  }
}

async function uploadWithSlot(request: Request, media: MediaLibrary, userId: number, slot: Slot) {
  // The body is read in this upload's turn: until then it waits in the connection (TCP holds it
  // back), so the uploads waiting hold no memory here.
  await slot.ready;
  // Read no further than the limit: a declared length over it is refused before a byte is read, a
  // chunked body is stopped at it.
  const body = await readMultipart(request, MEDIA_UPLOAD_BODY_LIMIT);
  if (!body.ok) {
    const message = body.status === 413 ? MEDIA_MESSAGES.tooLarge : body.message;
    return json({ message, errors: { file: message } }, body.status);
  }
  const file = body.form.get("file");
  if (!(file instanceof File))
    return json({ message: MEDIA_MESSAGES.empty, errors: { file: MEDIA_MESSAGES.empty } }, 400);
  const alt = body.form.get("alt");
  if (alt instanceof File)
    return json({ message: MEDIA_MESSAGES.alt, errors: { alt: MEDIA_MESSAGES.alt } }, 400);
  const result = await media.upload(await file.bytes(), { alt, userId, slot });
  if (!result.ok) {
    const headers: Record<string, string> =
      result.retryAfterSeconds === undefined ? {} : { "Retry-After": String(result.retryAfterSeconds) };
    return json(
      { message: result.message, errors: { [result.field]: result.message } },
      result.status,
      headers,
    );
  }
  return json({ ...result.media, notices: result.notices }, 201, {
    Location: `/api/admin/media/${result.media.id}`,
  });
}

/** GET /api/admin/media?before=&limit=: `{ items, nextBefore }`, newest first (30 a page, at most 100). */
export async function handleList(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "content.publish");
  const url = new URL(request.url);
  const rawBefore = url.searchParams.get("before");
  const rawLimit = url.searchParams.get("limit");
  const before = rawBefore === null || rawBefore === "" ? undefined : parseMediaId(rawBefore);
  if (before === null) return json({ message: "before must be an image id." }, 400);
  const limit = rawLimit === null || rawLimit === "" ? undefined : Number(rawLimit);
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1 && limit <= MEDIA_MAX_PAGE_SIZE))
    return json({ message: `limit must be a whole number from 1 to ${MEDIA_MAX_PAGE_SIZE}.` }, 400);
  const { media } = await mediaServices(context);
  return json(await media.list({ before, limit }));
}

/** GET /api/admin/media/:id: the image and its variants. */
export async function handleGet(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "content.publish");
  const id = parseMediaId(rawId);
  if (id === null) return notFound();
  const { media } = await mediaServices(context);
  const item = await media.get(id);
  return item ? json(item) : notFound();
}

/** PATCH /api/admin/media/:id `{ alt }`: the image with its new alt text. */
export async function handlePatch(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = parseMediaId(rawId);
  if (id === null) return notFound();
  const body = await readJsonObject(request, DEFAULT_BODY_LIMIT);
  if (!body.ok) return body.response;
  if (!("alt" in body.value))
    return json({ message: "Send the new alt text as `alt`.", errors: { alt: "Required" } }, 400);
  const { media } = await mediaServices(context);
  const result = await media.updateAlt(id, body.value.alt);
  if (!result.ok) return json({ message: result.message, errors: { alt: result.message } }, 400);
  return result.media ? json(result.media) : notFound();
}

/** DELETE /api/admin/media/:id: 204; its variants' addresses answer 404 from then on. */
export async function handleDelete(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "content.publish");
  assertSameOrigin(request);
  const id = parseMediaId(rawId);
  if (id === null) return notFound();
  const { media } = await mediaServices(context);
  const removed = await media.remove(id);
  if (removed.kind === "in-use") return json({ message: removed.message }, 409);
  return removed.kind === "deleted" ? new Response(null, { status: 204 }) : notFound();
}

/**
 * A year, immutable: a variant's address carries the hash of its bytes (media-urls.ts), so what is
 * at an address never changes and browsers and CDNs need never ask again.
 */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** True when If-None-Match names `etag` (or is `*`). */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || value === "*";
  });
}

/**
 * GET /media/:id/:file: a variant's bytes, public (published posts show them), with its type,
 * length, a year's immutable caching and its hash as a strong ETag; 304 for a revalidation, 404 for
 * an address that names no stored variant.
 */
export async function serveVariant(
  request: Request,
  context: Context,
  params: { id?: string; file?: string },
): Promise<Response> {
  const missing = () =>
    new Response("Not found\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const address = parseVariantAddress(params.id, params.file);
  if (!address) return missing();
  const etag = `"${address.hashPrefix}"`;
  const revalidation = matchesEtag(request.headers.get("if-none-match"), etag);
  const { media } = await mediaServices(context);
  const variant = await media.variant(address, { withBytes: !revalidation });
  if (!variant) return missing();
  const headers = { "Cache-Control": MEDIA_CACHE_CONTROL, ETag: etag };
  if (revalidation) return new Response(null, { status: 304, headers });
  return new Response(variant.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...headers,
      "Content-Type": VARIANT_MIME[address.format],
      "Content-Length": String(variant.byteSize),
    },
  });
}

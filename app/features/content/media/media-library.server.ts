import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { RateLimitDecision } from "#app/lib/rate-limit.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import type { Slot } from "#app/lib/work-slots.ts";
import { mediaIdsIn } from "../posts/post-markdown.ts";
import { sniffImageType } from "./image-type.ts";
import type { ImageProcessor } from "./image-worker.server.ts";
import { ImageBusyError } from "./image-worker.server.ts";
import {
  MEDIA_ALT_MAX_CHARS,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  MEDIA_MIME,
  MEDIA_NOTICES,
  type VariantFormat,
} from "./media-rules.ts";
import {
  deleteMedia,
  findMedia,
  findVariant,
  insertMedia,
  listMedia,
  type StoredMedia,
  updateMediaAlt,
  type VariantBytes,
} from "./media-store.server.ts";
import { URL_HASH_LENGTH, variantUrl } from "./media-urls.ts";

// The content studio's media library (issue 24, ADR 024): what the editor's image picker, the upload
// API and the public pages use. An upload is checked (size, type from its bytes, alt text, the
// uploader's rate), processed off the event loop (image-worker.server.ts) and stored with its
// variants; what is served is only ever bytes sharp encoded.

export type MediaVariant = {
  format: VariantFormat;
  width: number;
  height: number;
  url: string;
  bytes: number;
};

/** An image as the API and the editor see it. `url` is its largest fallback (JPEG or PNG) variant. */
export type MediaItem = {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
  mimeType: string;
  byteSize: number;
  createdAt: string;
  createdBy: string | null;
  variants: MediaVariant[];
};

export type UploadRefusal = {
  ok: false;
  status: number;
  message: string;
  /** The form field the message is about. */
  field: "file" | "alt";
  retryAfterSeconds?: number;
};
export type UploadResult = { ok: true; media: MediaItem; notices: string[] } | UploadRefusal;

/** The uploads each staff member may make in UPLOAD_WINDOW_MS: a post's images and retries, not a scraper's. */
export const UPLOADS_PER_HOUR = 60;
export const UPLOAD_WINDOW_MS = 60 * 60 * 1000;
export const MEDIA_PAGE_SIZE = 30;
export const MEDIA_MAX_PAGE_SIZE = 100;

export type AltCheck = { ok: true; alt: string } | { ok: false; message: string };
export type AltUpdate = { ok: true; media: MediaItem | undefined } | { ok: false; message: string };

/**
 * Alt text: at most MEDIA_ALT_MAX_CHARS, trimmed, each run of white space (line breaks from a text
 * box included) one space; no control or bidirectional override characters. Empty marks a
 * decorative image.
 */
export function checkAlt(value: unknown): AltCheck {
  if (value === undefined || value === null) return { ok: true, alt: "" };
  if (typeof value !== "string") return { ok: false, message: MEDIA_MESSAGES.alt };
  const alt = value.trim().replace(/\s+/g, " ");
  if (alt.length > MEDIA_ALT_MAX_CHARS || breaksTextRule(alt, "one-line-no-bidi"))
    return { ok: false, message: MEDIA_MESSAGES.alt };
  return { ok: true, alt };
}

export function toMediaItem(media: StoredMedia): MediaItem {
  const variants = media.variants.map((variant) => ({
    format: variant.format,
    width: variant.width,
    height: variant.height,
    url: variantUrl(media.id, variant),
    bytes: variant.byteSize,
  }));
  const fallback = variants.filter((variant) => variant.format === "jpeg" || variant.format === "png").at(-1);
  return {
    id: media.id,
    url: fallback?.url ?? variants.at(-1)?.url ?? "",
    width: media.width,
    height: media.height,
    alt: media.alt,
    mimeType: media.mimeType,
    byteSize: media.byteSize,
    createdAt: media.createdAt,
    createdBy: media.createdBy,
    variants,
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export type RemoveResult = { kind: "deleted" } | { kind: "not-found" } | { kind: "in-use"; message: string };

export type MediaLibraryOptions = {
  db: Kysely<Database>;
  processor: ImageProcessor;
  /** Counts an upload by a staff member (the shared, database-backed sliding window). */
  uploadLimiter: { hit(key: string): Promise<RateLimitDecision> };
  now?: () => Date;
};

export type MediaLibrary = ReturnType<typeof createMediaLibrary>;

export function createMediaLibrary({
  db,
  processor,
  uploadLimiter,
  now = () => new Date(),
}: MediaLibraryOptions) {
  async function get(id: number): Promise<MediaItem | undefined> {
    const stored = await findMedia(db, id);
    return stored && toMediaItem(stored);
  }

  return {
    /** A place in the processing line before the upload's body is read; null when the line is full. */
    reserve: () => processor.reserve(),

    /**
     * Checks, processes and stores an upload. `bytes` is the whole file, read with a size limit by
     * the caller (after `reserve()`, whose slot it passes); a file over MEDIA_MAX_BYTES is refused
     * here too. Refusals carry the status and the message the person reads; nothing is stored then.
     */
    async upload(
      bytes: Uint8Array,
      { alt, userId, slot }: { alt: unknown; userId: number; slot?: Slot },
    ): Promise<UploadResult> {
      const refuse = (status: number, message: string, field: "file" | "alt" = "file"): UploadRefusal => ({
        ok: false,
        status,
        message,
        field,
      });
      if (bytes.byteLength > MEDIA_MAX_BYTES) return refuse(413, MEDIA_MESSAGES.tooLarge);
      const checkedAlt = checkAlt(alt);
      if (!checkedAlt.ok) return refuse(400, checkedAlt.message, "alt");
      const sniffed = sniffImageType(bytes);
      if (!sniffed.ok) return refuse(sniffed.message === MEDIA_MESSAGES.empty ? 400 : 415, sniffed.message);
      const rate = await uploadLimiter.hit(`media-upload:${userId}`);
      if (!rate.allowed)
        return {
          ...refuse(
            429,
            `You have uploaded ${UPLOADS_PER_HOUR} images in the last hour. Please wait a little before the next.`,
          ),
          retryAfterSeconds: rate.retryAfterSeconds,
        };
      let outcome: Awaited<ReturnType<ImageProcessor["process"]>>;
      try {
        outcome = await processor.process(bytes, sniffed.type, slot);
      } catch (error) {
        if (error instanceof ImageBusyError)
          return { ...refuse(503, MEDIA_MESSAGES.busy), retryAfterSeconds: 5 };
        throw error;
      }
      if (!outcome.ok) {
        const message =
          outcome.reason === "notAnImage"
            ? MEDIA_MESSAGES.notAnImage
            : outcome.reason === "tooManyPixels"
              ? MEDIA_MESSAGES.tooManyPixels
              : outcome.reason === "tooSlow"
                ? MEDIA_MESSAGES.tooSlow
                : outcome.reason === "tooComplex"
                  ? MEDIA_MESSAGES.tooComplex
                  : MEDIA_MESSAGES.damaged;
        return refuse(outcome.reason === "notAnImage" ? 415 : 422, message);
      }
      const id = await insertMedia(db, {
        contentHash: sha256(bytes),
        mimeType: MEDIA_MIME[sniffed.type],
        width: outcome.width,
        height: outcome.height,
        alt: checkedAlt.alt,
        byteSize: bytes.byteLength,
        createdAt: now().toISOString(),
        createdByUserId: userId,
        variants: outcome.variants.map((variant) => ({
          format: variant.format,
          width: variant.width,
          height: variant.height,
          contentHash: sha256(variant.bytes),
          bytes: variant.bytes,
        })),
      });
      const stored = await findMedia(db, id);
      if (!stored) throw new Error(`Media ${id} vanished right after it was stored.`);
      return {
        ok: true,
        media: toMediaItem(stored),
        notices: outcome.notices.map((key) => MEDIA_NOTICES[key]),
      };
    },

    get,

    /** Newest first, `limit` a page (at most MEDIA_MAX_PAGE_SIZE); `before` is the last page's `nextBefore`. */
    async list({ before, limit = MEDIA_PAGE_SIZE }: { before?: number; limit?: number } = {}) {
      const page = await listMedia(db, { before, limit: Math.min(Math.max(1, limit), MEDIA_MAX_PAGE_SIZE) });
      return { items: page.items.map(toMediaItem), nextBefore: page.nextBefore };
    },

    /** The image with its new alt text; undefined when there is none; a refusal for bad text. */
    async updateAlt(id: number, alt: unknown): Promise<AltUpdate> {
      const checked = checkAlt(alt);
      if (!checked.ok) return checked;
      const updated = await updateMediaAlt(db, id, checked.alt);
      return { ok: true, media: updated ? await get(id) : undefined };
    },

    /**
     * Deletes an image and its variants, unless a post shows it (as its cover, or in its body as
     * `media:<id>`): a published page would show a broken image. Revisions are not counted: restoring
     * an old one that used a deleted image shows its alt text.
     */
    async remove(id: number): Promise<RemoveResult> {
      // The database finds the bodies that could name it; the renderer's own reading of a body
      // (mediaIdsIn) decides, so every way marked draws an image counts: `(<media:7>)`,
      // `( media:7 "title")`, not only `(media:7)`.
      const candidates = await db
        .selectFrom("posts")
        .select(["title", "coverImage", "body"])
        .where((eb) => eb.or([eb("coverImage", "=", String(id)), eb("body", "like", `%media:${id}%`)]))
        .orderBy("title")
        .execute();
      const users = candidates
        .filter((post) => post.coverImage === String(id) || mediaIdsIn(post.body).includes(id))
        .slice(0, 5);
      if (users.length > 0)
        return {
          kind: "in-use",
          message: `This image is used by ${users.map((post) => `“${post.title}”`).join(", ")}. Remove it from ${users.length === 1 ? "that post" : "those posts"} first.`,
        };
      return (await deleteMedia(db, id)) ? { kind: "deleted" } : { kind: "not-found" };
    },

    /**
     * The bytes of the variant an address names, when its hash matches (an address of bytes that
     * were replaced or never existed is unknown). `withBytes: false` for a revalidation.
     */
    async variant(
      address: { mediaId: number; format: VariantFormat; width: number; hashPrefix: string },
      options?: { withBytes?: boolean },
    ): Promise<VariantBytes | undefined> {
      const found = await findVariant(db, address, options);
      if (!found || found.contentHash.slice(0, URL_HASH_LENGTH) !== address.hashPrefix) return undefined;
      return found;
    },
  };
}

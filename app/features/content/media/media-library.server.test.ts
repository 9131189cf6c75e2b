import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../../tests/support/databases.ts";
import { createImageProcessor } from "./image-worker.server.ts";
import { createMediaLibrary, type MediaItem } from "./media-library.server.ts";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, MEDIA_NOTICES } from "./media-rules.ts";
import { parseVariantAddress } from "./media-urls.ts";
import {
  exifBlock,
  makeImage,
  pngHeaderClaiming,
  pngWithExif,
  SVG_WITH_SCRIPT,
} from "./testing/image-fixtures.ts";

// Issue 24: the media library on both databases: an upload stored with its variants' bytes (BLOB
// on SQLite, bytea on PostgreSQL), read back byte for byte at the address it gives, listed newest
// first, its alt text changed, deleted; refusals store nothing.

const processor = createImageProcessor({ maxWaiting: 8 });
afterAll(async () => {
  for (let waited = 0; processor.load().running > 0 && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
});

describeEachDatabase("media library", (use) => {
  const library = () => {
    const { db } = use();
    return createMediaLibrary({
      db,
      processor,
      uploadLimiter: createRateLimiter(db, { limit: 100, windowMs: 60_000 }),
      now: () => new Date("2026-11-27T10:00:00.000Z"),
    });
  };
  const staffId = async (username: string) =>
    (await createUser(use().db, { username, password: "a long enough password", role: "marketing" })).id;
  const count = async () => {
    const { db } = use();
    const media = await db
      .selectFrom("media")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const variants = await db
      .selectFrom("mediaVariants")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return { media: Number(media.n), variants: Number(variants.n) };
  };
  const variantBytes = async (media: ReturnType<typeof library>, url: string) => {
    const [, , id, file] = url.split("/");
    const address = parseVariantAddress(id, file);
    if (!address) throw new Error(`not a variant address: ${url}`);
    return media.variant(address);
  };

  it("stores an upload with its variants and serves each one's bytes at the address it gives", async () => {
    const media = library();
    const userId = await staffId("media-uploader");
    const upload = pngWithExif(
      await makeImage("png", { width: 1000, height: 700 }),
      exifBlock({ gps: true, orientation: 1 }),
    );
    const result = await media.upload(upload, { alt: "  The site office   at dawn ", userId });
    if (!result.ok) throw new Error(result.message);
    const item = result.media;
    expect(item).toMatchObject({
      width: 1000,
      height: 700,
      alt: "The site office at dawn",
      mimeType: "image/png",
      byteSize: upload.length,
      createdAt: "2026-11-27T10:00:00.000Z",
      createdBy: "media-uploader",
    });
    expect(result.notices).toEqual([MEDIA_NOTICES.location, MEDIA_NOTICES.metadata]);
    expect(item.variants.map(({ format, width, height }) => `${format} ${width}x${height}`)).toEqual([
      "avif 480x336",
      "avif 1000x700",
      "webp 480x336",
      "webp 1000x700",
      "jpeg 480x336",
      "jpeg 1000x700",
    ]);
    // The image's own URL is its largest fallback: every browser shows it.
    expect(item.url).toBe(item.variants.at(-1)?.url);
    expect(item.url).toMatch(new RegExp(`^/media/${item.id}/1000-[0-9a-f]{16}\\.jpg$`));
    for (const variant of item.variants) {
      const stored = await variantBytes(media, variant.url);
      if (!stored) throw new Error(`no bytes at ${variant.url}`);
      expect(stored.byteSize).toBe(variant.bytes);
      expect(stored.bytes.byteLength).toBe(variant.bytes);
      // The address names these very bytes.
      const hash = createHash("sha256").update(stored.bytes).digest("hex");
      expect(variant.url).toContain(`-${hash.slice(0, 16)}.`);
      const read = await sharp(stored.bytes).metadata();
      expect({ width: read.width, height: read.height, exif: read.exif }).toEqual({
        width: variant.width,
        height: variant.height,
        exif: undefined,
      });
    }
    expect(await media.get(item.id)).toEqual(item);
  });

  it("answers no bytes for an address whose hash, width or format names none stored", async () => {
    const media = library();
    const result = await media.upload(await makeImage("jpeg", { width: 600, height: 400 }), {
      alt: "",
      userId: await staffId("media-addresses"),
    });
    if (!result.ok) throw new Error(result.message);
    const { id } = result.media;
    const url = result.media.variants[0]?.url ?? "";
    const address = parseVariantAddress(String(id), url.split("/")[3]);
    if (!address) throw new Error("bad address");
    expect(await media.variant(address)).toBeDefined();
    expect(await media.variant({ ...address, hashPrefix: "0000000000000000" })).toBeUndefined();
    expect(await media.variant({ ...address, width: 960 })).toBeUndefined();
    expect(await media.variant({ ...address, format: "png" })).toBeUndefined();
    expect(await media.variant({ ...address, mediaId: id + 1000 })).toBeUndefined();
    // A revalidation reads no bytes.
    expect(await media.variant(address, { withBytes: false })).toMatchObject({ bytes: new Uint8Array() });
  });

  it("lists the library newest first, a page at a time", async () => {
    const media = library();
    const userId = await staffId("media-lister");
    const image = await makeImage("webp", { width: 320, height: 200 });
    const ids: number[] = [];
    for (const alt of ["first", "second", "third"]) {
      const result = await media.upload(image, { alt, userId });
      if (!result.ok) throw new Error(result.message);
      ids.push(result.media.id);
    }
    const first = await media.list({ limit: 2 });
    expect(first.items.map((item) => item.alt).slice(0, 2)).toEqual(["third", "second"]);
    expect(first.nextBefore).toBe(ids[1]);
    const rest = await media.list({ before: first.nextBefore ?? undefined, limit: 100 });
    expect(rest.items[0]?.alt).toBe("first");
    const ours = [...first.items, ...rest.items].filter((item: MediaItem) => ids.includes(item.id));
    expect(ours.map((item) => [item.alt, item.variants.length])).toEqual([
      ["third", 3],
      ["second", 3],
      ["first", 3],
    ]);
    expect(rest.nextBefore).toBeNull();
  });

  it("changes alt text, refusing text that is too long or not one line", async () => {
    const media = library();
    const result = await media.upload(await makeImage("jpeg", { width: 300, height: 200 }), {
      alt: "Old words",
      userId: await staffId("media-alt"),
    });
    if (!result.ok) throw new Error(result.message);
    const { id } = result.media;
    expect(await media.updateAlt(id, "A crane over the new library")).toMatchObject({
      ok: true,
      media: { id, alt: "A crane over the new library" },
    });
    expect(await media.updateAlt(id, "x".repeat(301))).toEqual({ ok: false, message: MEDIA_MESSAGES.alt });
    expect(await media.updateAlt(id, "nul\u0000byte")).toEqual({ ok: false, message: MEDIA_MESSAGES.alt });
    // Line breaks from a text box become spaces.
    expect(await media.updateAlt(id, " A crane\r\n over the\tnew library ")).toMatchObject({
      ok: true,
      media: { alt: "A crane over the new library" },
    });
    expect(await media.updateAlt(id, 42)).toEqual({ ok: false, message: MEDIA_MESSAGES.alt });
    expect((await media.get(id))?.alt).toBe("A crane over the new library");
    expect(await media.updateAlt(999_999, "Nothing")).toEqual({ ok: true, media: undefined });
  });

  it("deletes an image with every variant, after which its addresses answer nothing", async () => {
    const media = library();
    const result = await media.upload(await makeImage("png", { width: 500, height: 500 }), {
      alt: "Doomed",
      userId: await staffId("media-deleter"),
    });
    if (!result.ok) throw new Error(result.message);
    const before = await count();
    expect(await media.remove(result.media.id)).toEqual({ kind: "deleted" });
    expect(await count()).toEqual({ media: before.media - 1, variants: before.variants - 3 });
    for (const variant of result.media.variants)
      expect(await variantBytes(media, variant.url)).toBeUndefined();
    expect(await media.get(result.media.id)).toBeUndefined();
    expect(await media.remove(result.media.id)).toEqual({ kind: "not-found" });
  });

  it("keeps an image a post shows, as its cover or in its body, and says which post", async () => {
    const media = library();
    const userId = await staffId("media-keeper");
    const upload = async () => {
      const result = await media.upload(await makeImage("png", { width: 300, height: 200 }), {
        alt: "Kept",
        userId,
      });
      if (!result.ok) throw new Error(result.message);
      return result.media.id;
    };
    const cover = await upload();
    const inBody = await upload();
    // Written as marked also draws it: in angle brackets, after a space, with a title.
    const inAngles = await upload();
    const afterSpace = await upload();
    const now = new Date().toISOString();
    const post = (slug: string, coverImage: string | null, body: string) => ({
      kind: "article" as const,
      slug,
      title: `Post ${slug}`,
      excerpt: "",
      body,
      tags: "[]",
      category: "Industry Insights",
      author: "",
      coverImage,
      coverAlt: "",
      seoTitle: "",
      seoDescription: "",
      outlet: "",
      originalUrl: null,
      featured: 0,
      note: "",
      readTime: null,
      status: "draft" as const,
      revision: 1,
      createdAt: now,
      updatedAt: now,
      changedAt: now,
      changeVersion: 1,
    });
    await use()
      .db.insertInto("posts")
      .values(post("with-cover", String(cover), "Text."))
      .execute();
    await use()
      .db.insertInto("posts")
      .values(post("with-image", null, `Look: ![a crane](media:${inBody})`))
      .execute();
    expect(await media.remove(cover)).toEqual({
      kind: "in-use",
      message: "This image is used by “Post with-cover”. Remove it from that post first.",
    });
    expect((await media.remove(inBody)).kind).toBe("in-use");
    await use()
      .db.insertInto("posts")
      .values(post("in-angles", null, `![a crane](<media:${inAngles}>)`))
      .execute();
    await use()
      .db.insertInto("posts")
      .values(post("after-space", null, `Look:\n\n![a crane](  media:${afterSpace} "The crane")`))
      .execute();
    expect(await media.remove(inAngles)).toEqual({
      kind: "in-use",
      message: "This image is used by “Post in-angles”. Remove it from that post first.",
    });
    expect((await media.remove(afterSpace)).kind).toBe("in-use");
    expect(await media.get(cover)).toBeDefined();
    await use()
      .db.deleteFrom("posts")
      .where("slug", "in", ["with-cover", "with-image", "in-angles", "after-space"])
      .execute();
    expect(await media.remove(inAngles)).toEqual({ kind: "deleted" });
    expect(await media.remove(cover)).toEqual({ kind: "deleted" });
  });

  it("refuses with the person's message and stores nothing", async () => {
    const media = library();
    const userId = await staffId("media-refused");
    const before = await count();
    const refusals = [
      [Buffer.from(SVG_WITH_SCRIPT), 415, MEDIA_MESSAGES.svg],
      [Buffer.from("<html><script>alert(1)</script></html>"), 415, MEDIA_MESSAGES.notAnImage],
      [pngHeaderClaiming(50_000, 50_000), 422, MEDIA_MESSAGES.tooManyPixels],
      [(await makeImage("jpeg", { width: 400, height: 300 })).subarray(0, 600), 422, MEDIA_MESSAGES.damaged],
      [Buffer.alloc(MEDIA_MAX_BYTES + 1, 0xff), 413, MEDIA_MESSAGES.tooLarge],
      [new Uint8Array(), 400, MEDIA_MESSAGES.empty],
    ] as const;
    for (const [bytes, status, message] of refusals)
      expect(await media.upload(bytes, { alt: "", userId })).toMatchObject({ ok: false, status, message });
    expect(
      await media.upload(await makeImage("jpeg", { width: 40, height: 40 }), { alt: "a\u202eb", userId }),
    ).toMatchObject({ ok: false, status: 400, field: "alt", message: MEDIA_MESSAGES.alt });
    expect(await count()).toEqual(before);
  });

  it("limits each person's uploads (the shared sliding window), with the wait", async () => {
    const { db } = use();
    const media = createMediaLibrary({
      db,
      processor,
      uploadLimiter: createRateLimiter(db, { limit: 1, windowMs: 60_000 }),
    });
    const image = await makeImage("jpeg", { width: 100, height: 80 });
    const alice = await staffId("media-rate-a");
    expect((await media.upload(image, { alt: "", userId: alice })).ok).toBe(true);
    const refused = await media.upload(image, { alt: "", userId: alice });
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    // Someone else still may.
    expect((await media.upload(image, { alt: "", userId: await staffId("media-rate-b") })).ok).toBe(true);
  });
});

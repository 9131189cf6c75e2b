import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { VARIANT_FORMATS, type VariantFormat } from "./media-rules.ts";

// The media tables (migration 026): one row per uploaded image, its variants' bytes beside it. Every
// read but the one that serves a variant leaves the bytes out.

export type NewMedia = {
  contentHash: string;
  mimeType: string;
  width: number;
  height: number;
  alt: string;
  byteSize: number;
  createdAt: string;
  createdByUserId: number | null;
  variants: {
    format: VariantFormat;
    width: number;
    height: number;
    contentHash: string;
    bytes: Uint8Array;
  }[];
};

export type StoredVariant = {
  format: VariantFormat;
  width: number;
  height: number;
  contentHash: string;
  byteSize: number;
};

export type StoredMedia = {
  id: number;
  contentHash: string;
  mimeType: string;
  width: number;
  height: number;
  alt: string;
  byteSize: number;
  createdAt: string;
  createdBy: string | null;
  /** AVIF, WebP, then the fallback; narrowest first within each. */
  variants: StoredVariant[];
};

/** Stores an image and its variants in one transaction; returns its id. */
export async function insertMedia(db: Kysely<Database>, media: NewMedia): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { variants, ...row } = media;
    const inserted = await trx.insertInto("media").values(row).returning("id").executeTakeFirstOrThrow();
    const id = Number(inserted.id);
    // One statement per variant: a statement carrying all of them at once would hold every
    // variant's bytes in one parameter list (a few MB), for no gain at a dozen rows.
    for (const variant of variants)
      await trx
        .insertInto("mediaVariants")
        .values({ mediaId: id, ...variant, byteSize: variant.bytes.byteLength })
        .execute();
    return id;
  });
}

const formatOrder = (format: VariantFormat) => VARIANT_FORMATS.indexOf(format);

async function variantsOf(db: Kysely<Database>, ids: number[]): Promise<Map<number, StoredVariant[]>> {
  const byMedia = new Map<number, StoredVariant[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byMedia;
  const rows = await db
    .selectFrom("mediaVariants")
    .select(["mediaId", "format", "width", "height", "contentHash", "byteSize"])
    .where("mediaId", "in", ids)
    .execute();
  for (const { mediaId, ...variant } of rows)
    byMedia.get(Number(mediaId))?.push({
      ...variant,
      width: Number(variant.width),
      height: Number(variant.height),
      byteSize: Number(variant.byteSize),
    });
  for (const list of byMedia.values())
    list.sort((a, b) => formatOrder(a.format) - formatOrder(b.format) || a.width - b.width);
  return byMedia;
}

function mediaQuery(db: Kysely<Database>) {
  return db
    .selectFrom("media")
    .leftJoin("users", "users.id", "media.createdByUserId")
    .select([
      "media.id",
      "media.contentHash",
      "media.mimeType",
      "media.width",
      "media.height",
      "media.alt",
      "media.byteSize",
      "media.createdAt",
      "users.username as createdBy",
    ]);
}

type MediaRow = Awaited<ReturnType<ReturnType<typeof mediaQuery>["execute"]>>[number];

function toStored(row: MediaRow, variants: StoredVariant[]): StoredMedia {
  return {
    ...row,
    id: Number(row.id),
    width: Number(row.width),
    height: Number(row.height),
    byteSize: Number(row.byteSize),
    createdBy: row.createdBy ?? null,
    variants,
  };
}

export async function findMedia(db: Kysely<Database>, id: number): Promise<StoredMedia | undefined> {
  const row = await mediaQuery(db).where("media.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const variants = await variantsOf(db, [id]);
  return toStored(row, variants.get(id) ?? []);
}

/** A page of the library, newest first; pass `nextBefore` as `before` for the page after. */
export async function listMedia(
  db: Kysely<Database>,
  { before, limit }: { before?: number; limit: number },
): Promise<{ items: StoredMedia[]; nextBefore: number | null }> {
  let query = mediaQuery(db)
    .orderBy("media.id", "desc")
    .limit(limit + 1);
  if (before !== undefined) query = query.where("media.id", "<", before);
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  const variants = await variantsOf(
    db,
    page.map((row) => Number(row.id)),
  );
  const items = page.map((row) => toStored(row, variants.get(Number(row.id)) ?? []));
  return { items, nextBefore: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** Changes an image's alt text; false when there is no such image. */
export async function updateMediaAlt(db: Kysely<Database>, id: number, alt: string): Promise<boolean> {
  const result = await db.updateTable("media").set({ alt }).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes an image and its variants; false when there was none. */
export async function deleteMedia(db: Kysely<Database>, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("mediaVariants").where("mediaId", "=", id).execute();
    const result = await trx.deleteFrom("media").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export type VariantBytes = { contentHash: string; byteSize: number; bytes: Uint8Array };

/** A variant's bytes, or undefined. `withBytes: false` answers a revalidation without reading them. */
export async function findVariant(
  db: Kysely<Database>,
  { mediaId, format, width }: { mediaId: number; format: VariantFormat; width: number },
  { withBytes = true } = {},
): Promise<VariantBytes | undefined> {
  const query = db
    .selectFrom("mediaVariants")
    .where("mediaId", "=", mediaId)
    .where("format", "=", format)
    .where("width", "=", width);
  if (!withBytes) {
    const row = await query.select(["contentHash", "byteSize"]).executeTakeFirst();
    return row && { contentHash: row.contentHash, byteSize: Number(row.byteSize), bytes: new Uint8Array() };
  }
  const row = await query.select(["contentHash", "byteSize", "bytes"]).executeTakeFirst();
  return row && { contentHash: row.contentHash, byteSize: Number(row.byteSize), bytes: row.bytes };
}

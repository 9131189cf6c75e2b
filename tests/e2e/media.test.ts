import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { MEDIA_MESSAGES, MEDIA_NOTICES } from "../../app/features/content/media/media-rules.ts";
import {
  exifBlock,
  jpegWithExif,
  makeImage,
  makeNoise,
  pngHeaderClaiming,
  SVG_WITH_SCRIPT,
} from "../../app/features/content/media/testing/image-fixtures.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";

// Issue 24: the media library through the production server. A marketer uploads through the API
// (201); the variants are public, immutable and carry no metadata; sales, a signed-out caller and a
// cross-site page are refused; hostile files get their messages; a costly upload does not hold up
// other requests. On PostgreSQL (as CI runs) a second instance on the same database serves what the
// first stored: the bytes live in the database, not on one machine's disk.

const PASSWORD = "media library passphrase";
const ACCOUNTS = { admin: "media-admin", marketing: "media-marketer", sales: "media-sales" } as const;

type Uploaded = {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
  notices: string[];
  variants: { format: string; width: number; height: number; url: string; bytes: number }[];
};

const postgres = await checkPostgres();
let first: RunningServer;
let second: RunningServer | undefined;
let database: AppDatabase;
let drop: () => Promise<void>;
const cookies = { marketing: "", sales: "" };

beforeAll(async () => {
  let databaseUrl: string;
  if (postgres) {
    const schema = await createPostgresSchema();
    databaseUrl = schema.url;
    drop = schema.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "media-e2e-"));
    databaseUrl = join(dir, "media.sqlite");
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const env = { DATABASE_URL: databaseUrl, ADMIN_USERNAME: ACCOUNTS.admin, ADMIN_PASSWORD: PASSWORD };
  first = await startServer(env);
  database = openDatabase(databaseUrl, { poolSize: 2 });
  await createUser(database.db, { username: ACCOUNTS.marketing, password: PASSWORD, role: "marketing" });
  await createUser(database.db, { username: ACCOUNTS.sales, password: PASSWORD, role: "sales" });
  cookies.marketing = await signIn(first.url, ACCOUNTS.marketing, PASSWORD);
  cookies.sales = await signIn(first.url, ACCOUNTS.sales, PASSWORD);
  if (postgres) second = await startServer(env);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await database?.close();
  await drop?.();
});

function upload(
  file: Uint8Array,
  {
    alt = "",
    cookie = cookies.marketing,
    name = "photo.jpg",
    type = "image/jpeg",
    headers = {},
  }: { alt?: string; cookie?: string; name?: string; type?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.set("file", new Blob([file as Uint8Array<ArrayBuffer>], { type }), name);
  form.set("alt", alt);
  return fetch(`${first.url}/api/admin/media`, {
    method: "POST",
    headers: { Origin: new URL(first.url).origin, ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body: form,
  });
}

const mediaRows = async () =>
  Number(
    (
      await database.db
        .selectFrom("media")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("the media library API and its public images", () => {
  let uploaded: Uploaded;

  it("takes a marketer's photo: 201 with its size, alt text, variants, and what was removed", async () => {
    const camera = jpegWithExif(
      await makeImage("jpeg", { width: 1600, height: 1200 }),
      exifBlock({ gps: true, orientation: 6, description: "Taken at 12 Secret Lane" }),
    );
    const response = await upload(camera, { alt: "The new site office" });
    expect(response.status).toBe(201);
    uploaded = (await response.json()) as Uploaded;
    expect(response.headers.get("location")).toBe(`/api/admin/media/${uploaded.id}`);
    // Turned upright: the 1600 × 1200 sensor image is a 1200 × 1600 portrait.
    expect(uploaded).toMatchObject({ width: 1200, height: 1600, alt: "The new site office" });
    expect(uploaded.notices).toEqual([MEDIA_NOTICES.location, MEDIA_NOTICES.metadata]);
    expect(uploaded.variants.map(({ format, width }) => `${format} ${width}`)).toEqual([
      "avif 480",
      "avif 960",
      "avif 1200",
      "webp 480",
      "webp 960",
      "webp 1200",
      "jpeg 480",
      "jpeg 960",
      "jpeg 1200",
    ]);
    expect(uploaded.url).toBe(uploaded.variants.at(-1)?.url);
  });

  it("serves every variant to anyone, immutable for a year, as the type it is, with no EXIF or location", async () => {
    const servers = second ? [first, second] : [first];
    for (const server of servers)
      for (const variant of uploaded.variants) {
        const response = await fetch(`${server.url}${variant.url}`);
        expect(response.status).toBe(200);
        const bytes = new Uint8Array(await response.arrayBuffer());
        const expectedType = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" }[variant.format];
        expect({
          type: response.headers.get("content-type"),
          length: response.headers.get("content-length"),
          cache: response.headers.get("cache-control"),
          nosniff: response.headers.get("x-content-type-options"),
          csp: response.headers.get("content-security-policy"),
        }).toEqual({
          type: expectedType,
          length: String(variant.bytes),
          cache: "public, max-age=31536000, immutable",
          nosniff: "nosniff",
          csp: "default-src 'none'; frame-ancestors 'none'; sandbox",
        });
        expect(bytes.byteLength).toBe(variant.bytes);
        expect(response.headers.get("etag")).toBe(`"${variant.url.split("-").at(-1)?.split(".")[0]}"`);
        const meta = await sharp(bytes).metadata();
        expect({
          format: meta.format === "heif" ? "avif" : meta.format,
          width: meta.width,
          height: meta.height,
          exif: meta.exif,
          xmp: meta.xmp,
        }).toEqual({
          format: variant.format,
          width: variant.width,
          height: variant.height,
          exif: undefined,
          xmp: undefined,
        });
        expect(Buffer.from(bytes).includes("Secret Lane")).toBe(false);
      }
  });

  it("answers a revalidation with 304 and an unknown or altered address with 404", async () => {
    const variant = uploaded.variants[0];
    if (!variant) throw new Error("no variant");
    const etag = (await fetch(`${first.url}${variant.url}`).then((r) => r.headers.get("etag"))) ?? "";
    const again = await fetch(`${first.url}${variant.url}`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const altered = variant.url.replace(/-([0-9a-f]{16})\./, "-0000000000000000.");
    for (const path of [altered, "/media/999999/480-0123456789abcdef.avif", "/media/1/photo.svg"]) {
      const response = await fetch(`${first.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("lists the library for the editor's picker, and changes an image's alt text", async () => {
    const list = await fetch(`${first.url}/api/admin/media?limit=5`, {
      headers: { Cookie: cookies.marketing },
    });
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: Uploaded[]; nextBefore: number | null };
    expect(page.items[0]).toMatchObject({
      id: uploaded.id,
      alt: "The new site office",
      createdBy: ACCOUNTS.marketing,
    });
    const patched = await fetch(`${first.url}/api/admin/media/${uploaded.id}`, {
      method: "PATCH",
      headers: {
        Cookie: cookies.marketing,
        "Content-Type": "application/json",
        Origin: new URL(first.url).origin,
      },
      body: JSON.stringify({ alt: "Engineers at the new site office" }),
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: uploaded.id, alt: "Engineers at the new site office" });
  });

  it("refuses sales (403), a signed-out caller (401) and a cross-site page (403), storing nothing", async () => {
    const before = await mediaRows();
    const image = await makeImage("jpeg", { width: 200, height: 100 });
    const sales = await upload(image, { cookie: cookies.sales });
    expect(sales.status).toBe(403);
    expect(await sales.json()).toEqual({ message: "Your role does not allow this." });
    expect((await fetch(`${first.url}/api/admin/media`, { headers: { Cookie: cookies.sales } })).status).toBe(
      403,
    );
    expect((await upload(image, { cookie: "" })).status).toBe(401);
    const crossSite = await upload(image, {
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ message: "Cross-site requests are not allowed." });
    expect(await mediaRows()).toBe(before);
  });

  it("refuses hostile and wrong files with the message the person reads", async () => {
    const before = await mediaRows();
    const refusals: [Uint8Array, { name: string; type: string }, number, string][] = [
      [Buffer.from(SVG_WITH_SCRIPT), { name: "logo.svg", type: "image/svg+xml" }, 415, MEDIA_MESSAGES.svg],
      // Named and sent as a JPEG; its bytes are a web page.
      [
        Buffer.from("<html><script>alert(1)</script></html>"),
        { name: "photo.jpg", type: "image/jpeg" },
        415,
        MEDIA_MESSAGES.notAnImage,
      ],
      [
        pngHeaderClaiming(50_000, 50_000),
        { name: "huge.png", type: "image/png" },
        422,
        MEDIA_MESSAGES.tooManyPixels,
      ],
      [
        Buffer.alloc(11 * 1024 * 1024, 0xff),
        { name: "big.jpg", type: "image/jpeg" },
        413,
        MEDIA_MESSAGES.tooLarge,
      ],
    ];
    for (const [bytes, file, status, message] of refusals) {
      const response = await upload(bytes, file);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status,
        body: { message, errors: { file: message } },
      });
    }
    expect(await mediaRows()).toBe(before);
  });

  it("answers other requests while a costly image is being processed", async () => {
    const costly = upload(await makeNoise(1200, 900), { name: "noise.png", type: "image/png" });
    const order: string[] = [];
    const tracked = costly.then((response) => {
      order.push("upload");
      return response;
    });
    // Give the upload time to reach its worker, then ask for a page and an image.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [user, image] = await Promise.all([
      fetch(`${first.url}/api/user`, { headers: { Cookie: cookies.marketing } }),
      fetch(`${first.url}${uploaded.variants[0]?.url}`),
    ]);
    order.push("others");
    expect([user.status, image.status]).toEqual([200, 200]);
    expect((await tracked).status).toBe(201);
    expect(order).toEqual(["others", "upload"]);
  });

  it("deletes an image: 204, and its addresses answer 404 on every instance", async () => {
    const deleted = await fetch(`${first.url}/api/admin/media/${uploaded.id}`, {
      method: "DELETE",
      headers: { Cookie: cookies.marketing, Origin: new URL(first.url).origin },
    });
    expect(deleted.status).toBe(204);
    for (const server of second ? [first, second] : [first])
      expect((await fetch(`${server.url}${uploaded.url}`)).status).toBe(404);
    expect(
      (await fetch(`${first.url}/api/admin/media/${uploaded.id}`, { headers: { Cookie: cookies.marketing } }))
        .status,
    ).toBe(404);
  });
});

import sharp from "sharp";
import { openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { signIn } from "../../tests/e2e/support/accounts.ts";

// A post published through the content studio as a marketer would (issue 24): an account with the
// marketing role, a cover photo uploaded to the media library, an article with an image in its body,
// published. For the measurements that must include such a post (npm run lighthouse).

export const STUDIO_POST_SLUG = "notice-periods-that-protect-your-margin";

/** A photo-like JPEG: a gradient with noise, so the encoder has real work (1600 x 900). */
async function photo(): Promise<Buffer> {
  const width = 1600;
  const height = 900;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed % 24) - 12;
      const offset = (y * width + x) * 3;
      pixels[offset] = Math.max(0, Math.min(255, 18 + (x * 60) / width + noise));
      pixels[offset + 1] = Math.max(0, Math.min(255, 53 + (y * 90) / height + noise));
      pixels[offset + 2] = Math.max(0, Math.min(255, 91 + ((x + y) * 80) / (width + height) + noise));
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Publishes the studio post on the server at `baseUrl` (database `databaseUrl`); returns its path. */
export async function publishStudioPost(baseUrl: string, databaseUrl: string): Promise<string> {
  const username = "studio-writer";
  const password = "studio writer passphrase";
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    await createUser(database.db, { username, password, role: "marketing" });
  } finally {
    await database.close();
  }
  const cookie = await signIn(baseUrl, username, password);
  const call = async (path: string, init: RequestInit) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { Cookie: cookie, ...init.headers },
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "site.jpg");
  form.set("alt", "Steel frame of a four-storey building at dusk");
  const image = await call("/api/admin/media", { method: "POST", body: form });
  const json = { "Content-Type": "application/json" };
  const post = await call("/api/admin/posts", {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      kind: "article",
      slug: STUDIO_POST_SLUG,
      title: "Notice periods that protect your margin",
      excerpt:
        "Most disputes are lost on a date, not on the merits. Here is how to keep every notice in time.",
      author: "Priya Shah",
      tags: ["notices", "NEC", "JCT"],
      coverImage: String(image.id),
      coverAlt: "Steel frame of a four-storey building at dusk",
      body: [
        "Most disputes on a construction contract are not lost on the merits. They are lost on a date.",
        "",
        "## Why the clock matters",
        "",
        "Under NEC4 an early warning and a compensation event notice each have their own clock, and a late notice can remove the entitlement altogether. JCT contracts put the same weight on payment notices and pay less notices.",
        "",
        `![The frame going up, week 12](media:${image.id})`,
        "",
        "## What to do about it",
        "",
        "- Keep every notice period in one register, from the contract as amended.",
        "- Give each one an owner and a reminder before it runs out.",
        "- Record when each notice was sent, and how.",
        "",
        "Read how [Clausebridge tracks notices](/features) for you.",
      ].join("\n"),
    }),
  });
  await call(`/api/admin/posts/${post.id}/publish`, { method: "POST", headers: json, body: "{}" });
  return `/blog/${STUDIO_POST_SLUG}`;
}

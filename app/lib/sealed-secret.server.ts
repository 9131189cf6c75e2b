import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Secrets the server must read back (a TOTP secret, a calendar's app password) are kept encrypted at
// rest with AES-256-GCM under a key derived from the app secret: a copy of the database alone does not
// reveal them, and a changed row fails to open rather than yielding another secret. Each use derives
// its own key (HKDF with its own salt and purpose), so one key reveals nothing of another.

/** A 32-byte key for one purpose, derived from the app secret. */
export function deriveSecretKey(appSecret: string, salt: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, salt, purpose, 32));
}

/** `v1.<iv>.<ciphertext>.<tag>`, base64url parts: a fresh random IV each time. */
export function sealSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plain text of a sealed secret; throws when it was sealed under another key or changed. */
export function openSecret(sealed: string, key: Buffer, what = "secret"): string {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !body || !tag) throw new Error(`unreadable ${what}`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

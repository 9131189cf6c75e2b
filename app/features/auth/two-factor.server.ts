import { createHmac, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { deriveSecretKey, openSecret, sealSecret } from "#app/lib/sealed-secret.server.ts";

// The arithmetic of two-factor sign-in (RFC 6238 TOTP, ADR 017): secrets, codes, the enrolment QR
// code and recovery codes. Nothing here touches the database; two-factor-store.server.ts does.

/** What authenticator apps show next to the code. */
export const TOTP_ISSUER = "Clausebridge";
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code from the step before or after the current one is accepted too (clock drift, typing time). */
const WINDOW = 1;

export const RECOVERY_CODE_COUNT = 10;
// 10 characters from a 31-character alphabet without look-alikes (no 0/O, 1/I/L): 49 bits each, shown
// as two groups of five. High entropy is what lets a fast keyed hash stand in for a slow one.
const RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const RECOVERY_LENGTH = 10;

/** A code as typed: 6 digits, spaces allowed; or a recovery code, dashes and spaces allowed. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;

/** Keys for the two jobs the app secret does here, derived apart so neither reveals the other. */
export function twoFactorKeys(appSecret: string) {
  const derive = (info: string) => deriveSecretKey(appSecret, "clausebridge-2fa", info);
  return { encryption: derive("totp-secret-encryption"), recovery: derive("recovery-code-hmac") };
}
export type TwoFactorKeys = ReturnType<typeof twoFactorKeys>;

/** A new random secret (160 bits, RFC 4226's recommendation), as base32 for apps and typing. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** AES-256-GCM (app/lib/sealed-secret.server.ts), so a changed row fails to open rather than yielding another secret. */
export function encryptSecret(base32: string, keys: TwoFactorKeys): string {
  return sealSecret(base32, keys.encryption);
}

export function decryptSecret(stored: string, keys: TwoFactorKeys): string {
  return openSecret(stored, keys.encryption, "two-factor secret");
}

function totp(base32: string, username = "") {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri(base32: string, username: string): string {
  return totp(base32, username).toString();
}

/** The QR code of `uri` as an inline SVG element (made here, nothing fetched; CSP allows inline SVG). */
export async function qrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** The 30-second step `now` falls in. */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / PERIOD_SECONDS);
}

/** The code an app shows at `now` (tests, and nothing else: the server never needs to show one). */
export function totpCode(base32: string, now: number): string {
  return totp(base32).generate({ timestamp: now });
}

/** Spaces and dashes dropped: "123 456" and "ABCDE-FGHJK" are what people type. */
export function normaliseCode(raw: string): string {
  return raw.replace(/[\s-]/g, "").toUpperCase();
}

/**
 * The step `code` belongs to when it is right for `now` give or take one step, else null. The
 * caller still has to refuse a step already used (replay).
 */
export function matchTotpStep(base32: string, code: string, now: number): number | null {
  const token = normaliseCode(code);
  if (!TOTP_CODE_PATTERN.test(token)) return null;
  const delta = totp(base32).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : totpStep(now) + delta;
}

/** Ten fresh recovery codes, formatted for showing ("ABCDE-FGHJK"). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = "";
    for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** Whether `raw` has a recovery code's shape once normalised (checked before any database work). */
export function looksLikeRecoveryCode(raw: string): boolean {
  const code = normaliseCode(raw);
  return code.length === RECOVERY_LENGTH && [...code].every((char) => RECOVERY_ALPHABET.includes(char));
}

/** The stored form of a recovery code: HMAC-SHA256 under its own derived key (microseconds). */
export function hashRecoveryCode(raw: string, keys: TwoFactorKeys): string {
  return createHmac("sha256", keys.recovery).update(normaliseCode(raw)).digest("base64url");
}

// A staff account's e-mail address (issue 34): meeting invitations and reminders go to it when the
// account hosts meetings. One address, at most 254 characters (RFC 5321's path limit), no line
// breaks or other control characters, the domain lower-cased (the local part is the mailbox's own).
// Not unique: two accounts of one person may share it. Empty clears it.

export const STAFF_EMAIL_MAX = 254;

export const STAFF_EMAIL_MESSAGE =
  "Enter one e-mail address such as name@example.com (at most 254 characters), or leave it empty.";

/** local@domain.tld: no spaces, commas, angle brackets or quotes, so exactly one address. */
const ADDRESS =
  /^[^\s@,;:<>()[\]"\\]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export type StaffEmailCheck = { ok: true; email: string | null } | { ok: false; message: string };

/** The address as stored (null when empty), or why it is refused. */
export function checkStaffEmail(raw: unknown): StaffEmailCheck {
  if (raw === null || raw === undefined) return { ok: true, email: null };
  if (typeof raw !== "string") return { ok: false, message: STAFF_EMAIL_MESSAGE };
  // Control characters (CR, LF, NUL…) anywhere, even around it, refuse it: never trimmed away.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, message: STAFF_EMAIL_MESSAGE };
  const value = raw.trim();
  if (value === "") return { ok: true, email: null };
  if (value.length > STAFF_EMAIL_MAX) return { ok: false, message: STAFF_EMAIL_MESSAGE };
  const at = value.lastIndexOf("@");
  const email = `${value.slice(0, at)}@${value.slice(at + 1).toLowerCase()}`;
  if (at < 1 || !ADDRESS.test(email)) return { ok: false, message: STAFF_EMAIL_MESSAGE };
  return { ok: true, email };
}

import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import {
  createStaffMember,
  issueSetPasswordLink,
  type SetPasswordLink,
  StaffChangeError,
  setStaffDisabled,
  setStaffEmail,
  setStaffPassword,
  setStaffRole,
  signOutEverywhere,
} from "./staff.server.ts";
import { checkStaffEmail } from "./staff-email.ts";
import type { StaffActor } from "./staff-events.server.ts";
import { parseStaffId, RoleSchema, setPasswordUrl } from "./staff-http.server.ts";
import { PASSWORDS_DIFFER } from "./staff-messages.ts";
import { reopenColleagueTwoFactorCodes, resetColleagueTwoFactor } from "./two-factor-store.server.ts";
import { passwordProblem, UserInputError } from "./users.server.ts";

// The staff page's forms as they arrive (with or without JavaScript: the same POST): one `intent`
// each. The route turns the outcome into a redirect with a notice, a one-time link, or a 4xx.

export type StaffNotice =
  | "created"
  | "disabled"
  | "enabled"
  | "password"
  | "role"
  | "signed-out"
  | "two-factor-reset"
  | "code-step-reopened"
  | "email";
const NOTICES: readonly StaffNotice[] = [
  "created",
  "email",
  "role",
  "disabled",
  "enabled",
  "password",
  "signed-out",
  "two-factor-reset",
  "code-step-reopened",
];

/** A set-password link as the page shows it, once. */
export type ShownLink = {
  userId: number;
  username: string;
  url: string;
  expiresAt: string;
  created: boolean;
};

export type StaffFormOutcome =
  | { kind: "done"; notice: StaffNotice; id: number }
  | { kind: "link"; link: ShownLink }
  | {
      kind: "refused";
      status: 400 | 404 | 409;
      /** Which form to show the message in: the create form, or the row of account `id`. */
      form: "create" | "row";
      id?: number;
      message: string;
      errors?: Partial<Record<"username" | "password" | "confirm" | "role" | "email", string>>;
      values?: { username: string; method: string; role: string; email?: string };
    };

const field = (form: URLSearchParams, name: string) => form.get(name) ?? "";

/** Where a link points: PUBLIC_URL when set (never a forwarded host), and the request it answers. */
type LinkBase = { request: Request; publicUrl: string | undefined };

function shown(base: LinkBase, userId: number, username: string, link: SetPasswordLink, created: boolean) {
  const url = setPasswordUrl(base.request, link, base.publicUrl);
  return { userId, username, url, expiresAt: link.expiresAt, created };
}

/** The new password and its confirmation, or what is wrong with them. */
function readNewPassword(
  form: URLSearchParams,
): { password: string } | { field: "password" | "confirm"; message: string } {
  const password = field(form, "password");
  const problem = passwordProblem(password);
  if (problem) return { field: "password", message: problem };
  if (field(form, "confirm") !== password) return { field: "confirm", message: PASSWORDS_DIFFER };
  return { password };
}

async function create(db: Kysely<Database>, base: LinkBase, form: URLSearchParams, actor: StaffActor) {
  const username = field(form, "username").trim();
  const method = field(form, "method") === "password" ? "password" : "link";
  const role = RoleSchema.safeParse(form.get("role") ?? "admin");
  const rawEmail = field(form, "email").slice(0, 1000);
  const refuse = (
    message: string,
    errors: NonNullable<Extract<StaffFormOutcome, { kind: "refused" }>["errors"]>,
  ) =>
    ({
      kind: "refused",
      status: 400,
      form: "create",
      message,
      errors,
      values: { username, method, role: role.success ? role.data : "admin", email: rawEmail },
    }) as const;
  if (!role.success) return refuse("Choose a role.", { role: "Choose a role." });
  if (!username) return refuse("Please enter a username.", { username: "Please enter a username." });
  if (username.length > 64 || breaksTextRule(username, "one-line")) {
    const message = "The username must be 3 to 64 letters, digits or . _ @ - characters.";
    return refuse(message, { username: message });
  }
  const email = checkStaffEmail(rawEmail);
  if (!email.ok) return refuse(email.message, { email: email.message });
  let password: string | undefined;
  if (method === "password") {
    const checked = readNewPassword(form);
    if (!("password" in checked)) return refuse(checked.message, { [checked.field]: checked.message });
    password = checked.password;
  }
  try {
    const { member, link } = await createStaffMember(
      db,
      { username, password, role: role.data, email: email.email },
      actor,
    );
    if (link) return { kind: "link", link: shown(base, member.id, member.username, link, true) } as const;
    return { kind: "done", notice: "created", id: member.id } as const;
  } catch (error) {
    if (error instanceof UserInputError) return refuse(error.message, { username: error.message });
    throw error;
  }
}

/** Runs the form's intent for `actor` (the admin the guard admitted). */
export async function runStaffForm(
  db: Kysely<Database>,
  request: Request,
  form: URLSearchParams,
  actor: StaffActor,
  sessionToken: string | undefined,
  /** PUBLIC_URL: the origin set-password links are made on when it is set. */
  publicUrl?: string,
): Promise<StaffFormOutcome> {
  const base = { request, publicUrl };
  const intent = form.get("intent");
  if (intent === "create") return create(db, base, form, actor);
  const id = parseStaffId(form.get("id"));
  const refuse = (
    status: 400 | 404 | 409,
    message: string,
    errors?: { password?: string; confirm?: string; email?: string },
  ) => ({ kind: "refused", status, form: "row", id: id ?? undefined, message, errors }) as const;
  if (id === null) return refuse(404, "No such staff account.");
  try {
    switch (intent) {
      case "disable":
      case "enable": {
        await setStaffDisabled(db, { id, disabled: intent === "disable", actor });
        return { kind: "done", notice: intent === "disable" ? "disabled" : "enabled", id };
      }
      case "set-password": {
        const checked = readNewPassword(form);
        if (!("password" in checked))
          return refuse(400, checked.message, { [checked.field]: checked.message });
        // Your own password: this session stays, your others end.
        const keepSessionToken = id === actor.id ? sessionToken : undefined;
        await setStaffPassword(db, { id, password: checked.password, actor, keepSessionToken });
        return { kind: "done", notice: "password", id };
      }
      case "role": {
        const role = RoleSchema.safeParse(form.get("role"));
        if (!role.success) return refuse(400, "Choose a role.");
        await setStaffRole(db, { id, role: role.data, actor });
        return { kind: "done", notice: "role", id };
      }
      case "email": {
        const email = checkStaffEmail(field(form, "email"));
        if (!email.ok) return refuse(400, email.message, { email: email.message });
        await setStaffEmail(db, { id, email: email.email });
        return { kind: "done", notice: "email", id };
      }
      case "sign-out": {
        await signOutEverywhere(db, { id, actor });
        return { kind: "done", notice: "signed-out", id };
      }
      case "reset-two-factor": {
        await resetColleagueTwoFactor(db, { id, actor });
        return { kind: "done", notice: "two-factor-reset", id };
      }
      case "reopen-code-step": {
        await reopenColleagueTwoFactorCodes(db, { id, actor });
        return { kind: "done", notice: "code-step-reopened", id };
      }
      case "issue-link": {
        const { member, link } = await issueSetPasswordLink(db, { id, actor });
        return { kind: "link", link: shown(base, member.id, member.username, link, false) };
      }
      default:
        return refuse(400, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof StaffChangeError) return refuse(error.status, error.message);
    if (error instanceof UserInputError) return refuse(400, error.message, { password: error.message });
    throw error;
  }
}

/** `?notice=…&id=…` after a redirect: what happened to which account. */
export function readStaffNotice(url: URL): { notice: StaffNotice; id: number } | null {
  const notice = url.searchParams.get("notice") as StaffNotice | null;
  const id = parseStaffId(url.searchParams.get("id"));
  return notice && NOTICES.includes(notice) && id !== null ? { notice, id } : null;
}

export function staffNoticeHref(path: string, notice: StaffNotice, id: number): string {
  return `${path}?${new URLSearchParams({ notice, id: String(id) })}`;
}

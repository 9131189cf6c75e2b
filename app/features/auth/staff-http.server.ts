import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { readJsonObject } from "#app/lib/http.server.ts";
import { ROLES } from "#app/lib/permissions.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { authServices } from "./auth-context.server.ts";
import { readSessionToken } from "./cookies.server.ts";
import {
  createStaffMember,
  listStaff,
  NOT_FOUND_MESSAGE,
  type SetPasswordLink,
  StaffChangeError,
  type StaffMember,
  setStaffDisabled,
  setStaffEmail,
  setStaffPassword,
  setStaffRole,
} from "./staff.server.ts";
import { checkStaffEmail } from "./staff-email.ts";
import { setPasswordPath } from "./staff-paths.ts";
import { passwordProblem, UserInputError } from "./users.server.ts";

// /api/admin/users… (issue 10): staff accounts through the JSON API. Every handler checks the admin
// session first; changes also refuse cross-site requests.

type Context = Readonly<RouterContextProvider>;

/** A username and a password with their sign-in form bounds: 256 characters is a long passphrase. */
const STAFF_BODY_LIMIT = 4 * 1024;

export const UsernameSchema = z
  .string({ error: "The username must be text." })
  .trim()
  .min(1, "Please enter a username.")
  .max(64, "The username must have at most 64 characters.")
  .refine((value) => !breaksTextRule(value, "one-line"), "The username may not contain control characters.");

/** The password rules of users.server.ts, with their messages. */
export const PasswordSchema = z
  .string({ error: "The password must be text." })
  .superRefine((value, context) => {
    const problem = passwordProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** A staff account's e-mail address (staff-email.ts): null or "" clears it. */
export const StaffEmailSchema = z.unknown().transform((value, context) => {
  const checked = checkStaffEmail(value);
  if (checked.ok) return checked.email;
  context.addIssue({ code: "custom", message: checked.message });
  return z.NEVER;
});

/** A staff role (permissions.ts), with the message the API and the staff page answer. */
export const RoleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}.` });

const CreateSchema = z.object({
  username: UsernameSchema,
  // Absent or null: the account gets a one-time set-password link instead.
  password: PasswordSchema.nullish(),
  // Absent: an admin, as every account was before roles.
  role: RoleSchema.optional(),
  // Absent or null: none (meeting invitations then come from MAIL_FROM's address).
  email: StaffEmailSchema.optional(),
});

const PatchSchema = z
  .object({
    disabled: z.boolean({ error: "disabled must be true or false." }).optional(),
    password: PasswordSchema.optional(),
    role: RoleSchema.optional(),
    email: StaffEmailSchema.optional(),
  })
  .refine(
    (body) =>
      body.disabled !== undefined ||
      body.password !== undefined ||
      body.role !== undefined ||
      body.email !== undefined,
    { error: "Send role, disabled, password, email, or several of them." },
  );

/** GET /api/admin/users (and the API's answers): the account as SPEC section 3 names it, plus its state. */
export function staffJson(member: StaffMember) {
  return {
    id: member.id,
    username: member.username,
    role: member.role,
    isAdmin: member.isAdmin,
    disabled: member.disabled,
    passwordSet: member.passwordSet,
    twoFactor: member.twoFactor,
    email: member.email,
    lastSignInAt: member.lastSignInAt,
    createdAt: member.createdAt,
  };
}

/**
 * The absolute URL of a set-password link: on PUBLIC_URL when it is set, else on the origin the
 * admin is using. NOTE: behind TRUST_PROXY the request's host comes from X-Forwarded-Host, which a
 * client can send itself; a link built on it would hand the token to whatever host it names.
 */
export function setPasswordUrl(request: Request, link: SetPasswordLink, publicUrl?: string): string {
  const origin = publicUrl ? new URL(publicUrl).origin : new URL(request.url).origin;
  return new URL(setPasswordPath(link.token), origin).href;
}

function invalid(error: z.ZodError): Response {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "body");
    errors[field] ??= issue.message;
  }
  return Response.json({ message: Object.values(errors).join(" "), errors }, { status: 400 });
}

/** A refused change as the API answers it; anything else is not ours to answer. */
function refusal(error: unknown, field: string): Response {
  if (error instanceof UserInputError) {
    return Response.json({ message: error.message, errors: { [field]: error.message } }, { status: 400 });
  }
  if (error instanceof StaffChangeError)
    return Response.json({ message: error.message }, { status: error.status });
  throw error;
}

export function parseStaffId(raw: unknown): number | null {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** GET /api/admin/users: every account, by username. */
export async function handleListStaff(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "staff.manage");
  const { database } = await authServices(context);
  return Response.json((await listStaff(database.db)).map(staffJson));
}

/**
 * POST /api/admin/users { username, password, role, email }: 201 with the new account (role admin unless
 * given). Without a password, the answer
 * also carries `setPasswordUrl` and `setPasswordExpiresAt`: a one-time link, shown only here.
 */
export async function handleCreateStaff(request: Request, context: Context): Promise<Response> {
  const actor = await requireApiPermission(request, context, "staff.manage");
  assertSameOrigin(request);
  const body = await readJsonObject(request, STAFF_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = CreateSchema.safeParse(body.value);
  if (!parsed.success) return invalid(parsed.error);
  const { database, env } = await authServices(context);
  try {
    const { member, link } = await createStaffMember(
      database.db,
      {
        username: parsed.data.username,
        password: parsed.data.password ?? undefined,
        role: parsed.data.role,
        email: parsed.data.email ?? null,
      },
      actor,
    );
    const extra = link
      ? {
          setPasswordUrl: setPasswordUrl(request, link, env.PUBLIC_URL),
          setPasswordExpiresAt: link.expiresAt,
        }
      : {};
    return Response.json({ ...staffJson(member), ...extra }, { status: 201 });
  } catch (error) {
    return refusal(error, "username");
  }
}

/**
 * PATCH /api/admin/users/:id { role, disabled, password, email }: any of them. 409 when it would leave no
 * enabled admin who can sign in (nothing is changed then); 404 for an unknown account. A new password signs the account out
 * everywhere (one's own: every other session).
 */
export async function handlePatchStaff(request: Request, context: Context, rawId: string | undefined) {
  const actor = await requireApiPermission(request, context, "staff.manage");
  assertSameOrigin(request);
  const body = await readJsonObject(request, STAFF_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = PatchSchema.safeParse(body.value);
  if (!parsed.success) return invalid(parsed.error);
  const id = parseStaffId(rawId);
  if (id === null) return Response.json({ message: NOT_FOUND_MESSAGE }, { status: 404 });
  const { database } = await authServices(context);
  const { role, disabled, password, email } = parsed.data;
  try {
    // The role and the state first: when one is refused (409), the password is not changed either.
    let member = role === undefined ? undefined : await setStaffRole(database.db, { id, role, actor });
    if (disabled !== undefined) member = await setStaffDisabled(database.db, { id, disabled, actor });
    if (email !== undefined) member = await setStaffEmail(database.db, { id, email });
    if (password !== undefined) {
      member = await setStaffPassword(database.db, {
        id,
        password,
        actor,
        keepSessionToken: id === actor.id ? readSessionToken(request) : undefined,
      });
    }
    return Response.json(member ? staffJson(member) : null);
  } catch (error) {
    return refusal(error, "password");
  }
}

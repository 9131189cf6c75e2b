import { formatDate } from "#app/lib/format-date.ts";
import type { StaffAction } from "../staff-events.server.ts";

// How the staff page words an account's state and its history.

export type StaffState = "active" | "disabled" | "awaiting-password" | "no-access";

export function staffState(member: {
  role: string | null;
  disabled: boolean;
  passwordSet: boolean;
}): StaffState {
  if (member.disabled) return "disabled";
  if (member.role === null) return "no-access";
  if (!member.passwordSet) return "awaiting-password";
  return "active";
}

/** Dark text on a pale tint (above WCAG AA's 4.5:1), and never colour alone: each has its word. */
export const STAFF_STATE: Record<StaffState, { label: string; className: string }> = {
  active: { label: "Active", className: "bg-green-100 text-green-900" },
  disabled: { label: "Disabled", className: "bg-slate-200 text-slate-900" },
  "awaiting-password": { label: "Awaiting password", className: "bg-yellow-100 text-yellow-900" },
  "no-access": { label: "No back-office access", className: "bg-slate-200 text-slate-900" },
};

/** One history line: "boss disabled jane". The person using a link acted on their own account. */
export function staffEventText(event: {
  action: StaffAction;
  username: string;
  actorUsername: string;
}): string {
  const { username, actorUsername } = event;
  switch (event.action) {
    case "created":
      return `${actorUsername} added ${username}`;
    case "disabled":
      return `${actorUsername} disabled ${username}`;
    case "enabled":
      return `${actorUsername} enabled ${username}`;
    case "password_reset":
      return `${actorUsername} set a new password for ${username}`;
    case "link_issued":
      return `${actorUsername} created a set-password link for ${username}`;
    case "link_used":
      return `${username} chose a password with their link`;
    case "signed_out":
      return `${actorUsername} signed ${username} out everywhere`;
    case "two_factor_reset":
      return `${actorUsername} reset two-factor sign-in for ${username}`;
    case "role_changed":
      return `${actorUsername} changed the role of ${username}`;
    case "code_step_reopened":
      return `${actorUsername} reopened the code step for ${username}`;
  }
}

/** Up to two letters for the avatar: "jane.doe" → "JD". */
export function initials(username: string): string {
  const parts = username.split(/[._@-]+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ""}${parts[1]?.[0] ?? ""}` : username.slice(0, 2);
  return letters.toUpperCase();
}

/** "Nov 21, 2026" (UK date), as every back-office date (lib/format-date.ts). */
export function formatDay(iso: string): string {
  return formatDate(iso);
}

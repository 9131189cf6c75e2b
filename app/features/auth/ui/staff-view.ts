import type { Role } from "#app/lib/permissions.ts";
import type { StaffAction } from "../staff-events.server.ts";

// What the staff page's loader hands its components (dates already formatted on the server, so the
// browser hydrates exactly the server's text).

export type StaffRowView = {
  id: number;
  username: string;
  /** Null: no back-office access (an account from before roles that was not an admin). */
  role: Role | null;
  isAdmin: boolean;
  disabled: boolean;
  passwordSet: boolean;
  /** Two-factor sign-in is on. */
  twoFactor: boolean;
  /** Where meeting invitations go; null: none set. */
  email: string | null;
  /** 20 wrong codes today from untrusted clients closed the code step to them (issue 32 point 3). */
  codeStepClosed: boolean;
  /** Formatted, or null when the account never signed in. */
  lastSignIn: string | null;
  added: string;
};

export type StaffEventView = {
  id: number;
  action: StaffAction;
  username: string;
  actorUsername: string;
  createdAt: string;
  when: string;
};

/** A link shown once, after it was created. */
export type ShownLinkView = {
  userId: number;
  username: string;
  url: string;
  expiresAt: string;
  created: boolean;
};

/** What a staff form's POST answers when it does not redirect (the same with or without JavaScript). */
export type StaffActionData =
  | { kind: "link"; link: ShownLinkView }
  | {
      kind: "refused";
      status: number;
      form: "create" | "row";
      id?: number;
      message: string;
      errors?: Partial<Record<"username" | "password" | "confirm" | "role" | "email", string>>;
      values?: { username: string; method: string; role: string; email?: string };
    };

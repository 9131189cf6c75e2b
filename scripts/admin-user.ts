// `npm run admin:create -- <username>`, `npm run admin:set-password -- <username>`,
// `npm run admin:reset-2fa -- <username>` (a lost phone: the account signs in with its password
// again) and `npm run admin:setup-link -- <username>` (where STAFF_2FA_REQUIRED is on, an account
// without two-factor sign-in sets it up only through such a one-time link, ADR 020).
// `npm run admin:reset-2fa -- <username> --codes` keeps two-factor sign-in on and only reopens the
// code step that 20 wrong codes today closed to browsers the account has not signed in from
// (issue 32 point 3); a full reset reopens it too.
// The password comes from standard input when it is piped (`printf '%s\n' "$PW" | npm run …`: the
// first line, optionally the same again on a second line), else from a prompt that does not echo it.
// It is never taken from the command line (shell history, ps).
import { createInterface } from "node:readline";
import {
  createStaffMember,
  issueSetupLink,
  StaffChangeError,
  setStaffPassword,
} from "../app/features/auth/staff.server.ts";
import { COMMAND_LINE_ACTOR } from "../app/features/auth/staff-events.server.ts";
import { setPasswordPath } from "../app/features/auth/staff-paths.ts";
import { reopenTwoFactorCodes, resetTwoFactor } from "../app/features/auth/two-factor-store.server.ts";
import { findUserByUsername, UserInputError } from "../app/features/auth/users.server.ts";
import { PipedPasswordError, readPipedPassword } from "./lib/piped-password.ts";
import { withScriptDatabase } from "./lib/script-database.ts";

const [command, username, option] = process.argv.slice(2);
const usage =
  "Usage: node scripts/admin-user.ts create|set-password|reset-2fa|setup-link <username> (reset-2fa: --codes to only reopen the code step)";
const COMMANDS = ["create", "set-password", "reset-2fa", "setup-link"];

/** Asks twice without echoing what is typed. */
async function prompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (text: string) => void };
  let asking = true;
  const write = muted._writeToOutput.bind(rl);
  muted._writeToOutput = (text: string) => {
    if (!asking || text.includes(question)) write(text);
  };
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
  asking = false;
  process.stdout.write("\n");
  rl.close();
  return answer;
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readPipedPassword(process.stdin);
  const first = await prompt("Password (12 characters or more): ");
  const second = await prompt("Same password again: ");
  if (first !== second) throw new UserInputError("The two passwords differ.");
  return first;
}

async function main(): Promise<number> {
  if (
    !command ||
    !COMMANDS.includes(command) ||
    !username ||
    (option !== undefined && !(command === "reset-2fa" && option === "--codes"))
  ) {
    console.error(usage);
    return 2;
  }
  return withScriptDatabase(async (database) => {
    try {
      if (command === "setup-link") {
        const user = await findUserByUsername(database.db, username);
        if (!user) throw new UserInputError(`No user named "${username}".`);
        const { member, link } = await issueSetupLink(database.db, {
          id: Number(user.id),
          actor: COMMAND_LINE_ACTOR,
        });
        // On PUBLIC_URL when set; otherwise the path, to open on the site's own address.
        const base = process.env.PUBLIC_URL?.replace(/\/+$/, "") ?? "";
        console.log(
          `A one-time link for "${member.username}" to choose a password and set up two-factor sign-in, until ${link.expiresAt}:\n${base}${setPasswordPath(link.token)}`,
        );
        return 0;
      }
      if (command === "reset-2fa") {
        const user = await findUserByUsername(database.db, username);
        if (!user) throw new UserInputError(`No user named "${username}".`);
        if (option === "--codes") {
          const reopened = await reopenTwoFactorCodes(database.db, {
            id: Number(user.id),
            actor: COMMAND_LINE_ACTOR,
          });
          console.log(
            reopened
              ? `Reopened the code step for "${user.username}": two-factor sign-in stays on, and browsers they have not signed in from may enter codes again today.`
              : `"${user.username}" has no wrong codes counted today: nothing to reopen.`,
          );
          return 0;
        }
        // Recorded on the staff page and in the access log as done by "command line".
        const reset = await resetTwoFactor(database.db, { id: Number(user.id), actor: COMMAND_LINE_ACTOR });
        console.log(
          reset
            ? `Reset two-factor sign-in for "${user.username}": they sign in with their password (where STAFF_2FA_REQUIRED is on, they set it up again through \`npm run admin:setup-link -- ${user.username}\`).`
            : `"${user.username}" has no two-factor sign-in: nothing to reset.`,
        );
        return 0;
      }
      const password = await readPassword();
      // Both are recorded in the staff page's history as done by "command line".
      if (command === "create") {
        const { member } = await createStaffMember(database.db, { username, password }, COMMAND_LINE_ACTOR);
        console.log(`Created the admin "${member.username}" in ${database.description}.`);
        return 0;
      }
      const user = await findUserByUsername(database.db, username);
      if (!user) throw new UserInputError(`No user named "${username}".`);
      const member = await setStaffPassword(database.db, {
        id: Number(user.id),
        password,
        actor: COMMAND_LINE_ACTOR,
      });
      console.log(`Set a new password for "${member.username}"; their sessions were signed out.`);
      // A new password is not a way round an admin's decision to disable the account.
      if (member.disabled) {
        console.log(
          "The account is disabled and stays disabled: another admin can enable it on /admin/staff.",
        );
      }
      return 0;
    } catch (error) {
      if (
        error instanceof UserInputError ||
        error instanceof PipedPasswordError ||
        error instanceof StaffChangeError
      ) {
        console.error(error.message);
        return 1;
      }
      throw error;
    }
  });
}

process.exitCode = await main();

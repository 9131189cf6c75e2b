// `npm run admin:create -- <username>` and `npm run admin:set-password -- <username>`.
// The password comes from standard input when it is piped (`printf '%s\n' "$PW" | npm run …`: the
// first line, optionally the same again on a second line), else from a prompt that does not echo it.
// It is never taken from the command line (shell history, ps).
import { createInterface } from "node:readline";
import { createUser, setPassword, UserInputError } from "../app/features/auth/users.server.ts";
import { PipedPasswordError, readPipedPassword } from "./lib/piped-password.ts";
import { withScriptDatabase } from "./lib/script-database.ts";

const [command, username] = process.argv.slice(2);
const usage = "Usage: node scripts/admin-user.ts create|set-password <username>";

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
  if ((command !== "create" && command !== "set-password") || !username) {
    console.error(usage);
    return 2;
  }
  return withScriptDatabase(async (database) => {
    try {
      const password = await readPassword();
      if (command === "create") {
        const user = await createUser(database.db, { username, password, isAdmin: true });
        console.log(`Created the admin "${user.username}" in ${database.description}.`);
      } else {
        const user = await setPassword(database.db, username, password);
        console.log(`Set a new password for "${user.username}"; their sessions were signed out.`);
      }
      return 0;
    } catch (error) {
      if (error instanceof UserInputError || error instanceof PipedPasswordError) {
        console.error(error.message);
        return 1;
      }
      throw error;
    }
  });
}

process.exitCode = await main();

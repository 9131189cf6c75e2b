import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A real CalDAV server for the calendar tests: Debian's `radicale` package (`apt-get install -y
// radicale`; .ci/run installs it when missing), started on 127.0.0.1 at a free port with a storage
// folder and a plain htpasswd file of its own, and stopped by its PID. Nothing else is reached.

export type Radicale = {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Adds a user (plain htpasswd; Radicale reads the file at each request). */
  addUser(name: string, password: string): void;
  /** Creates a calendar collection and answers its URL (ending with /). */
  makeCalendar(user: string, password: string, name: string): Promise<string>;
  /** PUTs an iCalendar object at `<calendar>/<file>`. */
  putEvent(calendarUrl: string, file: string, text: string, user: string, password: string): Promise<number>;
  /** The hrefs and texts of every object in the calendar. */
  listEvents(calendarUrl: string, user: string, password: string): Promise<{ href: string; text: string }[]>;
  stop(): Promise<void>;
};

/** The radicale command, or null when the package is not installed. */
export function radicaleCommand(): string[] | null {
  if (existsSync("/usr/bin/radicale")) return ["/usr/bin/radicale"];
  return null;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

export async function startRadicale(): Promise<Radicale> {
  const command = radicaleCommand();
  if (!command)
    throw new Error("Radicale is not installed: `apt-get install -y radicale` (.ci/run installs it).");
  const dir = mkdtempSync(join(tmpdir(), "radicale-"));
  const users = new Map<string, string>();
  const writeUsers = () =>
    writeFileSync(join(dir, "users"), [...users].map(([name, password]) => `${name}:${password}\n`).join(""));
  writeUsers();
  const port = await freePort();
  writeFileSync(
    join(dir, "config"),
    [
      "[server]",
      `hosts = 127.0.0.1:${port}`,
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${join(dir, "users")}`,
      "htpasswd_encryption = plain",
      "delay = 0",
      "[storage]",
      `filesystem_folder = ${join(dir, "collections")}`,
      "[logging]",
      "level = warning",
      "",
    ].join("\n"),
  );
  const [file = "", ...args] = command;
  const child: ChildProcess = spawn(file, [...args, "--config", join(dir, "config")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Up when it answers HTTP (any status); Python's start takes a second or two on a busy machine.
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Radicale exited at start: ${stderr}`);
    try {
      await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        if (child.pid) process.kill(child.pid);
        throw new Error(`Radicale did not answer on ${origin} within 30 s: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    origin,
    addUser(name, password) {
      users.set(name, password);
      writeUsers();
    },
    async makeCalendar(user, password, name) {
      const url = `${origin}/${user}/${name}/`;
      const response = await fetch(url, {
        method: "MKCALENDAR",
        headers: { authorization: basic(user, password) },
      });
      if (response.status !== 201) throw new Error(`MKCALENDAR answered ${response.status}`);
      return url;
    },
    async putEvent(calendarUrl, file, text, user, password) {
      const response = await fetch(new URL(file, calendarUrl), {
        method: "PUT",
        headers: { authorization: basic(user, password), "content-type": "text/calendar; charset=utf-8" },
        body: text,
      });
      return response.status;
    },
    async listEvents(calendarUrl, user, password) {
      const response = await fetch(calendarUrl, {
        method: "REPORT",
        headers: { authorization: basic(user, password), depth: "1", "content-type": "application/xml" },
        body: `<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>`,
      });
      const xml = await response.text();
      const events: { href: string; text: string }[] = [];
      for (const match of xml.matchAll(
        /<href>([^<]+)<\/href>[\s\S]*?<C:calendar-data>([\s\S]*?)<\/C:calendar-data>/g,
      ))
        events.push({
          href: match[1] ?? "",
          text: (match[2] ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
        });
      return events;
    },
    async stop() {
      if (child.exitCode === null && child.pid) {
        process.kill(child.pid, "SIGTERM");
        const timer = setTimeout(
          () => child.pid && child.exitCode === null && process.kill(child.pid, "SIGKILL"),
          5000,
        );
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, setupBrowser } from "./support/browser.ts";
import { goto, openSignedIn, readText } from "./support/pages.ts";

// Issue 13, people's data rights, in Chromium against the shared e2e server: a person who sent two
// requests asks what we hold (found by their email in another letter case, read on the page and
// downloaded as JSON), then asks to be forgotten (erased without JavaScript, at phone width). After
// that an integration cannot send them again (409), the website can (new consent, marked), and the
// access log says what was done without naming them.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const WAIT = { timeout: 20_000 };
const JOURNEY_MS = 150_000;
const FAILED_LOAD = [/Failed to load resource/];
const EMAIL = `Rights.Person.${RUN}@Example.com`;

let database: AppDatabase;
let admin: string;

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  admin = await signIn(baseUrl, ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  if (!database) return;
  await database.db.deleteFrom("leads").where("emailKey", "=", EMAIL.toLowerCase()).execute();
  await database.db.deleteFrom("apiKeys").where("name", "=", `Rights ${RUN}`).execute();
  await database.close();
});

async function sendLead(email: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/api/demo-request`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.77", ...headers },
    body: JSON.stringify({
      fullName: "Rita Rights",
      email,
      company: "Rights Build Ltd",
      phone: "020 7946 0123",
    }),
  });
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Cookie: admin, Origin: baseUrl, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });

it(
  "finds, exports and erases everything on one person; only the website may bring them back",
  async () => {
    const first = (await (await sendLead(EMAIL)).json()) as { id: number };
    const second = (await (await sendLead(EMAIL.toLowerCase())).json()) as { id: number };
    expect(
      (
        await api(`/api/admin/leads/${first.id}/notes`, {
          method: "POST",
          body: JSON.stringify({ body: "Asked for a call" }),
        })
      ).status,
    ).toBe(201);

    // Subject access: found in another letter case, read on the page, downloaded whole.
    const page = await openSignedIn("/admin/people", { allowConsoleErrors: FAILED_LOAD }, admin);
    await page.page.getByLabel("Email address").fill(EMAIL.toUpperCase());
    await page.page.getByRole("button", { name: "Find" }).click();
    const held = page.page.getByRole("region", { name: /^Held on / });
    await held.waitFor(WAIT);
    await expect(readText(held)).resolves.toMatch(/2 submissions, 1 note, \d+ timeline entries/);
    await expectNoA11yViolations(page.page);
    const href = await page.page
      .getByRole("link", { name: "Download everything as JSON" })
      .getAttribute("href");
    const download = await page.context.request.get(new URL(href ?? "", baseUrl).href);
    expect(download.headers()["content-disposition"]).toBe('attachment; filename="person-data.json"');
    const record = (await download.json()) as {
      leads: { id: number }[];
      notes: { body: string }[];
      timeline: unknown[];
    };
    expect(record.leads.map((lead) => lead.id)).toEqual([first.id, second.id]);
    expect(record.notes.map((note) => note.body)).toEqual(["Asked for a call"]);
    expect(record.timeline.length).toBeGreaterThanOrEqual(3);
    await page.close();

    // Erasure, without JavaScript at phone width: the box must be ticked.
    const plain = await openSignedIn(
      `/admin/people?email=${encodeURIComponent(EMAIL)}`,
      { javaScript: false, ...MOBILE },
      admin,
    );
    await plain.page.getByLabel("Reason (kept with the record)").fill("Asked by email on the phone");
    await plain.page.getByLabel(`Yes, erase everything held on ${EMAIL}`).check();
    await plain.page.getByRole("button", { name: "Erase 2 submissions" }).click();
    await plain.page.waitForURL("**/admin/people?erased=2", WAIT);
    await plain.page.getByText("Erased: 2 submissions").waitFor(WAIT);
    await plain.close();
    for (const id of [first.id, second.id]) expect((await api(`/api/admin/leads/${id}`)).status).toBe(404);
    const after = (await (await api(`/api/admin/people?email=${encodeURIComponent(EMAIL)}`)).json()) as {
      leads: unknown[];
      erasedBefore: string | null;
    };
    expect(after.leads).toEqual([]);
    expect(after.erasedBefore).not.toBeNull();

    // An integration replaying them is refused; the website is new consent, and says so.
    const key = (await (
      await api("/api/admin/api-keys", { method: "POST", body: JSON.stringify({ name: `Rights ${RUN}` }) })
    ).json()) as { key: string };
    const replay = await sendLead(EMAIL, { Authorization: `Bearer ${key.key}` });
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { message: string }).message).toMatch(/erased on their request/);
    const back = (await (await sendLead(EMAIL)).json()) as { id: number };
    const detail = await openSignedIn(`/admin/leads/${back.id}`, { allowConsoleErrors: FAILED_LOAD }, admin);
    await detail.page.getByText(/Returned after erasure/).waitFor(WAIT);

    // The access log: the lookups and the erasure, by count, never the address.
    await goto(detail.page, "/admin/access-log?kind=erasures");
    const erasure = detail.page.getByRole("list", { name: "Entries" }).getByRole("listitem").first();
    await expect(readText(erasure)).resolves.toMatch(
      new RegExp(`Erased a person[\\s\\S]*by ${ADMIN.username}`),
    );
    await goto(detail.page, "/admin/access-log");
    expect((await detail.page.content()).toLowerCase()).not.toContain(EMAIL.toLowerCase());
    await detail.close();
  },
  JOURNEY_MS,
);

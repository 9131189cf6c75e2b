import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { createAccount, signIn } from "./support/accounts.ts";
import { DESKTOP, launchTestBrowser, MOBILE, waitForHydration } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";

// Issue 23, leads that do not come from the website, as staff use it in Chromium: a lead added by
// hand through the form (with and without JavaScript), and a CSV imported through upload → match the
// columns → see the rows' errors and merges → import → the leads in the dashboard → undo. Also the
// two APIs' answers. Screenshots of each step go to SCREENSHOTS_DIR when it is set.

const WAIT = { timeout: 15_000 };
const PASSWORD = "Intake passphrase 23";
const SHOTS = process.env.SCREENSHOTS_DIR;

let dir: string;
let server: RunningServer;
let browser: Browser;
let session: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "intake-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    LEAD_RATE_LIMIT: "0",
    LEAD_MIN_FILL_SECONDS: "0",
  });
  await createAccount(databaseUrl, { username: "robin", password: PASSWORD, isAdmin: true });
  session = await signIn(server.url, "robin", PASSWORD);
  // Someone already in the list, whom the import merges with.
  const response = await fetch(`${server.url}/api/demo-request`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fullName: "Hannah Okafor",
      email: "hannah@okafor-build.example",
      company: "Okafor Build",
      phone: "+44 20 7946 0101",
    }),
  });
  expect(response.status).toBe(201);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(path: string, { width = DESKTOP.width as number, javaScript = true } = {}) {
  const context = await browser.newContext({
    viewport: { width, height: width === MOBILE.width ? 740 : 800 },
    javaScriptEnabled: javaScript,
  });
  context.setDefaultTimeout(WAIT.timeout);
  await context.addCookies(cookiesFor(session, server.url));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  if (javaScript) await waitForHydration(page);
  return {
    page,
    async close() {
      await context.close();
      expect(errors).toEqual([]);
    },
  };
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const CSV = [
  "Name,E-mail,Organisation,Telephone,Notes",
  "Tomás Ferreira,tomas@ferreira-civils.example,Ferreira Civils,+351 21 000 0000,Asked about notice periods",
  "Hannah Okafor,hannah@okafor-build.example,Okafor Build Group,,Met at the stand",
  '"=HYPERLINK(""http://evil.example"",""x"")",mallory@example.com,Evil Ltd,+44 20 7946 0199,',
  "Q,not-an-email,,12,",
].join("\r\n");

describe("a lead added by hand", () => {
  it("shows the form's messages, then enters the list with its source and who added it", async () => {
    const { page, close } = await open("/admin/leads/new");
    await shot(page, "add-lead-1280");
    await page.getByRole("button", { name: "Add lead" }).click();
    await expect.poll(() => page.getByText("Please enter your full name").count()).toBe(1);
    await shot(page, "add-lead-client-errors-1280");
    expect(await page.getByText("Choose where the lead came from").count()).toBe(1);
    await page.getByLabel("Source").selectOption("referral");
    await page.getByLabel("Full name").fill("Ines Duarte");
    await page.getByLabel("Email").fill("ines@duarte.example");
    await page.getByLabel("Company").fill("Duarte Projects");
    await page.getByLabel("Phone").fill("+351 21 000 1111");
    await page.getByLabel("What they need").fill("Referred by Hannah; wants pricing for 10 seats");
    await page.getByRole("button", { name: "Add lead" }).click();
    await page.getByRole("heading", { level: 1, name: /Ines Duarte/ }).waitFor(WAIT);
    await shot(page, "added-lead-1280");
    expect(await page.getByText("Lead added.").count()).toBe(1);
    expect(await page.getByText("robin added it by hand (source: Referral)").count()).toBe(1);
    await close();
  }, 60_000);

  it("works without JavaScript: the server's messages, then the lead", async () => {
    const { page, close } = await open("/admin/leads/new", { javaScript: false, width: MOBILE.width });
    await page.getByLabel("Full name").fill("Jo");
    await page.getByLabel("Email").fill("jo@");
    await page.getByRole("button", { name: "Add lead" }).click();
    await page.getByText("Please enter a valid email address").waitFor(WAIT);
    await shot(page, "add-lead-errors-375");
    expect(await page.getByLabel("Full name").inputValue()).toBe("Jo");
    await page.getByLabel("Source").selectOption("phone_call");
    await page.getByLabel("Email").fill("jo@example.com");
    await page.getByLabel("Company").fill("Jo Co");
    await page.getByLabel("Phone").fill("+44 20 7946 0222");
    await page.getByRole("button", { name: "Add lead" }).click();
    await page.getByRole("heading", { level: 1, name: /Jo/ }).waitFor(WAIT);
    expect(page.url()).toMatch(/\/admin\/leads\/\d+\?notice=added$/);
    await close();
  }, 60_000);

  it("POST /api/admin/leads answers 201 with the lead as the list shows it, 400 with the form's messages", async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/api/admin/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url, Cookie: session },
        body: JSON.stringify(body),
      });
    const created = await post({
      fullName: "Kai Brandt",
      email: "kai@brandt.example",
      company: "Brandt GmbH",
      phone: "+49 30 000000",
      source: "email",
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      fullName: "Kai Brandt",
      source: "staff:email",
      isSpam: false,
      ownerName: null,
      returning: false,
    });
    const refused = await post({ fullName: "K", email: "x", source: "fax" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toMatchObject({
      email: "Please enter a valid email address",
      source: "Choose where the lead came from",
    });
    const anonymous = await fetch(`${server.url}/api/admin/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("a CSV import", () => {
  it("goes upload → match → errors and merges → import → dashboard → undo", async () => {
    const { page, close } = await open("/admin/leads/import");
    await shot(page, "import-upload-1280");
    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "expo.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await page.getByRole("heading", { name: /Match the columns/ }).waitFor(WAIT);
    // The mapping was guessed from the headers.
    expect(await page.getByLabel("Full name").inputValue()).toBe("0");
    expect(await page.getByLabel("Email").inputValue()).toBe("1");
    expect(await page.getByLabel("Phone").inputValue()).toBe("3");
    expect(await page.getByText("Row 5: Full name: Full name must be at least 2 characters").count()).toBe(0);
    await page.getByText(/Row 5: .*Email: Please enter a valid email address/).waitFor(WAIT);
    await page.getByText(/Row 3 will merge with Hannah Okafor/).waitFor(WAIT);
    expect(await page.getByText("2 new leads").count()).toBe(1);
    await shot(page, "import-preview-1280");
    await page.setViewportSize({ width: MOBILE.width, height: 740 });
    await shot(page, "import-preview-375");
    await page.setViewportSize({ width: DESKTOP.width, height: 800 });

    // Not importing the notes: the merge then changes the company only.
    await page.getByLabel("Message").selectOption("");
    await page.getByRole("button", { name: "Check the rows again" }).click();
    await page.getByText(/Row 3 will merge with Hannah Okafor .*: changes company$/).waitFor(WAIT);

    await page.getByLabel("Source").selectOption("event");
    await page.getByRole("button", { name: "Import 2 leads and merge 1" }).click();
    await page.getByText("Import done.").waitFor(WAIT);
    await shot(page, "import-done-1280");

    await page.getByRole("link", { name: "See them in the dashboard" }).click();
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor(WAIT);
    await page.getByText("Tomás Ferreira").first().waitFor(WAIT);
    expect(await page.getByText(`'=HYPERLINK("http://evil.example","x")`).count()).toBeGreaterThan(0);

    await page.goto(`${server.url}/admin/leads/import`, { waitUntil: "load" });
    await waitForHydration(page);
    await page.getByRole("button", { name: /Undo this import/ }).click();
    await page.getByText("Import undone.").waitFor(WAIT);
    await page.getByText(/Undone .* by robin/).waitFor(WAIT);
    await shot(page, "import-undone-1280");
    await page.goto(`${server.url}/admin/dashboard`, { waitUntil: "load" });
    expect(await page.getByText("Tomás Ferreira").count()).toBe(0);
    expect(await page.getByText("Hannah Okafor").count()).toBeGreaterThan(0);
    await close();
  }, 120_000);

  it("POST /api/admin/leads/import: a dry run, then the commit, and the limits", async () => {
    const send = (fields: Record<string, string | Blob>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return fetch(`${server.url}/api/admin/leads/import`, {
        method: "POST",
        headers: { Origin: server.url, Cookie: session },
        body: form,
      });
    };
    const file = new File([CSV], "api.csv", { type: "text/csv" });
    const dry = await send({
      file,
      mapping: JSON.stringify({
        fullName: "Name",
        email: "E-mail",
        company: "Organisation",
        phone: "Telephone",
      }),
    });
    expect(dry.status).toBe(200);
    const plan = await dry.json();
    expect(plan).toMatchObject({ dryRun: true, imported: 2, merged: 1, failed: 1, errors: [{ row: 5 }] });
    const committed = await send({ file, commit: "true" });
    expect(committed.status).toBe(201);
    expect(await committed.json()).toMatchObject({ dryRun: false, imported: 2, merged: 1, failed: 1 });

    const latin1 = new Uint8Array([
      ...Buffer.from("Name,Email\r\nJos"),
      0xe9,
      ...Buffer.from(",jose@example.com\r\n"),
    ]);
    const bad = await send({ file: new File([latin1], "latin1.csv") });
    expect(bad.status).toBe(422);
    expect((await bad.json()).message).toMatch(/not UTF-8/);
    const rows = ["Name,Email", ...Array.from({ length: 10_001 }, (_, i) => `P ${i},p${i}@example.com`)].join(
      "\n",
    );
    const many = await send({ file: new File([rows], "many.csv") });
    expect(many.status).toBe(422);
    expect((await many.json()).message).toMatch(/more than 10,000 rows/);
    const huge = await send({ file: new File([new Uint8Array(6 * 1024 * 1024).fill(65)], "huge.csv") });
    expect(huge.status).toBe(413);
  }, 60_000);
});

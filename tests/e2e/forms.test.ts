import { DatabaseSync } from "node:sqlite";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { INVESTOR_MESSAGE } from "#app/features/leads/lead-constants.ts";
import { site } from "#app/lib/site/site.ts";
import {
  expectNoA11yViolations,
  MOBILE,
  type OpenedPage,
  openPage,
  setupBrowser,
} from "./support/browser.ts";

// The three lead forms (SPEC sections 2, 4, 5 and 8) in a real browser, with JavaScript (JSON API,
// toasts or the inline result) and without it (a plain POST to the page's own action): what the
// visitor sees, and what the e2e server stored in its own SQLite file.

setupBrowser();

const API = "**/api/demo-request";

type LeadRow = {
  full_name: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
  request_type: string;
  investor_angel: number;
  investor_vc: number;
  investor_introducer: number;
  investor_other: number;
  other_details: string | null;
  source_page: string | null;
  is_spam: number;
  spam_reason: string | null;
  status: string;
};

/** The rows stored for an email address, read straight from the e2e server's database. */
function storedLeads(email: string): LeadRow[] {
  const db = new DatabaseSync(inject("databaseUrl"), { readOnly: true });
  try {
    return db.prepare("SELECT * FROM leads WHERE email = ? ORDER BY id").all(email) as LeadRow[];
  } finally {
    db.close();
  }
}

/** Every test writes its own address: the database is shared by the whole run. */
function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Counts the form's JSON requests, to prove invalid input never leaves the browser. */
function countApiRequests(page: Page): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/demo-request") count += 1;
  });
  return () => count;
}

// A failed resource load is the browser's own console report of what these tests provoke on purpose.
const FAILED_LOAD = [/Failed to load resource/];

/** A text field by its accessible name (the label without the aria-hidden required marker). */
function field(form: Locator, label: string): Locator {
  return form.getByRole("textbox", { name: label, exact: true });
}

async function fill(form: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await field(form, label).fill(value);
}

/** The field is marked invalid and its description carries the message. */
async function expectFieldError(page: Page, form: Locator, label: string, message: string) {
  const input = field(form, label);
  await expect.poll(() => input.getAttribute("aria-invalid"), { timeout: 5_000 }).toBe("true");
  const ids = ((await input.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(described, `${label}'s description`).toContain(message);
}

async function expectNoFieldError(form: Locator, label: string) {
  await expect(field(form, label).getAttribute("aria-invalid")).resolves.toBeNull();
}

async function focusedName(page: Page) {
  return page.evaluate(() => document.activeElement?.getAttribute("name") ?? null);
}

/** What a visitor reads in an element, one line per block (margins do not add blank lines). */
async function readText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\n{2,}/g, "\n").trim();
}

/** The open toast's text (Radix renders it in the 'Notifications' region). */
async function toastText(page: Page): Promise<string> {
  // Radix gives each toast (an <li>) the status role.
  const item = page.getByRole("region", { name: /^Notifications/ }).locator("li");
  await item.first().waitFor({ timeout: 5_000 });
  return (await readText(item.first())).replace(/\s*×$/, "");
}

/** Holds the JSON request until released, so the pending state can be seen. */
async function holdApi(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(API, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * axe needs timers, which a page without JavaScript never runs: check the HTML the server answered
 * the no-JavaScript POST with, minus its scripts, in a page that runs them (same URL, same styles).
 */
async function expectServerHtmlAccessible(noJsPage: Page) {
  const url = new URL(noJsPage.url());
  const html = (await noJsPage.content()).replace(/<script\b[\s\S]*?<\/script>/g, "");
  const invalid = await noJsPage.locator('[aria-invalid="true"]').count();
  expect(invalid, "the page shows field errors").toBeGreaterThan(0);
  const opened = await openPage("/privacy-policy");
  const { page } = opened;
  url.hash = "";
  await page.route(
    (candidate) => candidate.href === url.href,
    (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
  );
  await page.goto(url.href);
  await expect(page.locator('[aria-invalid="true"]').count()).resolves.toBe(invalid);
  await expectNoA11yViolations(page);
  await page.setViewportSize(MOBILE);
  await expectNoA11yViolations(page);
  await opened.close();
}

/** Submits a form without JavaScript and waits for the page the server answers with. */
async function postWithoutJs(page: Page, button: Locator, expectedUrl: (url: URL) => boolean) {
  const response = page.waitForResponse((r) => r.request().method() === "POST");
  await button.click();
  const status = (await response).status();
  await page.waitForURL(expectedUrl);
  return status;
}

// ----------------------------------------------------------------------------------------------
// The thank-you panel (issue 11): one lasting confirmation above each form, with and without JavaScript.

const THANKS_HEADING = "Thank you — your request is with us";

type TeamContact = { email: string; phone: { display: string; e164: string } };
const DEMO_CONTACT: TeamContact = site.company;
const INVESTOR_CONTACT: TeamContact = site.investorContact;

/**
 * The panel is shown above the form's fields with its heading, says what happens next, when to expect
 * a reply and how to reach the team; after a scripted submission focus is on its heading.
 */
async function expectThankYouPanel(
  page: Page,
  formId: string,
  contact: TeamContact,
  { focused }: { focused: boolean },
) {
  const form = page.locator(`form#${formId}`);
  const panel = form.getByRole("region", { name: THANKS_HEADING });
  await panel.waitFor({ timeout: 5_000 });
  await expect(panel.count()).resolves.toBe(1);
  const heading = panel.getByRole("heading", { name: THANKS_HEADING, exact: true });
  await expect(heading.isVisible()).resolves.toBe(true);
  await expect(panel.getByRole("heading", { name: "What happens next" }).isVisible()).resolves.toBe(true);
  await expect(panel.getByRole("listitem").count()).resolves.toBe(3);
  const text = (await panel.textContent()) ?? "";
  expect(text).toContain("When to expect a reply");
  expect(text).toContain(`Within ${site.replyWithin}.`);
  const mail = panel.getByRole("link", { name: contact.email, exact: true });
  await expect(mail.getAttribute("href")).resolves.toContain(`mailto:${contact.email}?subject=`);
  const tel = panel.getByRole("link", { name: contact.phone.display, exact: true });
  await expect(tel.getAttribute("href")).resolves.toBe(`tel:${contact.phone.e164}`);

  // Above the form: the whole panel sits over the first field.
  const panelBox = await panel.boundingBox();
  const fieldBox = await form.getByRole("textbox").first().boundingBox();
  expect(panelBox && fieldBox, "panel and first field are rendered").toBeTruthy();
  if (panelBox && fieldBox) expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(fieldBox.y);
  // In view below the 80 px sticky header: where the no-JavaScript redirect's anchor lands, and
  // where a script scrolls it.
  await expect
    .poll(async () => Math.round((await panel.boundingBox())?.y ?? -1), { timeout: 5_000 })
    .toBe(80);

  if (focused) {
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe(`${formId}-thanks-title`);
  }
}

/** Sending the form again (empty, so refused in the browser) replaces the panel with the errors. */
async function expectPanelGoneOnResubmit(page: Page, formId: string, button: Locator) {
  await button.click();
  const fullName = field(page.locator(`form#${formId}`), "Full Name");
  await expect.poll(() => fullName.getAttribute("aria-invalid"), { timeout: 5_000 }).toBe("true");
  await expect(page.getByRole("region", { name: THANKS_HEADING }).count()).resolves.toBe(0);
}

// ----------------------------------------------------------------------------------------------
// Demo request form: the home page variant and the /demo page variant.

type DemoCase = {
  variant: "home" | "page";
  path: string;
  formId: string;
  idle: string;
  pending: string;
  /** What the visitor is told on success, inline or in a toast. */
  success: string;
  /** The inline text (home) or toast/inline text (page) for a failed request with this message. */
  failure: (message: string) => string;
  networkFailure: (message: string) => string;
};

const PAGE_SUCCESS = "Success!\nYour demo request has been submitted successfully. We'll contact you soon.";

const DEMO_CASES: DemoCase[] = [
  {
    variant: "home",
    path: "/",
    formId: "demo-request-form",
    idle: "Request Demo",
    pending: "Submitting...",
    success: "✅ Demo request submitted successfully!",
    failure: (message) => `❌ Error: ${message}`,
    networkFailure: (message) => `❌ Network error: ${message}`,
  },
  {
    variant: "page",
    path: "/demo",
    formId: "demo-form",
    idle: "Submit Request",
    pending: "Processing...",
    success: PAGE_SUCCESS,
    failure: (message) => `Something went wrong\n${message}`,
    networkFailure: (message) => `Something went wrong\n${message}`,
  },
];

const TOO_LONG = "Your message is too long: please shorten it and send the form again.";

for (const demo of DEMO_CASES) {
  const form = (page: Page) => page.locator(`form#${demo.formId}`);
  const result = (page: Page) => page.locator(`#${demo.formId}-result`);
  const submit = (page: Page) => form(page).getByRole("button", { name: demo.idle });
  /** What the visitor reads after a JSON submission: the inline result (home) or the toast (page). */
  const jsMessage = (page: Page) => (demo.variant === "home" ? readText(result(page)) : toastText(page));

  describe(`demo request form on ${demo.path} with JavaScript`, () => {
    it("submits, shows the pending label, confirms, clears the fields and stores the lead", async () => {
      const opened = await openPage(demo.path);
      const { page } = opened;
      const email = uniqueEmail(`demo-js-${demo.variant}`);
      await fill(form(page), {
        "Full Name": "Amara Okafor",
        Email: email,
        Company: "Okafor Build Ltd",
        Phone: "+44 7700 900123",
        Message: "About 40 subcontracts per project",
      });
      const release = await holdApi(page);
      await submit(page).click();
      const button = form(page).locator('button[type="submit"]:not([form])');
      await expect.poll(() => button.textContent()).toBe(demo.pending);
      await expect(button.isDisabled()).resolves.toBe(true);
      release();

      if (demo.variant === "home") await expect.poll(() => readText(result(page))).toBe(demo.success);
      else await expect(toastText(page)).resolves.toBe(demo.success);
      await expect(button.textContent()).resolves.toBe(demo.idle);
      for (const label of ["Full Name", "Email", "Company", "Phone", "Message"]) {
        await expect(field(form(page), label).inputValue(), label).resolves.toBe("");
      }
      // The lasting thank-you, with the spec's words in it (the toast's too, as without JavaScript).
      await expectThankYouPanel(page, demo.formId, DEMO_CONTACT, { focused: true });
      await expect(readText(result(page))).resolves.toBe(demo.success);

      const rows = storedLeads(email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        full_name: "Amara Okafor",
        company: "Okafor Build Ltd",
        phone: "+44 7700 900123",
        message: "About 40 subcontracts per project",
        request_type: "demo",
        source_page: demo.path,
        is_spam: 0,
        status: "new",
      });
      await expectPanelGoneOnResubmit(page, demo.formId, submit(page));
      await opened.close();
    });

    it("shows each validation message beside its field, focuses the first and sends nothing", async () => {
      const opened = await openPage(demo.path);
      const { page } = opened;
      const requests = countApiRequests(page);
      await submit(page).click();
      await expectFieldError(page, form(page), "Full Name", "Please enter your full name");
      await expectFieldError(page, form(page), "Email", "Please enter a valid email address");
      await expectFieldError(page, form(page), "Company", "Please enter your company name");
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expect(focusedName(page)).resolves.toBe("fullName");

      const email = uniqueEmail(`demo-js-invalid-${demo.variant}`);
      await fill(form(page), { "Full Name": "Amara Okafor", Email: "not-an-email", Company: "Okafor Build" });
      await field(form(page), "Phone").fill("12345");
      await submit(page).click();
      await expect.poll(() => field(form(page), "Full Name").getAttribute("aria-invalid")).toBeNull();
      await expectFieldError(page, form(page), "Email", "Please enter a valid email address");
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expectNoFieldError(form(page), "Company");
      await expect(focusedName(page)).resolves.toBe("email");
      // The values stay for the visitor to correct.
      await expect(field(form(page), "Full Name").inputValue()).resolves.toBe("Amara Okafor");

      // A valid address with a short phone number: only the phone is wrong.
      await field(form(page), "Email").fill(email);
      await submit(page).click();
      await expect.poll(() => field(form(page), "Email").getAttribute("aria-invalid")).toBeNull();
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");

      expect(requests()).toBe(0);
      expect(storedLeads(email)).toEqual([]);
      await expectNoA11yViolations(page);
      await page.setViewportSize(MOBILE);
      await expectNoA11yViolations(page);
      await opened.close();
    });

    it("shows the server's message when the API fails", async () => {
      const opened = await openPage(demo.path, { allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      await page.route(API, (route) =>
        route.fulfill({ status: 500, contentType: "text/plain", body: "Database unavailable" }),
      );
      const email = uniqueEmail(`demo-js-500-${demo.variant}`);
      await fill(form(page), {
        "Full Name": "Amara Okafor",
        Email: email,
        Company: "Okafor Build Ltd",
        Phone: "020 7946 0000",
      });
      await submit(page).click();
      await expect.poll(() => jsMessage(page)).toBe(demo.failure("Database unavailable"));
      // Nothing is lost: the visitor can send again.
      await expect(field(form(page), "Email").inputValue()).resolves.toBe(email);
      await expect(submit(page).isEnabled()).resolves.toBe(true);
      await opened.close();
    });

    it("shows the network error when the request cannot be sent", async () => {
      const opened = await openPage(demo.path, { allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      await page.route(API, (route) => route.abort("failed"));
      await fill(form(page), {
        "Full Name": "Amara Okafor",
        Email: uniqueEmail(`demo-js-network-${demo.variant}`),
        Company: "Okafor Build Ltd",
        Phone: "020 7946 0000",
      });
      await submit(page).click();
      // Chromium's message for a fetch() that never reached a server.
      await expect.poll(() => jsMessage(page)).toBe(demo.networkFailure("Failed to fetch"));
      await opened.close();
    });
  });

  describe(`demo request form on ${demo.path} without JavaScript`, () => {
    it("posts to the page, which redirects to the success state, and stores the lead", async () => {
      const opened = await openPage(demo.path, { javaScript: false });
      const { page } = opened;
      await expect(form(page).getAttribute("action")).resolves.toBe(
        `${demo.path === "/" ? "/?index" : demo.path}#${demo.formId}`,
      );
      const email = uniqueEmail(`demo-nojs-${demo.variant}`);
      await fill(form(page), {
        "Full Name": "Dev Patel",
        Email: email,
        Company: "Patel Groundworks",
        Phone: "0161 496 0000",
        Message: "NEC4 subcontracts",
      });
      const status = await postWithoutJs(
        page,
        submit(page),
        (url) => url.searchParams.get("submitted") === "demo",
      );
      expect(status).toBe(303);
      expect(new URL(page.url()).hash).toBe(`#${demo.formId}`);
      await expect(result(page).getAttribute("role")).resolves.toBe("status");
      await expect(readText(result(page))).resolves.toBe(demo.success);
      for (const label of ["Full Name", "Email", "Company", "Phone", "Message"]) {
        await expect(field(form(page), label).inputValue(), label).resolves.toBe("");
      }
      await expectThankYouPanel(page, demo.formId, DEMO_CONTACT, { focused: false });
      expect(storedLeads(email)).toMatchObject([
        {
          full_name: "Dev Patel",
          company: "Patel Groundworks",
          phone: "0161 496 0000",
          message: "NEC4 subcontracts",
          request_type: "demo",
          source_page: demo.path,
          is_spam: 0,
        },
      ]);
      await opened.close();
    });

    it("shows the server's validation messages with the entered values and stores nothing", async () => {
      const opened = await openPage(demo.path, { javaScript: false, allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      // Values the browser's own checks accept (type=email allows a dotless domain) but ours do not.
      await fill(form(page), {
        "Full Name": "Dev Patel",
        Email: "dev@localhost",
        Company: "Patel Groundworks",
        Phone: "12345",
        Message: "Kept after the error",
      });
      const status = await postWithoutJs(page, submit(page), (url) => url.hash === `#${demo.formId}`);
      expect(status).toBe(400);
      const summary = "Please enter a valid email address. Please enter a valid phone number";
      await expect(readText(result(page))).resolves.toBe(demo.failure(summary));
      await expectFieldError(page, form(page), "Email", "Please enter a valid email address");
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expectNoFieldError(form(page), "Full Name");
      await expect(field(form(page), "Email").inputValue()).resolves.toBe("dev@localhost");
      await expect(field(form(page), "Message").inputValue()).resolves.toBe("Kept after the error");
      expect(storedLeads("dev@localhost")).toEqual([]);
      await expectServerHtmlAccessible(page);
      await opened.close();
    });

    it("shows the server's message when it refuses the request", async () => {
      const opened = await openPage(demo.path, { javaScript: false, allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      const email = uniqueEmail(`demo-nojs-413-${demo.variant}`);
      await fill(form(page), {
        "Full Name": "Dev Patel",
        Email: email,
        Company: "Patel Groundworks",
        Phone: "0161 496 0000",
      });
      // More than the 16 KB the server reads (a script could post it; the page's maxlength stops people).
      const message = field(form(page), "Message");
      await message.evaluate((el) => el.removeAttribute("maxlength"));
      await message.fill("x".repeat(17_000));
      const status = await postWithoutJs(page, submit(page), (url) => url.hash === `#${demo.formId}`);
      expect(status).toBe(413);
      await expect(readText(result(page))).resolves.toBe(demo.failure(TOO_LONG));
      expect(storedLeads(email)).toEqual([]);
      await opened.close();
    });
  });
}

describe("demo request form: the server has the final word", () => {
  it("shows the API's field errors inline and in the toast", async () => {
    const opened = await openPage("/demo", { allowConsoleErrors: FAILED_LOAD });
    const { page } = opened;
    const message = "Please enter a valid phone number";
    await page.route(API, (route) =>
      route.fulfill({ status: 400, json: { message, errors: { phone: message } } }),
    );
    const form = page.locator("form#demo-form");
    await fill(form, {
      "Full Name": "Amara Okafor",
      Email: uniqueEmail("demo-js-400"),
      Company: "Okafor Build Ltd",
      Phone: "020 7946 0000",
    });
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expect.poll(() => toastText(page)).toBe(`Something went wrong\n${message}`);
    await expectFieldError(page, form, "Phone", message);
    await expect(focusedName(page)).resolves.toBe("phone");
    await opened.close();
  });

  it("posts the form the plain way when the validator cannot load", async () => {
    const opened = await openPage("/", { allowConsoleErrors: FAILED_LOAD });
    const { page } = opened;
    await page.route("**/assets/lead-submit-*.js", (route) => route.abort("failed"));
    const form = page.locator("form#demo-request-form");
    const email = uniqueEmail("demo-js-fallback");
    await fill(form, {
      "Full Name": "Amara Okafor",
      Email: email,
      Company: "Okafor Build Ltd",
      Phone: "020 7946 0000",
    });
    const posted = page.waitForResponse((r) => r.request().method() === "POST");
    await form.getByRole("button", { name: "Request Demo" }).click();
    await expect((await posted).status()).toBe(303);
    await expect
      .poll(() => readText(page.locator("#demo-request-form-result")))
      .toBe("✅ Demo request submitted successfully!");
    await expectThankYouPanel(page, "demo-request-form", DEMO_CONTACT, { focused: false });
    expect(storedLeads(email)).toHaveLength(1);
    await opened.close();
  });

  it("stores a submission with the honeypot filled in, flagged, and answers it like any other", async () => {
    const opened = await openPage("/");
    const { page } = opened;
    const form = page.locator("form#demo-request-form");
    const email = uniqueEmail("demo-js-honeypot");
    await fill(form, {
      "Full Name": "Spam Bot",
      Email: email,
      Company: "Bots Ltd",
      Phone: "020 7946 0000",
    });
    await form.locator('input[name="_gotcha"]').fill("https://spam.example", { force: true });
    await form.getByRole("button", { name: "Request Demo" }).click();
    await expect
      .poll(() => readText(page.locator("#demo-request-form-result")))
      .toBe("✅ Demo request submitted successfully!");
    expect(storedLeads(email)).toMatchObject([{ is_spam: 1, spam_reason: "honeypot field filled in" }]);
    await opened.close();
  });

  it("hides the honeypot from people and assistive technology", async () => {
    const opened = await openPage("/");
    const honeypot = opened.page.locator('input[name="_gotcha"]');
    await expect(honeypot.getAttribute("tabindex")).resolves.toBe("-1");
    await expect(honeypot.getAttribute("autocomplete")).resolves.toBe("off");
    await expect(honeypot.isVisible()).resolves.toBe(true); // rendered, so bots see it…
    const box = await honeypot.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0); // …but off-screen
    await expect(honeypot.evaluate((el) => el.closest('[aria-hidden="true"]') !== null)).resolves.toBe(true);
    await opened.close();
  });
});

// ----------------------------------------------------------------------------------------------
// Investor interest form on /invest.

const INVESTOR_SUCCESS = "Request Submitted\nThank you for your interest! Our team will contact you shortly.";
const INVESTOR_FAILURE = "Error\nThere was an error submitting your information. Please try again.";

describe("investor interest form", () => {
  const form = (page: Page) => page.locator("form#investor-interest-form");
  const result = (page: Page) => page.locator("#investor-interest-form-result");
  const submit = (page: Page) => form(page).getByRole("button", { name: "Register Interest" });
  const box = (page: Page, label: string) => form(page).getByRole("checkbox", { name: label, exact: true });

  async function fillInvestor(page: Page, email: string) {
    await fill(form(page), {
      "Full Name": "Jonas Berg",
      Company: "Nordic Angels",
      Email: email,
      Phone: "+46 70 123 45 67",
    });
  }

  describe("with JavaScript", () => {
    it("enables 'Other details' only with 'Other' ticked, submits, confirms, resets and stores", async () => {
      const opened = await openPage("/invest");
      const { page } = opened;
      const email = uniqueEmail("investor-js");
      await fillInvestor(page, email);
      const details = field(form(page), "Other details");
      await expect(details.isDisabled()).resolves.toBe(true);
      await box(page, "Angel investor").check();
      await box(page, "Other").check();
      await expect(details.isEnabled()).resolves.toBe(true);
      await details.fill("Family office");

      const release = await holdApi(page);
      await submit(page).click();
      const button = form(page).locator('button[type="submit"]:not([form])');
      await expect.poll(() => button.textContent()).toBe("Submitting...");
      await expect(button.isDisabled()).resolves.toBe(true);
      release();

      await expect(toastText(page)).resolves.toBe(INVESTOR_SUCCESS);
      for (const label of ["Full Name", "Company", "Email", "Phone", "Other details"]) {
        await expect(field(form(page), label).inputValue(), label).resolves.toBe("");
      }
      for (const label of ["Angel investor", "Venture capital (VC)", "Introducer", "Other"]) {
        await expect(box(page, label).isChecked(), label).resolves.toBe(false);
      }
      await expect(details.isDisabled()).resolves.toBe(true);
      await expectThankYouPanel(page, "investor-interest-form", INVESTOR_CONTACT, { focused: true });
      await expect(readText(result(page))).resolves.toBe(INVESTOR_SUCCESS);

      expect(storedLeads(email)).toMatchObject([
        {
          full_name: "Jonas Berg",
          company: "Nordic Angels",
          phone: "+46 70 123 45 67",
          message: INVESTOR_MESSAGE,
          request_type: "investor",
          investor_angel: 1,
          investor_vc: 0,
          investor_introducer: 0,
          investor_other: 1,
          other_details: "Family office",
          source_page: "/invest",
          is_spam: 0,
          status: "new",
        },
      ]);
      await expectPanelGoneOnResubmit(page, "investor-interest-form", submit(page));
      await opened.close();
    });

    it("shows each validation message, focuses the first invalid field and sends nothing", async () => {
      const opened = await openPage("/invest");
      const { page } = opened;
      const requests = countApiRequests(page);
      const email = uniqueEmail("investor-js-invalid");
      await fill(form(page), { "Full Name": "J", Company: "N", Email: "jonas@", Phone: "12" });
      await submit(page).click();
      await expectFieldError(page, form(page), "Full Name", "Full name must be at least 2 characters");
      await expectFieldError(page, form(page), "Company", "Company name must be at least 2 characters");
      await expectFieldError(page, form(page), "Email", "Please enter a valid email address");
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expect(focusedName(page)).resolves.toBe("fullName");

      // Fixing the name, company and address leaves only the phone (minimum 5 for investors).
      await fill(form(page), { "Full Name": "Jo", Company: "NA", Email: email, Phone: "1234" });
      await submit(page).click();
      await expect.poll(() => field(form(page), "Full Name").getAttribute("aria-invalid")).toBeNull();
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expect(focusedName(page)).resolves.toBe("phone");

      expect(requests()).toBe(0);
      expect(storedLeads(email)).toEqual([]);
      await expectNoA11yViolations(page);
      await page.setViewportSize(MOBILE);
      await expectNoA11yViolations(page);
      await opened.close();
    });

    it("shows the error toast when the API fails", async () => {
      const opened = await openPage("/invest", { allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      await page.route(API, (route) =>
        route.fulfill({ status: 500, contentType: "text/plain", body: "Database unavailable" }),
      );
      const email = uniqueEmail("investor-js-500");
      await fillInvestor(page, email);
      await submit(page).click();
      await expect.poll(() => toastText(page)).toBe(INVESTOR_FAILURE);
      await expect(field(form(page), "Email").inputValue()).resolves.toBe(email);
      await opened.close();
    });

    it("shows the error toast when the request cannot be sent", async () => {
      const opened = await openPage("/invest", { allowConsoleErrors: FAILED_LOAD });
      const { page } = opened;
      await page.route(API, (route) => route.abort("failed"));
      await fillInvestor(page, uniqueEmail("investor-js-network"));
      await submit(page).click();
      await expect.poll(() => toastText(page)).toBe(INVESTOR_FAILURE);
      await opened.close();
    });

    it("sends the spec's JSON body", async () => {
      const opened = await openPage("/invest");
      const { page } = opened;
      const email = uniqueEmail("investor-js-body");
      await fillInvestor(page, email);
      await box(page, "Venture capital (VC)").check();
      const request = page.waitForRequest((r) => r.url().endsWith("/api/demo-request"));
      await submit(page).click();
      const sent = (await request).postDataJSON() as Record<string, unknown>;
      expect(sent).toEqual({
        fullName: "Jonas Berg",
        company: "Nordic Angels",
        email,
        phone: "+46 70 123 45 67",
        investorType: { angel: false, vc: true, introducer: false, other: false },
        otherDetails: "",
        requestType: "investor",
        message: INVESTOR_MESSAGE,
        _gotcha: "",
      });
      await expect.poll(() => toastText(page)).toBe(INVESTOR_SUCCESS);
      await opened.close();
    });
  });

  describe("without JavaScript", () => {
    async function open(allowFailedLoad = false): Promise<OpenedPage> {
      return openPage("/invest", {
        javaScript: false,
        allowConsoleErrors: allowFailedLoad ? FAILED_LOAD : [],
      });
    }

    it("posts to /invest, which redirects to the success state, and stores the lead", async () => {
      const opened = await open();
      const { page } = opened;
      await expect(form(page).getAttribute("action")).resolves.toBe("/invest#investor-interest-form");
      const email = uniqueEmail("investor-nojs");
      await fillInvestor(page, email);
      await box(page, "Venture capital (VC)").check();
      await box(page, "Introducer").check();
      // Nothing can disable the box without JavaScript; the server keeps it only with 'Other' ticked.
      const details = field(form(page), "Other details");
      await expect(details.isEnabled()).resolves.toBe(true);
      await details.fill("Not kept: Other is not ticked");
      const status = await postWithoutJs(
        page,
        submit(page),
        (url) => url.searchParams.get("submitted") === "investor",
      );
      expect(status).toBe(303);
      await expect(readText(result(page))).resolves.toBe(INVESTOR_SUCCESS);
      await expect(field(form(page), "Full Name").inputValue()).resolves.toBe("");
      await expect(box(page, "Introducer").isChecked()).resolves.toBe(false);
      await expectThankYouPanel(page, "investor-interest-form", INVESTOR_CONTACT, { focused: false });
      expect(storedLeads(email)).toMatchObject([
        {
          full_name: "Jonas Berg",
          request_type: "investor",
          message: INVESTOR_MESSAGE,
          investor_angel: 0,
          investor_vc: 1,
          investor_introducer: 1,
          investor_other: 0,
          other_details: null,
          source_page: "/invest",
          is_spam: 0,
        },
      ]);
      await opened.close();
    });

    it("shows each validation message with the entered values and stores nothing", async () => {
      const opened = await open(true);
      const { page } = opened;
      await fill(form(page), { "Full Name": "J", Company: "N", Email: "jonas@localhost", Phone: "12" });
      await box(page, "Angel investor").check();
      await box(page, "Other").check();
      await field(form(page), "Other details").fill("Syndicate lead");
      const status = await postWithoutJs(page, submit(page), (url) => url.hash === "#investor-interest-form");
      expect(status).toBe(400);
      await expect(readText(result(page))).resolves.toBe(INVESTOR_FAILURE);
      await expectFieldError(page, form(page), "Full Name", "Full name must be at least 2 characters");
      await expectFieldError(page, form(page), "Company", "Company name must be at least 2 characters");
      await expectFieldError(page, form(page), "Email", "Please enter a valid email address");
      await expectFieldError(page, form(page), "Phone", "Please enter a valid phone number");
      await expect(field(form(page), "Full Name").inputValue()).resolves.toBe("J");
      await expect(box(page, "Angel investor").isChecked()).resolves.toBe(true);
      await expect(box(page, "Other").isChecked()).resolves.toBe(true);
      await expect(box(page, "Introducer").isChecked()).resolves.toBe(false);
      await expect(field(form(page), "Other details").inputValue()).resolves.toBe("Syndicate lead");
      expect(storedLeads("jonas@localhost")).toEqual([]);
      await expectServerHtmlAccessible(page);
      await opened.close();
    });

    it("shows the server's reason when it refuses the request", async () => {
      const opened = await open(true);
      const { page } = opened;
      const email = uniqueEmail("investor-nojs-413");
      await fillInvestor(page, email);
      await box(page, "Other").check();
      const details = field(form(page), "Other details");
      await details.evaluate((el) => el.removeAttribute("maxlength"));
      await details.fill("x".repeat(17_000));
      const status = await postWithoutJs(page, submit(page), (url) => url.hash === "#investor-interest-form");
      expect(status).toBe(413);
      await expect(readText(result(page))).resolves.toBe(`${INVESTOR_FAILURE}\n${TOO_LONG}`);
      expect(storedLeads(email)).toEqual([]);
      await opened.close();
    });
  });
});

describe("the thank-you panel", () => {
  it.each([
    ["/", "demo-request-form", "Request Demo"],
    ["/demo", "demo-form", "Submit Request"],
    ["/invest", "investor-interest-form", "Register Interest"],
  ])("on %s has no accessibility violations at desktop width and 375 px", async (path, formId, label) => {
    const opened = await openPage(path);
    const { page } = opened;
    const form = page.locator(`form#${formId}`);
    await fill(form, {
      "Full Name": "Amara Okafor",
      Email: uniqueEmail("thanks-axe"),
      Company: "Okafor Build Ltd",
      Phone: "020 7946 0000",
    });
    await form.getByRole("button", { name: label }).click();
    await form.getByRole("region", { name: THANKS_HEADING }).waitFor({ timeout: 5_000 });
    await expectNoA11yViolations(page);
    await page.setViewportSize(MOBILE);
    await expectNoA11yViolations(page);
    await opened.close();
  });
});

describe("privacy notice", () => {
  it.each([
    ["/", "demo-request-form"],
    ["/demo", "demo-form"],
    ["/invest", "investor-interest-form"],
  ])("sits under the form on %s and links to the policy", async (path, formId) => {
    const opened = await openPage(path, { javaScript: false });
    const notice = opened.page
      .locator(`form#${formId}`)
      .getByText("We use these details only to reply to your request. See our privacy policy.");
    await expect(notice.count()).resolves.toBe(1);
    await expect(notice.getByRole("link", { name: "privacy policy" }).getAttribute("href")).resolves.toBe(
      "/privacy-policy",
    );
    await opened.close();
  });
});

describe("which demo form fields are marked required (SPEC sections 3 and 5, issue 22)", () => {
  // Every field the server requires (the phone too: SPEC section 3) is marked so on both forms, with
  // the browser's check and the visible asterisk, with and without JavaScript; Message stays optional.
  it.each([
    ["/", "demo-request-form", true],
    ["/", "demo-request-form", false],
    ["/demo", "demo-form", true],
    ["/demo", "demo-form", false],
  ])("%s marks %s's required fields (JavaScript %s)", async (path, formId, javaScript) => {
    const { page, close } = await openPage(path, { javaScript });
    const fields = await page
      .locator(`form#${formId}`)
      .locator("input:not([type=hidden]):not([tabindex='-1']), textarea")
      .evaluateAll((elements) =>
        elements.map((element) => {
          const label = element.id ? document.querySelector(`label[for="${element.id}"]`) : null;
          return {
            name: element.getAttribute("name"),
            required: element.hasAttribute("required"),
            asterisk: label?.querySelector("[aria-hidden=true]")?.textContent?.trim() === "*",
          };
        }),
      );
    expect(fields).toEqual(
      ["fullName", "email", "company", "phone", "message"].map((name) => ({
        name,
        required: name !== "message",
        asterisk: name !== "message",
      })),
    );
    await close();
  });
});

import { DatabaseSync } from "node:sqlite";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { expectNoA11yViolations, MOBILE, openPage, setupBrowser } from "./support/browser.ts";

// Issue 34: a prospect sent the link books a demo at /book/demo, then reschedules and cancels it from
// the manage page, with JavaScript and without, in Chromium; what the e2e server stored is read from
// its own SQLite file. Every admin and sales account hosts demos out of the box.

setupBrowser();

type MeetingRow = {
  id: number;
  status: string;
  start_at: string;
  sequence: number;
  lead_id: number | null;
  time_zone: string;
};

function stored(email: string): { meeting?: MeetingRow; leads: number } {
  const db = new DatabaseSync(inject("databaseUrl"), { readOnly: true });
  try {
    const meeting = db
      .prepare(
        "select id, status, start_at, sequence, lead_id, time_zone from meetings where email = ? order by id desc",
      )
      .get(email) as MeetingRow | undefined;
    const leads = db.prepare("select count(*) as n from leads where email = ?").get(email) as { n: number };
    return { meeting, leads: leads.n };
  } finally {
    db.close();
  }
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth),
  );
}

describe.each([false, true])("booking a demo (JavaScript %s)", (javaScript) => {
  it("books a chosen time, moves it, then cancels it from the manage page", { timeout: 60_000 }, async () => {
    const email = `booker-${javaScript}-${Date.now()}@example.com`;
    const { page, close } = await openPage("/book/demo?tz=America/New_York", {
      javaScript,
      allowConsoleErrors: [/410/],
    });
    await page.getByRole("heading", { level: 1, name: "Book a product demo" }).waitFor();
    const first = page.locator('input[name="start"]').first();
    const start = await first.inputValue();
    const firstDay = page.locator("fieldset legend").first();
    const label = `${await firstDay.textContent()}, `;
    // The time reads in New York's hours, and a screen reader hears the day with it.
    const radio = page.getByRole("radio", { name: new RegExp(`^${label}\\d{2}:\\d{2}$`) }).first();
    await radio.check({ force: true });
    await page.getByLabel("Full name").fill("Amara Okafor");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Company").fill("Okafor Build Ltd");
    await page.getByLabel("Phone number").fill("+44 7700 900123");
    await page.getByRole("button", { name: "Book this time" }).click();

    await page.getByText("Your meeting is booked.").waitFor();
    await page.getByRole("heading", { level: 1, name: "Your product demo" }).waitFor();
    expect(page.url()).toMatch(/\/meetings\/manage\/[\w.-]+\?booked=1$/);
    const booked = stored(email);
    expect(booked.leads).toBe(1);
    expect(booked.meeting).toMatchObject({
      status: "booked",
      start_at: start,
      sequence: 0,
      time_zone: "America/New_York",
    });
    expect(booked.meeting?.lead_id).not.toBeNull();
    // axe runs as a script in the page.
    if (javaScript) await expectNoA11yViolations(page);

    // Another time: the first one offered that is not this meeting's.
    const other = page.locator(`input[name="start"]:not([value="${start}"])`).first();
    const otherStart = await other.inputValue();
    await page.locator(`label:has(input[value="${otherStart}"])`).click();
    await page.getByRole("button", { name: "Move my meeting" }).click();
    await page.getByText("Your meeting has moved.").waitFor();
    expect(stored(email).meeting).toMatchObject({ status: "booked", start_at: otherStart, sequence: 1 });
    const manageUrl = page.url().replace(/\?.*$/, "");

    await page.getByRole("button", { name: "Cancel this meeting" }).click();
    await page.getByRole("heading", { level: 1, name: "Meeting cancelled" }).waitFor();
    expect(stored(email).meeting).toMatchObject({ status: "cancelled", sequence: 2 });
    const response = await page.goto(manageUrl);
    expect(response?.status()).toBe(410);
    await page.getByText("This meeting has ended or was cancelled; the link no longer changes it.").waitFor();
    await close();
  });
});

describe("the booking pages on a phone", () => {
  it("fit 375 px without sideways scrolling and have no accessibility violations", {
    timeout: 60_000,
  }, async () => {
    const { page, close } = await openPage("/book/investor", { ...MOBILE });
    await page.getByRole("heading", { level: 1, name: "Book an investor call" }).waitFor();
    await noSidewaysScroll(page);
    await expectNoA11yViolations(page);
    await close();
  });

  it("refuses a forged manage link with 404 and says what to do", async () => {
    const { page, response, close } = await openPage("/meetings/manage/1.0.AAAAAAAAAAAAAAAAAAAAAA", {
      javaScript: false,
      allowConsoleErrors: [/404/],
    });
    expect(response?.status()).toBe(404);
    await page.getByText("This link is not valid. Use the link in your confirmation e-mail.").waitFor();
    await close();
  });

  it("asks for a time and keeps what was typed when none was chosen", { timeout: 60_000 }, async () => {
    // The browser's own check would stop the form first: lift it, as a browser without it would.
    const { page, close } = await openPage("/book/demo", { allowConsoleErrors: [/400/] });
    await page.evaluate(() => {
      for (const input of document.querySelectorAll("input")) input.removeAttribute("required");
    });
    await page.getByLabel("Full name").fill("Amara Okafor");
    await page.getByRole("button", { name: "Book this time" }).click();
    await page.locator("#start-error").getByText("Choose a time.").waitFor();
    expect(await page.getByLabel("Full name").inputValue()).toBe("Amara Okafor");
    await page.locator("#email-error").getByText("Enter a valid email address").waitFor();
    await page.locator("#company-error").getByText("Enter your company name").waitFor();
    await page.locator("#phone-error").getByText("Enter a valid phone number").waitFor();
    await page.screenshot({ path: ".ci-artifacts/booking-errors-1280.png", fullPage: true });
    await close();
  });
});

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

describe.each([false, true])("booking from the thank-you panel (JavaScript %s)", (javaScript) => {
  it("requests a demo, then books a time the panel offers, with no second form", {
    timeout: 60_000,
  }, async () => {
    const email = `panel-${javaScript}-${Date.now()}@example.com`;
    // With JavaScript the panel shows the browser's zone; without it London, and a select to change.
    const { page, close } = await openPage("/demo", { javaScript, timezoneId: "America/New_York" });
    const form = page.locator("form#demo-form");
    for (const [label, value] of Object.entries({
      "Full Name": "Tomasz Nowak",
      Email: email,
      Company: "Nowak Civils Ltd",
      Phone: "+44 7700 900456",
    }))
      await form.getByRole("textbox", { name: label, exact: true }).fill(value);
    await form.getByRole("button", { name: "Submit Request" }).click();

    const panel = page.locator("#demo-form-thanks");
    await panel.getByRole("heading", { name: "Pick a time for your demo now" }).waitFor();
    const zone = panel.getByLabel("Times shown in");
    if (javaScript) expect(await zone.inputValue()).toBe("America/New_York");
    else {
      expect(await zone.inputValue()).toBe("Europe/London");
      await zone.selectOption("America/New_York");
      await panel.getByRole("button", { name: "Show times" }).click();
      await panel.getByRole("heading", { name: "Pick a time for your demo now" }).waitFor();
      expect(await panel.getByLabel("Times shown in").inputValue()).toBe("America/New_York");
    }
    const start = await panel.locator('input[name="start"]').first().inputValue();
    // Each day after the first is folded behind its name; the first is open.
    expect(await panel.locator("details[open]").count()).toBe(1);
    const day = `${await panel.locator("fieldset legend").first().textContent()}, `;
    await panel
      .getByRole("radio", { name: new RegExp(`^${day}\\d{2}:\\d{2}$`) })
      .first()
      .check({ force: true });
    await panel.screenshot({ path: `.ci-artifacts/thank-you-times-${javaScript ? "js" : "no-js"}.png` });
    await panel.getByRole("button", { name: "Book this time" }).click();

    if (javaScript) {
      // Booked in place: the panel says when (in the visitor's zone), with whom, and how to change it.
      await panel.getByRole("heading", { name: /^Booked: .+, \d{2}:\d{2} \(New York time\)$/ }).waitFor();
      await panel.getByRole("link", { name: "Change or cancel this booking" }).waitFor();
      await expectNoA11yViolations(page);
      await panel.screenshot({ path: ".ci-artifacts/thank-you-booked.png" });
    } else {
      await page.getByText("Your meeting is booked.").waitFor();
      expect(page.url()).toMatch(/\/meetings\/manage\/[\w.-]+\?booked=1$/);
    }
    // One lead (the request), and the meeting is its, at the time picked, in the visitor's zone.
    const booked = stored(email);
    expect(booked.leads).toBe(1);
    expect(booked.meeting).toMatchObject({
      status: "booked",
      start_at: start,
      time_zone: "America/New_York",
    });
    expect(booked.meeting?.lead_id).not.toBeNull();
    await close();
  });
});

describe("the investor call offered after an investor's registration, on a phone", () => {
  it.each([false, true])(
    "fits 375 px and books the call (JavaScript %s)",
    {
      timeout: 60_000,
    },
    async (javaScript) => {
      const email = `investor-panel-${javaScript}-${Date.now()}@example.com`;
      const { page, close } = await openPage("/invest", { ...MOBILE, javaScript });
      const form = page.locator("form#investor-interest-form");
      for (const [label, value] of Object.entries({
        "Full Name": "Jonas Berg",
        Company: "Nordic Angels",
        Email: email,
        Phone: "+46 70 123 45 67",
      }))
        await form.getByRole("textbox", { name: label, exact: true }).fill(value);
      await form.getByRole("checkbox", { name: "Angel investor" }).check();
      await form.getByRole("button", { name: /Register/ }).click();
      const panel = page.locator("#investor-interest-form-thanks");
      await panel.getByRole("heading", { name: "Book your investor call now" }).waitFor();
      await noSidewaysScroll(page);
      if (javaScript) await expectNoA11yViolations(page);
      await panel.screenshot({
        path: `.ci-artifacts/thank-you-investor-375-${javaScript ? "js" : "no-js"}.png`,
      });
      const start = await panel.locator('input[name="start"]').first().inputValue();
      await panel.locator(`label:has(input[value="${start}"])`).click();
      await panel.getByRole("button", { name: "Book this time" }).click();
      if (javaScript) await panel.getByRole("link", { name: "Change or cancel this booking" }).waitFor();
      else await page.getByText("Your meeting is booked.").waitFor();
      expect(stored(email).meeting).toMatchObject({ status: "booked", start_at: start });
      await close();
    },
  );
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

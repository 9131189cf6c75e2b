import { inflateSync } from "node:zlib";
import { beforeAll, describe, expect, test } from "vitest";
import { site } from "#app/lib/site/site.ts";
import { stats } from "#app/lib/site/stats.ts";
import { renderInvestorDeck, slides } from "./deck.server.ts";
import {
  CONFIDENTIALITY_NOTICE,
  deckFileName,
  features,
  RISK_WARNING,
  TERMS_DISCUSSED_DIRECTLY,
} from "./deck-content.ts";

/**
 * The text shown on each page, one line per text run. pdfkit writes the standard fonts' text as
 * hex-encoded WinAnsi bytes inside `[...] TJ` arrays, one content stream per page.
 */
function pageTexts(pdf: Buffer): string[] {
  const raw = pdf.toString("latin1");
  const decoder = new TextDecoder("windows-1252");
  const pages: string[] = [];
  for (const match of raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    const bytes = Buffer.from(match[1] ?? "", "latin1");
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      continue; // not a Flate stream
    }
    if (!content.includes("TJ")) continue;
    const lines = [...content.matchAll(/\[([^\]]*)\] TJ/g)].map((tj) =>
      [...(tj[1] ?? "").matchAll(/<([0-9a-f]*)>/gi)]
        .map((hex) => decoder.decode(Buffer.from(hex[1] ?? "", "hex")))
        .join(""),
    );
    pages.push(lines.join("\n"));
  }
  return pages;
}

describe("renderInvestorDeck", () => {
  let pdf: Buffer;
  let pages: string[];

  beforeAll(async () => {
    pdf = await renderInvestorDeck();
    pages = pageTexts(pdf);
  });

  test("is a PDF document", () => {
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.subarray(-6).toString("latin1")).toContain("%%EOF");
  });

  test("has one 16:9 page per slide, between 9 and 11", () => {
    const pageObjects = pdf.toString("latin1").match(/\/Type \/Page(?!s)/g) ?? [];
    expect(pageObjects).toHaveLength(slides.length);
    expect(slides.length).toBeGreaterThanOrEqual(9);
    expect(slides.length).toBeLessThanOrEqual(11);
    expect(pdf.toString("latin1")).toContain("/MediaBox [0 0 960 540]");
  });

  test("names the product and company in its metadata", () => {
    const raw = pdf.toString("latin1");
    expect(raw).toContain(`(${site.productName} Investor Presentation)`);
    expect(raw).toContain(`(${site.company.legalName})`);
    expect(raw).toMatch(/\/Subject \d+ 0 R/);
  });

  test("is byte-for-byte reproducible", async () => {
    const again = await renderInvestorDeck();
    expect(again.equals(pdf)).toBe(true);
  });

  test("every page carries the confidentiality footer and its page number", () => {
    expect(pages).toHaveLength(slides.length);
    pages.forEach((text, i) => {
      expect(text).toContain(CONFIDENTIALITY_NOTICE);
      expect(text).toContain(`${i + 1} / ${slides.length}`);
    });
  });

  test("shows the stats, the six features, the risk warning and the investor contact", () => {
    const all = pages.join("\n");
    for (const stat of stats) expect(all).toContain(stat.value);
    expect(features).toHaveLength(6);
    for (const feature of features) expect(all).toContain(feature.name);
    expect(all).toContain(RISK_WARNING);
    const { name, email, phone } = site.investorContact;
    for (const value of [name, email, phone.display]) expect(pages.at(-1)).toContain(value);
  });

  // Issue 11: anyone can download the deck, so its footer asks rather than claims confidentiality,
  // and it gives the round's size nowhere: terms are discussed directly, as /invest says.
  test("asks readers not to redistribute it and says terms are discussed directly", () => {
    expect(CONFIDENTIALITY_NOTICE).toBe(
      "Prepared for prospective investors. Please do not redistribute. Not an offer of securities.",
    );
    const all = pages.join("\n");
    expect(all).not.toMatch(/confidential/i);
    // Wrapped lines joined back into sentences.
    expect(all.replace(/\s+/g, " ")).toContain(TERMS_DISCUSSED_DIRECTLY);
  });
});

test("the download name derives from the product name", () => {
  expect(deckFileName).toBe(`${site.productName.toLowerCase()}-investor-presentation.pdf`);
});

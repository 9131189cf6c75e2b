import PDFDocument from "pdfkit";
import { publicUrl } from "#app/lib/site/public-url.ts";
import { formatAddress, site } from "#app/lib/site/site.ts";
import {
  ask,
  businessModel,
  CONFIDENTIALITY_NOTICE,
  contact,
  DECK_DATE,
  deckTitle,
  features,
  goToMarket,
  headline,
  howItWorks,
  market,
  problem,
  RISK_WARNING,
  tagline,
  team,
  whyConstruction,
} from "./deck-content.ts";

// Draws the investor presentation with pdfkit's built-in Helvetica (no font files, no downloads).
// NOTE: pages have no margin and every text box is placed by hand; text that ran past the bottom
// edge would make pdfkit add a page, which the page-count test catches.

const W = 960;
const H = 540;
const M = 56;
const CONTENT_W = W - 2 * M;
const FOOTER_Y = 498;

const color = {
  navy: "#12355b",
  navyStrong: "#0b2440",
  navyLine: "#2b4d75",
  onNavy: "#dbe4ef",
  onNavyMuted: "#9fb3cc",
  amber: "#f2a900",
  amberSoft: "#fff4d6",
  amberInk: "#6b4a00",
  ink: "#0f1b2d",
  muted: "#475569",
  line: "#d9e0ea",
  soft: "#e8eef6",
  surface: "#f5f7fa",
  white: "#ffffff",
} as const;

const REGULAR = "Helvetica";
const BOLD = "Helvetica-Bold";

type Doc = PDFKit.PDFDocument;
type Slide = { dark?: boolean; draw: (doc: Doc) => void };

/** The logo mark of app/components/site/logo.tsx, drawn on a 32-unit grid scaled to `size`. */
function drawMark(doc: Doc, x: number, y: number, size: number, inverse = false) {
  doc.save();
  doc.translate(x, y).scale(size / 32);
  doc.roundedRect(0, 0, 32, 32, 7).fill(inverse ? color.white : color.navy);
  doc.path("M9 7h10l5 5v13H9z").fill(inverse ? color.navy : color.white);
  doc.path("M19 7v5h5").lineWidth(1.6).stroke(color.amber);
  doc.path("M11.5 23v-3.2a4.5 4.5 0 0 1 9 0V23").lineWidth(2).lineCap("round").stroke(color.amber);
  doc.restore();
}

function kicker(doc: Doc, label: string, dark = false) {
  doc.rect(M, 46, 24, 3).fill(color.amber);
  doc
    .font(BOLD)
    .fontSize(10)
    .fillColor(dark ? color.amber : color.navy)
    .text(label.toUpperCase(), M + 34, 43, { characterSpacing: 1.2, lineBreak: false });
}

/** Kicker, title and optional lead; returns the y below them. */
function header(doc: Doc, label: string, title: string, lead?: string): number {
  kicker(doc, label);
  doc.font(BOLD).fontSize(28).fillColor(color.ink).text(title, M, 64, { width: CONTENT_W });
  if (lead) {
    doc
      .font(REGULAR)
      .fontSize(13)
      .fillColor(color.muted)
      .text(lead, M, doc.y + 8, { width: 780, lineGap: 3 });
  }
  return doc.y;
}

function card(doc: Doc, x: number, y: number, w: number, h: number, fill: string = color.surface) {
  doc.roundedRect(x, y, w, h, 10).lineWidth(1).fillAndStroke(fill, color.line);
}

/** A bulleted line with an amber square; returns the y below it. */
function bullet(doc: Doc, text: string, x: number, y: number, width: number, size = 13, fill = color.ink) {
  doc.rect(x, y + size * 0.35, 6, 6).fill(color.amber);
  doc
    .font(REGULAR)
    .fontSize(size)
    .fillColor(fill)
    .text(text, x + 18, y, { width: width - 18, lineGap: 2 });
  return doc.y;
}

/** Numbered amber disc used by the step and phase slides. */
function numberDisc(doc: Doc, n: number, cx: number, cy: number, r = 15) {
  doc.circle(cx, cy, r).fill(color.amber);
  doc
    .font(BOLD)
    .fontSize(13)
    .fillColor(color.navyStrong)
    .text(String(n), cx - r, cy - 6.5, { width: 2 * r, align: "center", lineBreak: false });
}

function footer(doc: Doc, page: number, total: number, dark: boolean) {
  doc
    .moveTo(M, FOOTER_Y)
    .lineTo(W - M, FOOTER_Y)
    .lineWidth(0.75)
    .stroke(dark ? color.navyLine : color.line);
  drawMark(doc, M, 510, 14, dark);
  doc
    .font(BOLD)
    .fontSize(9)
    .fillColor(dark ? color.white : color.navy)
    .text(site.productName, M + 20, 513, { lineBreak: false });
  doc
    .font(REGULAR)
    .fontSize(8)
    .fillColor(dark ? color.onNavyMuted : color.muted)
    .text(CONFIDENTIALITY_NOTICE, 220, 514, { width: W - 440, align: "center", lineBreak: false });
  doc.text(`${page} / ${total}`, W - M - 80, 514, { width: 80, align: "right", lineBreak: false });
}

const monthYear = DECK_DATE.toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

const titleSlide: Slide = {
  dark: true,
  draw(doc) {
    // A large, faint copy of the mark on the right; the arch keeps its amber.
    doc.save();
    doc.translate(600, 70).scale(12);
    doc.path("M9 7h10l5 5v13H9z").fillOpacity(0.07).fill(color.white);
    doc.path("M11.5 23v-3.2a4.5 4.5 0 0 1 9 0V23").lineWidth(1.4).lineCap("round").strokeOpacity(0.85);
    doc.stroke(color.amber);
    doc.restore();

    drawMark(doc, M, 56, 40, true);
    doc
      .font(BOLD)
      .fontSize(22)
      .fillColor(color.white)
      .text(site.productName, M + 54, 66, { lineBreak: false });

    doc.font(BOLD).fontSize(46).fillColor(color.white).text(headline, M, 170, { width: 560, lineGap: 4 });
    const y = doc.y + 18;
    doc.rect(M, y, 64, 5).fill(color.amber);
    doc
      .font(REGULAR)
      .fontSize(20)
      .fillColor(color.onNavy)
      .text(tagline, M, y + 24, { width: 560 });
    doc
      .font(BOLD)
      .fontSize(11)
      .fillColor(color.amber)
      .text(`INVESTOR PRESENTATION · ${monthYear.toUpperCase()}`, M, 440, {
        characterSpacing: 1.2,
        lineBreak: false,
      });
  },
};

const problemSlide: Slide = {
  draw(doc) {
    header(doc, "The problem", problem.title, problem.lead);
    const gap = 20;
    const w = (CONTENT_W - 2 * gap) / 3;
    const y = 186;
    const h = 170;
    problem.stats.forEach((stat, i) => {
      const x = M + i * (w + gap);
      card(doc, x, y, w, h);
      doc.rect(x, y + 18, 4, 40).fill(color.amber);
      doc
        .font(BOLD)
        .fontSize(40)
        .fillColor(color.navy)
        .text(stat.value, x + 22, y + 18, { lineBreak: false });
      doc
        .font(REGULAR)
        .fontSize(13)
        .fillColor(color.ink)
        .text(stat.label, x + 22, y + 72, { width: w - 44, lineGap: 2 });
      doc
        .font(REGULAR)
        .fontSize(9)
        .fillColor(color.muted)
        .text(stat.source, x + 22, y + h - 34, { width: w - 44 });
    });
    const bandY = 378;
    doc.roundedRect(M, bandY, CONTENT_W, 86, 10).fill(color.navy);
    doc
      .font(BOLD)
      .fontSize(34)
      .fillColor(color.amber)
      .text(problem.leakage.value, M + 28, bandY + 26, { lineBreak: false });
    doc
      .font(REGULAR)
      .fontSize(16)
      .fillColor(color.white)
      .text(problem.leakage.label, M + 250, bandY + 27, { width: CONTENT_W - 280 });
    doc
      .fontSize(11)
      .fillColor(color.onNavy)
      .text(
        "Value leakage: missed obligations, unclaimed entitlements and expired rights.",
        M + 250,
        doc.y + 4,
        {
          width: CONTENT_W - 280,
        },
      );
  },
};

const whyConstructionSlide: Slide = {
  draw(doc) {
    header(doc, "Why construction", whyConstruction.title, whyConstruction.lead);
    const gap = 18;
    const w = (CONTENT_W - 2 * gap) / 3;
    const h = 138;
    const top = 160;
    whyConstruction.points.forEach((point, i) => {
      const x = M + (i % 3) * (w + gap);
      const y = top + Math.floor(i / 3) * (h + gap);
      card(doc, x, y, w, h);
      doc
        .font(BOLD)
        .fontSize(14)
        .fillColor(color.navy)
        .text(point.heading, x + 18, y + 18, { width: w - 36 });
      doc
        .font(REGULAR)
        .fontSize(11)
        .fillColor(color.ink)
        .text(point.text, x + 18, doc.y + 8, { width: w - 36, lineGap: 2 });
    });
    // The sixth cell answers the five problems.
    const x = M + 2 * (w + gap);
    const y = top + h + gap;
    doc.roundedRect(x, y, w, h, 10).fill(color.navy);
    doc.rect(x + 18, y + 20, 28, 3).fill(color.amber);
    doc
      .font(BOLD)
      .fontSize(15)
      .fillColor(color.white)
      .text(
        `${site.productName} keeps every change, deadline and obligation in one place, in words the whole team understands.`,
        x + 18,
        y + 36,
        { width: w - 36, lineGap: 3 },
      );
  },
};

const productSlide: Slide = {
  draw(doc) {
    header(
      doc,
      "The product",
      "One source of truth for every contract",
      `${site.productName} is a post-signature contract management platform built for construction businesses.`,
    );
    const gap = 18;
    const w = (CONTENT_W - 2 * gap) / 3;
    const h = 132;
    const top = 150;
    features.forEach((feature, i) => {
      const x = M + (i % 3) * (w + gap);
      const y = top + Math.floor(i / 3) * (h + gap);
      card(doc, x, y, w, h, color.white);
      doc.roundedRect(x + 18, y + 18, 26, 26, 6).fill(color.soft);
      doc
        .font(BOLD)
        .fontSize(12)
        .fillColor(color.navy)
        .text(String(i + 1).padStart(2, "0"), x + 18, y + 26, {
          width: 26,
          align: "center",
          lineBreak: false,
        });
      doc
        .font(BOLD)
        .fontSize(14)
        .fillColor(color.ink)
        .text(feature.name, x + 56, y + 24, { width: w - 74, lineBreak: false });
      doc
        .font(REGULAR)
        .fontSize(11.5)
        .fillColor(color.muted)
        .text(feature.text, x + 18, y + 60, { width: w - 36, lineGap: 2 });
    });
  },
};

const howItWorksSlide: Slide = {
  draw(doc) {
    header(
      doc,
      "How it works",
      "From a pile of documents to answers",
      "Four steps turn signed contracts and their amendments into something a whole business can use.",
    );
    const n = howItWorks.length;
    const gap = 24;
    const w = (CONTENT_W - (n - 1) * gap) / n;
    const discY = 190;
    doc
      .moveTo(M + w / 2, discY)
      .lineTo(M + (n - 1) * (w + gap) + w / 2, discY)
      .lineWidth(2)
      .stroke(color.line);
    howItWorks.forEach((item, i) => {
      const x = M + i * (w + gap);
      numberDisc(doc, i + 1, x + w / 2, discY, 18);
      card(doc, x, 226, w, 170, color.white);
      doc
        .font(BOLD)
        .fontSize(17)
        .fillColor(color.navy)
        .text(item.step, x + 18, 246, { width: w - 36 });
      doc
        .font(REGULAR)
        .fontSize(12)
        .fillColor(color.ink)
        .text(item.text, x + 18, doc.y + 10, { width: w - 36, lineGap: 3 });
    });
    doc.roundedRect(M, 418, CONTENT_W, 52, 10).fill(color.soft);
    doc
      .font(REGULAR)
      .fontSize(12)
      .fillColor(color.navy)
      .text(
        "People stay in control: summaries, dates and answers point back to the source clause, so the team can check them.",
        M + 20,
        437,
        { width: CONTENT_W - 40, lineBreak: false },
      );
  },
};

const marketSlide: Slide = {
  draw(doc) {
    header(doc, "Market", market.title, market.lead);
    const gap = 20;
    const w = (CONTENT_W - 2 * gap) / 3;
    const y = 150;
    const h = 122;
    market.figures.forEach((figure, i) => {
      const x = M + i * (w + gap);
      card(doc, x, y, w, h);
      doc
        .font(BOLD)
        .fontSize(34)
        .fillColor(color.navy)
        .text(figure.value, x + 20, y + 16, { lineBreak: false });
      doc
        .font(REGULAR)
        .fontSize(12)
        .fillColor(color.ink)
        .text(figure.label, x + 20, y + 62, { width: w - 40, lineGap: 2 });
    });
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(color.muted)
      .text(market.source, M, y + h + 10, { width: CONTENT_W });
    doc.font(BOLD).fontSize(15).fillColor(color.ink).text("Where we start", M, 326);
    let by = doc.y + 10;
    for (const line of market.focus) by = bullet(doc, line, M, by, CONTENT_W, 13) + 8;
  },
};

const businessModelSlide: Slide = {
  draw(doc) {
    header(doc, "Business model", businessModel.title, businessModel.lead);
    const gap = 20;
    const w = (CONTENT_W - 2 * gap) / 3;
    const y = 164;
    const h = 200;
    businessModel.tiers.forEach((tier, i) => {
      const x = M + i * (w + gap);
      card(doc, x, y, w, h, color.white);
      doc.rect(x, y, w, 6).fill(i === 2 ? color.navy : color.amber);
      doc
        .font(BOLD)
        .fontSize(20)
        .fillColor(color.navy)
        .text(tier.name, x + 22, y + 30, { width: w - 44 });
      doc
        .font(REGULAR)
        .fontSize(13)
        .fillColor(color.ink)
        .text(tier.text, x + 22, doc.y + 12, { width: w - 44, lineGap: 3 });
    });
    doc.roundedRect(M, 392, CONTENT_W, 64, 10).fill(color.soft);
    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor(color.navy)
      .text("Designed for recurring revenue that grows with each customer's portfolio.", M + 20, 406, {
        width: CONTENT_W - 40,
      });
    doc
      .font(REGULAR)
      .fontSize(11)
      .fillColor(color.muted)
      .text(businessModel.note, M + 20, doc.y + 4, { width: CONTENT_W - 40 });
  },
};

const goToMarketSlide: Slide = {
  draw(doc) {
    header(doc, "Go-to-market", goToMarket.title);
    const gap = 20;
    const w = (CONTENT_W - gap) / 2;
    const h = 158;
    const top = 128;
    goToMarket.phases.forEach((phase, i) => {
      const x = M + (i % 2) * (w + gap);
      const y = top + Math.floor(i / 2) * (h + gap);
      card(doc, x, y, w, h);
      numberDisc(doc, i + 1, x + 38, y + 38);
      doc
        .font(BOLD)
        .fontSize(18)
        .fillColor(color.navy)
        .text(phase.name, x + 66, y + 29, { width: w - 90 });
      doc
        .font(REGULAR)
        .fontSize(13)
        .fillColor(color.ink)
        .text(phase.text, x + 66, y + 62, { width: w - 90, lineGap: 3 });
    });
  },
};

const teamSlide: Slide = {
  draw(doc) {
    header(doc, "Team", team.title);
    const leftW = 360;
    const y = 128;
    const h = 300;
    card(doc, M, y, leftW, h, color.white);
    for (const member of team.members) {
      const initials = member.name
        .split(/\s+/)
        .map((part) => part[0])
        .join("");
      doc.circle(M + 70, y + 80, 44).fill(color.navy);
      doc
        .font(BOLD)
        .fontSize(28)
        .fillColor(color.white)
        .text(initials, M + 26, y + 66, { width: 88, align: "center", lineBreak: false });
      doc
        .font(BOLD)
        .fontSize(20)
        .fillColor(color.ink)
        .text(member.name, M + 26, y + 148, { width: leftW - 52 });
      doc
        .font(BOLD)
        .fontSize(13)
        .fillColor(color.amberInk)
        .text(member.role, M + 26, doc.y + 4, { width: leftW - 52 });
      doc
        .font(REGULAR)
        .fontSize(13)
        .fillColor(color.muted)
        .text(member.text, M + 26, doc.y + 12, { width: leftW - 52, lineGap: 3 });
    }
    const x = M + leftW + 24;
    const w = CONTENT_W - leftW - 24;
    card(doc, x, y, w, h);
    doc
      .font(BOLD)
      .fontSize(18)
      .fillColor(color.navy)
      .text(team.building.heading, x + 26, y + 26, { width: w - 52 });
    doc
      .font(REGULAR)
      .fontSize(13)
      .fillColor(color.ink)
      .text(team.building.text, x + 26, doc.y + 10, { width: w - 52 });
    let by = doc.y + 14;
    for (const hire of team.building.hires) by = bullet(doc, hire, x + 26, by, w - 52, 13) + 10;
    doc
      .font(REGULAR)
      .fontSize(12)
      .fillColor(color.muted)
      .text(team.building.advisors, x + 26, by + 10, { width: w - 52, lineGap: 2 });
  },
};

const askSlide: Slide = {
  draw(doc) {
    header(doc, "Investment", ask.title, ask.lead);
    const leftW = 470;
    let by = 150;
    for (const use of ask.uses) by = bullet(doc, use, M, by, leftW, 15) + 14;
    const x = M + leftW + 30;
    const w = CONTENT_W - leftW - 30;
    card(doc, x, 146, w, 132);
    doc
      .font(BOLD)
      .fontSize(15)
      .fillColor(color.navy)
      .text("Terms", x + 22, 166, { width: w - 44 });
    doc
      .font(REGULAR)
      .fontSize(13)
      .fillColor(color.ink)
      .text(ask.terms, x + 22, doc.y + 8, { width: w - 44, lineGap: 3 });

    const riskY = 360;
    doc.roundedRect(M, riskY, CONTENT_W, 96, 10).lineWidth(1.5).fillAndStroke(color.amberSoft, color.amber);
    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor(color.amberInk)
      .text("RISK WARNING", M + 24, riskY + 20, { characterSpacing: 1.2, lineBreak: false });
    doc
      .font(BOLD)
      .fontSize(17)
      .fillColor(color.ink)
      .text(RISK_WARNING, M + 24, riskY + 42, { width: CONTENT_W - 48 });
    doc
      .font(REGULAR)
      .fontSize(11)
      .fillColor(color.muted)
      .text(
        "Early-stage investments are illiquid and you could lose all the money you invest. Seek independent advice.",
        M + 24,
        doc.y + 6,
        { width: CONTENT_W - 48 },
      );
  },
};

const contactSlide: Slide = {
  dark: true,
  draw(doc) {
    kicker(doc, "Contact", true);
    doc.font(BOLD).fontSize(40).fillColor(color.white).text(contact.title, M, 70, { width: CONTENT_W });
    doc
      .font(REGULAR)
      .fontSize(15)
      .fillColor(color.onNavy)
      .text(contact.lead, M, doc.y + 10, { width: 520 });

    const { person, company } = contact;
    doc.font(BOLD).fontSize(26).fillColor(color.white).text(person.name, M, 200, { width: 520 });
    doc
      .font(REGULAR)
      .fontSize(14)
      .fillColor(color.amber)
      .text(person.role, M, doc.y + 2, { width: 520 });
    const rows: [string, string][] = [
      ["Phone", person.phone.display],
      ["Email", person.email],
      ["Web", publicUrl.replace(/^https?:\/\//, "")],
    ];
    let y = doc.y + 22;
    for (const [label, value] of rows) {
      doc
        .font(BOLD)
        .fontSize(11)
        .fillColor(color.onNavyMuted)
        .text(label.toUpperCase(), M, y + 3, { characterSpacing: 1, lineBreak: false });
      doc
        .font(REGULAR)
        .fontSize(16)
        .fillColor(color.white)
        .text(value, M + 80, y, { width: 440, lineBreak: false });
      y += 30;
    }

    const x = 620;
    const w = W - M - x;
    doc.roundedRect(x, 200, w, 150, 10).fill(color.navyStrong);
    doc
      .font(BOLD)
      .fontSize(13)
      .fillColor(color.white)
      .text(company.legalName, x + 22, 222, { width: w - 44 });
    doc
      .font(REGULAR)
      .fontSize(12)
      .fillColor(color.onNavy)
      .text(formatAddress("\n"), x + 22, doc.y + 6, { width: w - 44, lineGap: 2 });
    doc.text(
      `Registered in ${company.registeredIn}\nCompany no. ${company.companyNumber}`,
      x + 22,
      doc.y + 8,
      {
        width: w - 44,
        lineGap: 2,
      },
    );

    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor(color.amber)
      .text(RISK_WARNING, M, 452, { width: CONTENT_W, lineBreak: false });
  },
};

export const slides: readonly Slide[] = [
  titleSlide,
  problemSlide,
  whyConstructionSlide,
  productSlide,
  howItWorksSlide,
  marketSlide,
  businessModelSlide,
  goToMarketSlide,
  teamSlide,
  askSlide,
  contactSlide,
];

/** Renders the investor presentation; the same content always gives the same bytes. */
export function renderInvestorDeck(): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [W, H],
    margin: 0,
    autoFirstPage: false,
    lang: "en-GB",
    displayTitle: true,
    info: {
      Title: deckTitle,
      Author: site.company.legalName,
      Subject: `Investor presentation: ${tagline}`,
      Keywords: "contract management, construction, AI, investor presentation",
      Creator: site.productName,
      // Fixed dates make the bytes (and the file ID pdfkit derives from them) reproducible.
      CreationDate: DECK_DATE,
      ModDate: DECK_DATE,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  slides.forEach((slide, i) => {
    doc.addPage();
    if (slide.dark) doc.rect(0, 0, W, H).fill(color.navy);
    slide.draw(doc);
    footer(doc, i + 1, slides.length, slide.dark ?? false);
  });
  doc.end();
  return done;
}

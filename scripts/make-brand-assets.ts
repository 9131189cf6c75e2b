// Regenerates the brand files in public/: favicon.svg, logo.svg, favicon.ico (16 and 32 px),
// apple-touch-icon.png (180 px) and og-image.png (1200x630, the social share card).
// Run by hand after a brand change, then commit the outputs; the build does not run it.
//
//   node scripts/make-brand-assets.ts            (uses /usr/bin/chromium, or CHROMIUM_PATH)
//
// NOTE: the mark's paths mirror app/components/site/logo.tsx; change both together.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { site } from "../app/lib/site/site.ts";
import { CHROMIUM_HEADLESS_ARGS, CHROMIUM_PATH } from "./lib/chromium.ts";

const publicDir = join(import.meta.dirname, "..", "public");

const brand = {
  navy: "#12355b",
  navyStrong: "#0b2440",
  amber: "#f2a900",
  white: "#ffffff",
  onNavy: "#dbe4ef",
};

const HEADLINE = "Turning Contracts Into Strategic Assets";
const TAGLINE = "AI-powered contract management for construction";
const FONT_STACK = "'Liberation Sans', Arial, Helvetica, sans-serif";

/** The mark on its 32-unit grid: rounded square, folded document, amber fold and bridge arch. */
function markShapes({ square = brand.navy, paper = brand.white, rounded = true } = {}): string {
  return [
    `<rect width="32" height="32"${rounded ? ' rx="7"' : ""} fill="${square}"/>`,
    `<path d="M9 7h10l5 5v13H9z" fill="${paper}"/>`,
    `<path d="M19 7v5h5" fill="none" stroke="${brand.amber}" stroke-width="1.6"/>`,
    `<path d="M11.5 23v-3.2a4.5 4.5 0 0 1 9 0V23" fill="none" stroke="${brand.amber}" stroke-width="2" stroke-linecap="round"/>`,
  ].join("");
}

export function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>${site.productName}</title>${markShapes()}</svg>\n`;
}

export function logoSvg(): string {
  // textLength pins the wordmark's width, so the layout holds whichever sans-serif font is installed.
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 188 40" role="img" aria-label="${site.productName}">`,
    `<g transform="translate(0 4)">${markShapes()}</g>`,
    `<text x="42" y="28.5" font-family="${FONT_STACK.replaceAll("'", "")}" font-size="23" font-weight="700"`,
    ` letter-spacing="-0.3" fill="${brand.navy}" textLength="144" lengthAdjust="spacingAndGlyphs">${site.productName}</text>`,
    "</svg>\n",
  ].join("");
}

/** iOS rounds and masks the icon itself and shows transparency as black, so this one is full-bleed. */
function appleTouchIconSvg(): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">`,
    `<rect width="32" height="32" fill="${brand.navy}"/>`,
    `<g transform="translate(16 16) scale(1.15) translate(-16 -16)">${markShapes({ square: "none" })}</g>`,
    "</svg>",
  ].join("");
}

function ogImageHtml(): string {
  const host = new URL(site.defaultPublicUrl).host;
  return `<!doctype html><html><head><style>
    html, body { margin: 0; }
    body { box-sizing: border-box; width: 1200px; height: 630px; overflow: hidden; position: relative;
      padding: 72px 80px 56px; display: flex; flex-direction: column; background: ${brand.navy};
      font-family: ${FONT_STACK}; color: ${brand.white}; }
    .art { position: absolute; right: 40px; top: 150px; width: 400px; height: 400px; }
    .brand { display: flex; align-items: center; gap: 18px; font-size: 40px; font-weight: 700; letter-spacing: -0.5px; }
    .brand svg { width: 60px; height: 60px; }
    h1 { margin: 56px 0 0; font-size: 66px; line-height: 1.1; font-weight: 700; letter-spacing: -1.5px; }
    .bar { margin-top: 32px; width: 96px; height: 8px; background: ${brand.amber}; }
    .tagline { margin-top: 28px; font-size: 34px; color: ${brand.onNavy}; }
    .host { margin-top: auto; font-size: 24px; font-weight: 700; color: ${brand.amber}; letter-spacing: 0.5px; }
  </style></head><body>
    <svg class="art" viewBox="0 0 32 32" aria-hidden="true">
      <path d="M9 7h10l5 5v13H9z" fill="${brand.white}" fill-opacity="0.07"/>
      <path d="M19 7v5h5" fill="none" stroke="${brand.white}" stroke-opacity="0.18" stroke-width="0.35"/>
      <path d="M11.5 23v-3.2a4.5 4.5 0 0 1 9 0V23" fill="none" stroke="${brand.amber}" stroke-width="1.3" stroke-linecap="round"/>
    </svg>
    <div class="brand"><svg viewBox="0 0 32 32">${markShapes({ square: brand.white, paper: brand.navy })}</svg>${site.productName}</div>
    <h1>${HEADLINE.replace(" Strategic", "<br>Strategic")}</h1>
    <div class="bar"></div>
    <div class="tagline">${TAGLINE}</div>
    <div class="host">${host}</div>
  </body></html>`;
}

async function renderSvg(page: Page, svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  const sized = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`,
  );
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

/** An ICO container holding PNG images (supported by every browser since Windows Vista-era icons). */
export function buildIco(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // palette colours: none
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_HEADLESS_ARGS, "--force-color-profile=srgb"],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const write = (name: string, data: string | Buffer) => {
      writeFileSync(join(publicDir, name), data);
      console.log(`public/${name}: ${(Buffer.byteLength(data) / 1024).toFixed(1)} KB`);
    };

    write("favicon.svg", faviconSvg());
    write("logo.svg", logoSvg());

    const icons = [];
    for (const size of [32, 16]) icons.push({ size, png: await renderSvg(page, faviconSvg(), size) });
    write("favicon.ico", buildIco(icons));

    write("apple-touch-icon.png", await renderSvg(page, appleTouchIconSvg(), 180));

    await page.setViewportSize({ width: 1200, height: 630 });
    await page.setContent(ogImageHtml());
    write("og-image.png", await page.screenshot({ clip: { x: 0, y: 0, width: 1200, height: 630 } }));
  } finally {
    await browser.close();
  }
}

if (import.meta.main) await main();

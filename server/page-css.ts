// Each prerendered public page inlines the stylesheet (ADR 013), and until now all of it: the rules of
// the back office and of every other page too, 60 % of the home page's bytes. A document of more than
// about 14 KB on the wire needs a second round trip before the browser can paint (TCP's initial
// congestion window), which on a phone network is the difference between an LCP over and under
// 1.2 s (issue 11). So postbuild keeps, in each prerendered page, only the rules that can match it.
//
// The cut is deliberately narrow: a selector goes only when it names a class that appears nowhere in
// the page or in any script the page loads, now or later (its islands and their lazy parts, the
// enhancement script). Whatever class a script can add is a literal in that script, as it had to be
// for Tailwind to generate the rule. Tags, ids, attributes and pseudo-classes never remove a rule
// (`:focus-visible`, `[aria-invalid=true]` set by a script as `!0`), and neither do custom
// properties, keyframes or font faces. Pages rendered per request (a form's answer without
// JavaScript, the 404s) keep the whole sheet.
// NOTE: synchronous reads and a whole-stylesheet parse: this runs at build time (postbuild) and, for
// the published pages, only in the worker thread of page-css-worker.ts, never on the event loop.
import { readFileSync } from "node:fs";
import postcss, { type Container } from "postcss";
import selectorParser from "postcss-selector-parser";
import { javascriptForPage, type SizeCache } from "./page-javascript.ts";

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/;

/**
 * Every word that could be a class name: Tailwind's hold `:`, `[`, `]`, `/`, `.`, `%`… (`md:grid-cols-2`,
 * `w-[42rem]`), so a token is anything between quotes, angle brackets, backticks and white space.
 * NOTE: a class can hold `&` and `>` too (`[&::-webkit-details-marker]:hidden`, `[&>svg]:size-4`).
 * React writes them in an attribute as `&amp;` and `&gt;`, so each `class` attribute is also read
 * decoded; and a script's string keeps a `>`, so words split only at quotes and white space count too.
 * More candidates can only keep more rules.
 */
function classCandidates(content: string): Set<string> {
  const names = new Set(content.match(/[^<>"'`\s]+/g) ?? []);
  for (const word of content.match(/[^"'`\s]+/g) ?? []) names.add(word);
  for (const [, value = ""] of content.matchAll(/\sclass="([^"]*)"/g))
    for (const name of decodeEntities(value).split(/\s+/)) if (name) names.add(name);
  return names;
}

/** The character references React writes in attribute values (and numeric ones in general). */
function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (reference, name: string) => {
    if (name[0] !== "#") return named[name.toLowerCase()] ?? reference;
    const code =
      name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
  });
}

const classesIn = (selector: string): string[] => {
  const names: string[] = [];
  selectorParser((root) => root.walkClasses((node) => void names.push(node.value))).processSync(selector);
  return names;
};

/** Removes the selectors naming a class not in `used`, the rules left with none, and emptied blocks. */
function cut(container: Container, used: Set<string>): void {
  container.each((node) => {
    if (node.type === "rule") {
      const kept = node.selectors.filter((selector) => classesIn(selector).every((name) => used.has(name)));
      if (kept.length === 0) node.remove();
      else if (kept.length < node.selectors.length) node.selectors = kept;
    } else if (node.type === "atrule" && node.nodes && !/keyframes$|^font-face$/i.test(node.name)) {
      cut(node, used);
      if (node.nodes.length === 0) node.remove();
    }
  });
}

/**
 * `html` with its inline stylesheet cut to the rules that can apply to it or to what its scripts
 * render; unchanged when it inlines none (the back office links its stylesheet).
 */
export function withPageCss(html: string, pagePath: string, clientDir: string, cache: SizeCache): string {
  const match = INLINE_STYLE.exec(html);
  const css = match?.[1];
  if (!match || !css) return html;
  const before = html.slice(0, match.index);
  const after = html.slice(match.index + match[0].length);
  const scripts = javascriptForPage(html, clientDir, cache, pagePath);
  const used = classCandidates(
    [
      before,
      after,
      ...[...scripts.files, ...scripts.lazy].map((file) => readFileSync(file.file, "utf8")),
    ].join("\n"),
  );
  // The candidates hold `class="a b"` as `a`, `b`; a class token inside a script string such as
  // "a b" is split by the same white space.
  const root = postcss.parse(css);
  cut(root, used);
  return `${before}<style>${root.toString()}</style>${after}`;
}

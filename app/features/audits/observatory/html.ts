// A small tolerant HTML tag scanner: enough to find <meta http-equiv>, <meta name="referrer">,
// <script src> and the URLs of subresources, without a DOM dependency. It skips comments and the
// raw text of <script>/<style>/<textarea>/<title> (so "<script" inside JavaScript is not a tag),
// and reads attributes the way browsers do: first occurrence wins, quotes may hold ">".

export type HtmlTag = { name: string; attributes: Map<string, string> };

// NOTE: <noscript> is deliberately not raw text: the reference parses with scripting disabled, so
// tags inside <noscript> count there too.
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp", "plaintext"]);

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === "#") {
      const point =
        code[1] === "x" || code[1] === "X" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

const isSpace = (c: string | undefined) => c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\f";

/** Every start tag in document order, with lower-cased names and decoded attribute values. */
export function scanTags(html: string): HtmlTag[] {
  const tags: HtmlTag[] = [];
  const lower = html.toLowerCase();
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf("<", i);
    if (open === -1) break;
    if (html.startsWith("<!--", open)) {
      const close = html.indexOf("-->", open + 4);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    const next = html[open + 1] ?? "";
    if (next === "!" || next === "?" || next === "/") {
      const close = html.indexOf(">", open + 2);
      i = close === -1 ? html.length : close + 1;
      continue;
    }
    if (!/[a-z]/i.test(next)) {
      i = open + 1;
      continue;
    }
    let j = open + 1;
    while (j < html.length && !isSpace(html[j]) && html[j] !== ">" && html[j] !== "/") j++;
    const name = lower.slice(open + 1, j);
    const attributes = new Map<string, string>();
    // Attributes until ">" (outside quotes) or the end of the document.
    while (j < html.length) {
      while (j < html.length && (isSpace(html[j]) || html[j] === "/")) j++;
      if (j >= html.length || html[j] === ">") break;
      const nameStart = j;
      while (j < html.length && !isSpace(html[j]) && html[j] !== ">" && html[j] !== "/" && html[j] !== "=")
        j++;
      if (j === nameStart) j++; // a stray "=": step over it
      const attributeName = lower.slice(nameStart, j);
      while (isSpace(html[j])) j++;
      let value = "";
      if (html[j] === "=") {
        j++;
        while (isSpace(html[j])) j++;
        const quote = html[j];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, j + 1);
          value = html.slice(j + 1, end === -1 ? html.length : end);
          j = end === -1 ? html.length : end + 1;
        } else {
          const start = j;
          while (j < html.length && !isSpace(html[j]) && html[j] !== ">") j++;
          value = html.slice(start, j);
        }
      }
      if (attributeName && !attributes.has(attributeName))
        attributes.set(attributeName, decodeEntities(value));
    }
    tags.push({ name, attributes });
    i = j + 1;
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = lower.indexOf(`</${name}`, i);
      i = close === -1 ? html.length : close;
    }
  }
  return tags;
}

export type ScriptTag = { src: string | null; integrity: string | null; crossorigin: string | null };

export type HtmlFacts = {
  tags: HtmlTag[];
  /** content of each <meta http-equiv="Content-Security-Policy">, in order. */
  metaCsp: string[];
  /** content of the last <meta name="referrer"> (the reference keeps only the last one). */
  metaReferrer: string | null;
  /** Every <script>, inline ones included (the SRI test counts them). */
  scripts: ScriptTag[];
};

export function readHtml(html: string): HtmlFacts {
  const tags = scanTags(html);
  const metaCsp: string[] = [];
  let metaReferrer: string | null = null;
  const scripts: ScriptTag[] = [];
  for (const tag of tags) {
    const attr = (name: string) => tag.attributes.get(name) ?? null;
    if (tag.name === "meta") {
      const content = attr("content");
      if (content === null) continue;
      if (tag.attributes.has("http-equiv")) {
        if (attr("http-equiv")?.trim().toLowerCase() === "content-security-policy") metaCsp.push(content);
      } else if (attr("name")?.trim().toLowerCase() === "referrer") {
        metaReferrer = content;
      }
    } else if (tag.name === "script") {
      // An empty src attribute means no external script, as in the DOM's script.src.
      const src = attr("src")?.trim() || null;
      scripts.push({ src, integrity: attr("integrity"), crossorigin: attr("crossorigin") });
    }
  }
  return { tags, metaCsp, metaReferrer, scripts };
}

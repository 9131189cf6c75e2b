import { describe, expect, it } from "vitest";
import { isSafeLinkTarget, mediaIdsIn, type PostImage, renderPostMarkdown } from "./post-markdown.ts";

const IMAGE: PostImage = {
  width: 1600,
  height: 900,
  alt: "The site office at dawn",
  variants: [
    { format: "avif", width: 480, height: 270, url: "/media/7/480-aaaaaaaaaaaaaaaa.avif" },
    { format: "avif", width: 960, height: 540, url: "/media/7/960-bbbbbbbbbbbbbbbb.avif" },
    { format: "webp", width: 480, height: 270, url: "/media/7/480-cccccccccccccccc.webp" },
    { format: "jpeg", width: 480, height: 270, url: "/media/7/480-dddddddddddddddd.jpg" },
    { format: "jpeg", width: 960, height: 540, url: "/media/7/960-eeeeeeeeeeeeeeee.jpg" },
  ],
};

/** Every tag name and attribute name in the output, to check nothing executable got through. */
function tagsAndAttributes(html: string): { tags: string[]; attributes: string[] } {
  const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)];
  return {
    tags: tags.map((match) => match[1]?.toLowerCase() ?? ""),
    attributes: tags.flatMap((match) =>
      [...(match[2] ?? "").matchAll(/\s([a-z-]+)=/gi)].map((attribute) => attribute[1]?.toLowerCase() ?? ""),
    ),
  };
}

describe("a post's body", () => {
  it("renders headings, emphasis, lists, quotes and code", () => {
    const html = renderPostMarkdown(
      "## Why\n\nSome **bold** and _soft_ words.\n\n- one\n- two\n\n> quoted\n\n`code`",
    );
    expect(html).toContain("<h2>Why</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>soft</em>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("<blockquote>");
    expect(html).toContain("<code>code</code>");
  });

  it("shows raw HTML as text: no script, iframe, event attribute or style gets through", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<iframe src="https://evil.example"></iframe>',
      '<img src=x onerror="alert(1)">',
      'Inline <b onmouseover="alert(1)">bold</b> and <svg onload=alert(1)>',
      '<a href="javascript:alert(1)">click</a>',
      "<style>body{display:none}</style>",
    ].join("\n\n");
    const html = renderPostMarkdown(hostile);
    const { tags, attributes } = tagsAndAttributes(html);
    expect(new Set(tags)).toEqual(new Set(["p"]));
    expect(attributes).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;iframe");
  });

  it("keeps safe links, marks the external ones noopener, and drops javascript:, data: and vbscript: targets", () => {
    const html = renderPostMarkdown(
      [
        "[pricing](/features) [section](#costs) [mail](mailto:hello@example.com)",
        "[out](https://www.example.com/a?b=1) [bare](https://bare.example)",
        "[js](javascript:alert(1)) [js2](JavaScript:alert(1)) [entity](&#106;avascript:alert(1))",
        "[data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox(1)) [proto](//evil.example/x)",
        "Autolinked https://auto.example/path too.",
      ].join("\n\n"),
    );
    expect(html).toContain('<a href="/features">pricing</a>');
    expect(html).toContain('<a href="#costs">section</a>');
    expect(html).toContain('<a href="mailto:hello@example.com">mail</a>');
    expect(html).toContain('<a href="https://www.example.com/a?b=1" rel="noopener">out</a>');
    expect(html).toContain(
      '<a href="https://auto.example/path" rel="noopener">https://auto.example/path</a>',
    );
    for (const text of ["js", "js2", "entity", "data", "vb", "proto"])
      expect(html).toMatch(new RegExp(`\\b${text}\\b`));
    expect(html).not.toMatch(/href="(?:javascript|data|vbscript|&#106;)/i);
    expect(html).not.toContain("//evil.example");
    const { attributes } = tagsAndAttributes(html);
    expect(new Set(attributes)).toEqual(new Set(["href", "rel"]));
  });

  it("escapes a link's title and an image's alt text", () => {
    const html = renderPostMarkdown(
      '[x](/a "a title\\" onmouseover=\\"alert(1)") ![a "quote" <b>](media:7)',
      new Map([[7, IMAGE]]),
    );
    // The quote is escaped inside the attribute's value, so no attribute of its own starts.
    expect(html).toContain('<a href="/a" title="a title&quot; onmouseover=&quot;alert(1)">x</a>');
    expect(html).toContain('alt="a &quot;quote&quot; &lt;b&gt;"');
  });

  it("draws a media library image as a responsive picture with its size, so the page does not shift", () => {
    const html = renderPostMarkdown("![Concrete pour](media:7)", new Map([[7, IMAGE]]));
    expect(html).toContain(
      '<source type="image/avif" srcset="/media/7/480-aaaaaaaaaaaaaaaa.avif 480w, /media/7/960-bbbbbbbbbbbbbbbb.avif 960w"',
    );
    expect(html).toContain('<source type="image/webp" srcset="/media/7/480-cccccccccccccccc.webp 480w"');
    expect(html).toContain('src="/media/7/960-eeeeeeeeeeeeeeee.jpg"');
    expect(html).toContain('width="1600" height="900" alt="Concrete pour"');
    expect(html).toContain('loading="lazy"');
    // An empty alt in the body falls back to the library's.
    expect(renderPostMarkdown("![](media:7)", new Map([[7, IMAGE]]))).toContain(
      'alt="The site office at dawn"',
    );
  });

  it("draws an image alone in its paragraph with a title as a figure with that caption", () => {
    const html = renderPostMarkdown(
      '![Concrete pour](media:7 "The slab <on> day 3 & counting")\n\nText ![inline](media:7 "Not a caption") here.',
      new Map([[7, IMAGE]]),
    );
    expect(html).toMatch(
      /^<figure><picture>[\s\S]*alt="Concrete pour"[\s\S]*<\/picture><figcaption>The slab &lt;on&gt; day 3 &amp; counting<\/figcaption><\/figure>\n<p>Text <picture>/,
    );
    expect(html.match(/<figure>/g)).toHaveLength(1);
    // No caption without a title, and none for an image that does not draw.
    expect(renderPostMarkdown("![Concrete pour](media:7)", new Map([[7, IMAGE]]))).toMatch(/^<p><picture>/);
    expect(renderPostMarkdown('![gone](media:99 "Caption")', new Map())).toBe("<p><span>gone</span></p>\n");
  });

  it("puts a table, with its header row and alignments, in a box named by its headers that scrolls sideways", () => {
    const html = renderPostMarkdown("| Stage | Share <b> |\n|---|--:|\n| Completion | 50 % |");
    expect(html).toBe(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="Table: Stage, Share &lt;b&gt;"><table>\n<thead>\n<tr>\n<th>Stage</th>\n<th align="right">Share &lt;b&gt;</th>\n</tr>\n</thead>\n<tbody><tr>\n<td>Completion</td>\n<td align="right">50 %</td>\n</tr>\n</tbody></table>\n</div>\n',
    );
  });

  it("keeps only the alt text of an image from anywhere else, or of a media id it was not given", () => {
    const html = renderPostMarkdown(
      "![tracker](https://evil.example/pixel.gif) ![inline](data:image/png;base64,AAAA) ![gone](media:99)",
      new Map([[7, IMAGE]]),
    );
    expect(html).not.toContain("<img");
    expect(html).toContain("<span>tracker</span>");
    expect(html).toContain("<span>gone</span>");
    expect(html).not.toContain("evil.example");
  });

  it("lists the media ids a body uses, each once", () => {
    expect(mediaIdsIn("![a](media:7) text ![b](media:12) ![c](media:7) ![d](/x.png) [e](media:5)")).toEqual([
      7, 12,
    ]);
  });
});

describe("isSafeLinkTarget", () => {
  it.each([
    ["/features", true],
    ["#top", true],
    ["../blog", true],
    ["pricing", true],
    ["https://example.com", true],
    ["http://example.com", true],
    ["mailto:a@example.com", true],
    ["javascript:alert(1)", false],
    [" javascript:alert(1)", false],
    ["data:text/html,x", false],
    ["vbscript:x", false],
    ["//evil.example", false],
    ["file:///etc/passwd", false],
  ])("%s → %s", (href, safe) => {
    expect(isSafeLinkTarget(href)).toBe(safe);
  });
});

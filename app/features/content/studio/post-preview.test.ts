import { describe, expect, test } from "vitest";
import { imageMarkdown, mediaIdsIn, type PreviewImage, renderPostPreview } from "./post-preview.ts";

// The editor's preview (issue 24): the public renderer's HTML, author input inert, library images
// shown from their files.

const IMAGE: PreviewImage = {
  id: 12,
  url: "/media/12/960-0123456789abcdef.jpg",
  width: 960,
  height: 540,
  alt: "A crane",
  variants: [{ format: "jpeg", width: 960, height: 540, url: "/media/12/960-0123456789abcdef.jpg" }],
};
const images = new Map([[12, IMAGE]]);

describe("the editor's preview", () => {
  test("renders markdown as the public page does", () => {
    const html = renderPostPreview("## Why\n\nRetention is **earned**.", images);
    expect(html).toContain("<h2>Why</h2>");
    expect(html).toContain("<strong>earned</strong>");
  });

  test("keeps author input inert: HTML as text, script links dropped", () => {
    const html = renderPostPreview(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) [data](data:text/html,x)',
      images,
    );
    expect(html).not.toMatch(/<script|<img|href="javascript|href="data/);
    expect(html).toContain("&lt;script&gt;");
  });

  test("shows a library image from its file, and leaves an unknown one as its words", () => {
    const html = renderPostPreview("![A crane on site](media:12)", images);
    expect(html).toContain("<picture>");
    expect(html).toMatch(
      /<img src="\/media\/12\/960-0123456789abcdef\.jpg"[^>]* width="960" height="540" alt="A crane on site"/,
    );
    const unknown = renderPostPreview("![Gone](media:99)", images);
    expect(unknown).not.toContain("<img");
    expect(unknown).toContain("Gone");
  });

  test("finds the library images a text names, and writes one safely", () => {
    expect(mediaIdsIn("![a](media:3)\n\n![b](media:12) ![a again](media:3) [link](media:4)")).toEqual([
      3, 12,
    ]);
    expect(imageMarkdown(12, "Site office\n[at dawn] ")).toBe("![Site office at dawn](media:12)");
  });
});

import { describe, expect, it } from "vitest";
import { isPostAction, postLogAbout, postLogDetail } from "./post-log-words.ts";

// The access log's words for what happened to a post (issue 24).

describe("post entries in the access log", () => {
  const detail = { postId: 12, slug: "hidden-costs", title: "Hidden costs" };

  it("name the post by its title and number", () => {
    expect(postLogAbout(detail)).toBe("“Hidden costs” (post #12)");
    expect(postLogAbout({ postId: 12 })).toBe("(post #12)");
    expect(postLogAbout({})).toBeNull();
  });

  it("say what happened in words, times in UK time", () => {
    expect(postLogDetail("post_published", detail)).toBe("Now at /blog/hidden-costs");
    expect(postLogDetail("post_scheduled", { ...detail, at: "2026-12-01T09:00:00.000Z" })).toBe(
      "To appear on Dec 1, 2026, 9:00 AM (UK time) at /blog/hidden-costs",
    );
    expect(postLogDetail("post_scheduled", { ...detail, at: "2026-07-01T09:00:00.000Z" })).toBe(
      "To appear on Jul 1, 2026, 10:00 AM (UK time) at /blog/hidden-costs",
    );
    expect(postLogDetail("post_unpublished", detail)).toBe("/blog/hidden-costs no longer shows it");
    expect(
      postLogDetail("post_unpublished", { ...detail, cancelledSchedule: "2026-12-01T09:00:00.000Z" }),
    ).toBe("Cancelled its publication on Dec 1, 2026, 9:00 AM (UK time)");
    expect(postLogDetail("post_restored", { ...detail, restored: 3, revision: 7 })).toBe(
      "Brought back revision 3 as revision 7",
    );
    expect(postLogDetail("post_deleted", detail)).toBe("Its address would have been /blog/hidden-costs");
    expect(isPostAction("post_restored")).toBe(true);
    expect(isPostAction("export")).toBe(false);
  });
});

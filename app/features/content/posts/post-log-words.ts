import { formatDateTime } from "#app/lib/format-date.ts";

// How the access log tells what happened to a post (issue 24): which post, in words ("“Title”,
// post #12"), and what the entry's details mean ("To appear on Dec 1, 2026, 9:00 AM (UK time)").
// The entries keep the post's number, address and title as they were then (posts-store.server.ts
// postDetail), so a post renamed or deleted since is still named as it was.

type Detail = Record<string, string | number | boolean>;

const POST_ACTIONS = new Set([
  "post_published",
  "post_scheduled",
  "post_unpublished",
  "post_restored",
  "post_deleted",
]);

export const isPostAction = (action: string) => POST_ACTIONS.has(action);

/** The post an entry is about: “Title” (post #12). */
export function postLogAbout(detail: Detail): string | null {
  const id = Number(detail.postId);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const title = typeof detail.title === "string" && detail.title ? `“${detail.title}” ` : "";
  return `${title}(post #${id})`;
}

const ukTime = (iso: unknown) => `${formatDateTime(String(iso))} (UK time)`;

/** What a post entry's details say, in words. */
export function postLogDetail(action: string, detail: Detail): string | null {
  const address = typeof detail.slug === "string" ? `/blog/${detail.slug}` : null;
  switch (action) {
    case "post_published":
      return address ? `Now at ${address}` : null;
    case "post_scheduled":
      return detail.at ? `To appear on ${ukTime(detail.at)}${address ? ` at ${address}` : ""}` : null;
    case "post_unpublished":
      if (detail.cancelledSchedule) return `Cancelled its publication on ${ukTime(detail.cancelledSchedule)}`;
      return address ? `${address} no longer shows it` : null;
    case "post_restored":
      return detail.restored !== undefined
        ? `Brought back revision ${detail.restored}${detail.revision !== undefined ? ` as revision ${detail.revision}` : ""}`
        : null;
    case "post_deleted":
      return address ? `Its address would have been ${address}` : null;
    default:
      return null;
  }
}

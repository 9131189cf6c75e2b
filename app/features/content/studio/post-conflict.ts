import { diffPosts, type PostDiff } from "../posts/post-diff.ts";
import type { PostFields } from "../posts/post-fields.ts";
import type { EditorValues } from "./post-form.ts";

// The conflict screen's data (issue 24): both sides of a refused save, as the page's action answers
// them for a save and the editor builds them from the posts API's 409 for an autosave. Shared.

export const CONFLICT_MESSAGE =
  "Someone else saved this post while you were editing. Nothing of yours was saved yet: compare the two versions and choose what to keep.";

export type ConflictData = {
  kind: "conflict";
  message: string;
  /** What was typed, to post again or copy from. */
  yours: EditorValues;
  latest: EditorValues;
  latestRevision: number;
  /** Who saved the latest and when, in words; `by` is null when the page does not know. */
  latestBy: { by: string | null; at: string };
  /** From theirs to yours: what saving yours would change. */
  differences: PostDiff;
};

/** The differences the screen shows: from the saved post to what was typed. */
export function conflictDifferences(latest: PostFields, yours: PostFields): PostDiff {
  return diffPosts(latest, yours);
}

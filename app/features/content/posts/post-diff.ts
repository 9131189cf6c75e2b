import { POST_FIELD_LABELS, POST_FIELDS, type PostField, type PostFields } from "./post-fields.ts";
import { diffText, type TextDiff } from "./text-diff.ts";

// What differs between two versions of a post (issue 24): the revisions' comparison and the
// conflict screen's "yours and theirs". The body line by line, every other field before and after.
// Pure, shared with the browser.

export type FieldChange = {
  field: Exclude<PostField, "body">;
  label: string;
  before: PostFields[PostField];
  after: PostFields[PostField];
};

export type PostDiff = {
  /** The fields other than the body that differ, in the editor's order. */
  fields: FieldChange[];
  /** The body's changed lines with their context; no hunks when it is the same. */
  body: TextDiff;
};

export function diffPosts(before: PostFields, after: PostFields): PostDiff {
  const fields: FieldChange[] = [];
  for (const field of POST_FIELDS) {
    if (field === "body") continue;
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      fields.push({ field, label: POST_FIELD_LABELS[field], before: before[field], after: after[field] });
  }
  return { fields, body: diffText(before.body, after.body) };
}

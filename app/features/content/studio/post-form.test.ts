import { describe, expect, test } from "vitest";
import {
  COVER_PICK_FIELD,
  EMPTY_VALUES,
  fieldsOfValues,
  readEditorValues,
  sameValues,
  valuesOf,
} from "./post-form.ts";

// The editor's form as posted (issue 24): every box read as text, a missing one empty, the cover
// chosen without JavaScript winning over the script's field, a ticked checkbox "on".

describe("the editor's form values", () => {
  test("read every box, a missing one as empty", () => {
    const values = readEditorValues(new URLSearchParams({ title: "A title", body: "Text", featured: "on" }));
    expect(values).toMatchObject({ title: "A title", body: "Text", featured: "on", excerpt: "", kind: "" });
  });

  test("take the cover chosen from the list without JavaScript over the hidden field", () => {
    const form = new URLSearchParams({ coverImage: "3", [COVER_PICK_FIELD]: "7" });
    expect(readEditorValues(form).coverImage).toBe("7");
    form.set(COVER_PICK_FIELD, "none");
    expect(readEditorValues(form).coverImage).toBe("");
    expect(readEditorValues(new URLSearchParams({ coverImage: "3" })).coverImage).toBe("3");
  });

  test("go back and forth between a post's fields and the boxes", () => {
    const values = { ...EMPTY_VALUES, title: "T", tags: "one, two", featured: "on", coverImage: "4" };
    const fields = fieldsOfValues(values);
    expect(fields).toMatchObject({
      tags: ["one", "two"],
      featured: true,
      coverImage: "4",
      originalUrl: null,
    });
    expect(sameValues(valuesOf(fields), values)).toBe(true);
    expect(sameValues(values, { ...values, title: "U" })).toBe(false);
  });
});

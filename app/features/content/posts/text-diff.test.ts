import { describe, expect, it } from "vitest";
import { diffLines, diffText, toHunks } from "./text-diff.ts";

// The revisions' line-by-line comparison (issue 24).

const kinds = (before: string, after: string) =>
  diffLines(before, after).lines.map(
    (line) => `${line.kind === "same" ? " " : line.kind === "added" ? "+" : "-"}${line.text}`,
  );

/** The newer text, rebuilt from the diff: what a correct diff must always give back. */
function rebuild(before: string, after: string) {
  const { lines } = diffLines(before, after);
  return {
    old: lines.filter((l) => l.kind !== "added").map((l) => l.text),
    new: lines.filter((l) => l.kind !== "removed").map((l) => l.text),
  };
}

describe("a line diff", () => {
  it("marks the lines added, removed and kept, in order", () => {
    expect(kinds("a\nb\nc", "a\nc\nd")).toEqual([" a", "-b", " c", "+d"]);
    expect(kinds("", "one\ntwo")).toEqual(["+one", "+two"]);
    expect(kinds("one\ntwo\n", "")).toEqual(["-one", "-two"]);
    expect(kinds("same\n", "same")).toEqual([" same"]);
    expect(kinds("a\r\nb", "a\nb")).toEqual([" a", " b"]);
  });

  it("finds the shortest edit, and numbers the lines of each side", () => {
    const { lines } = diffLines("A\nB\nC\nA\nB\nB\nA", "C\nB\nA\nB\nA\nC");
    expect(lines.filter((line) => line.kind !== "same")).toHaveLength(5);
    expect(diffLines("x\ny\nz", "x\nY\nz").lines).toEqual([
      { kind: "same", text: "x", oldNumber: 1, newNumber: 1 },
      { kind: "removed", text: "y", oldNumber: 2, newNumber: null },
      { kind: "added", text: "Y", oldNumber: null, newNumber: 2 },
      { kind: "same", text: "z", oldNumber: 3, newNumber: 3 },
    ]);
  });

  it("always gives both texts back, whatever the edits", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const words = ["a", "b", "c", "d", ""];
      const make = () =>
        Array.from(
          { length: Math.floor(random() * 12) },
          () => words[Math.floor(random() * words.length)],
        ).join("\n");
      const before = make();
      const after = make();
      const sides = rebuild(before, after);
      const lines = (text: string) => (text === "" ? [] : text.split("\n"));
      const trimLast = (list: string[]) => (list.at(-1) === "" ? list.slice(0, -1) : list);
      expect(sides.old).toEqual(trimLast(lines(before)));
      expect(sides.new).toEqual(trimLast(lines(after)));
    }
  });

  it("gives up on the shortest edit past its bound, quickly, and says so", () => {
    const before = Array.from({ length: 30_000 }, (_, i) => `old line ${i}`).join("\n");
    const after = Array.from({ length: 30_000 }, (_, i) => `new line ${i}`).join("\n");
    const diff = diffText(before, after);
    expect(diff).toMatchObject({ complete: false, added: 30_000, removed: 30_000 });
    // A long text with one change is still compared line by line.
    const edited = before.replace("old line 15000", "changed line");
    expect(diffText(before, edited)).toMatchObject({ complete: true, added: 1, removed: 1 });
  });
});

describe("hunks", () => {
  it("show each change with three lines around it, and join changes that are close", () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before
      .replace("line 5", "line five")
      .replace("line 8", "line eight")
      .replace("line 25", "line 25!");
    const hunks = toHunks(diffLines(before, after).lines);
    expect(hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [2, 10, 2, 10],
      [22, 7, 22, 7],
    ]);
    expect(hunks[0]?.lines[0]).toMatchObject({ kind: "same", text: "line 2" });
    expect(diffText(before, before).hunks).toEqual([]);
  });
});

// A line-based difference between two texts (issue 24, the revisions' "what changed"): Myers'
// O((N+M)·D) algorithm, after the common start and end are set aside. Pure, shared with the browser.
// A body may hold 100,000 characters, so the work is bounded: past `maxEdits` differing lines the
// answer is "everything replaced" (complete: false) rather than seconds of CPU on the event loop.

export type DiffLine = {
  kind: "same" | "added" | "removed";
  text: string;
  /** Line number in the older text (1-based), null for an added line. */
  oldNumber: number | null;
  /** Line number in the newer text (1-based), null for a removed line. */
  newNumber: number | null;
};

export type DiffHunk = {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
};

export type TextDiff = {
  /** False when the texts differ in too many lines to compare: every old line removed, every new one added. */
  complete: boolean;
  added: number;
  removed: number;
  hunks: DiffHunk[];
};

/** Comparisons past which a diff gives up on finding the shortest edit (≈ tens of milliseconds). */
const MAX_WORK = 20_000_000;
const MAX_EDITS = 2000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  // A final line break does not start another (empty) line.
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

type Op = { kind: DiffLine["kind"]; oldIndex: number; newIndex: number };

/**
 * The shortest edit from a to b (arrays of line ids) as same/removed/added steps, or null when it
 * needs more than maxEdits edits. Each round's frontier is kept (d² entries at most) to walk back.
 */
function myers(a: Int32Array, b: Int32Array, maxEdits: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const offset = maxEdits + 1;
  const v = new Int32Array(2 * maxEdits + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= maxEdits; d++) {
    // The frontier before round d, for k in [-d-1, d+1]: all the walk back reads.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) return null;

  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const frontier = trace[d] as Int32Array;
    // frontier[i] is v[k] for k = i - d - 1.
    const at = (k: number) => frontier[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: "same", oldIndex: x, newIndex: y });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "added", oldIndex: x, newIndex: prevY });
      else ops.push({ kind: "removed", oldIndex: prevX, newIndex: y });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** Every line of both texts in order, marked same, removed or added. */
export function diffLines(before: string, after: string): { lines: DiffLine[]; complete: boolean } {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // Lines as numbers: the algorithm compares ids, not strings.
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const middleA = Int32Array.from(a.slice(start, endA), idOf);
  const middleB = Int32Array.from(b.slice(start, endB), idOf);
  const size = middleA.length + middleB.length;
  const maxEdits = Math.min(size, MAX_EDITS, Math.max(100, Math.floor(MAX_WORK / Math.max(1, size))));
  let ops = myers(middleA, middleB, maxEdits);
  const complete = ops !== null;
  ops ??= [
    ...Array.from(middleA, (_, i) => ({ kind: "removed" as const, oldIndex: i, newIndex: 0 })),
    ...Array.from(middleB, (_, i) => ({ kind: "added" as const, oldIndex: middleA.length, newIndex: i })),
  ];

  const lines: DiffLine[] = [];
  for (let i = 0; i < start; i++)
    lines.push({ kind: "same", text: a[i] as string, oldNumber: i + 1, newNumber: i + 1 });
  for (const op of ops) {
    const oldIndex = start + op.oldIndex;
    const newIndex = start + op.newIndex;
    if (op.kind === "same")
      lines.push({
        kind: "same",
        text: a[oldIndex] as string,
        oldNumber: oldIndex + 1,
        newNumber: newIndex + 1,
      });
    else if (op.kind === "removed")
      lines.push({ kind: "removed", text: a[oldIndex] as string, oldNumber: oldIndex + 1, newNumber: null });
    else lines.push({ kind: "added", text: b[newIndex] as string, oldNumber: null, newNumber: newIndex + 1 });
  }
  for (let i = 0; endA + i < a.length; i++)
    lines.push({
      kind: "same",
      text: a[endA + i] as string,
      oldNumber: endA + i + 1,
      newNumber: endB + i + 1,
    });
  return { lines, complete };
}

/** The changed lines with `context` unchanged lines around each change, grouped as in a unified diff. */
export function toHunks(lines: DiffLine[], context = 3): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  const changed = lines.flatMap((line, index) => (line.kind === "same" ? [] : [index]));
  let i = 0;
  while (i < changed.length) {
    const first = changed[i] as number;
    let last = first;
    // Changes closer than twice the context share one hunk.
    while (i + 1 < changed.length && (changed[i + 1] as number) - last <= 2 * context + 1) {
      i++;
      last = changed[i] as number;
    }
    i++;
    const from = Math.max(0, first - context);
    const to = Math.min(lines.length - 1, last + context);
    const slice = lines.slice(from, to + 1);
    const before = lines.slice(0, from);
    const oldBefore = before.filter((line) => line.kind !== "added").length;
    const newBefore = before.filter((line) => line.kind !== "removed").length;
    const oldLines = slice.filter((line) => line.kind !== "added").length;
    const newLines = slice.filter((line) => line.kind !== "removed").length;
    hunks.push({
      oldStart: oldLines === 0 ? oldBefore : oldBefore + 1,
      oldLines,
      newStart: newLines === 0 ? newBefore : newBefore + 1,
      newLines,
      lines: slice,
    });
  }
  return hunks;
}

/** The difference between two texts as hunks with their counts. */
export function diffText(before: string, after: string, context = 3): TextDiff {
  const { lines, complete } = diffLines(before, after);
  return {
    complete,
    added: lines.filter((line) => line.kind === "added").length,
    removed: lines.filter((line) => line.kind === "removed").length,
    hunks: toHunks(lines, context),
  };
}

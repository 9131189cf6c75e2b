import { cn } from "#app/lib/cn.ts";
import { countOf } from "#app/lib/count-words.ts";
import type { PostDiff } from "../../posts/post-diff.ts";
import type { PostField } from "../../posts/post-fields.ts";

// What differs between two versions of a post (issue 24): the revisions' comparison and the
// conflict screen. The fields other than the text in a table (before, after); the text line by
// line, as a unified diff with the lines' numbers, removed lines marked − and added ones +, in words
// for screen readers and not by colour alone.

/** A field's value in words: a list joined, a choice said, an empty one "(empty)". */
export function fieldValueText(field: PostField, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "(none)";
  if (field === "featured") return value ? "Yes" : "No";
  if (field === "coverImage") return `Image #${value}`;
  if (field === "authorUserId") return `Staff account #${value}`;
  return String(value);
}

export function PostDiffView({
  diff,
  beforeLabel,
  afterLabel,
}: {
  diff: PostDiff;
  beforeLabel: string;
  afterLabel: string;
}) {
  const { fields, body } = diff;
  const same = fields.length === 0 && body.hunks.length === 0;
  if (same) return <p className="text-ink-muted">The two versions are the same.</p>;
  return (
    <div className="grid min-w-0 gap-6">
      {fields.length > 0 ? (
        <>
          {/* A phone reads each field's change as a block; wider screens as a table. */}
          <ul aria-label="Fields that differ" className="grid gap-2 sm:hidden">
            {fields.map((change) => (
              <li
                key={change.field}
                className="grid gap-1 rounded-lg border border-line bg-white p-3 text-sm"
              >
                <p className="font-semibold">{change.label}</p>
                <p className="break-words text-ink-muted">
                  <span className="font-semibold">{beforeLabel}: </span>
                  {fieldValueText(change.field, change.before)}
                </p>
                <p className="break-words">
                  <span className="font-semibold">{afterLabel}: </span>
                  {fieldValueText(change.field, change.after)}
                </p>
              </li>
            ))}
          </ul>
          <div className="hidden min-w-0 overflow-x-auto rounded-lg border border-line sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Fields that differ</caption>
              <thead className="bg-surface-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Field
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {beforeLabel}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {afterLabel}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {fields.map((change) => (
                  <tr key={change.field} className="align-top">
                    <th scope="row" className="px-3 py-2 font-semibold whitespace-nowrap">
                      {change.label}
                    </th>
                    <td className="px-3 py-2 break-words text-ink-muted">
                      <del className="no-underline">{fieldValueText(change.field, change.before)}</del>
                    </td>
                    <td className="px-3 py-2 break-words">
                      <ins className="no-underline">{fieldValueText(change.field, change.after)}</ins>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {body.hunks.length > 0 ? (
        <section aria-label="Text" className="min-w-0">
          <h3 className="text-base font-semibold">
            Text{" "}
            <span className="font-normal text-ink-muted">
              {countOf(body.removed, "line")} removed, {countOf(body.added, "line")} added
              {body.complete ? "" : " (too different to compare line by line: shown as replaced)"}
            </span>
          </h3>
          <div className="mt-2 rounded-lg border border-line bg-white font-mono text-sm">
            {body.hunks.map((hunk) => (
              <div key={`${hunk.oldStart}-${hunk.newStart}`} className="border-b border-line last:border-b-0">
                <p className="bg-surface-muted px-3 py-1 text-xs text-ink-muted">
                  Lines {hunk.oldStart}–{hunk.oldStart + Math.max(0, hunk.oldLines - 1)} → {hunk.newStart}–
                  {hunk.newStart + Math.max(0, hunk.newLines - 1)}
                </p>
                <ol>
                  {hunk.lines.map((line, index) => (
                    <li
                      // biome-ignore lint/suspicious/noArrayIndexKey: a hunk's lines have no identity but their place
                      key={index}
                      className={cn(
                        "grid grid-cols-[2.5rem_2.5rem_1.25rem_minmax(0,1fr)]",
                        line.kind === "added" && "bg-green-50 text-green-900",
                        line.kind === "removed" && "bg-red-50 text-red-900",
                      )}
                    >
                      <span className="pr-2 text-right text-ink-muted select-none">
                        {line.oldNumber ?? ""}
                      </span>
                      <span className="pr-2 text-right text-ink-muted select-none">
                        {line.newNumber ?? ""}
                      </span>
                      <span aria-hidden="true" className="select-none">
                        {line.kind === "added" ? "+" : line.kind === "removed" ? "−" : ""}
                      </span>
                      <span className="pr-3 break-words whitespace-pre-wrap">
                        {line.kind === "added" ? <span className="sr-only">Added: </span> : null}
                        {line.kind === "removed" ? <span className="sr-only">Removed: </span> : null}
                        {line.text || " "}
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}

import type { z } from "zod";

// The one way a refused input is reported, field by field: the first message of each invalid field,
// keyed by its top-level name ("form" for the body as a whole), as the forms show it beside the field
// and the JSON API answers it in `errors`. Shared by the browser and the server (no zod at run time).

type Issue = z.core.$ZodIssue;

export function firstErrorPerField(
  error: z.ZodError,
  {
    key = (issue) => String(issue.path[0] ?? "form"),
    message = (issue) => issue.message,
  }: { key?: (issue: Issue) => string; message?: (issue: Issue) => string } = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[key(issue)] ??= message(issue);
  return errors;
}

import { failureMessage } from "#app/lib/api-client.ts";
import { formatDateTime, formatTime } from "#app/lib/format-date.ts";
import type { PostFields } from "../../posts/post-fields.ts";
import type { PostFieldErrors } from "../../posts/post-schema.ts";
import { CONFLICT_MESSAGE, type ConflictData, conflictDifferences } from "../post-conflict.ts";
import { type EditorValues, fieldsOfValues, schemaInput, valuesOf } from "../post-form.ts";

// A draft's automatic save (issue 24), through the posts API the editor's page shares its
// services with: a new draft is created (POST /api/admin/posts), an existing one saved as an
// autosave on the revision the page holds (PATCH … { autosave: true }), so a colleague's newer save
// is a conflict and the store keeps one revision per run of autosaves. A plain fetch, not a route
// action: a lost connection or a server error is a line in the editor's bar, never an error page
// in place of the text being typed.

export type AutosaveAnswer =
  | { kind: "saved"; id: number; revision: number; slug: string; savedAtText: string }
  | { kind: "conflict"; conflict: ConflictData }
  | { kind: "invalid"; errors: PostFieldErrors }
  | { kind: "failed"; message: string };

export const AUTOSAVE_MESSAGES = {
  offline: "Not saved automatically: the connection failed. It tries again as you type; or press Save.",
  invalid: "Not saved automatically: check the marked fields.",
  signedOut: "Not saved automatically: you are signed out. Sign in again in another tab, then press Save.",
} as const;

type PostAnswer = PostFields & { id: number; revision: number; updatedAt: string };
type ConflictAnswer = { code?: string; message?: string; yours: PostFields; latest: PostAnswer };

export async function autosaveDraft(
  values: EditorValues,
  base: { id: number | null; revision: number | null },
  { slugFromTitle = false }: { slugFromTitle?: boolean } = {},
): Promise<AutosaveAnswer> {
  const fields: Record<string, unknown> = { ...schemaInput(values) };
  // An empty address keeps the post's own (a new draft's is suggested from its title).
  if (!values.slug.trim()) delete fields.slug;
  // The address is the title's suggestion: when another post has it, the server takes the next free
  // one (-2, -3…) and answers it, instead of refusing the save.
  else if (slugFromTitle) fields.slugFromTitle = true;
  const creating = base.id === null || base.revision === null;
  let response: Response;
  try {
    response = await fetch(creating ? "/api/admin/posts" : `/api/admin/posts/${base.id}`, {
      method: creating ? "POST" : "PATCH",
      credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(creating ? fields : { ...fields, revision: base.revision, autosave: true }),
    });
  } catch {
    return { kind: "failed", message: AUTOSAVE_MESSAGES.offline };
  }
  if (response.ok) {
    const post = (await response.json()) as PostAnswer;
    return {
      kind: "saved",
      id: post.id,
      revision: post.revision,
      slug: post.slug,
      savedAtText: formatTime(post.updatedAt),
    };
  }
  if (response.status === 401) return { kind: "failed", message: AUTOSAVE_MESSAGES.signedOut };
  if (response.status === 400) {
    const body = (await response.json().catch(() => ({}))) as { errors?: PostFieldErrors };
    return { kind: "invalid", errors: body.errors ?? {} };
  }
  if (response.status === 409) {
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as Partial<ConflictAnswer>;
    if (body.code === "revision-conflict" && body.latest && body.yours) {
      const latest = valuesOf(body.latest);
      return {
        kind: "conflict",
        conflict: {
          kind: "conflict",
          message: CONFLICT_MESSAGE,
          yours: values,
          latest,
          latestRevision: body.latest.revision,
          latestBy: { by: null, at: formatDateTime(body.latest.updatedAt) },
          differences: conflictDifferences(fieldsOfValues(latest), fieldsOfValues(values)),
        },
      };
    }
  }
  return { kind: "failed", message: `Not saved automatically: ${await failureMessage(response)}` };
}

import { data, type RouterContextProvider, redirect } from "react-router";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { RevisionSummary } from "../posts/post-revisions.server.ts";
import type { Actor } from "../posts/post-rows.server.ts";
import { postsServices } from "../posts/posts-context.server.ts";
import { parsePostId } from "./post-editor.server.ts";
import { editorPath, withNotice } from "./studio-paths.ts";

// /admin/content/<id>/revisions (issue 24): every save of a post, newest first, with who and when;
// two of them compared (`?from=&to=`: the fields that changed and the text line by line); one
// restored after a confirmation step (`?restore=<n>`, then a form post), as a new revision. Plain
// links and forms: it works the same without JavaScript.

type Context = Readonly<RouterContextProvider>;

const notFound = () => data("No such post", { status: 404 });

/** The revisions listed on the page (the newest 100; a post with more shows its latest). */
const LISTED = 100;

const KIND_WORDS: Record<RevisionSummary["kind"], string> = {
  create: "Created",
  edit: "Saved",
  autosave: "Autosaved",
  restore: "Restored",
  import: "Imported from the site's files",
};

export function revisionWords(revision: Pick<RevisionSummary, "kind" | "restoredFrom">): string {
  return revision.kind === "restore" && revision.restoredFrom !== null
    ? `Restored revision ${revision.restoredFrom}`
    : KIND_WORDS[revision.kind];
}

const revisionParam = (url: URL, name: string) => {
  const raw = url.searchParams.get(name);
  const value = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  return value !== null && value > 0 ? value : null;
};

export async function loadRevisionsPage(request: Request, context: Context, rawId: string | undefined) {
  const id = parsePostId(rawId);
  if (id === null || id === "new") throw notFound();
  const { posts } = await postsServices(context);
  const [post, list] = await Promise.all([posts.get(id), posts.listRevisions(id, { limit: LISTED })]);
  if (!post || !list) throw notFound();
  const url = new URL(request.url);
  const numbers = list.revisions.map((revision) => revision.revision);
  // By default: the latest against the one before it.
  const to = revisionParam(url, "to") ?? numbers[0] ?? null;
  const from = revisionParam(url, "from") ?? numbers.find((n) => to !== null && n < to) ?? null;
  const diff =
    from !== null && to !== null && from !== to ? await posts.diffRevisions(id, from, to) : undefined;
  const restore = revisionParam(url, "restore");
  const restoring =
    restore !== null ? list.revisions.find((revision) => revision.revision === restore) : undefined;
  return {
    post: { id: post.id, title: post.title, slug: post.slug, revision: post.revision, status: post.status },
    revisions: list.revisions.map((revision) => ({
      revision: revision.revision,
      what: revisionWords(revision),
      title: revision.title,
      by: revision.savedByUsername ?? "the import",
      when: formatDateTime(revision.savedAt),
      savedAt: revision.savedAt,
      current: revision.revision === list.current,
    })),
    more: list.nextBefore !== null,
    compare: { from, to },
    /** Null when fewer than two revisions are chosen or one no longer exists. */
    diff: diff ?? null,
    restoring: restoring
      ? {
          revision: restoring.revision,
          what: revisionWords(restoring),
          when: formatDateTime(restoring.savedAt),
        }
      : null,
  };
}
export type RevisionsPageData = Awaited<ReturnType<typeof loadRevisionsPage>>;

export type RevisionsActionData = { message: string };

/** `intent=restore`, `revision` (the one to bring back) and `current` (the revision the page showed). */
export async function revisionsPageAction(
  request: Request,
  context: Context,
  rawId: string | undefined,
  actor: Actor,
) {
  const id = parsePostId(rawId);
  if (id === null || id === "new") throw notFound();
  const form = await readForm(request);
  if (form.get("intent") !== "restore")
    return data<RevisionsActionData>({ message: "That button does nothing here." }, { status: 400 });
  const revision = Number(form.get("revision"));
  const current = Number(form.get("current"));
  if (!Number.isSafeInteger(revision) || revision < 1 || !Number.isSafeInteger(current) || current < 1)
    return data<RevisionsActionData>({ message: "Choose a revision to restore." }, { status: 400 });
  const { posts } = await postsServices(context);
  const result = await posts.restoreRevision(id, revision, actor, {
    clientAddress: context.get(clientAddressContext),
    baseRevision: current,
  });
  switch (result.kind) {
    case "restored":
      throw redirect(withNotice(editorPath(id), result.changed ? "restored" : "unchanged"));
    case "conflict":
      return data<RevisionsActionData>(
        {
          message:
            "Someone saved the post after you opened this page, so nothing was restored. The list below is up to date: check it and restore again if you still want to.",
        },
        { status: 409 },
      );
    case "invalid":
      return data<RevisionsActionData>(
        { message: Object.values(result.errors)[0] ?? "This revision cannot be restored." },
        { status: 400 },
      );
    case "no-such-revision":
    case "not-found":
      throw notFound();
  }
}

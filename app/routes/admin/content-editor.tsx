import { isRouteErrorResponse, Link } from "react-router";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  type EditorActionData,
  loadPostEditor,
  postEditorAction,
} from "#app/features/content/studio/post-editor.server.ts";
import { CONTENT_PATH } from "#app/features/content/studio/studio-paths.ts";
import { PostEditor } from "#app/features/content/studio/ui/post-editor.tsx";
import { requirePermission } from "#app/lib/admin-guard.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/content-editor";

// Issue 24: writing one post, /admin/content/new and /admin/content/<id> (one route, so a new
// draft's first autosave moves the page to its own address without reloading the editor). The
// page is one form that works without JavaScript; the script adds the live preview, autosave,
// the warning before leaving and the conflict screen (features/content/studio).

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(
    loaderData?.post ? `Edit: ${loaderData.values.title}` : loaderData ? "New post" : "Post not found",
  );

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadPostEditor(request, context, params.id);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  return postEditorAction(request, context, params.id, requirePermission(context, "content.publish"));
}

export default function ContentEditor({ loaderData, actionData }: Route.ComponentProps) {
  return <PostEditor data={loaderData} actionData={actionData as EditorActionData | undefined} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">
        {notFound ? "Post not found" : "Something went wrong"}
      </h1>
      <p className="mt-4 leading-7 text-ink-muted">
        {notFound
          ? "There is no post with this number. A draft that was deleted is gone for good."
          : "The post could not be opened. What was saved is safe; please try again in a moment."}
      </p>
      <Link to={CONTENT_PATH} className="mt-8 inline-block font-semibold text-brand underline">
        Go to the posts
      </Link>
    </div>
  );
}

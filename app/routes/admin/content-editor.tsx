import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  type EditorActionData,
  loadPostEditor,
  postEditorAction,
} from "#app/features/content/studio/post-editor.server.ts";
import { PostEditor } from "#app/features/content/studio/ui/post-editor.tsx";
import { StudioError } from "#app/features/content/studio/ui/studio-error.tsx";
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
  return (
    <StudioError
      error={error}
      notFound={{
        title: "Post not found",
        text: "There is no post with this number. A draft that was deleted is gone for good.",
      }}
      failed={{
        title: "Something went wrong",
        text: "The post could not be opened. What was saved is safe; please try again in a moment.",
      }}
    />
  );
}

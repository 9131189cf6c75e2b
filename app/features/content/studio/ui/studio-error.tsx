import { isRouteErrorResponse, Link } from "react-router";
import { CONTENT_PATH } from "../studio-paths.ts";

type Words = { title: string; text: string };

/**
 * What a studio page says when it cannot show itself (its route's ErrorBoundary): a 404 in its own
 * words, anything else as a failure that lost nothing, with a way back to the posts.
 */
export function StudioError({
  error,
  notFound,
  failed,
  back = "Go to the posts",
}: {
  error: unknown;
  notFound: Words;
  failed: Words;
  back?: string;
}) {
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  const words = missing ? notFound : failed;
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">{words.title}</h1>
      <p className="mt-4 leading-7 text-ink-muted">{words.text}</p>
      <Link to={CONTENT_PATH} className="mt-8 inline-block font-semibold text-brand underline">
        {back}
      </Link>
    </div>
  );
}

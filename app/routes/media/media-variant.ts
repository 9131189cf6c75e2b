import { serveVariant } from "#app/features/content/media/media-http.server.ts";
import type { Route } from "./+types/media-variant";

// Issue 24: GET /media/:id/:width-:hash.:ext — an image variant of the content studio's media
// library, public (published posts show it) and cached for a year (its address names its bytes).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return serveVariant(request, context, params);
}

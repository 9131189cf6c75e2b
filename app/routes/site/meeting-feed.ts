import { answerMeetingFeed } from "#app/features/meetings/meeting-feed.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meeting-feed";

// Issue 34: GET /meetings/feed/<token>.ics, a host's private read-only calendar of their meetings.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return answerMeetingFeed(request, params.file, await meetingServices(context));
}

export const action = () => methodNotAllowed("GET, HEAD");

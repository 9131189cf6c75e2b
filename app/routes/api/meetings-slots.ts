import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { answerSlotQuery } from "#app/features/meetings/slot-query.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { Route } from "./+types/meetings-slots";

// Issue 34: GET /api/meetings/slots?type=demo&from=YYYY-MM-DD&days=N → { timeZone, slots }.
export async function loader({ request, context }: Route.LoaderArgs) {
  const answer = await answerSlotQuery(
    new URL(request.url).searchParams,
    context.get(clientAddressContext),
    await meetingServices(context),
  );
  return Response.json(answer.body, { status: answer.status, headers: answer.headers });
}

export const action = () => methodNotAllowed("GET");

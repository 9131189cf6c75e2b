import { answerCancel, answerReschedule } from "#app/features/meetings/booking-http.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { methodNotAllowed, readLimitedBytes } from "#app/lib/http.server.ts";
import type { Route } from "./+types/meeting-manage";

// Issue 34: POST /api/meetings/manage/:token/cancel and /reschedule { start }, from the signed link
// in the confirmation (no sign-in; the link lives until the meeting ends).
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const services = await meetingServices(context);
  const url = new URL(request.url);
  const head = { headers: request.headers, host: url.host, protocol: url.protocol };
  const answer =
    params.change === "cancel"
      ? await answerCancel(params.token, head, services)
      : params.change === "reschedule"
        ? await answerReschedule(params.token, head, (limit) => readLimitedBytes(request, limit), services)
        : { status: 404, body: { message: "Not found" } };
  return Response.json(answer.body, {
    status: answer.status,
    headers: "headers" in answer ? answer.headers : undefined,
  });
}

export const loader = () => methodNotAllowed("POST");

import { answerBooking } from "#app/features/meetings/booking-http.server.ts";
import { meetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { methodNotAllowed, readLimitedBytes } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { Route } from "./+types/meetings";

// Issue 34: POST /api/meetings { type, start, fullName, email, company, phone?, timeZone?, leadToken? }
// → 201 { id, start, end, hostName, manageUrl }, or 409 { message, slots } when the time was taken.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const url = new URL(request.url);
  const answer = await answerBooking(
    { headers: request.headers, host: url.host, protocol: url.protocol },
    (limit) => readLimitedBytes(request, limit),
    context.get(clientAddressContext),
    await meetingServices(context),
  );
  return Response.json(answer.body, { status: answer.status, headers: answer.headers });
}

export const loader = () => methodNotAllowed("POST");

import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import {
  type Availability,
  type AvailabilityFailure,
  loadAvailability,
  saveAvailability,
} from "./availability-admin.server.ts";
import { meetingServices } from "./meetings-context.server.ts";

// GET/PUT /api/admin/availability (issue 34): your own availability, or with `userId` (an admin)
// anyone's who hosts meetings. The PUT takes the whole profile, as GET answers it.

type Context = Readonly<RouterContextProvider>;

const AVAILABILITY_BODY_LIMIT = 16 * 1024;

export const AVAILABILITY_MESSAGES = {
  userId: "userId must be the id of a staff account.",
  notFound: "No admin or sales account has that id.",
  forbidden: "Only an admin may see or change another person's availability.",
} as const;

function answer(outcome: Availability | AvailabilityFailure): Response {
  if (!("kind" in outcome)) return Response.json(outcome);
  switch (outcome.kind) {
    case "not-found":
      return Response.json({ message: AVAILABILITY_MESSAGES.notFound }, { status: 404 });
    case "forbidden":
      return Response.json({ message: AVAILABILITY_MESSAGES.forbidden }, { status: 403 });
    case "invalid":
      return Response.json(
        { message: Object.values(outcome.errors).join(" "), errors: outcome.errors },
        { status: 400 },
      );
  }
}

/** A `userId` given as text or a number: the account's id, null when absent, NaN when malformed. */
function userIdOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const id = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : Number.NaN;
}

export async function handleGetAvailability(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "meetings.availability");
  const id = userIdOf(new URL(request.url).searchParams.get("userId"));
  if (Number.isNaN(id)) return Response.json({ message: AVAILABILITY_MESSAGES.userId }, { status: 400 });
  const { database } = await meetingServices(context);
  return answer(await loadAvailability(database.db, user, id ?? user.id));
}

export async function handlePutAvailability(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "meetings.availability");
  assertSameOrigin(request);
  const body = await readJsonObject(request, AVAILABILITY_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { userId, ...profile } = body.value;
  const id = userIdOf(userId);
  if (Number.isNaN(id)) return Response.json({ message: AVAILABILITY_MESSAGES.userId }, { status: 400 });
  const { database } = await meetingServices(context);
  return answer(await saveAvailability(database.db, user, id ?? user.id, profile));
}

import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import {
  createMeetingType,
  listMeetingTypes,
  MEETING_TYPE_MESSAGES,
  type MeetingTypeFailure,
  type MeetingTypeView,
  updateMeetingType,
} from "./meeting-types-admin.server.ts";
import { meetingServices } from "./meetings-context.server.ts";

// GET/POST /api/admin/meeting-types and PATCH /api/admin/meeting-types/:id (issue 34), admins only.

type Context = Readonly<RouterContextProvider>;

const BODY_LIMIT = 8 * 1024;

function answer(outcome: MeetingTypeView | MeetingTypeFailure, status = 200): Response {
  if (!("kind" in outcome)) return Response.json(outcome, { status });
  if (outcome.kind === "not-found")
    return Response.json({ message: MEETING_TYPE_MESSAGES.notFound }, { status: 404 });
  return Response.json(
    { message: Object.values(outcome.errors).join(" "), errors: outcome.errors },
    { status: 400 },
  );
}

export async function handleListMeetingTypes(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "meetings.manage");
  const { database } = await meetingServices(context);
  return Response.json(await listMeetingTypes(database.db));
}

export async function handleCreateMeetingType(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "meetings.manage");
  assertSameOrigin(request);
  const body = await readJsonObject(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database } = await meetingServices(context);
  return answer(await createMeetingType(database.db, body.value), 201);
}

export async function handleUpdateMeetingType(
  request: Request,
  context: Context,
  rawId: string | undefined,
): Promise<Response> {
  await requireApiPermission(request, context, "meetings.manage");
  assertSameOrigin(request);
  const id = Number(rawId);
  if (!Number.isSafeInteger(id) || id < 1)
    return Response.json({ message: MEETING_TYPE_MESSAGES.notFound }, { status: 404 });
  const body = await readJsonObject(request, BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database } = await meetingServices(context);
  return answer(await updateMeetingType(database.db, id, body.value));
}

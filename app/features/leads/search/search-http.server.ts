import type { RouterContextProvider } from "react-router";
import { requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { leadsServices } from "../leads-context.server.ts";
import { parseSearchQuery, searchBackOffice } from "./back-office-search.server.ts";
import { createSearchRate } from "./search-rate.ts";

// GET /api/admin/search?q= (issue 23): the shell's search as JSON, for the combobox.

type Context = Readonly<RouterContextProvider>;

const searchRate = createSearchRate();

export async function handleSearch(request: Request, context: Context): Promise<Response> {
  // It finds people by name and email: personal data, for the roles that work the leads.
  const user = await requireApiPermission(request, context, "leads.read");
  const parsed = parseSearchQuery(new URL(request.url).searchParams.get("q"));
  if (!parsed.ok) return Response.json({ message: parsed.message }, { status: 400 });
  const wait = searchRate.hit(user.id);
  if (wait > 0)
    return Response.json(
      { message: "Too many searches. Please wait a moment." },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  const { database } = await leadsServices(context);
  const results = await searchBackOffice(database.db, parsed.query);
  // NOTE: server.ts marks every /api answer "private, no-store": personal data stays out of caches.
  return Response.json(results);
}

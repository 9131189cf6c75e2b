import { data, type RouterContextProvider, redirect } from "react-router";
import { BOARD_PATH } from "#app/lib/admin-paths.ts";
import { assignableStaff, isLeadStatus } from "./lead-admin.server.ts";
import { parseListQuery, settleAttributions } from "./lead-admin-http.server.ts";
import { type BoardCursor, formatCursor, loadBoard, parseCursor } from "./lead-board.server.ts";
import { listViewOf, nextStepView } from "./lead-dashboard.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { readNotice } from "./lead-forms.server.ts";
import { nextStepsOf } from "./lead-next-step.server.ts";
import { leadsServices, timeZoneOf } from "./leads-context.server.ts";
import { listSavedViews } from "./saved-views.server.ts";
import { formatAge } from "./ui/lead-age.ts";
import type { ListView } from "./ui/lead-list-url.ts";

// The /admin/leads/board page's server side (issue 35): the list's view read from the same URL
// parameters, each status's first cards (or one column's next page, `column` and `after`), the
// counts, and the staff and saved views the filters show. Its forms post to the dashboard's action.

type Context = Readonly<RouterContextProvider>;

const cursorText = (cursor: BoardCursor | null) => (cursor ? formatCursor(cursor) : null);

export async function loadLeadBoardPage(request: Request, context: Context, user: Actor) {
  const url = new URL(request.url);
  const parsed = parseListQuery(url, { userId: user.id });
  if (!parsed.ok) throw redirect(BOARD_PATH);
  // Each column is one status; sorting and the list's paging do not apply.
  const {
    status: _status,
    sort: _sort,
    order: _order,
    page: _page,
    pageSize: _size,
    ids: _ids,
    ...filter
  } = parsed.query;
  const view: ListView = {
    ...listViewOf(url, parsed.query),
    status: undefined,
    sort: undefined,
    order: undefined,
  };
  const column = url.searchParams.get("column");
  const after = parseCursor(url.searchParams.get("after"));
  const more = isLeadStatus(column) && after ? { status: column, after } : null;
  const base = { view, more: more ? { status: more.status } : null, notice: readNotice(url) };
  try {
    const services = await leadsServices(context);
    const { database } = services;
    // Not waited for, as on the list (lead-dashboard.server.ts).
    void settleAttributions(services);
    const [board, staff, savedViews, zone] = await Promise.all([
      loadBoard(database.db, filter, more),
      assignableStaff(database.db),
      listSavedViews(database.db, user),
      timeZoneOf(services, user.id),
    ]);
    const steps = await nextStepsOf(
      database.db,
      board.columns.flatMap((page) => page.cards.map((card) => card.id)),
      zone,
    );
    const now = new Date();
    return {
      ...base,
      loadError: false,
      staff,
      savedViews,
      columns: board.columns.map((page) => ({
        status: page.status,
        count: page.count,
        next: cursorText(page.next),
        cards: page.cards.map((card) => ({
          ...card,
          age: formatAge(card.createdAt, now),
          nextStep: nextStepView(steps.get(card.id), now, zone),
        })),
      })),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("Lead board: loading leads failed", error);
    return data({ ...base, loadError: true, staff: [], savedViews: [], columns: [] }, { status: 503 });
  }
}

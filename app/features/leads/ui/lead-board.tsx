import {
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { Form, Link, useFetcher, useLocation, useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { BOARD_PATH } from "#app/lib/admin-paths.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { LeadStatus } from "../lead-repository.server.ts";
import { LEAD_STATUS_OPTIONS, statusLabel } from "./lead-format.ts";
import { type ListView, viewParams } from "./lead-list-url.ts";

// The leads by status (issue 35). A card moves to another column by pointer (drag it; the column
// under it shows where it lands), by keyboard (its move button: Space or Enter picks it up, the left
// and right arrows choose a column, Space or Enter drops it, Escape puts it back; each step said in
// a live region), or without JavaScript by its status form. A move is the list's status change
// (PATCH /api/admin/leads/:id), so the timeline, webhooks and status history are the same.

export type BoardCardView = {
  id: number;
  fullName: string;
  company: string;
  status: LeadStatus;
  ownerName: string | null;
  createdAt: string;
  age: string;
  nextStep: { body: string; due: string; overdue: boolean } | null;
};

export type BoardColumnView = {
  status: LeadStatus;
  count: number;
  /** Where the column's next page starts (`after`), or null when it shows its last card. */
  next: string | null;
  cards: BoardCardView[];
};

/** A card moved here: shown at the top of its new column until the page's view changes. */
type Pin = { card: BoardCardView; from: LeadStatus; settled: boolean };

type Lifted = { id: number; from: LeadStatus; over: LeadStatus };

const INSTRUCTIONS_ID = "board-move-instructions";

/** Each column's colour, the badge's hue at full strength (a mark beside the name, not text). */
const STATUS_DOT: Record<LeadStatus, string> = {
  new: "bg-blue-600",
  contacted: "bg-yellow-500",
  qualified: "bg-green-600",
  unqualified: "bg-red-600",
  customer: "bg-slate-600",
};

function moreHref(view: ListView, status: LeadStatus, after: string): string {
  const params = viewParams(view);
  params.set("column", status);
  params.set("after", after);
  return `${BOARD_PATH}?${params.toString()}`;
}

function firstHref(view: ListView): string {
  const query = viewParams(view).toString();
  return query ? `${BOARD_PATH}?${query}` : BOARD_PATH;
}

export function LeadBoard({
  columns,
  view,
  action,
  more,
}: {
  columns: BoardColumnView[];
  view: ListView;
  /** The page's URL (with its query), whose action takes `intent=status`, `id` and `status`. */
  action: string;
  /** The column showing a later page (without JavaScript's "Show more"). */
  more: { status: LeadStatus } | null;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const { search } = useLocation();
  const [pins, setPins] = useState<Map<number, Pin>>(new Map());
  const [extra, setExtra] = useState<Partial<Record<LeadStatus, BoardCardView[]>>>({});
  const [nexts, setNexts] = useState<Partial<Record<LeadStatus, string | null>>>({});
  const [lifted, setLifted] = useState<Lifted | null>(null);
  const [dragging, setDragging] = useState<{ id: number; from: LeadStatus; over: LeadStatus | null } | null>(
    null,
  );
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<number | null>(null);
  const statuses = columns.map((column) => column.status);

  // Another view (filters, search, saved view): its own cards, nothing pinned or added.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL changing is the trigger
  useEffect(() => {
    setPins(new Map());
    setExtra({});
    setNexts({});
  }, [search]);

  const shown = columns.map((column) => {
    const pinned = [...pins.values()]
      .filter((pin) => pin.card.status === column.status)
      .map((pin) => pin.card);
    const seen = new Set<number>();
    const cards = [...pinned, ...column.cards, ...(extra[column.status] ?? [])].filter((card) => {
      if (seen.has(card.id)) return false;
      seen.add(card.id);
      const pin = pins.get(card.id);
      return !pin || pin.card.status === column.status;
    });
    let count = column.count;
    for (const pin of pins.values()) {
      if (pin.settled) continue;
      if (pin.card.status === column.status) count++;
      if (pin.from === column.status) count--;
    }
    const next = column.status in nexts ? (nexts[column.status] ?? null) : column.next;
    return { status: column.status, count: Math.max(0, count), cards, next };
  });

  const positionOf = (status: LeadStatus) => `${statuses.indexOf(status) + 1} of ${statuses.length}`;

  const move = useCallback(
    async (card: BoardCardView, to: LeadStatus) => {
      const from = card.status;
      if (from === to) return;
      setPins((current) =>
        new Map(current).set(card.id, { card: { ...card, status: to }, from, settled: false }),
      );
      const failed = (description: string) => {
        setPins((current) => {
          const next = new Map(current);
          next.delete(card.id);
          return next;
        });
        setAnnouncement(
          `${card.fullName} could not be moved: ${description} It stays in ${statusLabel(from)}.`,
        );
        toast({ title: "Move failed", description, variant: "destructive" });
      };
      try {
        const response = await sendJson(`/api/admin/leads/${card.id}`, "PATCH", { status: to });
        if (!response.ok) {
          failed(await failureMessage(response));
          return;
        }
        toast({ title: "Lead moved", description: `${card.fullName} is now ${statusLabel(to)}.` });
        await revalidator.revalidate();
        setPins((current) => {
          const pin = current.get(card.id);
          return pin ? new Map(current).set(card.id, { ...pin, settled: true }) : current;
        });
      } catch {
        failed(NETWORK_ERROR);
      }
    },
    [revalidator],
  );

  // The moved card is rendered anew in its column: the keyboard stays on it.
  useEffect(() => {
    if (focusAfterMove.current === null) return;
    const handle = document.querySelector<HTMLElement>(`[data-move-handle="${focusAfterMove.current}"]`);
    focusAfterMove.current = null;
    handle?.focus();
  });

  function onHandleKeyDown(event: KeyboardEvent<HTMLButtonElement>, card: BoardCardView) {
    const key = event.key;
    if (!lifted) {
      if (key !== " " && key !== "Enter") return;
      event.preventDefault();
      setLifted({ id: card.id, from: card.status, over: card.status });
      setAnnouncement(
        `Picked up ${card.fullName}. Column ${statusLabel(card.status)}, ${positionOf(card.status)}. Use the left and right arrow keys to move, Space or Enter to drop, Escape to cancel.`,
      );
      return;
    }
    if (lifted.id !== card.id) return;
    if (key === "ArrowRight" || key === "ArrowLeft") {
      event.preventDefault();
      const index = statuses.indexOf(lifted.over) + (key === "ArrowRight" ? 1 : -1);
      const over = statuses[index];
      if (!over) {
        setAnnouncement(
          `${key === "ArrowRight" ? "Last" : "First"} column: ${statusLabel(lifted.over)}, ${positionOf(lifted.over)}.`,
        );
        return;
      }
      setLifted({ ...lifted, over });
      setAnnouncement(`Over column ${statusLabel(over)}, ${positionOf(over)}.`);
    } else if (key === " " || key === "Enter") {
      event.preventDefault();
      setLifted(null);
      if (lifted.over === lifted.from) {
        setAnnouncement(`Dropped ${card.fullName} back in ${statusLabel(lifted.from)}. Not moved.`);
        return;
      }
      setAnnouncement(`Dropped ${card.fullName} in ${statusLabel(lifted.over)}.`);
      focusAfterMove.current = card.id;
      void move(card, lifted.over);
    } else if (key === "Escape") {
      event.preventDefault();
      setLifted(null);
      setAnnouncement(`Move cancelled. ${card.fullName} stays in ${statusLabel(lifted.from)}.`);
    } else if (key === "Tab") {
      setLifted(null);
      setAnnouncement(`Move cancelled. ${card.fullName} stays in ${statusLabel(lifted.from)}.`);
    }
  }

  // Pointer: press on a card (a mouse anywhere but its links and controls; a finger on its move
  // button, so that swiping still scrolls), move past a few pixels, release over a column.
  const press = useRef<{ id: number; x: number; y: number } | null>(null);
  const dragRef = useRef(dragging);
  dragRef.current = dragging;

  function onPointerDown(event: ReactPointerEvent<HTMLElement>, card: BoardCardView) {
    if (event.button !== 0) return;
    const target = event.target as HTMLElement;
    const onHandle = Boolean(target.closest("[data-move-handle]"));
    if (
      !onHandle &&
      (event.pointerType !== "mouse" || target.closest("a, select, input, textarea, label, form"))
    )
      return;
    press.current = { id: card.id, x: event.clientX, y: event.clientY };
    const columnUnder = (x: number, y: number): LeadStatus | null => {
      for (const element of document.elementsFromPoint(x, y)) {
        const column = (element as HTMLElement).closest<HTMLElement>("[data-board-column]");
        if (column) return column.dataset.boardColumn as LeadStatus;
      }
      return null;
    };
    const onMove = (moveEvent: PointerEvent) => {
      const start = press.current;
      if (!start) return;
      const x = moveEvent.clientX - start.x;
      const y = moveEvent.clientY - start.y;
      if (!dragRef.current && Math.hypot(x, y) < 5) return;
      moveEvent.preventDefault();
      setOffset({ x, y });
      const over = columnUnder(moveEvent.clientX, moveEvent.clientY);
      setDragging((current) => {
        if (!current) setAnnouncement(`Picked up ${card.fullName}.`);
        if (current && current.over !== over && over)
          setAnnouncement(`Over column ${statusLabel(over)}, ${positionOf(over)}.`);
        return { id: card.id, from: card.status, over };
      });
    };
    const onUp = (upEvent: PointerEvent) => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
      press.current = null;
      const drag = dragRef.current;
      setDragging(null);
      setOffset({ x: 0, y: 0 });
      if (!drag) return;
      const over = upEvent.type === "pointercancel" ? null : columnUnder(upEvent.clientX, upEvent.clientY);
      // The click that ends a drag must not open the lead.
      const swallow = (clickEvent: MouseEvent) => {
        clickEvent.preventDefault();
        clickEvent.stopPropagation();
      };
      window.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
      if (!over || over === card.status) {
        setAnnouncement(`Dropped ${card.fullName} back in ${statusLabel(card.status)}. Not moved.`);
        return;
      }
      setAnnouncement(`Dropped ${card.fullName} in ${statusLabel(over)}.`);
      void move(card, over);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
  }

  const target = lifted?.over ?? dragging?.over ?? null;
  const source = lifted?.from ?? dragging?.from ?? null;

  return (
    <div className="flex flex-col gap-2">
      <p id={INSTRUCTIONS_ID} className="sr-only">
        To move a lead to another status, press Space or Enter on its move button to pick it up, the left and
        right arrow keys to choose a column, Space or Enter to drop it there, Escape to cancel.
      </p>
      <div aria-live="assertive" aria-atomic="true" className="sr-only" data-board-announcer>
        {announcement}
      </div>
      {/* Positioned, so that the columns' visually hidden words stay inside its scroll box. */}
      <div
        className="relative -mx-4 flex scroll-px-4 snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-2 sm:-mx-6 sm:scroll-px-6 sm:px-6 xl:mx-0 xl:grid xl:snap-none xl:grid-cols-5 xl:overflow-visible xl:px-0"
        data-board
      >
        {shown.map((column) => {
          const isTarget = target === column.status && source !== column.status;
          return (
            <section
              key={column.status}
              data-board-column={column.status}
              aria-labelledby={`board-${column.status}`}
              className={cn(
                "flex w-[82%] max-w-80 shrink-0 snap-start flex-col gap-2 rounded-xl border border-line bg-surface-muted p-2 transition-colors sm:w-72 xl:w-auto xl:max-w-none xl:min-w-0",
                isTarget && "border-brand bg-brand-soft ring-2 ring-brand",
              )}
            >
              <h2
                id={`board-${column.status}`}
                className="flex items-center justify-between gap-2 px-1 pt-1 text-sm font-semibold"
              >
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className={cn("size-2.5 rounded-full", STATUS_DOT[column.status])}
                  />
                  {statusLabel(column.status)}
                </span>
                <span
                  className="rounded-full bg-white px-2 py-0.5 text-xs font-semibold text-ink-muted tabular-nums"
                  data-board-count
                >
                  {column.count}
                  <span className="sr-only"> leads</span>
                </span>
              </h2>
              {more?.status === column.status ? (
                <Link to={firstHref(view)} className="px-1 text-xs font-semibold text-brand underline">
                  Back to the newest
                </Link>
              ) : null}
              {isTarget ? (
                <div
                  aria-hidden="true"
                  className="rounded-lg border-2 border-dashed border-brand bg-white/70 px-3 py-3 text-center text-xs font-semibold text-brand"
                  data-drop-indicator
                >
                  Drop here
                </div>
              ) : null}
              {column.cards.length === 0 && !isTarget ? (
                <p className="px-1 py-6 text-center text-sm text-ink-muted">No leads</p>
              ) : null}
              <ol className="grid gap-2">
                {column.cards.map((card) => (
                  <BoardCard
                    key={card.id}
                    card={card}
                    action={action}
                    hydrated={hydrated}
                    lifted={lifted?.id === card.id}
                    dragOffset={dragging?.id === card.id ? offset : null}
                    onPointerDown={(event) => onPointerDown(event, card)}
                    onHandleKeyDown={(event) => onHandleKeyDown(event, card)}
                  />
                ))}
              </ol>
              {column.next ? (
                <ShowMore
                  href={moreHref(view, column.status, column.next)}
                  status={column.status}
                  onLoaded={(page) => {
                    setExtra((current) => ({
                      ...current,
                      [column.status]: [...(current[column.status] ?? []), ...page.cards],
                    }));
                    setNexts((current) => ({ ...current, [column.status]: page.next }));
                  }}
                />
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}

/** The column's next cards: a link without JavaScript, loaded into the column with it. */
function ShowMore({
  href,
  status,
  onLoaded,
}: {
  href: string;
  status: LeadStatus;
  onLoaded: (page: { cards: BoardCardView[]; next: string | null }) => void;
}) {
  const fetcher = useFetcher<{ columns?: BoardColumnView[] }>();
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const column = fetcher.data.columns?.find((candidate) => candidate.status === status);
    if (column) onLoaded({ cards: column.cards, next: column.next });
  }, [fetcher.state, fetcher.data, status, onLoaded]);
  return (
    <Link
      to={href}
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        fetcher.load(href);
      }}
      aria-busy={fetcher.state !== "idle" || undefined}
      className="mt-1 rounded-md px-2 py-2 text-center text-sm font-semibold text-brand hover:bg-white"
    >
      {fetcher.state !== "idle" ? "Loading…" : "Show more"}
      <span className="sr-only"> {statusLabel(status)} leads</span>
    </Link>
  );
}

function BoardCard({
  card,
  action,
  hydrated,
  lifted,
  dragOffset,
  onPointerDown,
  onHandleKeyDown,
}: {
  card: BoardCardView;
  action: string;
  hydrated: boolean;
  lifted: boolean;
  dragOffset: { x: number; y: number } | null;
  onPointerDown: (event: ReactPointerEvent<HTMLElement>) => void;
  onHandleKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  const selectId = `board-${card.id}-status`;
  return (
    <li
      data-board-card={card.id}
      data-status={card.status}
      onPointerDown={hydrated ? onPointerDown : undefined}
      style={
        dragOffset
          ? { transform: `translate(${dragOffset.x}px, ${dragOffset.y}px) rotate(1.5deg)` }
          : undefined
      }
      className={cn(
        "relative grid gap-1 rounded-lg border border-line bg-white p-3 text-sm shadow-sm",
        hydrated && "cursor-grab select-none",
        lifted && "ring-2 ring-brand shadow-lg",
        dragOffset && "pointer-events-none z-50 cursor-grabbing shadow-xl ring-2 ring-brand",
      )}
    >
      <div className="flex min-w-0 items-start justify-between gap-2">
        <Link
          to={`/admin/leads/${card.id}`}
          className="min-w-0 font-semibold break-words text-brand underline-offset-2 hover:underline"
        >
          {card.fullName}
        </Link>
        {hydrated ? (
          <button
            type="button"
            data-move-handle={card.id}
            aria-label={`Move ${card.fullName}`}
            aria-describedby={INSTRUCTIONS_ID}
            aria-pressed={lifted}
            onKeyDown={onHandleKeyDown}
            className="-m-1 grid size-8 shrink-0 touch-none place-items-center rounded-md text-ink-muted hover:bg-surface-muted hover:text-ink focus-visible:outline-3 focus-visible:outline-brand aria-pressed:bg-brand aria-pressed:text-white"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
              <circle cx="5.5" cy="3.5" r="1.3" />
              <circle cx="10.5" cy="3.5" r="1.3" />
              <circle cx="5.5" cy="8" r="1.3" />
              <circle cx="10.5" cy="8" r="1.3" />
              <circle cx="5.5" cy="12.5" r="1.3" />
              <circle cx="10.5" cy="12.5" r="1.3" />
            </svg>
          </button>
        ) : null}
      </div>
      {card.company ? <p className="truncate text-ink-muted">{card.company}</p> : null}
      {card.nextStep ? (
        <p className="flex min-w-0 items-center gap-1.5 text-xs" data-next-step>
          {card.nextStep.overdue ? (
            <span className="shrink-0 rounded bg-red-100 px-1.5 py-0.5 font-semibold text-red-900">
              Overdue
            </span>
          ) : null}
          <span
            className="min-w-0 truncate text-ink-muted"
            title={`${card.nextStep.body} (due ${card.nextStep.due})`}
          >
            Next: <span className="text-ink">{card.nextStep.body}</span> · {card.nextStep.due}
          </span>
        </p>
      ) : null}
      <p className="flex items-center justify-between gap-2 text-xs text-ink-muted">
        <span className="min-w-0 truncate" data-board-owner>
          {card.ownerName ?? "Unassigned"}
        </span>
        <time dateTime={card.createdAt} className="shrink-0 whitespace-nowrap">
          {card.age}
        </time>
      </p>
      {hydrated ? null : (
        <Form method="post" action={action} className="mt-1 flex items-center gap-2">
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="id" value={card.id} />
          <label htmlFor={selectId} className="sr-only">
            Status of {card.fullName}
          </label>
          <select
            id={selectId}
            name="status"
            defaultValue={card.status}
            className="h-8 min-w-0 flex-1 rounded-md border border-line bg-white pr-7 pl-2 text-xs"
          >
            {LEAD_STATUS_OPTIONS.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" variant="outline" className="h-8">
            Move<span className="sr-only"> {card.fullName}</span>
          </Button>
        </Form>
      )}
    </li>
  );
}

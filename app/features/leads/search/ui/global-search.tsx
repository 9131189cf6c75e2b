import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { MAX_QUERY_LENGTH, SEARCH_API_PATH, SEARCH_PATH, type SearchResults } from "../search-types.ts";

// The shell's search (issue 23). Without JavaScript: a GET form to /admin/search. With it: a
// combobox (WAI-ARIA 1.2 pattern) that asks GET /api/admin/search as the person types and lists
// leads, people and companies; arrows move, Enter opens, Escape closes; `/` or Ctrl+K (⌘K) focuses
// it from anywhere except while typing in a field.

/** Waits this long after the last keystroke: a fast typist sends one request per word, not per letter. */
const TYPING_PAUSE_MS = 150;

type Option = { id: string; href: string; label: string; detail: string; group: string };

type State =
  | { kind: "idle" }
  | { kind: "loading"; results: SearchResults | null }
  | { kind: "done"; results: SearchResults }
  | { kind: "error"; message: string };

function optionsOf(results: SearchResults, prefix: string): Option[] {
  return [
    ...results.leads.map((lead) => ({
      id: `${prefix}-lead-${lead.id}`,
      href: lead.href,
      label: lead.fullName || `Lead #${lead.id}`,
      detail: [lead.company, lead.email, `#${lead.id}`].filter(Boolean).join(" · "),
      group: "Leads",
    })),
    ...results.people.map((person, index) => ({
      id: `${prefix}-person-${index}`,
      href: person.href,
      label: person.fullName || person.email,
      detail: `${person.email} · ${person.leads === 1 ? "1 lead" : `${person.leads} leads`}`,
      group: "People",
    })),
    ...results.companies.map((company, index) => ({
      id: `${prefix}-company-${index}`,
      href: company.href,
      label: company.company,
      detail: company.leads === 1 ? "1 lead" : `${company.leads} leads`,
      group: "Companies",
    })),
  ];
}

/** Whether a key press is typing into something (then shortcuts stay out of the way). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Whether this copy of the search is the one on screen: the shell renders it in the sidebar, the
 * top bar and the menu, and shows one per screen width. One in the closed phone menu counts (the
 * shortcut opens the menu), hence the walk instead of the input's own box.
 */
function isReachable(input: HTMLElement): boolean {
  const host = input.closest<HTMLElement>("[data-search-host]");
  if (!host || host.getClientRects().length === 0) return false;
  for (let element: HTMLElement | null = input; element && element !== host; element = element.parentElement)
    if (getComputedStyle(element).display === "none") return false;
  return true;
}

export function GlobalSearch() {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  const listboxId = `${id}-listbox`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(() =>
    location.pathname === SEARCH_PATH ? (new URLSearchParams(location.search).get("q") ?? "") : "",
  );
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [state, setState] = useState<State>({ kind: "idle" });

  // Ask the API once typing pauses; a newer query aborts the older request.
  useEffect(() => {
    const term = query.trim();
    if (!hydrated || term === "") {
      setState({ kind: "idle" });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({
      kind: "loading",
      results: previous.kind === "done" ? previous.results : null,
    }));
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`${SEARCH_API_PATH}?${new URLSearchParams({ q: term })}`, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as { message?: string } | null;
          setState({
            kind: "error",
            message: body?.message ?? "Search is unavailable right now. Please try again.",
          });
          return;
        }
        setState({ kind: "done", results: (await response.json()) as SearchResults });
        setActive(-1);
      } catch (error) {
        if ((error as Error).name === "AbortError") return;
        setState({
          kind: "error",
          message: "Search is unavailable right now. Please check your connection.",
        });
      }
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, hydrated]);

  // A new page closes the list (the person picked something or went elsewhere).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation by design
  useEffect(() => {
    setOpen(false);
    setActive(-1);
  }, [location.key]);

  // `/` and Ctrl+K / ⌘K focus this search when it is the one on screen (the sidebar's on wide
  // screens, the phone menu's on phones: that menu opens first).
  useEffect(() => {
    if (!hydrated) return;
    function onKeyDown(event: globalThis.KeyboardEvent) {
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey;
      const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey;
      if ((!slash && !commandK) || isTyping(event.target) || event.defaultPrevented) return;
      const input = inputRef.current;
      if (!input || !isReachable(input)) return;
      event.preventDefault();
      const menu = input.closest("details");
      if (menu && !menu.open) menu.open = true;
      input.focus();
      input.select();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [hydrated]);

  const results = state.kind === "done" ? state.results : state.kind === "loading" ? state.results : null;
  const options = results ? optionsOf(results, id) : [];
  const term = query.trim();
  const seeAllHref = `${SEARCH_PATH}?${new URLSearchParams({ q: term })}`;
  const expanded = hydrated && open && term !== "";
  const activeOption = active >= 0 ? options[active] : undefined;

  function go(href: string) {
    setOpen(false);
    inputRef.current?.blur();
    navigate(href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      // The results, then "See all results".
      const total = options.length + (term === "" ? 0 : 1);
      if (total === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current < 0 ? (step > 0 ? 0 : total - 1) : (current + step + total) % total));
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else inputRef.current?.blur();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (activeOption) go(activeOption.href);
      else if (term !== "") go(seeAllHref);
    }
  }

  let lastGroup = "";
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with the search role is the landmark screen readers know best; <search> is newer
    <form
      method="get"
      action={SEARCH_PATH}
      role="search"
      aria-label="Back office"
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        if (term !== "") go(seeAllHref);
      }}
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        Search leads, people and companies
      </label>
      <div className="relative">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
        >
          <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m13 13 4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          ref={inputRef}
          id={`${id}-input`}
          name="q"
          type="search"
          value={query}
          maxLength={MAX_QUERY_LENGTH}
          autoComplete="off"
          spellCheck={false}
          placeholder="Search"
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={hydrated ? onKeyDown : undefined}
          {...(hydrated
            ? {
                role: "combobox",
                "aria-keyshortcuts": "/ Control+K Meta+K",
                "aria-autocomplete": "list" as const,
                "aria-expanded": expanded,
                "aria-controls": listboxId,
                "aria-activedescendant":
                  activeOption?.id ?? (active === options.length && expanded ? `${id}-all` : undefined),
              }
            : {})}
          className="block h-10 w-full rounded-md border border-ink-muted bg-white pr-12 pl-9 text-sm text-ink placeholder:text-slate-600 focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand [&::-webkit-search-cancel-button]:hidden"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border border-line bg-surface-muted px-1.5 font-sans text-xs text-ink-muted md:block"
        >
          /
        </span>
      </div>
      {/* NOTE: no submit button: Enter submits a one-field form, and a second "Search" button would
          stand beside the lead list's own. */}
      {hydrated ? (
        <div
          className={
            expanded
              ? "absolute inset-x-0 top-full z-40 mt-1 max-h-[70vh] min-w-72 overflow-y-auto rounded-lg border border-line bg-white py-1 text-sm shadow-lg"
              : "hidden"
          }
        >
          <div id={listboxId} role="listbox" aria-label="Search results">
            {options.map((option, index) => {
              const heading = option.group !== lastGroup ? option.group : null;
              lastGroup = option.group;
              return (
                <div key={option.id}>
                  {heading ? (
                    <div
                      aria-hidden="true"
                      className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase"
                    >
                      {heading}
                    </div>
                  ) : null}
                  <div
                    id={option.id}
                    role="option"
                    aria-selected={index === active}
                    aria-label={`${option.group}: ${option.label}, ${option.detail}`}
                    tabIndex={-1}
                    // NOTE: mousedown, not click: the input's blur would close the list before a click lands.
                    onMouseDown={(event) => {
                      event.preventDefault();
                      go(option.href);
                    }}
                    onMouseEnter={() => setActive(index)}
                    className={`mx-1 cursor-pointer rounded-md px-2 py-1.5 ${index === active ? "bg-brand-soft" : ""}`}
                  >
                    <span className="block truncate font-medium text-ink">{option.label}</span>
                    <span className="block truncate text-xs text-ink-muted">{option.detail}</span>
                  </div>
                </div>
              );
            })}
            {term !== "" ? (
              <div
                id={`${id}-all`}
                role="option"
                aria-selected={active === options.length}
                tabIndex={-1}
                onMouseDown={(event) => {
                  event.preventDefault();
                  go(seeAllHref);
                }}
                onMouseEnter={() => setActive(options.length)}
                className={`mx-1 mt-1 cursor-pointer rounded-md border-t border-line px-2 py-2 font-semibold text-brand ${active === options.length ? "bg-brand-soft" : ""}`}
              >
                See all results for “{term}”
              </div>
            ) : null}
          </div>
          <p role="status" className="px-3 py-2 text-xs text-ink-muted empty:hidden">
            {state.kind === "loading" && !state.results
              ? "Searching…"
              : state.kind === "error"
                ? state.message
                : state.kind === "done" && options.length === 0
                  ? term.length < 2 && !/^#?\d+$/.test(term)
                    ? "Keep typing: two letters or a lead number."
                    : `No leads, people or companies match “${term}”.`
                  : ""}
          </p>
        </div>
      ) : null}
    </form>
  );
}

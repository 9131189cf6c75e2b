import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Dialog, DialogContent } from "#app/components/ui/dialog.tsx";

// Keyboard on the lead list (issue 23), as Linear and Gmail have it: j/k move, Enter opens, x ticks,
// a assigns, s sets the status, ? lists them. Nothing fires while typing in a field, with a modifier
// held (the browser's and the screen reader's own shortcuts stay theirs), or with a dialog open.

export const SHORTCUTS = [
  { keys: ["j"], does: "Next lead" },
  { keys: ["k"], does: "Previous lead" },
  { keys: ["Enter"], does: "Open the lead" },
  { keys: ["x"], does: "Select or unselect the lead" },
  { keys: ["a"], does: "Assign the lead (owner)" },
  { keys: ["s"], does: "Change the lead's status" },
  { keys: ["?"], does: "Show these shortcuts" },
] as const;

/** True when a key press belongs to what the person is typing or to a control, not to the list. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function rowOf(id: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-lead-row="${id}"]`);
}

/** The list's shortcuts: the row the keyboard is on, and whether the shortcuts dialog is open. */
export function useListShortcuts({
  leadIds,
  ticked,
  onToggle,
}: {
  leadIds: number[];
  ticked: number[];
  onToggle: (id: number, on: boolean) => void;
}) {
  const navigate = useNavigate();
  const [activeId, setActiveId] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // The handler reads the latest state without being re-registered on every tick.
  const state = useRef({ leadIds, ticked, activeId, helpOpen, onToggle });
  state.current = { leadIds, ticked, activeId, helpOpen, onToggle };

  useEffect(() => {
    function move(step: number) {
      const { leadIds: ids, activeId: current } = state.current;
      if (ids.length === 0) return;
      const index = current === null ? (step > 0 ? 0 : ids.length - 1) : ids.indexOf(current) + step;
      const next = ids[Math.max(0, Math.min(ids.length - 1, index))];
      if (next === undefined) return;
      setActiveId(next);
      // Focus follows, so a screen reader says where the keyboard is.
      const link = rowOf(next)?.querySelector<HTMLElement>("[data-lead-link]");
      link?.focus({ preventScroll: true });
      rowOf(next)?.scrollIntoView({ block: "nearest" });
    }
    function focusControl(selector: string) {
      const { activeId: current } = state.current;
      if (current === null) return false;
      const control = rowOf(current)?.querySelector<HTMLElement>(selector);
      control?.focus();
      return Boolean(control);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || state.current.helpOpen) return;
      // A row's open menu or its confirmation (issue 35) has the keys: Enter picks an item there.
      if (event.target instanceof Element && event.target.closest('[role="menu"], [role="alertdialog"]'))
        return;
      const { activeId: current, ticked: on, onToggle: toggle } = state.current;
      switch (event.key) {
        case "j":
          move(1);
          break;
        case "k":
          move(-1);
          break;
        case "Enter":
          // A focused link or button does its own thing on Enter.
          if (current === null || (event.target instanceof HTMLElement && event.target.closest("a,button")))
            return;
          // The row's own link: the lead opens with its place in this list (issue 35).
          navigate(
            rowOf(current)?.querySelector("[data-lead-link]")?.getAttribute("href") ??
              `/admin/leads/${current}`,
          );
          break;
        case "x":
          if (current === null) return;
          toggle(current, !on.includes(current));
          break;
        case "a":
          if (!focusControl("[data-owner-control]")) return;
          break;
        case "s":
          if (!focusControl("[data-status-control]")) return;
          break;
        case "?":
          setHelpOpen(true);
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [navigate]);

  // A new page of leads: the keyboard starts again from the top.
  const first = leadIds[0];
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new first lead means a new page
  useEffect(() => setActiveId(null), [first]);

  return { activeId, helpOpen, setHelpOpen };
}

/** The shortcuts, listed in an accessible dialog (opened with `?` or its button). */
export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Keyboard shortcuts"
        description="On the lead list. They do nothing while you type in a field."
        className="max-w-md"
      >
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.does} className="contents">
              <dt>
                {shortcut.keys.map((key) => (
                  <kbd
                    key={key}
                    className="inline-flex min-w-7 justify-center rounded border border-line bg-surface-muted px-1.5 py-0.5 font-mono text-sm"
                  >
                    {key}
                  </kbd>
                ))}
              </dt>
              <dd>{shortcut.does}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}

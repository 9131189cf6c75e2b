// Tooltips on elements marked `data-tooltip="label"` (the article's share links), without React:
// shown after 700 ms of hovering, or at once when another tooltip closed less than 300 ms ago
// (SPEC section 9), and at once on keyboard focus; hidden on leave, blur, click, scroll and Escape.
// The bubble sits above the element (below when there is no room), and a visually hidden copy with
// role="tooltip" describes the element while it shows, as Radix's tooltip did.

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** Gap between the element and the bubble: 6 px to the arrow's tip, as before, plus the arrow. */
const OFFSET_PX = 11;
/** The least margin between the bubble and the viewport's edges. */
const EDGE_PX = 8;

type Shown = { trigger: HTMLElement; bubble: HTMLElement };

export function enhanceTooltips(root: ParentNode) {
  const triggers = root.querySelectorAll<HTMLElement>("[data-tooltip]");
  if (triggers.length === 0) return;
  let shown: Shown | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let skipDelayUntil = 0;
  let nextId = 1;

  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const hide = () => {
    cancel();
    if (!shown) return;
    shown.trigger.removeAttribute("aria-describedby");
    shown.bubble.remove();
    shown = null;
    skipDelayUntil = performance.now() + TOOLTIP_SKIP_DELAY_MS;
  };
  const show = (trigger: HTMLElement) => {
    cancel();
    if (shown?.trigger === trigger) return;
    hide();
    const label = trigger.dataset.tooltip ?? "";
    const bubble = createBubble(label, `tooltip-${nextId++}`);
    document.body.append(bubble);
    place(bubble, trigger);
    trigger.setAttribute("aria-describedby", bubble.querySelector("[role=tooltip]")?.id ?? "");
    shown = { trigger, bubble };
  };
  const showSoon = (trigger: HTMLElement) => {
    cancel();
    if (performance.now() < skipDelayUntil || shown) show(trigger);
    else timer = setTimeout(() => show(trigger), TOOLTIP_DELAY_MS);
  };

  for (const trigger of triggers) {
    trigger.addEventListener("pointerenter", (event) => {
      // A touch is a tap on the link, not a hover.
      if (event.pointerType !== "touch") showSoon(trigger);
    });
    trigger.addEventListener("pointerleave", hide);
    trigger.addEventListener("pointerdown", hide);
    trigger.addEventListener("focus", () => {
      if (trigger.matches(":focus-visible")) show(trigger);
    });
    trigger.addEventListener("blur", hide);
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  window.addEventListener("scroll", hide, { passive: true });
}

function createBubble(label: string, id: string): HTMLElement {
  const bubble = document.createElement("div");
  bubble.className =
    "pointer-events-none fixed top-0 left-0 z-50 rounded-md bg-ink px-3 py-1.5 text-sm text-white shadow-md";
  bubble.append(label);
  const description = document.createElement("span");
  description.id = id;
  description.setAttribute("role", "tooltip");
  description.className = "sr-only";
  description.textContent = label;
  const arrow = document.createElement("span");
  arrow.setAttribute("aria-hidden", "true");
  arrow.dataset.tooltipArrow = "";
  arrow.className = "absolute size-2 rotate-45 bg-ink";
  bubble.append(description, arrow);
  return bubble;
}

/** Centred above the element, or below it when the top of the viewport is too close. */
function place(bubble: HTMLElement, trigger: HTMLElement) {
  const target = trigger.getBoundingClientRect();
  const { width, height } = bubble.getBoundingClientRect();
  const above = target.top - OFFSET_PX - height >= EDGE_PX;
  const top = above ? target.top - OFFSET_PX - height : target.bottom + OFFSET_PX;
  const centre = target.left + target.width / 2;
  const left = Math.min(Math.max(centre - width / 2, EDGE_PX), window.innerWidth - EDGE_PX - width);
  bubble.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
  const arrow = bubble.querySelector<HTMLElement>("[data-tooltip-arrow]");
  if (arrow) {
    arrow.style.left = `${Math.round(centre - left - 4)}px`;
    arrow.style[above ? "bottom" : "top"] = "-4px";
  }
}

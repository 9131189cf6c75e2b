import { createContext, type ReactElement, type ReactNode, useContext, useEffect, useState } from "react";

// SPEC section 9: tooltips open after 700 ms; moving between triggers within 300 ms opens at once.
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

type RadixTooltips = typeof import("./tooltip-radix.tsx");

const TooltipsContext = createContext<RadixTooltips | null>(null);

/**
 * Enables the tooltips inside it. The Radix code loads right after hydration instead of with the
 * page, so it never delays the first paint; until it arrives the triggers are plain elements with
 * their own accessible names. `data-tooltips-ready` marks when hovering shows tooltips.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  const [radix, setRadix] = useState<RadixTooltips | null>(null);
  useEffect(() => {
    let live = true;
    import("./tooltip-radix.tsx").then((module) => {
      if (live) setRadix(module);
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <TooltipsContext.Provider value={radix}>
      <div className="contents" data-tooltips-ready={radix ? "true" : undefined}>
        {radix ? <radix.Provider>{children}</radix.Provider> : children}
      </div>
    </TooltipsContext.Provider>
  );
}

/** Wraps one focusable element (inside a TooltipProvider) and shows `label` on hover or focus. */
export function Tooltip({ label, children }: { label: string; children: ReactElement }) {
  const radix = useContext(TooltipsContext);
  return radix ? <radix.Tooltip label={label}>{children}</radix.Tooltip> : children;
}

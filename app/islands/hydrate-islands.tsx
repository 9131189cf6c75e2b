import { type ComponentType, type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { mountToaster } from "#app/components/ui/toast-host.tsx";
import type { IslandName } from "#app/lib/page-scripts.ts";

/** Marks the container once React has hydrated it: tests and monitoring wait for it. */
function MarkHydrated({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    container.dataset.hydrated = "true";
  }, [container]);
  return children;
}

/** Hydrates every `<Island name>` container on the page with `Component` and the props it carries. */
export function hydrateIslands<Props extends object>(name: IslandName, Component: ComponentType<Props>) {
  for (const container of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const props = JSON.parse(container.dataset.islandProps ?? "{}") as Props;
    hydrateRoot(
      container,
      <MarkHydrated container={container}>
        <Component {...props} />
      </MarkHydrated>,
    );
  }
  // The forms report their outcome in toasts.
  mountToaster();
}

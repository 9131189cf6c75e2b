import type { ComponentType } from "react";
import type { IslandName } from "#app/lib/page-scripts.ts";

/**
 * A component the page renders as HTML and the browser then hydrates on its own (ADR 013): its
 * props go into the container as JSON, and the island's entry (app/islands/<name>.tsx) hydrates the
 * same component with them. The route lists the island in its handle so the page loads that entry.
 */
export function Island<Props extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<Props>;
  props: Props;
}) {
  return (
    <div data-island={name} data-island-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}

import { Tabs as TabsPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";

// Radix Tabs: the arrow keys move between the tabs, Tab moves into the open panel, and each panel is
// labelled by its tab. Only the open panel is rendered.

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("flex flex-wrap gap-1 rounded-lg bg-surface-muted p-1", className)}
      {...props}
    />
  );
}

/** The selected tab is white on the muted track with a brand underline, so it never rests on colour alone. */
export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "inline-flex min-h-11 flex-1 items-center justify-center rounded-md border-b-2 border-transparent px-4 text-sm font-semibold text-ink-muted transition-colors hover:text-ink focus-visible:outline-3 focus-visible:outline-offset-2 data-[state=active]:border-brand data-[state=active]:bg-white data-[state=active]:text-brand data-[state=active]:shadow-sm",
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn("mt-4 rounded-md focus-visible:outline-3 focus-visible:outline-offset-2", className)}
      {...props}
    />
  );
}

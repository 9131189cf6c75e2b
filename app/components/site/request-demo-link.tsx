import type { ReactNode } from "react";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { AnchorLink } from "./anchor-link.tsx";

/**
 * SPEC section 1: 'Request Demo' scrolls to the demo section when the current page has one,
 * otherwise goes to the home page's demo anchor.
 */
export function RequestDemoLink({
  className,
  children = "Request Demo",
}: {
  className?: string;
  children?: ReactNode;
}) {
  return (
    <AnchorLink id="demo" className={cn(buttonVariants({ variant: "accent", size: "sm" }), className)}>
      {children}
    </AnchorLink>
  );
}

import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * Shared by text inputs and text areas. The border (ink-muted on white, 7.6:1) meets the 3:1 that
 * WCAG asks of a control's boundary; an invalid control gets a thicker red border as well as its
 * message, so the state never rests on colour alone.
 */
export const textControlClass =
  "block w-full rounded-md border border-ink-muted bg-white px-3 text-base text-ink placeholder:text-slate-500 focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand aria-invalid:border-2 aria-invalid:border-danger disabled:cursor-not-allowed disabled:border-line disabled:bg-surface-muted";

/** A native input at the 44 px touch-target height. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn(textControlClass, "h-11", className)} {...props} />;
}

/**
 * A field for a one-time code: an authenticator app's 6 digits or a recovery code (`ABCDE-FGHJK`).
 * The browser may fill it from an SMS or a password manager; no numeric keypad, since recovery codes
 * have letters; long enough for a code typed with spaces.
 */
export function CodeInput({ className, ...props }: ComponentProps<"input">) {
  return (
    <Input
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={64}
      className={cn("font-mono tracking-widest", className)}
      {...props}
    />
  );
}

/**
 * A field for a web address: the keyboard with `/` and `.com` on phones, no spell check, and the
 * 2,048-character cap the servers' address checks share. `autoComplete` defaults to the browser's
 * remembered URLs; a form for someone else's endpoint passes "off".
 */
export function UrlInput(props: Omit<ComponentProps<"input">, "type">) {
  return (
    <Input type="url" inputMode="url" autoComplete="url" spellCheck={false} maxLength={2048} {...props} />
  );
}

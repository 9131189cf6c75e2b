import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";

/**
 * A set-password link, shown once: selectable text everywhere, a Copy button with JavaScript. It
 * takes the focus when it appears, so a keyboard or screen-reader user lands on it.
 */
export function SetPasswordLinkPanel({
  link,
}: {
  link: { userId: number; username: string; url: string; expiresAt: string; created: boolean };
}) {
  const hydrated = useHydrated();
  const panel = useRef<HTMLElement>(null);
  const text = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState(false);
  const headingId = `link-heading-${link.userId}`;

  useEffect(() => {
    panel.current?.focus();
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
      toast({ title: "Link copied", description: `Send it to ${link.username} over a channel you trust.` });
    } catch {
      // No clipboard permission: select the text so Ctrl+C or the context menu copies it.
      if (text.current) window.getSelection()?.selectAllChildren(text.current);
      toast({ title: "Copy the selected link", description: "Your browser did not allow copying." });
    }
  }

  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby={headingId}
      className="grid gap-3 rounded-xl border-2 border-accent bg-amber-50 p-5 focus:outline-none"
    >
      <h3 id={headingId} className="text-lg font-semibold">
        {link.created ? `${link.username} was added` : `New set-password link for ${link.username}`}
      </h3>
      <p className="leading-6">
        Send this one-time link to <strong className="font-semibold">{link.username}</strong> so they can
        choose a password. It is shown only now, works once, and expires on {formatDateTime(link.expiresAt)}{" "}
        (UK time).
      </p>
      {/* Text, not an input: all of it shows, and one click selects it whole (user-select: all). */}
      <code
        ref={text}
        data-testid="set-password-url"
        className="block rounded-md border border-line bg-white px-3 py-2.5 font-mono text-sm break-all select-all"
      >
        {link.url}
      </code>
      {hydrated ? (
        <Button
          type="button"
          variant="primary"
          size="sm"
          className="justify-self-start"
          onClick={() => void copy()}
        >
          {copied ? "Copied" : "Copy link"}
        </Button>
      ) : null}
    </section>
  );
}

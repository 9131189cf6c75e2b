import type { ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { getShareLinks, type ShareNetwork } from "./share-links.ts";

// SPEC section 9: share icons are 32 px with a radius of 8 px (Tailwind size-8 and rounded-lg).
const ICON_SIZE = 32;

const networkStyles: Record<ShareNetwork, string> = {
  facebook: "bg-[#1877f2]",
  twitter: "bg-[#1d9bf0]",
  linkedin: "bg-[#0a66c2]",
  email: "bg-brand",
};

const glyphs: Record<ShareNetwork, ReactNode> = {
  facebook: (
    <path
      fill="currentColor"
      d="M13.5 21.5v-7.6h2.6l.4-3h-3V9c0-.9.3-1.5 1.5-1.5h1.6V4.8a21 21 0 0 0-2.3-.1c-2.3 0-3.9 1.4-3.9 4v2.2H7.8v3h2.6v7.6h3.1Z"
    />
  ),
  twitter: (
    <path
      fill="currentColor"
      d="M20.5 7.3c-.6.3-1.3.5-2 .5.7-.4 1.3-1.1 1.5-1.9-.7.4-1.4.7-2.2.8a3.5 3.5 0 0 0-6 3.2A9.9 9.9 0 0 1 4.6 6.3a3.5 3.5 0 0 0 1.1 4.7c-.6 0-1.1-.2-1.6-.4 0 1.7 1.2 3.1 2.8 3.4-.5.1-1 .2-1.6.1.4 1.4 1.7 2.4 3.3 2.4A7 7 0 0 1 3.5 18a9.9 9.9 0 0 0 15.3-8.8c.7-.5 1.3-1.1 1.7-1.9Z"
    />
  ),
  linkedin: (
    <path
      fill="currentColor"
      d="M7.2 19.5H4.3V9.8h2.9v9.7ZM5.8 8.5a1.7 1.7 0 1 1 0-3.4 1.7 1.7 0 0 1 0 3.4Zm13.7 11h-2.9v-4.7c0-1.1 0-2.6-1.6-2.6s-1.8 1.2-1.8 2.5v4.8H10.3V9.8h2.8v1.3c.4-.8 1.4-1.6 2.8-1.6 3 0 3.6 2 3.6 4.6v5.4Z"
    />
  ),
  email: (
    <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
      <rect x="4" y="6.5" width="16" height="11" rx="1.5" />
      <path d="m4.5 7.5 7.5 5.5 7.5-5.5" />
    </g>
  ),
};

function ShareIcon({ network }: { network: ShareNetwork }) {
  return (
    <svg aria-hidden="true" focusable="false" width={ICON_SIZE} height={ICON_SIZE} viewBox="0 0 24 24">
      {glyphs[network]}
    </svg>
  );
}

/**
 * Share buttons for an article. Each network is a real link (it works without JavaScript, in a new
 * tab); share-card.enhance.ts makes a plain click open the network's share page in a small popup
 * instead, shows the tooltips and the 'Copy link' button, which needs JavaScript.
 */
export function ShareCard({ url, title, excerpt }: { url: string; title: string; excerpt?: string }) {
  const links = getShareLinks({ url, title, excerpt });
  return (
    <section aria-labelledby="share-heading" className="rounded-xl border border-line bg-surface-muted p-6">
      <h2 id="share-heading" className="text-lg font-semibold">
        Share this article
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Know someone who manages construction contracts? Pass it on.
      </p>
      <ul className="mt-4 flex flex-wrap items-center gap-3">
        {links.map((link) => (
          <li key={link.network}>
            <a
              href={link.href}
              aria-label={link.label}
              data-tooltip={link.label}
              {...(link.popup
                ? { target: "_blank", rel: "noopener noreferrer", "data-share-popup": "" }
                : {})}
              className={`flex size-8 items-center justify-center rounded-lg text-white transition-opacity hover:opacity-85 ${networkStyles[link.network]}`}
            >
              <ShareIcon network={link.network} />
            </a>
          </li>
        ))}
        <li hidden data-copy-link={url}>
          <Button type="button" variant="outline" size="sm">
            Copy link
          </Button>
        </li>
      </ul>
    </section>
  );
}

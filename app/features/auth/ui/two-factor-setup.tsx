// The pieces of setting up two-factor sign-in that the login page's enrolment step and the account
// page share: the QR code and the secret to type, and the recovery codes shown once.

/** Groups of four, as the secret is read and typed. */
function secretGroups(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [];
}

/**
 * The QR code (an inline SVG the server made: nothing is fetched) and the same secret as text, for
 * an app that cannot scan, or a person setting up on the phone that shows this page.
 */
export function EnrolmentCode({ secret, qrSvg, uri }: { secret: string; qrSvg: string; uri: string }) {
  return (
    // Side by side only where the container has room (the account page), stacked in the login card.
    <div className="@container">
      <div className="grid gap-4 @lg:grid-cols-[auto_minmax(0,1fr)] @lg:items-center">
        <div
          role="img"
          aria-label="QR code for your authenticator app"
          data-testid="two-factor-qr"
          className="size-44 justify-self-center rounded-lg border border-line bg-white p-1 [&>svg]:size-full"
          // The server's own SVG from the qrcode library: paths only, no text from anyone.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made on the server from our own data
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
        <div className="grid min-w-0 gap-2 text-sm leading-6">
          <p>
            Scan it with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password,
            Aegis…), or add this key by hand, as a time-based key:
          </p>
          <p
            data-testid="two-factor-secret"
            className="rounded-md bg-surface-muted px-3 py-2 font-mono text-base font-semibold tracking-wider"
          >
            {/* A line breaks between groups, never inside one. */}
            {secretGroups(secret).map((group, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the groups are fixed slices of one string
              <span key={index} className="mr-[1ch] inline-block whitespace-nowrap last:mr-0">
                {group}
              </span>
            ))}
          </p>
          <p className="text-ink-muted">
            On this phone?{" "}
            <a href={uri} className="font-semibold text-brand underline">
              Open it in your authenticator app
            </a>
            .
          </p>
        </div>
      </div>
    </div>
  );
}

/** The ten recovery codes, shown this once, with a file to keep them in. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const file = `Clausebridge recovery codes\nEach works once, in place of a code from your app.\n\n${codes.join("\n")}\n`;
  return (
    <section aria-labelledby="recovery-heading" className="grid gap-3 rounded-lg border-2 border-brand p-4">
      <h2 id="recovery-heading" className="text-lg font-semibold">
        Your recovery codes
      </h2>
      <p className="text-sm leading-6">
        If you lose your phone, each of these signs you in once instead of a code. They are shown only now:
        download them, print this page or keep them in your password manager, somewhere other than your phone.
      </p>
      <ol
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-base font-semibold tracking-wider"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <a
        href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
        download="clausebridge-recovery-codes.txt"
        className="justify-self-start font-semibold text-brand underline"
      >
        Download the codes
      </a>
    </section>
  );
}

import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { CodeInput, Input } from "#app/components/ui/input.tsx";
import { hasAdminHint } from "#app/lib/admin-hint.ts";
import { sendJson } from "#app/lib/api-client.ts";
import { formatLeadDate } from "#app/lib/format-date.ts";
import type { Lead } from "../lead-repository.server.ts";
import { StatusBadge } from "./status-badge.tsx";

// SPEC section 2 /admin/simple: a standalone lead viewer driven from the browser. Credentials are
// checked by the server (POST /api/login); nothing secret lives in this code.

// SPEC section 8's wording for this page.
const INVALID_CREDENTIALS = "Invalid credentials";
const LOAD_FAILED = "Failed to load leads";
const NETWORK_ERROR = "Network error";
const NOT_ADMIN = "This viewer needs an admin account.";
const INVALID_CODE = "Invalid code";

/** "code": the password was right, the account's second step (issue 13) comes next. */
type Phase = "checking" | "signed-out" | "code" | "signed-in";
type SimpleUser = { id: number; username: string; isAdmin: boolean };
type LeadsState = { leads: Lead[]; total: number };

/**
 * SPEC sections 3-4's localStorage hints, which the auth feature keeps: the route passes them in
 * (one object for the page's life, so the session check below runs once).
 */
export type AdminHints = { store: (user: SimpleUser) => void; clear: () => void };

function isAdminUser(value: unknown): value is SimpleUser {
  return (
    typeof value === "object" &&
    value !== null &&
    "isAdmin" in value &&
    value.isAdmin === true &&
    "id" in value &&
    typeof value.id === "number" &&
    "username" in value &&
    typeof value.username === "string"
  );
}

/** POST /api/login's answer when a second step follows (issue 13): no user and no session yet. */
function isSecondStep(value: unknown): value is { username: string; setupRequired?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    "twoFactorRequired" in value &&
    value.twoFactorRequired === true &&
    "username" in value &&
    typeof value.username === "string"
  );
}

export function SimpleViewer({ hints }: { hints: AdminHints }) {
  const [phase, setPhase] = useState<Phase>("checking");
  const [user, setUser] = useState<SimpleUser | null>(null);
  const [data, setData] = useState<LeadsState | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loginError, setLoginError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  /** Whose sign-in waits for a code, and whether it must first set up two-factor sign-in. */
  const [secondStep, setSecondStep] = useState<{ username: string; setup: boolean } | null>(null);

  function signedIn(body: SimpleUser) {
    // SPEC sections 3-4: the user and the isAdmin flag, as hints (the server decides), only now that
    // the whole sign-in has succeeded.
    hints.store(body);
    setUser(body);
    setSecondStep(null);
    setPhase("signed-in");
    void loadLeads();
  }

  /** A staff account without admin rights: its session is not left open here. */
  async function refuseNonAdmin() {
    await sendJson("/api/logout", "POST").catch(() => {});
    hints.clear();
    setLoginError(NOT_ADMIN);
  }

  const loadLeads = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      const response = await sendJson("/api/admin/leads", "GET");
      if (!response.ok) {
        setError(LOAD_FAILED);
        return;
      }
      const leads = (await response.json()) as Lead[];
      setData({ leads, total: Number(response.headers.get("X-Total-Count") ?? leads.length) });
    } catch {
      setError(NETWORK_ERROR);
    } finally {
      setLoading(false);
    }
  }, []);

  // Who is signed in, as the server sees it (GET /api/user: 401 means nobody). Only browsers that
  // signed in as an admin carry the hint cookie; the others need not ask.
  useEffect(() => {
    if (!hasAdminHint(document.cookie)) {
      // Never signed in here, or signed out since: any localStorage flags are stale.
      hints.clear();
      setPhase("signed-out");
      return;
    }
    let live = true;
    sendJson("/api/user", "GET")
      .then(async (response) => {
        const body: unknown = response.ok ? await response.json() : null;
        if (!live) return;
        if (isAdminUser(body)) {
          hints.store(body);
          setUser(body);
          setPhase("signed-in");
          void loadLeads();
        } else {
          hints.clear();
          setPhase("signed-out");
        }
      })
      .catch(() => {
        if (!live) return;
        setPhase("signed-out");
        setLoginError(NETWORK_ERROR);
      });
    return () => {
      live = false;
    };
  }, [loadLeads, hints]);

  async function login(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    setPending(true);
    setLoginError(null);
    try {
      const response = await sendJson("/api/login", "POST", {
        username: form.get("username"),
        password: form.get("password"),
      });
      if (!response.ok) {
        // Throttling and a busy server say when to try again; every other refusal is the spec's one message.
        const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
        const saysWhen = response.status === 429 || response.status === 503;
        setLoginError(saysWhen && typeof body?.message === "string" ? body.message : INVALID_CREDENTIALS);
        return;
      }
      const body: unknown = await response.json();
      if (isSecondStep(body)) {
        setSecondStep({ username: body.username, setup: body.setupRequired === true });
        setPhase("code");
        return;
      }
      if (!isAdminUser(body)) {
        await refuseNonAdmin();
        return;
      }
      signedIn(body);
    } catch {
      setLoginError(NETWORK_ERROR);
    } finally {
      setPending(false);
    }
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    setPending(true);
    setLoginError(null);
    try {
      const response = await sendJson("/api/login/2fa", "POST", { code: form.get("code") });
      const body = (await response.json().catch(() => null)) as {
        message?: unknown;
        signInAgain?: unknown;
      } | null;
      if (!response.ok) {
        const message = typeof body?.message === "string" ? body.message : INVALID_CODE;
        if (body?.signInAgain === true) {
          setSecondStep(null);
          setPhase("signed-out");
        }
        setLoginError(message);
        return;
      }
      if (!isAdminUser(body)) {
        await refuseNonAdmin();
        setSecondStep(null);
        setPhase("signed-out");
        return;
      }
      signedIn(body);
    } catch {
      setLoginError(NETWORK_ERROR);
    } finally {
      setPending(false);
    }
  }

  async function logout() {
    try {
      await sendJson("/api/logout", "POST");
    } catch {
      setError(NETWORK_ERROR);
      return;
    }
    hints.clear();
    setUser(null);
    setData(null);
    setError(null);
    setPhase("signed-out");
  }

  if (phase === "checking") {
    return (
      <div role="status" className="flex items-center gap-3 text-ink-muted">
        <span
          aria-hidden="true"
          className="size-5 animate-spin rounded-full border-2 border-line border-t-brand"
        />
        Checking your session…
      </div>
    );
  }

  if (phase === "code" && secondStep) {
    return (
      <div className="grid max-w-md gap-5 rounded-xl border border-line bg-white p-6 shadow-sm">
        <h2 className="text-xl font-semibold">Two-factor sign-in</h2>
        {loginError ? (
          <Banner tone="error" className="font-semibold">
            {loginError}
          </Banner>
        ) : null}
        {secondStep.setup ? (
          // Setting up needs the QR code; the login page shows it for this same pending sign-in.
          <p className="leading-7">
            {secondStep.username} must set up two-factor sign-in first. Continue on the{" "}
            <a href="/admin/login" className="font-semibold text-brand underline">
              admin login page
            </a>{" "}
            within five minutes, then come back here.
          </p>
        ) : (
          <form onSubmit={verify} className="grid gap-5">
            <p className="leading-7 text-ink-muted">
              Signing in as {secondStep.username}: enter the 6-digit code from your authenticator app, or a
              recovery code.
            </p>
            <Field id="simple-code" name="code" label="Code" required>
              {(control) => <CodeInput {...control} />}
            </Field>
            <Button type="submit">{pending ? "Checking..." : "Verify"}</Button>
          </form>
        )}
      </div>
    );
  }

  if (phase === "signed-out") {
    return (
      <form
        onSubmit={login}
        className="grid max-w-md gap-5 rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <h2 className="text-xl font-semibold">Sign in</h2>
        {loginError ? (
          <Banner tone="error" className="font-semibold">
            {loginError}
          </Banner>
        ) : null}
        <Field id="simple-username" name="username" label="Username" required>
          {(control) => (
            <Input {...control} autoComplete="username" autoCapitalize="none" spellCheck={false} />
          )}
        </Field>
        <Field id="simple-password" name="password" label="Password" required>
          {(control) => <Input {...control} type="password" autoComplete="current-password" />}
        </Field>
        <Button type="submit">{pending ? "Logging in..." : "Login"}</Button>
      </form>
    );
  }

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <p className="text-ink-muted">Signed in as {user?.username}</p>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            size="sm"
            onClick={() => void loadLeads()}
            aria-busy={loading || undefined}
          >
            Reload Leads
          </Button>
          <Button variant="outline" size="sm" onClick={() => void logout()}>
            Logout
          </Button>
        </div>
      </div>
      <h2 className="text-xl font-semibold">Leads</h2>
      {error ? <Banner tone="error">{error}</Banner> : null}
      {data ? <LeadCards {...data} /> : loading ? <p className="text-ink-muted">Loading leads…</p> : null}
    </div>
  );
}

function LeadCards({ leads, total }: LeadsState) {
  if (leads.length === 0) return <p className="text-ink-muted">No demo requests found</p>;
  return (
    <>
      <p className="text-sm text-ink-muted">
        {total > leads.length
          ? `The ${leads.length} most recent of ${total} leads; the dashboard has them all.`
          : `${total} ${total === 1 ? "lead" : "leads"}`}
      </p>
      <ul className="grid gap-4 md:grid-cols-2">
        {leads.map((lead) => (
          <li key={lead.id} className="rounded-xl border border-line bg-white p-5 shadow-sm">
            <article aria-labelledby={`simple-lead-${lead.id}`} className="grid gap-2">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 id={`simple-lead-${lead.id}`} className="text-lg font-semibold break-words">
                  {lead.fullName}
                </h3>
                <StatusBadge status={lead.status} />
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="font-semibold">Company</dt>
                <dd className="break-words">{lead.company}</dd>
                <dt className="font-semibold">Email</dt>
                <dd className="break-all">{lead.email}</dd>
                <dt className="font-semibold">Phone</dt>
                <dd>{lead.phone}</dd>
                <dt className="font-semibold">Date</dt>
                <dd>{formatLeadDate(lead.createdAt)}</dd>
              </dl>
              {lead.message ? (
                <p className="text-sm leading-6 whitespace-pre-wrap break-words">{lead.message}</p>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
    </>
  );
}

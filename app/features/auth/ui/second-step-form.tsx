import { type FormEvent, useState } from "react";
import { Form, useNavigate, useSearchParams } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { CodeInput } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { isRole } from "#app/lib/permissions.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { storeAdminFlags } from "../admin-flags.ts";
import { landingPath } from "../safe-admin-next.ts";
import { EnrolmentCode, RecoveryCodes } from "./two-factor-setup.tsx";

// Issue 13: the login page's second step, after a right password. With JavaScript it posts the code
// to POST /api/login/2fa; without, to the login page's action (intent "code"). Either way the
// localStorage hints of SPEC sections 3-4 are set only once the whole sign-in has succeeded.

type Enrolment = { secret: string; qrSvg: string; uri: string };
type SignedInUser = {
  id?: unknown;
  username?: unknown;
  role?: unknown;
  isAdmin?: unknown;
  recoveryCodes?: unknown;
};

export function SecondStepForm({
  username,
  purpose,
  enrolment,
  serverMessage,
  onRestart,
}: {
  username: string;
  purpose: "verify" | "enrol";
  enrolment?: Enrolment;
  /** The action's refusal after a post without JavaScript. */
  serverMessage?: string;
  /** The pending login is gone: the page goes back to the password (with this message). */
  onRestart(message: string): void;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [next, setNext] = useState(() => landingPath("admin", searchParams.get("next")));
  const shown = message ?? serverMessage ?? null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const code = new FormData(event.currentTarget).get("code");
    setPending(true);
    setMessage(null);
    let response: Response;
    let body: (SignedInUser & { message?: unknown; signInAgain?: unknown }) | null;
    try {
      response = await sendJson("/api/login/2fa", "POST", { code });
      body = await response.json().catch(() => null);
    } catch {
      setPending(false);
      setMessage(NETWORK_ERROR);
      return;
    }
    if (!response.ok || !body) {
      const text = typeof body?.message === "string" ? body.message : "Invalid code";
      setPending(false);
      if (body?.signInAgain === true) {
        onRestart(text);
        return;
      }
      setMessage(text);
      toast({ title: "Login failed", description: text, variant: "destructive" });
      return;
    }
    const name = String(body.username ?? username);
    storeAdminFlags({ id: Number(body.id), username: name, isAdmin: body.isAdmin === true });
    // Where this person's role starts (issue 23): a marketer lands on analytics.
    const landing = landingPath(isRole(body.role) ? body.role : null, searchParams.get("next"));
    setNext(landing);
    if (Array.isArray(body.recoveryCodes)) {
      // Signed in already; the codes are shown before moving on, this once.
      setCodes(body.recoveryCodes.map(String));
      return;
    }
    toast({ title: "Login successful", description: `Welcome back, ${name}!` });
    navigate(landing, { replace: true });
  }

  if (codes) return <EnrolledNotice codes={codes} next={next} />;

  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h2 className="text-xl font-semibold">
          {purpose === "enrol" ? "Set up two-factor sign-in" : "Two-factor sign-in"}
        </h2>
        <p className="text-sm leading-6 text-ink-muted">
          {purpose === "enrol"
            ? `Every staff account needs a second step. Add ${username} to an authenticator app, then enter the 6-digit code it shows.`
            : `Signing in as ${username}: enter the 6-digit code from your authenticator app, or one of your recovery codes.`}
        </p>
      </div>
      {purpose === "enrol" && enrolment ? <EnrolmentCode {...enrolment} /> : null}
      <form method="post" className="grid gap-5" onSubmit={hydrated ? onSubmit : undefined}>
        <input type="hidden" name="intent" value="code" />
        {shown ? (
          <Banner id="code-error" tone="error" className="font-semibold">
            {shown}
          </Banner>
        ) : null}
        <Field
          id="login-code"
          name="code"
          label={purpose === "enrol" ? "Code from the app" : "Code"}
          required
        >
          {(control) => <CodeInput {...control} autoFocus />}
        </Field>
        <Button type="submit" aria-describedby={shown ? "code-error" : undefined}>
          {pending ? "Checking..." : purpose === "enrol" ? "Turn on and sign in" : "Verify"}
        </Button>
      </form>
      <Form method="post" className="text-center text-sm">
        <input type="hidden" name="intent" value="cancel" />
        <button type="submit" className="font-semibold text-brand underline">
          Use a different account
        </button>
      </Form>
    </div>
  );
}

/** After enrolling at sign-in: the recovery codes, then on to the back office. */
export function EnrolledNotice({ codes, next }: { codes: string[]; next: string }) {
  return (
    <div className="grid gap-5">
      <Banner tone="success">Two-factor sign-in is on and you are signed in.</Banner>
      <RecoveryCodes codes={codes} />
      {/* The label wraps on a phone: let the button grow rather than clip it. */}
      <Button asChild className="h-auto min-h-11 py-2 text-center">
        <a href={next}>I have kept my codes, continue</a>
      </Button>
    </div>
  );
}

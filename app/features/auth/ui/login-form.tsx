import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { isRole, type Role } from "#app/lib/permissions.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { storeAdminFlags } from "../admin-flags.ts";
import { landingPath } from "../safe-admin-next.ts";

// SPEC sections 2, 5 and 8: the admin login form. With JavaScript it signs in through
// POST /api/login and moves on without a reload; without, it posts to the login page's action.

const INVALID_CREDENTIALS = "Invalid credentials";
const UNREADABLE = "Login failed";

/** The failure message a refused POST /api/login carries (SPEC section 8). */
async function refusalMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const message = body && typeof body === "object" && "message" in body ? body.message : undefined;
    return typeof message === "string" && message ? message : INVALID_CREDENTIALS;
  } catch {
    return UNREADABLE;
  }
}

export function LoginForm({
  serverMessage,
  defaultUsername,
  onSecondStep,
}: {
  /** The action's refusal after a post without JavaScript. */
  serverMessage?: string;
  defaultUsername?: string;
  /** The password was right and a second step follows (issue 13): the page shows it. */
  onSecondStep(): void;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const shown = message ?? serverMessage ?? null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const fail = (text: string) => {
      setPending(false);
      setMessage(text);
      toast({ title: "Login failed", description: text, variant: "destructive" });
    };
    setPending(true);
    setMessage(null);
    let response: Response;
    try {
      response = await sendJson("/api/login", "POST", {
        username: data.get("username"),
        password: data.get("password"),
      });
    } catch {
      fail(NETWORK_ERROR);
      return;
    }
    if (!response.ok) {
      fail(await refusalMessage(response));
      return;
    }
    let username: string;
    let role: Role | null = null;
    try {
      const user = (await response.json()) as {
        id?: unknown;
        username?: unknown;
        role?: unknown;
        isAdmin?: unknown;
        twoFactorRequired?: unknown;
      };
      if (user.twoFactorRequired === true) {
        // Not signed in yet: no flags, no toast; the page asks for the code next.
        setPending(false);
        onSecondStep();
        return;
      }
      username = String(user.username ?? "");
      role = isRole(user.role) ? user.role : null;
      // SPEC sections 3-4: the user and the isAdmin flag, kept as hints (the server decides).
      storeAdminFlags({ id: Number(user.id), username, isAdmin: user.isAdmin === true });
    } catch {
      fail(UNREADABLE);
      return;
    }
    toast({ title: "Login successful", description: `Welcome back, ${username}!` });
    // The button keeps saying 'Logging in...' until the next page replaces this one.
    // Where this person's role starts (issue 23): a marketer lands on analytics.
    navigate(landingPath(role, searchParams.get("next")), { replace: true });
  }

  return (
    <form method="post" className="grid gap-5" onSubmit={hydrated ? onSubmit : undefined}>
      {shown ? (
        <Banner id="login-error" tone="error" className="font-semibold">
          {shown}
        </Banner>
      ) : null}
      <Field id="login-username" name="username" label="Username" required>
        {(control) => (
          <Input
            {...control}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={64}
            defaultValue={defaultUsername}
          />
        )}
      </Field>
      <Field id="login-password" name="password" label="Password" required>
        {(control) => <Input {...control} type="password" autoComplete="current-password" />}
      </Field>
      <Button type="submit" aria-describedby={shown ? "login-error" : undefined}>
        {pending ? "Logging in..." : "Login"}
      </Button>
    </form>
  );
}

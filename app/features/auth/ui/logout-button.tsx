import { type FormEvent, useState } from "react";
import { Form, useNavigate } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { LOGIN_PATH } from "#app/lib/admin-paths.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { clearLocalAdminFlags } from "../admin-flags.ts";

/**
 * SPEC sections 2, 4 and 8: signs out, then goes to /admin/login. With JavaScript through
 * POST /api/logout and a toast; without it the form posts to /admin/logout, which redirects.
 */
export function LogoutButton() {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    const failed = (description: string) => {
      setPending(false);
      toast({ title: "Logout failed", description, variant: "destructive" });
    };
    let response: Response;
    try {
      response = await sendJson("/api/logout", "POST");
    } catch {
      failed(NETWORK_ERROR);
      return;
    }
    if (!response.ok) {
      failed(await failureMessage(response));
      return;
    }
    clearLocalAdminFlags();
    toast({ title: "Logged out", description: "You have been successfully logged out." });
    navigate(LOGIN_PATH, { replace: true });
  }

  return (
    <Form method="post" action="/admin/logout" onSubmit={hydrated ? onSubmit : undefined}>
      <Button type="submit" variant="outline" size="sm">
        Logout
      </Button>
    </Form>
  );
}

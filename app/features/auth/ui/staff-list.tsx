import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { cn } from "#app/lib/cn.ts";
import { ROLE_LABELS, ROLES } from "#app/lib/permissions.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { STAFF_PATH } from "../staff-paths.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { SetPasswordLinkPanel } from "./set-password-link.tsx";
import { initials, STAFF_STATE, staffState } from "./staff-format.ts";
import type { StaffActionData, StaffRowView } from "./staff-view.ts";

export const RESET_PARAM = "reset";
export const CONFIRM_DISABLE_PARAM = "confirm-disable";

const disableText = (member: StaffRowView, isMe: boolean) =>
  isMe
    ? "You will be signed out at once and cannot sign in again until another admin enables your account."
    : `${member.username} is signed out at once, everywhere, and cannot sign in until an admin enables the account again. Leads they own stay assigned to them.`;

/**
 * The staff accounts, one row each: state, last sign-in, and the actions. Every action is a form
 * posting an `intent` to the page (a fetcher with JavaScript: pending labels, no reload); disabling
 * asks for confirmation first (a dialog, or without JavaScript the `?confirm-disable=` step).
 */
export function StaffList({
  members,
  me,
  resetId,
  confirmDisableId,
  pageResult,
}: {
  members: StaffRowView[];
  me: number;
  resetId: number | null;
  confirmDisableId: number | null;
  /** The page action's answer after a post without JavaScript. */
  pageResult?: StaffActionData;
}) {
  return (
    <ul className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
      {members.map((member) => {
        const mine =
          pageResult?.kind === "refused"
            ? pageResult.form === "row" && pageResult.id === member.id
            : pageResult?.kind === "link" && !pageResult.link.created && pageResult.link.userId === member.id;
        return (
          <StaffRow
            key={member.id}
            member={member}
            isMe={member.id === me}
            showReset={resetId === member.id}
            showConfirm={confirmDisableId === member.id}
            pageResult={mine ? pageResult : undefined}
          />
        );
      })}
    </ul>
  );
}

function StaffRow({
  member,
  isMe,
  showReset,
  showConfirm,
  pageResult,
}: {
  member: StaffRowView;
  isMe: boolean;
  showReset: boolean;
  showConfirm: boolean;
  pageResult?: StaffActionData;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<StaffActionData>();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const result = fetcher.data ?? pageResult;
  const busy = fetcher.state !== "idle";
  const busyIntent = busy ? fetcher.formData?.get("intent") : null;
  const state = STAFF_STATE[staffState(member)];
  const refusal = result?.kind === "refused" ? result : undefined;
  const link = result?.kind === "link" ? result.link : undefined;

  // Once a request is answered the confirmation has done its job. A refusal (the last admin, say)
  // also gets a toast: the row may be scrolled away from where the person is looking.
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    setConfirmOpen(false);
    if (fetcher.data?.kind === "refused") {
      toast({ title: "Not changed", description: fetcher.data.message, variant: "destructive" });
    }
  }, [fetcher.state, fetcher.data]);

  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={member.id} />
    </>
  );

  return (
    <li aria-labelledby={`staff-${member.id}-name`} className="grid gap-4 p-4 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <span
          aria-hidden="true"
          className={cn(
            "grid size-11 shrink-0 place-items-center rounded-full text-sm font-bold",
            member.disabled ? "bg-slate-200 text-slate-700" : "bg-brand-soft text-brand",
          )}
        >
          {initials(member.username)}
        </span>
        <div className="min-w-0 flex-1 basis-48">
          <p className="flex flex-wrap items-center gap-2">
            <span id={`staff-${member.id}-name`} className="font-semibold break-all">
              {member.username}
            </span>
            {isMe ? (
              <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-semibold text-white">You</span>
            ) : null}
            <span
              className={cn(
                "inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
                state.className,
              )}
            >
              {state.label}
            </span>
            {member.twoFactor ? (
              <span className="inline-flex rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-brand">
                Two-factor on
              </span>
            ) : null}
            {member.codeStepClosed ? (
              <span className="inline-flex rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-danger">
                Code step closed today
              </span>
            ) : null}
          </p>
          {/* NOTE: no separator character: one that ends a line when the two facts wrap dangles there
              ("Never signed in ·", issue 22). The gap separates them, as in the access log. */}
          <p className="mt-1 flex flex-wrap gap-x-4 text-sm text-ink-muted">
            <span>{member.lastSignIn ? `Last signed in ${member.lastSignIn}` : "Never signed in"}</span>
            <span>Added {member.added}</span>
          </p>
        </div>
        <fetcher.Form method="post" action={STAFF_PATH} className="flex items-center gap-2">
          {hidden("role")}
          <label htmlFor={`staff-${member.id}-role`} className="text-sm font-semibold">
            Role<span className="sr-only"> of {member.username}</span>
          </label>
          <NativeSelect
            compact
            id={`staff-${member.id}-role`}
            name="role"
            defaultValue={member.role ?? ""}
            key={member.role ?? "none"}
            className="w-auto"
          >
            {member.role === null ? (
              <option value="" disabled>
                No access
              </option>
            ) : null}
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </NativeSelect>
          <Button
            type="submit"
            variant="outline"
            size="sm"
            className="whitespace-nowrap"
            aria-busy={busy || undefined}
          >
            {busyIntent === "role" ? "Saving..." : "Save role"}
            <span className="sr-only"> of {member.username}</span>
          </Button>
        </fetcher.Form>
        <div className="flex flex-wrap gap-2">
          {showReset ? null : (
            <Button asChild variant="outline" size="sm">
              <Link to={`?${RESET_PARAM}=${member.id}`} preventScrollReset>
                Reset password<span className="sr-only"> of {member.username}</span>
              </Link>
            </Button>
          )}
          {isMe || member.disabled ? null : (
            <fetcher.Form method="post" action={STAFF_PATH}>
              {hidden("sign-out")}
              <Button type="submit" variant="outline" size="sm" aria-busy={busy || undefined}>
                {busyIntent === "sign-out" ? "Signing out..." : "Sign out everywhere"}
                <span className="sr-only"> {member.username}</span>
              </Button>
            </fetcher.Form>
          )}
          {member.twoFactor && !isMe ? (
            <fetcher.Form method="post" action={STAFF_PATH}>
              {hidden("reset-two-factor")}
              <Button type="submit" variant="outline" size="sm" aria-busy={busy || undefined}>
                {busyIntent === "reset-two-factor" ? "Resetting..." : "Reset two-factor"}
                <span className="sr-only"> of {member.username}</span>
              </Button>
            </fetcher.Form>
          ) : null}
          {member.codeStepClosed && !isMe ? (
            <fetcher.Form method="post" action={STAFF_PATH}>
              {hidden("reopen-code-step")}
              <Button type="submit" variant="outline" size="sm" aria-busy={busy || undefined}>
                {busyIntent === "reopen-code-step" ? "Reopening..." : "Reopen code step"}
                <span className="sr-only"> of {member.username}</span>
              </Button>
            </fetcher.Form>
          ) : null}
          {member.disabled ? (
            <fetcher.Form method="post" action={STAFF_PATH}>
              {hidden("enable")}
              <Button type="submit" variant="outline" size="sm" aria-busy={busy || undefined}>
                {busyIntent === "enable" ? "Enabling..." : "Enable"}
                <span className="sr-only"> {member.username}</span>
              </Button>
            </fetcher.Form>
          ) : hydrated ? (
            <AlertDialog open={confirmOpen} onOpenChange={(next) => !busy && setConfirmOpen(next)}>
              <AlertDialogTrigger asChild>
                <Button variant="ghost" size="sm" className="text-danger hover:bg-red-50">
                  Disable<span className="sr-only"> {member.username}</span>
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent
                title={isMe ? "Disable your own account?" : `Disable ${member.username}?`}
                description={disableText(member, isMe)}
              >
                <AlertDialogCancel asChild>
                  <Button variant="outline">Cancel</Button>
                </AlertDialogCancel>
                <Button
                  variant="danger"
                  aria-busy={busy || undefined}
                  onClick={() =>
                    fetcher.submit(
                      { intent: "disable", id: String(member.id) },
                      { method: "post", action: STAFF_PATH },
                    )
                  }
                >
                  {busyIntent === "disable" ? "Disabling..." : "Disable account"}
                </Button>
              </AlertDialogContent>
            </AlertDialog>
          ) : (
            <Button asChild variant="ghost" size="sm" className="text-danger hover:bg-red-50">
              <Link to={`?${CONFIRM_DISABLE_PARAM}=${member.id}`}>
                Disable<span className="sr-only"> {member.username}</span>
              </Link>
            </Button>
          )}
        </div>
      </div>

      <fetcher.Form method="post" action={STAFF_PATH} className="flex flex-wrap items-end gap-2">
        {hidden("email")}
        <div className="grid min-w-0 flex-1 basis-64 gap-1">
          <label htmlFor={`staff-${member.id}-email`} className="text-sm font-semibold">
            E-mail<span className="sr-only"> of {member.username}</span>
          </label>
          <Input
            id={`staff-${member.id}-email`}
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            defaultValue={member.email ?? ""}
            key={member.email ?? ""}
            placeholder="For meeting invitations"
            aria-invalid={refusal?.errors?.email ? true : undefined}
            aria-describedby={refusal?.errors?.email ? `staff-${member.id}-email-error` : undefined}
          />
        </div>
        <Button
          type="submit"
          variant="outline"
          size="sm"
          className="whitespace-nowrap"
          aria-busy={busy || undefined}
        >
          {busyIntent === "email" ? "Saving..." : "Save e-mail"}
          <span className="sr-only"> of {member.username}</span>
        </Button>
        {refusal?.errors?.email ? (
          <p id={`staff-${member.id}-email-error`} className="basis-full text-sm font-semibold text-danger">
            {refusal.errors.email}
          </p>
        ) : null}
      </fetcher.Form>

      {refusal && !refusal.errors ? <Banner tone="error">{refusal.message}</Banner> : null}

      {showConfirm && !member.disabled ? (
        <section
          aria-labelledby={`confirm-${member.id}-heading`}
          className="rounded-lg border-2 border-danger bg-white p-4"
        >
          <h3 id={`confirm-${member.id}-heading`} className="font-semibold text-danger">
            {isMe ? "Disable your own account?" : `Disable ${member.username}?`}
          </h3>
          <p className="mt-1 leading-6">{disableText(member, isMe)}</p>
          <fetcher.Form method="post" action={STAFF_PATH} className="mt-3 flex flex-wrap gap-3">
            {hidden("disable")}
            <Button type="submit" variant="danger">
              Disable account
            </Button>
            <Button asChild variant="outline">
              <Link to={STAFF_PATH}>Cancel</Link>
            </Button>
          </fetcher.Form>
        </section>
      ) : null}

      {link ? (
        <div className="grid gap-3">
          <SetPasswordLinkPanel link={link} />
          <Link
            to={STAFF_PATH}
            preventScrollReset
            className="justify-self-start font-semibold text-brand underline"
          >
            Done
          </Link>
        </div>
      ) : showReset ? (
        <section
          aria-labelledby={`reset-${member.id}-heading`}
          className="grid gap-5 rounded-lg border border-line bg-surface-muted p-4 sm:p-5"
        >
          <div>
            <h3 id={`reset-${member.id}-heading`} className="font-semibold">
              {isMe ? "Change your password" : `Reset the password of ${member.username}`}
            </h3>
            <p className="mt-1 text-sm leading-6 text-ink-muted">
              {isMe
                ? "Your other sessions end; this one stays signed in."
                : `${member.username} is signed out everywhere at once.`}
            </p>
          </div>
          <fetcher.Form method="post" action={STAFF_PATH} className="grid max-w-md gap-4">
            {hidden("set-password")}
            <NewPasswordFields idPrefix={`reset-${member.id}`} errors={refusal?.errors} />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" aria-busy={busy || undefined}>
                {busyIntent === "set-password" ? "Saving..." : "Set password"}
              </Button>
              <Button asChild variant="outline">
                <Link to={STAFF_PATH} preventScrollReset>
                  Cancel
                </Link>
              </Button>
            </div>
          </fetcher.Form>
          {isMe || member.disabled ? null : (
            <fetcher.Form method="post" action={STAFF_PATH} className="grid gap-2 border-t border-line pt-4">
              {hidden("issue-link")}
              <p className="text-sm leading-6">
                <strong className="font-semibold">Or let them choose:</strong> a one-time link replaces the
                current password, which stops working now.
              </p>
              <Button
                type="submit"
                variant="outline"
                className="justify-self-start"
                aria-busy={busy || undefined}
              >
                {busyIntent === "issue-link" ? "Creating link..." : "Create a set-password link"}
              </Button>
            </fetcher.Form>
          )}
        </section>
      ) : null}
    </li>
  );
}

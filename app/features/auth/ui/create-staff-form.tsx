import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { isRole, ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, type Role } from "#app/lib/permissions.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { USERNAME_INPUT_PATTERN, USERNAME_RULE } from "../password-rules.ts";
import { STAFF_PATH } from "../staff-paths.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { SetPasswordLinkPanel } from "./set-password-link.tsx";
import type { StaffActionData } from "./staff-view.ts";

type Method = "link" | "password";

/**
 * Adds a colleague: a username and a role, then either a one-time set-password link (the default: nobody but the
 * colleague ever knows the password) or an initial password. Without JavaScript both password
 * fields are always shown and only count with "Set a password now".
 */
export function CreateStaffForm({ pageResult }: { pageResult?: StaffActionData }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<StaffActionData>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data ?? pageResult;
  const refusal = result?.kind === "refused" ? result : undefined;
  const link = result?.kind === "link" ? result.link : undefined;
  const [method, setMethod] = useState<Method>(refusal?.values?.method === "password" ? "password" : "link");
  const askedRole = refusal?.values?.role;
  const [role, setRole] = useState<Role>(isRole(askedRole) ? askedRole : "admin");
  const busy = fetcher.state !== "idle";

  // Once an account is added (a link came back, or the page moved on with a notice), start afresh.
  const previousState = useRef(fetcher.state);
  useEffect(() => {
    const finished = previousState.current !== "idle" && fetcher.state === "idle";
    previousState.current = fetcher.state;
    if (finished && fetcher.data?.kind !== "refused") {
      form.current?.reset();
      setMethod("link");
      setRole("admin");
    }
  }, [fetcher.state, fetcher.data]);

  return (
    <div className="grid gap-5">
      {link ? <SetPasswordLinkPanel key={link.url} link={link} /> : null}
      <fetcher.Form ref={form} method="post" action={STAFF_PATH} className="grid gap-5">
        <input type="hidden" name="intent" value="create" />
        {refusal &&
        !refusal.errors?.username &&
        !refusal.errors?.password &&
        !refusal.errors?.confirm &&
        !refusal.errors?.email ? (
          <Banner tone="error">{refusal.message}</Banner>
        ) : null}
        <Field
          id="new-username"
          name="username"
          label="Username"
          required
          hint={`${USERNAME_RULE.charAt(0).toUpperCase()}${USERNAME_RULE.slice(1)}.`}
          error={refusal?.errors?.username}
        >
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={64}
              pattern={USERNAME_INPUT_PATTERN}
              defaultValue={refusal?.values?.username}
            />
          )}
        </Field>
        <Field
          id="new-role"
          name="role"
          label="Role"
          required
          hint={ROLE_DESCRIPTIONS[role]}
          error={refusal?.errors?.role}
        >
          {(control) => (
            <NativeSelect
              {...control}
              value={role}
              onChange={(event) => isRole(event.target.value) && setRole(event.target.value)}
            >
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {ROLE_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field
          id="new-email"
          name="email"
          label="E-mail address"
          hint="Optional. Meeting invitations for them go here when they host meetings."
          error={refusal?.errors?.email}
        >
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="off"
              maxLength={254}
              defaultValue={refusal?.values?.email}
            />
          )}
        </Field>
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-semibold">How they get their password</legend>
          <MethodChoice
            value="link"
            checked={method === "link"}
            onChange={setMethod}
            title="Give them a one-time link"
            text="They choose their own password. The link works once, for 72 hours."
          />
          <MethodChoice
            value="password"
            checked={method === "password"}
            onChange={setMethod}
            title="Set a password now"
            text="Tell it to them in person; they can change it here later."
          />
        </fieldset>
        {method === "password" || !hydrated ? (
          <div className="grid gap-4">
            {hydrated ? null : (
              <p className="text-sm text-ink-muted">Only needed with "Set a password now".</p>
            )}
            <NewPasswordFields
              idPrefix="new"
              required={hydrated}
              errors={refusal?.errors}
              labels={{ password: "Initial password", confirm: "Same password again" }}
            />
          </div>
        ) : null}
        <Button type="submit" className="justify-self-start" aria-busy={busy || undefined}>
          {busy ? "Adding..." : `Add ${ROLE_LABELS[role].toLowerCase()}`}
        </Button>
      </fetcher.Form>
    </div>
  );
}

function MethodChoice({
  value,
  checked,
  onChange,
  title,
  text,
}: {
  value: Method;
  checked: boolean;
  onChange: (value: Method) => void;
  title: string;
  text: string;
}) {
  const id = `method-${value}`;
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer gap-3 rounded-lg border border-line p-3 has-[:checked]:border-brand has-[:checked]:bg-brand-soft"
    >
      <input
        id={id}
        type="radio"
        name="method"
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        className="mt-1 size-4 accent-brand"
      />
      <span>
        <span className="block font-semibold">{title}</span>
        <span className="block text-sm leading-6 text-ink-muted">{text}</span>
      </span>
    </label>
  );
}

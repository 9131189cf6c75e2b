import { Form, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { CodeInput, Input } from "#app/components/ui/input.tsx";
import { EnrolmentCode, RecoveryCodes } from "./two-factor-setup.tsx";

// Issue 13: two-factor sign-in on the account page: turn it on (QR code, the key as text, a code to
// confirm), see how many recovery codes are left, make new ones, turn it off with a current code or
// the password. Plain forms posting an `intent`: the same with or without JavaScript.

export type TwoFactorPanelView = {
  enabled: boolean;
  since: string | null;
  recoveryCodesLeft: number;
  /** STAFF_2FA_REQUIRED: it cannot be turned off. */
  required: boolean;
  /** An enrolment waiting for its first code. */
  enrolment: { secret: string; qrSvg: string; uri: string } | null;
};

export type TwoFactorResult = {
  /** Which form the message is about. */
  form?: "confirm" | "confirm-password" | "renew" | "disable";
  message?: string;
  /** Shown once, right after they were made: on turning it on, or on asking for new ones. */
  recoveryCodes?: string[];
  done?: "enabled" | "renewed";
};

function CodeField({ id, label, hint, error }: { id: string; label: string; hint?: string; error?: string }) {
  return (
    <Field id={id} name="code" label={label} hint={hint} error={error} required>
      {(control) => <CodeInput {...control} />}
    </Field>
  );
}

export function TwoFactorPanel({ view, result }: { view: TwoFactorPanelView; result?: TwoFactorResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const errorFor = (form: TwoFactorResult["form"]) => (result?.form === form ? result?.message : undefined);

  if (result?.recoveryCodes) {
    return (
      <div className="grid gap-4">
        <Banner tone="success">
          {result?.done === "enabled"
            ? "Two-factor sign-in is on. From now on you sign in with your password and a code from the app."
            : "New recovery codes made: the old ones no longer work."}
        </Banner>
        <RecoveryCodes codes={result.recoveryCodes} />
      </div>
    );
  }

  if (view.enabled) {
    return (
      <div className="grid gap-5">
        <p className="leading-7">
          <span className="mr-2 inline-flex rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-900">
            On
          </span>
          Since {view.since}. Signing in asks for a code from your authenticator app.{" "}
          <strong className="font-semibold">{view.recoveryCodesLeft} of 10 recovery codes left.</strong>
        </p>
        {view.recoveryCodesLeft <= 3 ? (
          <Banner tone="error">Few recovery codes are left: make new ones before you run out.</Banner>
        ) : null}
        <div className="grid gap-6 md:grid-cols-2">
          <Form method="post" className="grid content-start gap-3 rounded-lg border border-line p-4">
            <input type="hidden" name="intent" value="2fa-renew" />
            <h3 className="font-semibold">New recovery codes</h3>
            <CodeField id="renew-code" label="Current code from your app" error={errorFor("renew")} />
            <Button type="submit" variant="outline" className="justify-self-start">
              {busy === "2fa-renew" ? "Making codes..." : "Make new recovery codes"}
            </Button>
          </Form>
          {view.required ? (
            <p className="self-start rounded-lg border border-line p-4 text-sm leading-6 text-ink-muted">
              This installation requires two-factor sign-in for all staff, so it cannot be turned off. If you
              lose your phone, use a recovery code, or ask another admin to reset it.
            </p>
          ) : (
            <Form method="post" className="grid content-start gap-3 rounded-lg border border-line p-4">
              <input type="hidden" name="intent" value="2fa-disable" />
              <h3 className="font-semibold">Turn off</h3>
              <Field
                id="disable-proof"
                name="proof"
                label="A current code, or your password"
                error={errorFor("disable")}
                required
              >
                {(control) => (
                  <Input {...control} type="password" autoComplete="current-password" maxLength={256} />
                )}
              </Field>
              <Button type="submit" variant="danger" className="justify-self-start">
                {busy === "2fa-disable" ? "Turning off..." : "Turn off two-factor sign-in"}
              </Button>
            </Form>
          )}
        </div>
      </div>
    );
  }

  if (view.enrolment) {
    return (
      <div className="grid gap-5">
        <p className="leading-7">
          1. Add your account to an authenticator app. 2. Enter the 6-digit code it shows, and your password,
          to turn two-factor sign-in on.
        </p>
        <EnrolmentCode {...view.enrolment} />
        <Form method="post" className="grid max-w-sm gap-3">
          <input type="hidden" name="intent" value="2fa-confirm" />
          <CodeField id="confirm-code" label="Code from the app" error={errorFor("confirm")} />
          {/* A session alone must not be enough to put someone else's phone on the account. */}
          <Field
            id="confirm-password"
            name="password"
            label="Your password"
            error={errorFor("confirm-password")}
            required
          >
            {(control) => (
              <Input {...control} type="password" autoComplete="current-password" maxLength={256} />
            )}
          </Field>
          <div className="flex flex-wrap gap-3">
            <Button type="submit">{busy === "2fa-confirm" ? "Checking..." : "Turn on"}</Button>
          </div>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="2fa-cancel" />
          <Button type="submit" variant="outline" size="sm">
            Cancel setup
          </Button>
        </Form>
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <p className="leading-7">
        <span className="mr-2 inline-flex rounded-full bg-slate-200 px-2.5 py-0.5 text-sm font-semibold text-slate-900">
          Off
        </span>
        {view.required
          ? "Required for all staff: you set it up at your next sign-in, or now."
          : "With it on, a stolen password alone no longer opens your account: signing in also asks for a code from an app on your phone."}
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="2fa-start" />
        <Button type="submit">{busy === "2fa-start" ? "Starting..." : "Set up two-factor sign-in"}</Button>
      </Form>
    </div>
  );
}

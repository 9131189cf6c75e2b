import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../password-rules.ts";

export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters; a few words make a good passphrase.`;

/** A new password and the same again, with the browser's length checks (the server has the last word). */
export function NewPasswordFields({
  idPrefix,
  errors = {},
  required = true,
  labels = { password: "New password", confirm: "Same password again" },
}: {
  idPrefix: string;
  errors?: { password?: string; confirm?: string };
  required?: boolean;
  labels?: { password: string; confirm: string };
}) {
  return (
    <>
      <Field
        id={`${idPrefix}-password`}
        name="password"
        label={labels.password}
        hint={PASSWORD_HINT}
        required={required}
        error={errors.password}
      >
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            maxLength={MAX_PASSWORD_LENGTH}
          />
        )}
      </Field>
      <Field
        id={`${idPrefix}-confirm`}
        name="confirm"
        label={labels.confirm}
        required={required}
        error={errors.confirm}
      >
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            maxLength={MAX_PASSWORD_LENGTH}
          />
        )}
      </Field>
    </>
  );
}

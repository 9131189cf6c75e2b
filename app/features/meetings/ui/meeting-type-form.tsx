import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { MEETING_DURATIONS } from "../booking-types.ts";

// One meeting type's form on /admin/meeting-types (issue 34): its name, length, who hosts it and how
// the host is chosen, and whether prospects are offered it. A new type's form also asks its link
// name. Plain fields: the page works without JavaScript.

export type MeetingTypeFormValues = {
  slug?: string;
  name: string;
  durationMinutes: number;
  hostChoice: "round_robin" | "owner_first";
  /** null: everyone who hosts. */
  hostIds: number[] | null;
  active: boolean;
};

const radio =
  "size-5 shrink-0 cursor-pointer accent-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand";

/** The page's fields as the API's body (the server's schema then decides). */
export function meetingTypeFromForm(form: URLSearchParams, withSlug: boolean): Record<string, unknown> {
  const duration = Number(form.get("durationMinutes"));
  const body: Record<string, unknown> = {
    name: form.get("name") ?? "",
    durationMinutes: Number.isFinite(duration) ? duration : form.get("durationMinutes"),
    hostChoice: form.get("hostChoice") ?? "",
    hostIds:
      form.get("hostMode") === "some"
        ? form
            .getAll("hostIds")
            .slice(0, 200)
            .map((id) => Number(id))
        : null,
    active: form.get("active") === "on",
  };
  if (withSlug) body.slug = (form.get("slug") ?? "").trim();
  return body;
}

export function MeetingTypeForm({
  idPrefix,
  typeId,
  values,
  errors,
  hosts,
  submitLabel,
}: {
  idPrefix: string;
  /** The type being changed; none for a new one (its form asks the link name). */
  typeId?: number;
  values: MeetingTypeFormValues;
  errors: Record<string, string>;
  hosts: { id: number; username: string }[];
  submitLabel: string;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <Form method="post" className="grid gap-5" noValidate>
      <input type="hidden" name="intent" value={typeId ? "update" : "create"} />
      {typeId ? <input type="hidden" name="id" value={typeId} /> : null}
      {errors.form ? (
        <p role="alert" className="font-semibold text-danger">
          {errors.form}
        </p>
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={id("name")} name="name" label="Name" required error={errors.name}>
          {(control) => <Input {...control} defaultValue={values.name} maxLength={60} />}
        </Field>
        <Field
          id={id("duration")}
          name="durationMinutes"
          label="Length"
          required
          error={errors.durationMinutes}
        >
          {(control) => (
            <NativeSelect {...control} defaultValue={String(values.durationMinutes)}>
              {MEETING_DURATIONS.map((minutes) => (
                <option key={minutes} value={minutes}>
                  {minutes} minutes
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        {typeId ? null : (
          <Field
            id={id("slug")}
            name="slug"
            label="Link name"
            hint="Its page is /book/<link name>; the API calls it by this name."
            required
            error={errors.slug}
          >
            {(control) => (
              <Input {...control} defaultValue={values.slug ?? ""} maxLength={40} placeholder="site-visit" />
            )}
          </Field>
        )}
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-1 font-semibold">Who hosts it</legend>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="radio"
            name="hostMode"
            value="all"
            defaultChecked={values.hostIds === null}
            className={radio}
          />
          Everyone who hosts meetings (every admin and sales account, new ones too)
        </label>
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="radio"
            name="hostMode"
            value="some"
            defaultChecked={values.hostIds !== null}
            className={radio}
          />
          Only the people ticked below
        </label>
        <div className="grid gap-1 pl-8 sm:grid-cols-2">
          {hosts.map((host) => (
            <label key={host.id} className="flex min-h-11 cursor-pointer items-center gap-3">
              <input
                type="checkbox"
                name="hostIds"
                value={host.id}
                defaultChecked={values.hostIds?.includes(host.id) ?? false}
                className={radio}
              />
              {host.username}
            </label>
          ))}
        </div>
        {errors.hostIds ? <p className="text-sm font-semibold text-danger">{errors.hostIds}</p> : null}
      </fieldset>

      <fieldset className="grid gap-2">
        <legend className="mb-1 font-semibold">How the host is chosen</legend>
        <label className="flex min-h-11 cursor-pointer items-start gap-3 pt-2">
          <input
            type="radio"
            name="hostChoice"
            value="owner_first"
            defaultChecked={values.hostChoice === "owner_first"}
            className={`${radio} mt-0.5`}
          />
          <span>
            The lead's owner first
            <span className="block text-sm text-ink-muted">
              A returning lead with an owner meets their owner when free; anyone else as round robin.
            </span>
          </span>
        </label>
        <label className="flex min-h-11 cursor-pointer items-start gap-3 pt-2">
          <input
            type="radio"
            name="hostChoice"
            value="round_robin"
            defaultChecked={values.hostChoice === "round_robin"}
            className={`${radio} mt-0.5`}
          />
          <span>
            Round robin
            <span className="block text-sm text-ink-muted">
              The free host with the fewest meetings of this type that month; a tie goes to the one idle
              longest.
            </span>
          </span>
        </label>
        {errors.hostChoice ? <p className="text-sm font-semibold text-danger">{errors.hostChoice}</p> : null}
      </fieldset>

      <label className="flex min-h-11 cursor-pointer items-center gap-3 font-semibold">
        <input type="checkbox" name="active" defaultChecked={values.active} className={radio} />
        Offered to prospects
      </label>

      <div>
        <Button type="submit">{submitLabel}</Button>
      </div>
    </Form>
  );
}

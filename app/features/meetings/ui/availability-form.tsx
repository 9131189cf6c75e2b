import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { dayField, PAGE_PERIODS } from "../availability-form.ts";
import { PROFILE_LIMITS, WEEKDAY_LABELS, WEEKDAYS } from "../booking-profile.ts";

// The Availability page's form (issue 34): a week of working hours, days off, and the rules around
// meetings. Plain fields posted to the page's action; the server's schema has the last word.

const timeInput = "h-11 min-w-0 flex-1 sm:w-36 sm:flex-none";

function WeekdayRow({
  day,
  values,
  errors,
}: {
  day: (typeof WEEKDAYS)[number];
  values: Record<string, string>;
  errors: Record<string, string>;
}) {
  const label = WEEKDAY_LABELS[day];
  const rowErrors = Array.from({ length: PAGE_PERIODS }, (_, index) => [
    errors[dayField(day, `${index}.start`)],
    errors[dayField(day, `${index}.end`)],
  ]).flat();
  const errorText = rowErrors.find(Boolean);
  const errorId = `${day}-hours-error`;
  return (
    <fieldset className="grid gap-3 border-b border-line py-4 last:border-b-0 sm:grid-cols-[10rem_minmax(0,1fr)] sm:items-start">
      <legend className="sr-only">{label}</legend>
      <label className="flex min-h-11 cursor-pointer items-center gap-3 font-semibold text-ink">
        <input
          type="checkbox"
          name={dayField(day, "on")}
          defaultChecked={Boolean(values[dayField(day, "on")])}
          className="size-5 shrink-0 cursor-pointer accent-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand"
        />
        {label}
      </label>
      <div className="grid gap-2">
        {Array.from({ length: PAGE_PERIODS }, (_, index) => {
          const startName = dayField(day, `${index}.start`);
          const endName = dayField(day, `${index}.end`);
          const period = index === 0 ? "" : " (second period)";
          return (
            <div key={startName} className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
              <Input
                type="time"
                step={300}
                name={startName}
                aria-label={`${label}${period}: from`}
                defaultValue={values[startName] ?? ""}
                aria-invalid={errors[startName] ? true : undefined}
                aria-describedby={errorText ? errorId : undefined}
                className={timeInput}
              />
              <span aria-hidden="true" className="text-ink-muted">
                to
              </span>
              <Input
                type="time"
                step={300}
                name={endName}
                aria-label={`${label}${period}: to`}
                defaultValue={values[endName] ?? ""}
                aria-invalid={errors[endName] ? true : undefined}
                aria-describedby={errorText ? errorId : undefined}
                className={timeInput}
              />
              {index > 0 ? <span className="text-sm text-ink-muted">optional</span> : null}
            </div>
          );
        })}
        {errorText ? (
          <p id={errorId} className="text-sm font-semibold text-danger">
            {errorText}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

function NumberField({
  name,
  label,
  hint,
  values,
  errors,
  max,
  step = 5,
}: {
  name: string;
  label: string;
  hint: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  max: number;
  step?: number;
}) {
  return (
    <Field id={`availability-${name}`} name={name} label={label} hint={hint} error={errors[name]} required>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="numeric"
          min={step === 1 ? 1 : 0}
          max={max}
          step={step}
          defaultValue={values[name] ?? ""}
          className="w-full sm:w-40"
        />
      )}
    </Field>
  );
}

export function AvailabilityForm({
  userId,
  values,
  errors,
  timeZones,
  updated,
}: {
  userId: number;
  values: Record<string, string>;
  errors: Record<string, string>;
  timeZones: readonly string[];
  updated: string | null;
}) {
  return (
    <Form method="post" className="grid gap-6" noValidate>
      <input type="hidden" name="userId" value={userId} />
      <section
        aria-labelledby="hours-heading"
        className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="hours-heading" className="text-xl font-semibold">
          Working hours
        </h2>
        <p className="mt-1 text-ink-muted">
          Tick the days you take meetings and give their hours; a second period leaves a gap (lunch, the
          school run).
        </p>
        <div className="mt-4 max-w-md">
          <Field
            id="availability-timeZone"
            name="timeZone"
            label="Time zone of these hours"
            error={errors.timeZone}
            required
          >
            {(control) => (
              <NativeSelect {...control} defaultValue={values.timeZone ?? "Europe/London"}>
                {timeZones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replaceAll("_", " ")}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </div>
        <div className="mt-2">
          {WEEKDAYS.map((day) => (
            <WeekdayRow key={day} day={day} values={values} errors={errors} />
          ))}
        </div>
      </section>

      <section
        aria-labelledby="rules-heading"
        className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="rules-heading" className="text-xl font-semibold">
          Around each meeting
        </h2>
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <NumberField
            name="bufferBeforeMinutes"
            label="Buffer before (minutes)"
            hint="Free time kept before a meeting."
            values={values}
            errors={errors}
            max={PROFILE_LIMITS.bufferMinutes}
          />
          <NumberField
            name="bufferAfterMinutes"
            label="Buffer after (minutes)"
            hint="Free time kept after a meeting."
            values={values}
            errors={errors}
            max={PROFILE_LIMITS.bufferMinutes}
          />
          <NumberField
            name="minimumNoticeMinutes"
            label="Minimum notice (minutes)"
            hint="How soon a prospect may book: 120 is two hours from now."
            values={values}
            errors={errors}
            max={PROFILE_LIMITS.noticeMinutes}
          />
          <NumberField
            name="horizonDays"
            label="Bookable up to (days ahead)"
            hint="How far ahead times are offered."
            values={values}
            errors={errors}
            max={PROFILE_LIMITS.horizonDays}
            step={1}
          />
          <NumberField
            name="maxPerDay"
            label="Most meetings in a day"
            hint="Once reached, the day offers no more times."
            values={values}
            errors={errors}
            max={PROFILE_LIMITS.maxPerDay}
            step={1}
          />
        </div>
      </section>

      <section
        aria-labelledby="days-off-heading"
        className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="days-off-heading" className="text-xl font-semibold">
          Days off
        </h2>
        <div className="mt-4 max-w-md">
          <Field
            id="availability-daysOff"
            name="daysOff"
            label="Dates with no meetings"
            hint="One date a line, as 2026-12-24, in the time zone above."
            error={errors.daysOff}
          >
            {(control) => (
              <Textarea {...control} rows={5} defaultValue={values.daysOff ?? ""} className="font-mono" />
            )}
          </Field>
        </div>
      </section>

      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" size="lg">
          Save availability
        </Button>
        {updated ? <p className="text-sm text-ink-muted">Last saved {updated}.</p> : null}
      </div>
    </Form>
  );
}

import { COMMON_TIME_ZONES, type SlotDay } from "../slot-labels.ts";

// The booking pages' time choice (issue 34): plain radio buttons grouped by day, so it works without
// JavaScript, by keyboard (arrows within a day, Tab between days) and with a screen reader, which
// hears each as "Tuesday 8 December, 10:30".

export function TimeChoice({
  days,
  chosen,
  error,
  name = "start",
  form,
  compact = false,
}: {
  days: SlotDay[];
  chosen?: string;
  error?: string;
  name?: string;
  /** The form the radios belong to, when they sit inside another (the thank-you panel's). */
  form?: string;
  /** Each day after the first folds away behind its name (a disclosure that needs no script). */
  compact?: boolean;
}) {
  if (days.length === 0)
    return (
      <p role="status" className="rounded-lg border border-line bg-surface-muted p-4 leading-7">
        No times are open in the next three weeks. Please write to us and we will find one.
      </p>
    );
  return (
    <div className="grid gap-6">
      {error ? (
        <p id={`${name}-error`} className="font-semibold text-danger">
          {error}
        </p>
      ) : null}
      {days.map((day, index) => {
        const times = (
          <fieldset key={day.label} className="min-w-0">
            <legend className={compact ? "sr-only" : "mb-3 text-lg font-semibold text-brand"}>
              {day.label}
            </legend>
            <div className="flex flex-wrap gap-2">
              {day.slots.map((slot) => (
                <label
                  key={slot.start}
                  className="relative inline-flex h-11 min-w-20 cursor-pointer items-center justify-center rounded-md border border-ink-muted bg-white px-4 font-semibold text-brand has-checked:border-brand has-checked:bg-brand has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand"
                >
                  <input
                    type="radio"
                    name={name}
                    form={form}
                    value={slot.start}
                    required
                    defaultChecked={slot.start === chosen}
                    aria-describedby={error ? `${name}-error` : undefined}
                    className="sr-only"
                  />
                  <span className="sr-only">{day.label}, </span>
                  {slot.time}
                </label>
              ))}
            </div>
          </fieldset>
        );
        if (!compact) return times;
        return (
          <details key={day.label} open={index === 0} className="group min-w-0">
            <summary className="mb-3 flex cursor-pointer list-none flex-wrap items-baseline gap-x-2 text-lg font-semibold text-brand [&::-webkit-details-marker]:hidden">
              <span>
                <span
                  aria-hidden="true"
                  className="mr-2 inline-block transition-transform group-open:rotate-90"
                >
                  ›
                </span>
                {day.label}
              </span>
              <span className="text-sm font-normal text-ink-muted">
                {day.slots.length} {day.slots.length === 1 ? "time" : "times"}
              </span>
            </summary>
            {times}
          </details>
        );
      })}
    </div>
  );
}

/**
 * A GET form that shows the times in another zone (works without JavaScript). Inside another form,
 * `form` names the one its select and button belong to instead. With `onZone` (once scripts run) a
 * change of zone is shown at once, without the button.
 */
export function ZoneChoice({
  zone,
  action,
  form,
  id = "tz",
  onZone,
}: {
  zone: string;
  action: string;
  form?: string;
  id?: string;
  onZone?: (zone: string) => void;
}) {
  const known = COMMON_TIME_ZONES.some(([zoneId]) => zoneId === zone);
  const fields = (
    <>
      <div className="grid w-full min-w-0 gap-1.5 sm:w-auto">
        <label htmlFor={id} className="font-semibold">
          Times shown in
        </label>
        <select
          id={id}
          name="tz"
          form={form}
          defaultValue={zone}
          onChange={onZone ? (event) => onZone(event.currentTarget.value) : undefined}
          className="h-11 w-full min-w-0 rounded-md border border-ink-muted bg-white px-3 text-base sm:w-auto"
        >
          {known ? null : <option value={zone}>{zone}</option>}
          {COMMON_TIME_ZONES.map(([zoneId, label]) => (
            <option key={zoneId} value={zoneId}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {onZone ? null : (
        <button
          type="submit"
          form={form}
          formMethod={form ? "get" : undefined}
          formAction={form ? action : undefined}
          formNoValidate={form ? true : undefined}
          className="h-11 rounded-md border border-brand bg-white px-4 font-semibold text-brand hover:bg-brand-soft"
        >
          Show times
        </button>
      )}
    </>
  );
  return form ? (
    <div className="flex flex-wrap items-end gap-3">{fields}</div>
  ) : (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3">
      {fields}
    </form>
  );
}

import { COMMON_TIME_ZONES, type SlotDay } from "../slot-labels.ts";

// The booking pages' time choice (issue 34): plain radio buttons grouped by day, so it works without
// JavaScript, by keyboard (arrows within a day, Tab between days) and with a screen reader, which
// hears each as "Tuesday 8 December, 10:30".

export function TimeChoice({
  days,
  chosen,
  error,
  name = "start",
}: {
  days: SlotDay[];
  chosen?: string;
  error?: string;
  name?: string;
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
      {days.map((day) => (
        <fieldset key={day.label} className="min-w-0">
          <legend className="mb-3 text-lg font-semibold text-brand">{day.label}</legend>
          <div className="flex flex-wrap gap-2">
            {day.slots.map((slot) => (
              <label
                key={slot.start}
                className="relative inline-flex h-11 min-w-20 cursor-pointer items-center justify-center rounded-md border border-ink-muted bg-white px-4 font-semibold text-brand has-checked:border-brand has-checked:bg-brand has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand"
              >
                <input
                  type="radio"
                  name={name}
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
      ))}
    </div>
  );
}

/** A GET form that shows the times in another zone (works without JavaScript). */
export function ZoneChoice({ zone, action }: { zone: string; action: string }) {
  const known = COMMON_TIME_ZONES.some(([id]) => id === zone);
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3">
      <div className="grid w-full min-w-0 gap-1.5 sm:w-auto">
        <label htmlFor="tz" className="font-semibold">
          Times shown in
        </label>
        <select
          id="tz"
          name="tz"
          defaultValue={zone}
          className="h-11 w-full min-w-0 rounded-md border border-ink-muted bg-white px-3 text-base sm:w-auto"
        >
          {known ? null : <option value={zone}>{zone}</option>}
          {COMMON_TIME_ZONES.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="h-11 rounded-md border border-brand bg-white px-4 font-semibold text-brand hover:bg-brand-soft"
      >
        Show times
      </button>
    </form>
  );
}

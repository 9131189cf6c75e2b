import { type BookingProfile, type TimeRange, WEEKDAYS } from "./booking-profile.ts";

// The Availability page's form (issue 34) as plain fields, so it works without JavaScript: per
// weekday a box and up to two periods, days off one per line, the numbers in minutes or days. It
// turns into the profile PUT /api/admin/availability takes; the shared schema then decides.

/** Periods a day on the page (the profile allows more through the API). */
export const PAGE_PERIODS = 2;

export const dayField = (day: string, field: "on" | `${number}.${"start" | "end"}`) => `${day}.${field}`;

/** What the page posted, as the profile's shape (numbers left as they came when not numbers). */
export function profileFromForm(form: URLSearchParams): Record<string, unknown> {
  const weeklyHours: Record<string, TimeRange[]> = {};
  for (const day of WEEKDAYS) {
    const ranges: TimeRange[] = [];
    if (form.get(dayField(day, "on")))
      for (let index = 0; index < PAGE_PERIODS; index++) {
        const start = form.get(dayField(day, `${index}.start`))?.trim() ?? "";
        const end = form.get(dayField(day, `${index}.end`))?.trim() ?? "";
        // A second period left empty is no period; the first one must be given when the day is on.
        if (index > 0 && !start && !end) continue;
        ranges.push({ start, end });
      }
    weeklyHours[day] = ranges;
  }
  const number = (name: string) => {
    const text = form.get(name)?.trim() ?? "";
    return text === "" || Number.isNaN(Number(text)) ? text : Number(text);
  };
  return {
    timeZone: form.get("timeZone") ?? "",
    weeklyHours,
    daysOff: (form.get("daysOff") ?? "")
      .split(/[\s,]+/)
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 1000),
    bufferBeforeMinutes: number("bufferBeforeMinutes"),
    bufferAfterMinutes: number("bufferAfterMinutes"),
    minimumNoticeMinutes: number("minimumNoticeMinutes"),
    horizonDays: number("horizonDays"),
    maxPerDay: number("maxPerDay"),
  };
}

/** The form's values for a profile (what the page shows before any post). */
export function formValuesOf(profile: BookingProfile): Record<string, string> {
  const values: Record<string, string> = {
    timeZone: profile.timeZone,
    daysOff: profile.daysOff.join("\n"),
    bufferBeforeMinutes: String(profile.bufferBeforeMinutes),
    bufferAfterMinutes: String(profile.bufferAfterMinutes),
    minimumNoticeMinutes: String(profile.minimumNoticeMinutes),
    horizonDays: String(profile.horizonDays),
    maxPerDay: String(profile.maxPerDay),
  };
  for (const day of WEEKDAYS) {
    const ranges = profile.weeklyHours[day];
    if (ranges.length > 0) values[dayField(day, "on")] = "on";
    ranges.slice(0, PAGE_PERIODS).forEach((range, index) => {
      values[dayField(day, `${index}.start`)] = range.start;
      values[dayField(day, `${index}.end`)] = range.end;
    });
  }
  return values;
}

/** The schema's error paths ("weeklyHours.mon.0.end", "daysOff.3") as the form's field names. */
export function formErrorsOf(errors: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const parts = path.split(".");
    let name = parts[0] ?? "form";
    if (parts[0] === "weeklyHours" && parts[1]) {
      // A day's own error (too many, overlapping) sits on its first period's end.
      name =
        parts[2] === undefined ? dayField(parts[1], "0.end") : `${parts[1]}.${parts[2]}.${parts[3] ?? "end"}`;
    }
    fields[name] ??= message;
  }
  return fields;
}

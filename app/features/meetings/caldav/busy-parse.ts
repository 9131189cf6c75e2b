import type ICALModule from "ical.js";

// What a calendar-query REPORT answer (RFC 4791 §7.8) says about a host's busy times: each
// <calendar-data> of the multistatus, parsed with ical.js, every VEVENT's occurrences between `from`
// and `to` (recurrences expanded here, since servers such as Radicale ignore <expand>; exceptions and
// EXDATEs applied), less the ones that take no time: TRANSP:TRANSPARENT, STATUS:CANCELLED, and the
// meetings this site wrote itself (UID …@clausebridge), which the meetings table already counts (a
// meeting being moved must not be in its own way).
//
// The kit below runs in a worker thread (busy-parse-worker.server.ts), so it is written to be sent
// there as source: no imports, no reference to anything outside the function; ical.js comes in as
// its argument. Times with a zone the calendar defines (or UTC) come back as instants; floating ones,
// all-day dates and zones the calendar names but does not define come back as wall times, which the
// main thread places in the named IANA zone or the host's (it has the zone database at hand).

/** An instant (ms), or a wall time "YYYY-MM-DDTHH:MM" in `zone` (null: the host's zone). */
export type BusyTime = number | { wall: string; zone: string | null };
export type BusyPiece = { start: BusyTime; end: BusyTime };
export type BusyParseResult = { ok: true; busy: BusyPiece[] } | { ok: false; error: string };

export function busyParseKit(ICAL: typeof ICALModule) {
  /** Occurrences walked per recurring event before giving up on it (a FREQ=SECONDLY rule from 1970). */
  const MAX_STEPS = 20_000;
  /** Busy times kept from one answer; more is an error rather than a silently partial calendar. */
  const MAX_PIECES = 20_000;
  /** The UIDs this site gives its meetings (meeting-store.server.ts): the kit cannot see outside itself. */
  const OWN_SUFFIX = "@clausebridge";
  /** Wall times are compared with instants by their UTC reading: a day either side covers any zone. */
  const SLACK_MS = 86_400_000 + 3_600_000;

  function decodeXml(text: string): string {
    return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, entity: string) => {
      const name = entity.toLowerCase();
      if (name === "lt") return "<";
      if (name === "gt") return ">";
      if (name === "amp") return "&";
      if (name === "quot") return '"';
      if (name === "apos") return "'";
      const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
  }

  /** The text of every <…:calendar-data> element, in one linear pass (no backtracking regex). */
  function calendarDataTexts(xml: string): string[] {
    if (!/<([\w.-]+:)?multistatus[\s>]/.test(xml.slice(0, 4096)))
      throw new Error("The answer is not a CalDAV multistatus.");
    const texts: string[] = [];
    let at = 0;
    for (;;) {
      const found = xml.indexOf("calendar-data", at);
      if (found === -1) break;
      at = found + 13;
      const open = xml.lastIndexOf("<", found);
      // Only an opening tag: "<C:calendar-data" or "<calendar-data", not "</…" or text.
      const prefix = open === -1 ? "" : xml.slice(open + 1, found);
      if (open === -1 || !/^([\w.-]+:)?$/.test(prefix)) continue;
      const close = xml.indexOf(">", at);
      if (close === -1) break;
      if (xml[close - 1] === "/") continue;
      const endTag = `</${prefix}calendar-data`;
      const end = xml.indexOf(endTag, close);
      if (end === -1) throw new Error("The answer's XML is cut short.");
      let text = xml.slice(close + 1, end);
      const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(text);
      text = cdata ? (cdata[1] ?? "") : decodeXml(text);
      if (text.trim()) texts.push(text);
      at = end + endTag.length;
    }
    return texts;
  }

  function pad(value: number, length = 2) {
    return String(value).padStart(length, "0");
  }

  type Time = InstanceType<typeof ICAL.Time>;
  type Component = InstanceType<typeof ICAL.Component>;

  function timeOf(time: Time, namedZone: string | null): BusyTime {
    if (time.isDate)
      return { wall: `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}T00:00`, zone: null };
    if (time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
    return {
      wall: `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}`,
      zone: namedZone,
    };
  }

  /** A rough instant of a time, for the window check only. */
  function roughly(time: BusyTime): number {
    return typeof time === "number" ? time : Date.parse(`${time.wall}:00Z`);
  }

  /** Every component and property name an RFC 5545 name (letters, digits, dashes), all the way down. */
  function wellFormed(jcal: unknown): boolean {
    const name = /^[A-Za-z0-9-]+$/;
    if (!Array.isArray(jcal) || typeof jcal[0] !== "string" || !name.test(jcal[0])) return false;
    const properties: unknown = jcal[1];
    const components: unknown = jcal[2];
    if (!Array.isArray(properties) || !Array.isArray(components)) return false;
    for (const property of properties)
      if (!Array.isArray(property) || typeof property[0] !== "string" || !name.test(property[0]))
        return false;
    return components.every(wellFormed);
  }

  function takesTime(component: Component): boolean {
    const transp = String(component.getFirstPropertyValue("transp") ?? "").toUpperCase();
    const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
    return transp !== "TRANSPARENT" && status !== "CANCELLED";
  }

  function busyFromAnswer(xml: string, from: number, to: number): BusyParseResult {
    try {
      ICAL.TimezoneService.reset();
      const busy: BusyPiece[] = [];
      const add = (start: BusyTime, end: BusyTime) => {
        const s = roughly(start);
        const e = roughly(end);
        if (!(e > s) || e < from - SLACK_MS || s > to + SLACK_MS) return;
        if (busy.length >= MAX_PIECES)
          throw new Error(`The calendar has more than ${MAX_PIECES} busy times.`);
        busy.push({ start, end });
      };
      for (const text of calendarDataTexts(xml)) {
        let calendar: Component;
        try {
          // ical.js reads leniently (a line "this is not: a calendar" becomes a property named
          // "this is not"); what a calendar server sends must be iCalendar to the letter.
          const trimmed = text.trim();
          if (!/^BEGIN:VCALENDAR\r?\n/i.test(trimmed) || !/\r?\nEND:VCALENDAR$/i.test(trimmed))
            throw new Error("not a VCALENDAR");
          const parsed = ICAL.parse(trimmed);
          if (Array.isArray(parsed[0]) || !wellFormed(parsed)) throw new Error("malformed");
          calendar = new ICAL.Component(parsed);
        } catch {
          throw new Error("The calendar returned an event that is not valid iCalendar.");
        }
        for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
        const events = calendar.getAllSubcomponents("vevent");
        const byUid = new Map<string, { master: Component | null; exceptions: Component[] }>();
        for (const event of events) {
          const uid = String(event.getFirstPropertyValue("uid") ?? "");
          if (uid.toLowerCase().endsWith(OWN_SUFFIX)) continue;
          const key = uid || `#${byUid.size}`;
          const entry = byUid.get(key) ?? { master: null, exceptions: [] };
          if (event.hasProperty("recurrence-id")) entry.exceptions.push(event);
          else entry.master = event;
          byUid.set(key, entry);
        }
        for (const { master, exceptions } of byUid.values()) {
          if (!master) {
            // Instances of a series whose master is not here (an invitation to one occurrence).
            for (const single of exceptions) {
              if (!takesTime(single)) continue;
              const event = new ICAL.Event(single);
              const zone = String(single.getFirstProperty("dtstart")?.getParameter("tzid") ?? "") || null;
              add(timeOf(event.startDate, zone), timeOf(event.endDate, zone));
            }
            continue;
          }
          const event = new ICAL.Event(master, { exceptions, strictExceptions: false });
          const zone = String(master.getFirstProperty("dtstart")?.getParameter("tzid") ?? "") || null;
          if (!event.startDate) throw new Error("The calendar returned an event without a start.");
          if (!event.isRecurring()) {
            if (takesTime(master)) add(timeOf(event.startDate, zone), timeOf(event.endDate, zone));
            continue;
          }
          const iterator = event.iterator();
          // An occurrence that ends before the window (and is not moved by an exception) is passed
          // over without working out its details, the costly part.
          const lengthMs = Math.max(
            0,
            roughly(timeOf(event.endDate, zone)) - roughly(timeOf(event.startDate, zone)),
          );
          const moved = new Set(
            exceptions.map((exception) => String(exception.getFirstPropertyValue("recurrence-id"))),
          );
          for (let step = 0; step < MAX_STEPS; step++) {
            const next = iterator.next();
            if (!next) break;
            if (roughly(timeOf(next, zone)) + lengthMs < from - SLACK_MS && !moved.has(next.toString()))
              continue;
            const details = event.getOccurrenceDetails(next);
            const start = timeOf(details.startDate, zone);
            if (roughly(start) > to + SLACK_MS) break;
            if (!takesTime(details.item.component)) continue;
            add(start, timeOf(details.endDate, zone));
          }
        }
      }
      return { ok: true, busy };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  return { busyFromAnswer };
}

import { spawn } from "node:child_process";

// Reads an iCalendar text with Debian's Python `icalendar` (python3-icalendar; `.ci/run` installs it
// when missing), a second, independent parser to ical.js: issue 34 asks that the invitations parse
// with both, as calendar apps built on either would read them.

const SCRIPT = `
import json, sys
from datetime import datetime, timezone
import icalendar

def iso(value):
    dt = value.dt
    if isinstance(dt, datetime):
        return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return dt.isoformat()

calendar = icalendar.Calendar.from_ical(sys.stdin.read())
events = []
for event in calendar.walk("VEVENT"):
    attendees = event.get("ATTENDEE")
    if attendees is not None and not isinstance(attendees, list):
        attendees = [attendees]
    events.append({
        "uid": str(event.get("UID")),
        "sequence": int(event.get("SEQUENCE", 0)),
        "status": str(event.get("STATUS", "")),
        "summary": str(event.get("SUMMARY", "")),
        "start": iso(event.get("DTSTART")),
        "end": iso(event.get("DTEND")),
        "organizer": str(event.get("ORGANIZER", "")),
        "attendees": [{"address": str(a), "cn": str(a.params.get("CN", ""))} for a in (attendees or [])],
    })
print(json.dumps({"method": str(calendar.get("METHOD", "")), "events": events}))
`;

export type PythonCalendar = {
  method: string;
  events: {
    uid: string;
    sequence: number;
    status: string;
    summary: string;
    start: string;
    end: string;
    organizer: string;
    attendees: { address: string; cn: string }[];
  }[];
};

export function parseWithPythonIcalendar(text: string): Promise<PythonCalendar> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/python3", ["-c", SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0)
        reject(new Error(`Python icalendar could not read the calendar (${code}): ${err.trim()}`));
      else resolve(JSON.parse(out) as PythonCalendar);
    });
    child.stdin.end(text);
  });
}

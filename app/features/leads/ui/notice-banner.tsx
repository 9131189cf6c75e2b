import { Banner } from "#app/components/back-office/banner.tsx";
import type { Notice } from "../lead-forms.server.ts";

const NOTICES: Record<Notice, { title: string; text: string }> = {
  updated: { title: "Lead updated", text: "The lead status has been updated successfully." },
  deleted: { title: "Lead deleted", text: "The lead and its history have been erased." },
  bulk: { title: "Leads updated", text: "The selected leads have been updated." },
  owner: { title: "Owner changed", text: "The lead's owner has been updated." },
  spam: { title: "Marked as spam", text: "The lead is held out of the list; find it under Spam." },
  "not-spam": { title: "Not spam", text: "The lead is back in the list and sales have been notified." },
  note: { title: "Note added", text: "Your note is on the lead's timeline." },
  "view-saved": { title: "View saved", text: "Find it under Views above the list." },
  "view-deleted": { title: "View deleted", text: "The view is no longer in the list of views." },
  "next-step": { title: "Next step set", text: "It shows on the list and on the lead's timeline." },
  "next-step-cleared": {
    title: "Next step done",
    text: "It is marked done on the lead's timeline; the lead's next open task, if any, is its next step.",
  },
  details: { title: "Details saved", text: "Each change is on the lead's timeline." },
  call: { title: "Call logged", text: "It is on the lead's timeline." },
  email: { title: "Email logged", text: "It is on the lead's timeline." },
  task: { title: "Task added", text: "It is on the lead's timeline and in its assignee's tasks." },
  "task-done": { title: "Task done", text: "It is marked done on the lead's timeline." },
  "task-reopened": { title: "Task reopened", text: "It is open again." },
  added: {
    title: "Lead added",
    text: "It is in the list with its owner; its timeline says who added it and from where.",
  },
};

/** What a form post without JavaScript did (the script shows a toast instead). */
export function NoticeBanner({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  const { title, text } = NOTICES[notice];
  return (
    <Banner tone="success">
      <strong className="font-semibold">{title}.</strong> {text}
    </Banner>
  );
}

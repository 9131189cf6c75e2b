import { type Kysely, sql } from "kysely";
import { expect, it } from "vitest";
import type { Database } from "#app/db/schema.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { addActivity, updateTask } from "#app/features/leads/lead-activities.server.ts";
import { createLeadAdmin, UnknownOwnerError } from "#app/features/leads/lead-admin.server.ts";
import { recordLeadMeeting } from "#app/features/leads/lead-meetings.server.ts";
import { anonymiseLeads } from "#app/features/leads/lead-retention.server.ts";
import { createNotificationEmailSender } from "#app/features/notifications/notification-email.server.ts";
import {
  emailChoices,
  listNotifications,
  markAllRead,
  markRead,
  notify,
  setEmailChoices,
  unreadCount,
} from "#app/features/notifications/notification-store.server.ts";
import { NOTIFICATION_EMAIL } from "#app/lib/outbox/outbox.server.ts";
import { PermanentSendError } from "#app/lib/outbox/outbox-worker.server.ts";
import type { Role } from "#app/lib/permissions.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { insertLead, leadRow } from "../tests/support/lead-rows.ts";
import {
  createLeadDetails,
  createNotificationProducers,
  notifyFallenDueTasks,
} from "./notifications.server.ts";

// Issue 35, the bell's notifications on both databases: each producer once, the dedupe key, marking
// read only one's own, the unread count, and the e-mail a person chose. A lead's name and a due
// task's words reach only a role that reads leads, in the list and the e-mail; a lead goes only to
// an owner who works leads; a lead's notifications go when it is anonymised or erased.

const NO_DETAILS = { leadLabels: async () => new Map(), taskTexts: async () => new Map() };

/** Moves a person to another role, as the staff page does (is_admin written with it). */
async function moveTo(db: Kysely<Database>, userId: number, role: Role) {
  await db
    .updateTable("users")
    .set({ role, isAdmin: role === "marketing" ? 0 : 1 })
    .where("id", "=", userId)
    .execute();
}

const addLead = (db: Kysely<Database>, fullName: string, company: string) =>
  insertLead(db, { fullName, company, email: `${fullName.split(" ")[0]?.toLowerCase()}@example.com` });

/** The person's notification e-mails in the outbox (other tests' share the database), oldest first. */
async function mailsOf(db: Kysely<Database>, userId: number, status?: "pending") {
  const mine = await db.selectFrom("notifications").select("id").where("userId", "=", userId).execute();
  const payloads = new Set(mine.map((row) => JSON.stringify({ notificationId: Number(row.id) })));
  let query = db
    .selectFrom("outbox")
    .select(["id", "kind", "payload"])
    .where("kind", "=", NOTIFICATION_EMAIL)
    .orderBy("id");
  if (status) query = query.where("status", "=", status);
  return (await query.execute()).filter((row) => payloads.has(row.payload));
}

/** An outbox sender's mail, kept (a transport that sends nothing). */
function keptMail() {
  const sent: { subject: string; text: string; to: string }[] = [];
  return {
    sent,
    transport: {
      sendMail: async (mail: { subject?: string; text?: unknown; to?: unknown }) => {
        sent.push({ subject: String(mail.subject), text: String(mail.text), to: String(mail.to) });
      },
    },
  };
}

const PASSWORD = "a long enough passphrase";

/** The lead service as the composition root wires it: an assignment tells the new owner's bell. */
function leadAdminTelling(db: Kysely<Database>, producers: ReturnType<typeof createNotificationProducers>) {
  return createLeadAdmin({
    db,
    notify: false,
    onLeadChange: async (trx, change) => {
      if (change.assigned)
        await producers.leadAssigned(trx, {
          leadId: change.leadId,
          occurredAt: change.occurredAt,
          ...change.assigned,
        });
    },
  });
}

describeEachDatabase("notifications", (use) => {
  it("tells the new owner of an assigned lead once, not the one who took it, and lists the lead by name", async () => {
    const { db } = use();
    const admin = await createUser(db, { username: "nadia", password: PASSWORD, role: "admin" });
    const rep = await createUser(db, { username: "ravi", password: PASSWORD, role: "sales" });
    await db.updateTable("users").set({ email: "ravi@clausebridge.test" }).where("id", "=", rep.id).execute();
    await setEmailChoices(db, rep.id, { assignment: true, taskDue: false });
    const lead = await db
      .insertInto("leads")
      .values(
        leadRow({ fullName: "Priya Ashdown", company: "Ashdown Civils", email: "priya@ashdown.example" }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const leadId = Number(lead.id);
    const producers = createNotificationProducers({ email: true });
    const leadAdmin = leadAdminTelling(db, producers);
    const details = createLeadDetails(db);

    // Taking a lead yourself tells nobody.
    await leadAdmin.setOwner(leadId, admin.id, { id: admin.id, username: admin.username });
    expect(await unreadCount(db, admin.id)).toBe(0);
    // Someone else gives it to you: one notification, and the e-mail you chose.
    await leadAdmin.bulk(
      [leadId],
      { action: "owner", value: rep.id },
      { id: admin.id, username: admin.username },
    );
    const list = await listNotifications(db, rep, { details });
    expect(list).toMatchObject({
      unread: 1,
      total: 1,
      items: [
        {
          kind: "lead.assigned",
          title: "nadia assigned a lead to you",
          lead: "Priya Ashdown, Ashdown Civils",
          link: `/admin/leads/${leadId}`,
          read: false,
        },
      ],
    });
    const mails = await db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", NOTIFICATION_EMAIL)
      .execute();
    expect(mails.map((row) => JSON.parse(row.payload))).toEqual([{ notificationId: list.items[0]?.id }]);
    expect(await emailChoices(db, rep.id)).toEqual({ assignment: true, taskDue: false, hasEmail: true });

    // The same event again (a retried call) is stored once.
    const at = new Date("2026-11-20T09:00:00Z");
    const change = { leadId, ownerId: rep.id, by: { id: admin.id, username: "nadia" }, occurredAt: at };
    expect(await producers.leadAssigned(db, change)).toBe(true);
    expect(await producers.leadAssigned(db, change)).toBe(false);
    expect(await unreadCount(db, rep.id)).toBe(2);
  });

  it("tells a meeting's host, each watch user of an alert, and an assignee of a due task, once each", async () => {
    const { db } = use();
    const host = await createUser(db, { username: "hana", password: PASSWORD, role: "sales" });
    const marketer = await createUser(db, { username: "milo", password: PASSWORD, role: "marketing" });
    const producers = createNotificationProducers({ email: false });
    const now = new Date("2026-11-21T10:00:00Z");
    const meeting = {
      id: 71,
      typeName: "Product demo",
      start: "2026-12-02T10:00:00.000Z",
      hostId: host.id,
      leadId: null,
    };
    expect(await producers.meetingChanged(db, meeting, "booked", now)).toBe(true);
    expect(await producers.meetingChanged(db, meeting, "booked", now)).toBe(false);
    expect(
      await producers.meetingChanged(
        db,
        { ...meeting, start: "2026-12-03T10:00:00.000Z" },
        "rescheduled",
        now,
      ),
    ).toBe(true);
    expect(await producers.meetingChanged(db, meeting, "cancelled", now)).toBe(true);
    const alert = { id: 9, label: "Security grade dropped" };
    const watch = { id: 4, url: "https://www.clausebridge.test/" };
    // Admins and marketing use the audits; the sales host does not hear of it.
    const told = await producers.watchAlert(db, alert, watch, now);
    expect(told).toBeGreaterThanOrEqual(1);
    expect(await producers.watchAlert(db, alert, watch, now)).toBe(0);
    const task = {
      id: 5,
      assigneeId: host.id,
      dueAt: "2026-11-21T15:00:00.000Z",
      leadId: null,
      link: "/admin/dashboard",
    };
    expect(await producers.taskDue(db, task, now)).toBe(true);
    expect(await producers.taskDue(db, task, now)).toBe(false);

    const hosts = await listNotifications(db, host, { details: NO_DETAILS });
    expect(hosts.items.map((item) => item.kind)).toEqual([
      "task.due",
      "meeting.cancelled",
      "meeting.rescheduled",
      "meeting.booked",
    ]);
    expect(hosts.items[3]?.title).toBe("Product demo booked with you for Dec 2, 2026, 10:00 AM");
    const marketers = await listNotifications(db, marketer, { details: NO_DETAILS });
    expect(marketers.items).toMatchObject([
      {
        kind: "watch.alert",
        title: "Alert on www.clausebridge.test: Security grade dropped",
        link: "/admin/watches/4",
      },
    ]);

    // Marking read: only one's own; unread first in the list; "mark all" leaves nothing unread.
    const [first, second] = hosts.items;
    expect(await markRead(db, marketer.id, [first?.id ?? 0])).toBe(0);
    expect(await markRead(db, host.id, [first?.id ?? 0])).toBe(1);
    expect(await unreadCount(db, host.id)).toBe(3);
    const after = await listNotifications(db, host, { details: NO_DETAILS });
    expect(after.items.at(-1)?.id).toBe(first?.id);
    expect(after.items[0]?.id).toBe(second?.id);
    expect(await markAllRead(db, host.id)).toBe(3);
    expect(await unreadCount(db, host.id)).toBe(0);
    expect(await unreadCount(db, marketer.id)).toBe(1);
  });

  it("the due-task sweep tells each assignee of a task that fell due once, and not of a done or later one", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "tess", password: PASSWORD, role: "sales" });
    const lead = await db
      .insertInto("leads")
      .values(leadRow({ fullName: "Owen Marsh", company: "Marsh Groundworks", email: "owen@marsh.example" }))
      .returning("id")
      .executeTakeFirstOrThrow();
    const leadId = Number(lead.id);
    const actor = rep;
    const created = new Date("2026-11-20T08:00:00Z");
    const task = (body: string, dueAt: string) =>
      addActivity(db, leadId, { kind: "task", body, dueAt, assigneeId: rep.id }, actor, created);
    await task("Call Owen about the bill of quantities", "2026-11-20T09:00:00.000Z");
    const done = await task("Send the brochure", "2026-11-20T09:30:00.000Z");
    await updateTask(db, done?.id ?? 0, { done: true }, actor, created);
    await task("Chase the signed contract", "2026-11-20T17:00:00.000Z");
    const producers = createNotificationProducers({ email: false });

    const first = await notifyFallenDueTasks(db, producers, {
      after: { at: new Date("2026-11-19T10:00:00Z"), id: null },
      until: new Date("2026-11-20T10:00:00Z"),
    });
    expect(first).toEqual({ next: { at: new Date("2026-11-20T10:00:00Z"), id: null }, stored: 1 });
    // An overlapping window (a second instance, or a restart) tells nobody twice.
    const again = await notifyFallenDueTasks(db, producers, {
      after: { at: new Date("2026-11-20T08:00:00Z"), id: null },
      until: new Date("2026-11-20T10:01:00Z"),
    });
    expect(again.stored).toBe(0);
    const list = await listNotifications(db, rep, { details: createLeadDetails(db) });
    expect(list.items).toMatchObject([
      {
        kind: "task.due",
        // The stored title holds no lead's details (ADR 043): the task's words are read with the list.
        title: "Task due Nov 20, 2026, 9:00 AM",
        detail: "Call Owen about the bill of quantities",
        lead: "Owen Marsh, Marsh Groundworks",
        link: `/admin/leads/${leadId}`,
        read: false,
      },
    ]);
    const stored = await db.selectFrom("notifications").select("title").execute();
    expect(stored.map((row) => row.title).join(" ")).not.toContain("Owen");
    // The afternoon's task, once its time has come.
    const later = await notifyFallenDueTasks(db, producers, {
      after: { at: new Date("2026-11-20T10:01:00Z"), id: null },
      until: new Date("2026-11-20T17:00:00Z"),
    });
    expect(later.stored).toBe(1);
    expect(await unreadCount(db, rep.id)).toBe(2);
  });

  it("the due-task sweep tells of every task in a run of equal due times longer than a batch", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "uma", password: PASSWORD, role: "sales" });
    const lead = await db
      .insertInto("leads")
      .values(leadRow({ fullName: "Vera Lund", company: "Lund Civils", email: "vera@lund.example" }))
      .returning("id")
      .executeTakeFirstOrThrow();
    const leadId = Number(lead.id);
    // Seven tasks due at one end-of-day instant (as migrated next steps are), between two others.
    const endOfDay = "2026-11-21T23:59:59.999Z";
    const dues = [
      "2026-11-21T18:00:00.000Z",
      ...Array.from({ length: 7 }, () => endOfDay),
      "2026-11-22T08:00:00.000Z",
    ];
    for (const [index, dueAt] of dues.entries())
      await addActivity(
        db,
        leadId,
        { kind: "task", body: `Wrap-up ${index}`, dueAt, assigneeId: rep.id },
        rep,
        new Date("2026-11-21T08:00:00Z"),
      );
    const producers = createNotificationProducers({ email: false });
    // Batches of 3: they end inside the run; each sweep starts where the last one stopped.
    let position = { at: new Date("2026-11-21T12:00:00Z"), id: null as number | null };
    const until = new Date("2026-11-22T09:00:00Z");
    let stored = 0;
    for (let sweeps = 0; sweeps < 10; sweeps++) {
      const { next, stored: added } = await notifyFallenDueTasks(
        db,
        producers,
        { after: position, until },
        3,
      );
      stored += added;
      position = next;
      if (next.id === null) break;
    }
    expect(position).toEqual({ at: until, id: null });
    expect(stored).toBe(dues.length);
    const tasks = (await listNotifications(db, rep, { details: createLeadDetails(db), limit: 20 })).items
      .map((item) => item.detail)
      .sort();
    expect(tasks).toEqual(dues.map((_, index) => `Wrap-up ${index}`).sort());
  });

  it("gives a lead only to an owner whose role works leads, on its own, in bulk and at a booking", async () => {
    const { db } = use();
    const admin = await createUser(db, { username: "ada", password: PASSWORD, role: "admin" });
    const rep = await createUser(db, { username: "sam", password: PASSWORD, role: "sales" });
    const marketer = await createUser(db, { username: "mia", password: PASSWORD, role: "marketing" });
    const leadId = await addLead(db, "Priya Ashdown", "Ashdown Civils");
    const other = await addLead(db, "Owen Marsh", "Marsh Groundworks");
    const producers = createNotificationProducers({ email: false });
    const leadAdmin = leadAdminTelling(db, producers);
    const by = { id: admin.id, username: admin.username };
    const owners = async () =>
      (
        await db
          .selectFrom("leads")
          .select("ownerId")
          .where("id", "in", [leadId, other])
          .orderBy("id")
          .execute()
      ).map((row) => row.ownerId);

    // Marketing sees leads as counts only: refused as the unknown owner is, and told nothing.
    await expect(leadAdmin.setOwner(leadId, marketer.id, by)).rejects.toBeInstanceOf(UnknownOwnerError);
    await expect(leadAdmin.setOwner(leadId, marketer.id, by)).rejects.toThrow(
      "Choose an enabled staff member whose role works on leads (or Unassigned).",
    );
    // In bulk, the whole change is refused (one transaction): not even the first lead moves.
    await expect(
      leadAdmin.bulk([leadId, other], { action: "owner", value: marketer.id }, by),
    ).rejects.toBeInstanceOf(UnknownOwnerError);
    expect(await owners()).toEqual([null, null]);
    expect(await unreadCount(db, marketer.id)).toBe(0);
    // A rep moved to marketing since the list was drawn: refused too.
    await moveTo(db, rep.id, "marketing");
    await expect(leadAdmin.setOwner(leadId, rep.id, by)).rejects.toBeInstanceOf(UnknownOwnerError);
    await moveTo(db, rep.id, "sales");
    await expect(leadAdmin.bulk([leadId, other], { action: "owner", value: rep.id }, by)).resolves.toEqual({
      changed: 2,
      missing: [],
    });
    expect(await unreadCount(db, rep.id)).toBe(2);

    // A meeting booked with a host whose role no longer works leads gives the lead no owner.
    const unowned = await addLead(db, "Ines Quarry", "Quarry Works");
    const meeting = {
      id: 3,
      typeName: "Product demo",
      start: "2026-12-02T10:00:00.000Z",
      end: "2026-12-02T10:30:00.000Z",
      hostId: marketer.id,
      hostName: marketer.username,
    };
    const booked = await db
      .transaction()
      .execute((trx) =>
        recordLeadMeeting(trx, { leadId: unowned, change: "booked", meeting, actor: null, now: new Date() }),
      );
    expect(booked).toEqual({ recorded: true, ownerAssigned: false });
    const withRep = await db.transaction().execute((trx) =>
      recordLeadMeeting(trx, {
        leadId: unowned,
        change: "booked",
        meeting: { ...meeting, id: 4, hostId: rep.id, hostName: rep.username },
        actor: null,
        now: new Date(),
      }),
    );
    expect(withRep).toEqual({ recorded: true, ownerAssigned: true });
  });

  it("adds a lead's name and a task's words to the list only for a role that reads leads", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "rhea", password: PASSWORD, role: "sales" });
    const leadId = await addLead(db, "Priya Ashdown", "Ashdown Civils");
    const actor = { id: rep.id, username: rep.username };
    const added = await addActivity(
      db,
      leadId,
      {
        kind: "task",
        body: "Ask Priya about her NEC4 options",
        dueAt: "2026-11-20T09:00:00.000Z",
        assigneeId: rep.id,
      },
      actor,
      new Date("2026-11-19T09:00:00Z"),
    );
    const producers = createNotificationProducers({ email: false });
    const now = new Date("2026-11-20T09:01:00Z");
    const link = `/admin/leads/${leadId}`;
    await producers.leadAssigned(db, { leadId, ownerId: rep.id, by: null, occurredAt: now });
    await producers.taskDue(
      db,
      { id: added?.id ?? 0, assigneeId: rep.id, dueAt: "2026-11-20T09:00:00.000Z", leadId, link },
      now,
    );
    const details = createLeadDetails(db);
    const asSales = await listNotifications(db, rep, { details });
    expect(asSales.items.map(({ kind, detail, lead }) => ({ kind, detail, lead }))).toEqual([
      { kind: "task.due", detail: "Ask Priya about her NEC4 options", lead: "Priya Ashdown, Ashdown Civils" },
      { kind: "lead.assigned", detail: null, lead: "Priya Ashdown, Ashdown Civils" },
    ]);

    // The same person moved to marketing: the sentences only, the leads not even asked for.
    await moveTo(db, rep.id, "marketing");
    const asked: number[][] = [];
    const watching = {
      leadLabels: async (ids: number[]) => {
        asked.push(ids);
        return details.leadLabels(ids);
      },
      taskTexts: async (ids: number[]) => {
        asked.push(ids);
        return details.taskTexts(ids);
      },
    };
    const asMarketing = await listNotifications(db, { id: rep.id, role: "marketing" }, { details: watching });
    expect(asMarketing.items.map(({ title, detail, lead }) => ({ title, detail, lead }))).toEqual([
      { title: "Task due Nov 20, 2026, 9:00 AM", detail: null, lead: null },
      { title: "A lead was assigned to you with a meeting booked with you", detail: null, lead: null },
    ]);
    expect(asked).toEqual([]);
    // No role at all: the same.
    const noRole = await listNotifications(db, { id: rep.id, role: null }, { details });
    expect(noRole.items.every((item) => item.lead === null && item.detail === null)).toBe(true);
  });

  it("e-mails a lead's name and a task's words only to a role that reads leads when it sends, and nothing once it cannot", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "reza", password: PASSWORD, role: "sales" });
    await db.updateTable("users").set({ email: "reza@clausebridge.test" }).where("id", "=", rep.id).execute();
    await setEmailChoices(db, rep.id, { assignment: true, taskDue: true });
    const leadId = await addLead(db, "Priya Ashdown", "Ashdown Civils");
    const added = await addActivity(
      db,
      leadId,
      { kind: "task", body: "Send Priya the pricing", dueAt: "2026-11-20T09:00:00.000Z", assigneeId: rep.id },
      { id: rep.id, username: rep.username },
      new Date("2026-11-19T09:00:00Z"),
    );
    const producers = createNotificationProducers({ email: true });
    const now = new Date("2026-11-20T09:01:00Z");
    await producers.leadAssigned(db, { leadId, ownerId: rep.id, by: null, occurredAt: now });
    await producers.taskDue(
      db,
      {
        id: added?.id ?? 0,
        assigneeId: rep.id,
        dueAt: "2026-11-20T09:00:00.000Z",
        leadId,
        link: `/admin/leads/${leadId}`,
      },
      now,
    );
    const queued = await mailsOf(db, rep.id);
    expect(queued).toHaveLength(2);
    const messages = queued.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      payload: JSON.parse(row.payload),
      attempts: 0,
    }));
    const mail = keptMail();
    const send = createNotificationEmailSender({
      db,
      transport: mail.transport,
      settings: { from: "no-reply@clausebridge.test" },
      details: createLeadDetails(db),
    });

    // Moved to marketing after they were queued: neither goes out, for good.
    await moveTo(db, rep.id, "marketing");
    for (const message of messages) await expect(send(message)).rejects.toBeInstanceOf(PermanentSendError);
    expect(mail.sent).toEqual([]);

    // As sales: the lead's name in the subject, the task's words in the text.
    await moveTo(db, rep.id, "sales");
    for (const message of messages) await send(message);
    expect(mail.sent.map((each) => each.subject)).toEqual([
      "A lead was assigned to you with a meeting booked with you: Priya Ashdown, Ashdown Civils",
      "Task due Nov 20, 2026, 9:00 AM: Priya Ashdown, Ashdown Civils",
    ]);
    expect(mail.sent[1]?.text).toContain("Send Priya the pricing");
  });

  it("the due-task sweep tells no one whose role no longer has tasks", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "tara", password: PASSWORD, role: "sales" });
    const leadId = await addLead(db, "Owen Marsh", "Marsh Groundworks");
    await addActivity(
      db,
      leadId,
      { kind: "task", body: "Call Owen", dueAt: "2026-11-20T09:00:00.000Z", assigneeId: rep.id },
      { id: rep.id, username: rep.username },
      new Date("2026-11-19T09:00:00Z"),
    );
    const producers = createNotificationProducers({ email: false });
    const window = {
      after: { at: new Date("2026-11-20T08:00:00Z"), id: null },
      until: new Date("2026-11-20T10:00:00Z"),
    };
    await moveTo(db, rep.id, "marketing");
    expect((await notifyFallenDueTasks(db, producers, window)).stored).toBe(0);
    expect(await unreadCount(db, rep.id)).toBe(0);
    // Disabled: nor them.
    await moveTo(db, rep.id, "sales");
    await db.updateTable("users").set({ disabled: 1 }).where("id", "=", rep.id).execute();
    expect((await notifyFallenDueTasks(db, producers, window)).stored).toBe(0);
    await db.updateTable("users").set({ disabled: 0 }).where("id", "=", rep.id).execute();
    expect((await notifyFallenDueTasks(db, producers, window)).stored).toBe(1);
  });

  it("deletes a lead's notifications and their waiting e-mails when it is anonymised or erased", async () => {
    const { db } = use();
    const admin = await createUser(db, { username: "ayla", password: PASSWORD, role: "admin" });
    const rep = await createUser(db, { username: "rory", password: PASSWORD, role: "sales" });
    await db.updateTable("users").set({ email: "rory@clausebridge.test" }).where("id", "=", rep.id).execute();
    await setEmailChoices(db, rep.id, { assignment: true, taskDue: true });
    const anonymised = await addLead(db, "Priya Ashdown", "Ashdown Civils");
    const erased = await addLead(db, "Owen Marsh", "Marsh Groundworks");
    const kept = await addLead(db, "Ines Quarry", "Quarry Works");
    const producers = createNotificationProducers({ email: true });
    const by = { id: admin.id, username: admin.username };
    // No lead.deleted hook here: the erasure itself removes them, as the spam purge relies on.
    const leadAdmin = leadAdminTelling(db, producers);
    for (const leadId of [anonymised, erased, kept]) await leadAdmin.setOwner(leadId, rep.id, by);
    expect(await unreadCount(db, rep.id)).toBe(3);
    // Counted by the notifications still there and by every waiting e-mail of this test's.
    const before = await mailsOf(db, rep.id, "pending");
    const waiting = async () => {
      const rows = await db
        .selectFrom("outbox")
        .select("id")
        .where(
          "id",
          "in",
          before.map((row) => row.id),
        )
        .execute();
      return rows.length;
    };
    expect(await waiting()).toBe(3);

    const later = new Date(Date.now() + 60_000);
    await db.transaction().execute((trx) => anonymiseLeads(trx, [anonymised], later, later));
    await leadAdmin.remove(erased, by, null);
    const left = await listNotifications(db, rep, { details: createLeadDetails(db) });
    expect(left.items.map((item) => item.lead)).toEqual(["Ines Quarry, Quarry Works"]);
    expect(await waiting()).toBe(1);
  });

  it("lists unread then read, newest first in each, across pages, with the counts", async () => {
    const { db } = use();
    const rep = await createUser(db, { username: "rani", password: PASSWORD, role: "sales" });
    const start = Date.parse("2026-11-01T09:00:00Z");
    const ids: number[] = [];
    for (let index = 0; index < 7; index++) {
      await notify(db, {
        userId: rep.id,
        kind: "watch.alert",
        title: `Alert ${index}`,
        link: "/admin/watches/1",
        dedupeKey: `alert:${index}`,
        now: new Date(start + index * 60_000),
      });
      const row = await db
        .selectFrom("notifications")
        .select("id")
        .where("dedupeKey", "=", `alert:${index}`)
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    // 0, 2, 4 and 6 read: unread 5, 3, 1, then read 6, 4, 2, 0.
    await markRead(db, rep.id, [ids[0], ids[2], ids[4], ids[6]].map(Number));
    const titles = async (limit: number, offset: number) => {
      const list = await listNotifications(db, rep, { limit, offset, details: NO_DETAILS });
      expect({ unread: list.unread, total: list.total }).toEqual({ unread: 3, total: 7 });
      return list.items.map((item) => `${item.title}${item.read ? " (read)" : ""}`);
    };
    const everything = [
      "Alert 5",
      "Alert 3",
      "Alert 1",
      "Alert 6 (read)",
      "Alert 4 (read)",
      "Alert 2 (read)",
      "Alert 0 (read)",
    ];
    expect(await titles(20, 0)).toEqual(everything);
    expect(await titles(2, 0)).toEqual(everything.slice(0, 2));
    expect(await titles(2, 2)).toEqual(everything.slice(2, 4));
    expect(await titles(2, 4)).toEqual(everything.slice(4, 6));
    expect(await titles(2, 6)).toEqual(everything.slice(6));
    expect(await titles(2, 8)).toEqual([]);
  });

  it("reads the bell's list and counts through migration 038's indexes, with no sort", async () => {
    const { db, dialect } = use();
    // PostgreSQL plans a near-empty table by scanning it; it picks the smaller partial index itself
    // once the table has rows. SQLite's plans are fixed by the statements, so they are checked here,
    // as notification-store.server.ts writes them (the unread reads name their index on SQLite).
    if (dialect === "postgres") return;
    const explain = async (query: string) => {
      const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db);
      return rows.map((row) => row.detail).join("; ");
    };
    const columns = "id, kind, title, link, lead_id, subject_id, created_at, read_at";
    const unread = await explain(
      `select ${columns} from notifications indexed by notifications_user_unread_idx
        where user_id = 1 and read_at is null order by id desc limit 8 offset 0`,
    );
    expect(unread).toContain("notifications_user_unread_idx");
    expect(unread).not.toContain("TEMP B-TREE");
    const read = await explain(
      `select ${columns} from notifications where user_id = 1 and read_at is not null order by id desc limit 8 offset 0`,
    );
    expect(read).toContain("notifications_user_idx");
    expect(read).not.toContain("TEMP B-TREE");
    await expect(
      explain(
        "select count(*) from notifications indexed by notifications_user_unread_idx where user_id = 1 and read_at is null",
      ),
    ).resolves.toContain("notifications_user_unread_idx");
    await expect(explain("select count(*) from notifications where user_id = 1")).resolves.toContain(
      "COVERING INDEX",
    );
  });
});

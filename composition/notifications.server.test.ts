import { expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { addActivity, updateTask } from "#app/features/leads/lead-activities.server.ts";
import { createLeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import {
  emailChoices,
  listNotifications,
  markAllRead,
  markRead,
  NOTIFICATION_EMAIL,
  setEmailChoices,
  unreadCount,
} from "#app/features/notifications/notification-store.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { leadRow } from "../tests/support/lead-rows.ts";
import {
  createLeadLabels,
  createNotificationProducers,
  notifyFallenDueTasks,
} from "./notifications.server.ts";

// Issue 35, the bell's notifications on both databases: each producer once, the dedupe key, marking
// read only one's own, the unread count, and the e-mail a person chose.

const PASSWORD = "a long enough passphrase";

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
    const leadAdmin = createLeadAdmin({
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
    const leadLabels = createLeadLabels(db);

    // Taking a lead yourself tells nobody.
    await leadAdmin.setOwner(leadId, admin.id, { id: admin.id, username: admin.username });
    expect(await unreadCount(db, admin.id)).toBe(0);
    // Someone else gives it to you: one notification, and the e-mail you chose.
    await leadAdmin.bulk(
      [leadId],
      { action: "owner", value: rep.id },
      { id: admin.id, username: admin.username },
    );
    const list = await listNotifications(db, rep.id, { leadLabels });
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
      what: "Call back",
      dueAt: "2026-11-21T15:00:00.000Z",
      leadId: null,
      link: "/admin/dashboard",
    };
    expect(await producers.taskDue(db, task, now)).toBe(true);
    expect(await producers.taskDue(db, task, now)).toBe(false);

    const hosts = await listNotifications(db, host.id, { leadLabels: async () => new Map() });
    expect(hosts.items.map((item) => item.kind)).toEqual([
      "task.due",
      "meeting.cancelled",
      "meeting.rescheduled",
      "meeting.booked",
    ]);
    expect(hosts.items[3]?.title).toBe("Product demo booked with you for Dec 2, 2026, 10:00 AM");
    const marketers = await listNotifications(db, marketer.id, { leadLabels: async () => new Map() });
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
    const after = await listNotifications(db, host.id, { leadLabels: async () => new Map() });
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
    const list = await listNotifications(db, rep.id, { leadLabels: createLeadLabels(db) });
    expect(list.items).toMatchObject([
      {
        kind: "task.due",
        lead: "Owen Marsh, Marsh Groundworks",
        link: `/admin/leads/${leadId}`,
        read: false,
      },
    ]);
    expect(list.items[0]?.title).toContain("Call Owen about the bill of quantities");
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
    const titles = (
      await listNotifications(db, rep.id, { leadLabels: async () => new Map(), limit: 20 })
    ).items
      .map((item) => item.title.replace(/^.*: /, ""))
      .sort();
    expect(titles).toEqual(dues.map((_, index) => `Wrap-up ${index}`).sort());
  });
});

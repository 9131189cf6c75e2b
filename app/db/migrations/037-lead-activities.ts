import { type Kysely, sql } from "kysely";
import { autoIncrementId, isPostgres } from "../migration-helpers.ts";

// Issue 35, "one composer above one feed" (ADR 041): a logged call, a logged e-mail and a task on a
// lead are rows of `lead_activities` (notes stay in lead_notes). A task is an activity with a due
// instant and an assignee; `done_at` closes it. The `tasks` view names the tasks for reports.
//
// - A lead's next step is its earliest open task. `leads.next_task_id` / `next_task_due_at` hold it,
//   written in the transaction that changes a task of the lead, so the list sorts by it with one
//   index (an ORDER BY over a correlated MIN() would read every lead's tasks at 100,000 leads).
// - The old next steps (lead_next_steps, migration 023) become open tasks due at the end of their
//   day (UTC, as they were), assigned to the lead's owner or else to whoever set them.
// - `task_digests`: who asked for the morning e-mail of their tasks, and the day (in their zone) it
//   was last queued: the sweep claims a day with one conditional update, so it goes once.

const OPEN_TASK = "kind = 'task' and done_at is null";
const LIVE = "anonymised_at is null";

/** The list's "Next step" sort keys: leads without a task after the others in either direction. */
function dueKey(db: Kysely<unknown>, missing: "~" | "") {
  const collate = isPostgres(db) ? ' collate "C"' : "";
  return sql.raw(`(coalesce(next_task_due_at, '${missing}')${collate})`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await autoIncrementId(db, db.schema.createTable("lead_activities"))
    .addColumn("lead_id", "integer", (column) => column.notNull().references("leads.id").onDelete("cascade"))
    /** 'call' | 'email' | 'task'. */
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("body", "text", (column) => column.notNull())
    /** A call's outcome ('connected', 'left_voicemail', ...). */
    .addColumn("outcome", "text")
    .addColumn("duration_minutes", "integer")
    /** An e-mail's direction: 'sent' or 'received'. */
    .addColumn("direction", "text")
    /** A task's due instant, ISO 8601 UTC. */
    .addColumn("due_at", "text")
    .addColumn("assignee_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("done_at", "text")
    .addColumn("done_by_username", "text")
    .addColumn("author_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("author_username", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  // A lead's feed.
  await db.schema
    .createIndex("lead_activities_lead_idx")
    .on("lead_activities")
    .columns(["lead_id", "id"])
    .execute();
  // "My open tasks by due" (the My tasks page, the morning e-mail).
  await sql`create index lead_activities_open_mine_idx
    on lead_activities (assignee_user_id, due_at, id) where ${sql.raw(OPEN_TASK)}`.execute(db);
  // Everyone's open tasks by due (an admin's view).
  await sql`create index lead_activities_open_due_idx
    on lead_activities (due_at, id) where ${sql.raw(OPEN_TASK)}`.execute(db);
  // "A lead's earliest open task" (its next step).
  await sql`create index lead_activities_open_lead_idx
    on lead_activities (lead_id, due_at, id) where ${sql.raw(OPEN_TASK)}`.execute(db);
  // Recently done tasks of a person.
  await sql`create index lead_activities_done_mine_idx
    on lead_activities (assignee_user_id, done_at) where kind = 'task' and done_at is not null`.execute(db);
  await sql`create view tasks as
    select id, lead_id, body, due_at, assignee_user_id, done_at, done_by_username,
      author_user_id, author_username, created_at, updated_at
    from lead_activities where kind = 'task'`.execute(db);

  await db.schema.alterTable("leads").addColumn("next_task_id", "integer").execute();
  await db.schema.alterTable("leads").addColumn("next_task_due_at", "text").execute();
  await sql`create index leads_next_task_asc_idx on leads (is_spam, ${dueKey(db, "~")}, id)
    where ${sql.raw(LIVE)}`.execute(db);
  await sql`create index leads_next_task_desc_idx on leads (is_spam, ${dueKey(db, "")}, id)
    where ${sql.raw(LIVE)}`.execute(db);

  // The old next steps, as open tasks.
  await sql`insert into lead_activities (lead_id, kind, body, due_at, assignee_user_id,
      author_user_id, author_username, created_at, updated_at)
    select s.lead_id, 'task', s.body, s.due_on || 'T23:59:59.999Z',
      coalesce(l.owner_id, s.set_by_user_id), s.set_by_user_id, s.set_by_username, s.set_at, s.set_at
    from lead_next_steps s join leads l on l.id = s.lead_id`.execute(db);
  await sql`update leads set
      next_task_id = (select a.id from lead_activities a where a.lead_id = leads.id and a.kind = 'task'
        and a.done_at is null order by a.due_at, a.id limit 1),
      next_task_due_at = (select a.due_at from lead_activities a where a.lead_id = leads.id
        and a.kind = 'task' and a.done_at is null order by a.due_at, a.id limit 1)
    where id in (select lead_id from lead_activities)`.execute(db);
  await db.schema.dropTable("lead_next_steps").execute();

  await db.schema
    .createTable("task_digests")
    .addColumn("user_id", "integer", (column) =>
      column.primaryKey().references("users.id").onDelete("cascade"),
    )
    /** YYYY-MM-DD in the person's zone: the last day whose e-mail was queued. */
    .addColumn("sent_on", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("task_digests").execute();
  await db.schema
    .createTable("lead_next_steps")
    .addColumn("lead_id", "integer", (column) =>
      column.primaryKey().references("leads.id").onDelete("cascade"),
    )
    .addColumn("body", "text", (column) => column.notNull())
    .addColumn("due_on", "text", (column) => column.notNull())
    .addColumn("set_by_user_id", "integer", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("set_by_username", "text", (column) => column.notNull())
    .addColumn("set_at", "text", (column) => column.notNull())
    .execute();
  // Each lead's earliest open task goes back as its next step.
  await sql`insert into lead_next_steps (lead_id, body, due_on, set_by_user_id, set_by_username, set_at)
    select a.lead_id, a.body, substr(a.due_at, 1, 10), a.author_user_id, a.author_username, a.created_at
    from lead_activities a join leads l on l.next_task_id = a.id`.execute(db);
  await db.schema.dropIndex("leads_next_task_asc_idx").execute();
  await db.schema.dropIndex("leads_next_task_desc_idx").execute();
  await db.schema.alterTable("leads").dropColumn("next_task_due_at").execute();
  await db.schema.alterTable("leads").dropColumn("next_task_id").execute();
  await sql`drop view tasks`.execute(db);
  await db.schema.dropTable("lead_activities").execute();
}

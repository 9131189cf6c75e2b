import { type DatabaseIntrospector, type Kysely, sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { isPostgres } from "./migration-helpers.ts";
import * as leads001 from "./migrations/001-leads.ts";
import * as admin002 from "./migrations/002-admin.ts";
import * as leadSearch003 from "./migrations/003-lead-search-index.ts";
import * as audits004 from "./migrations/004-audits.ts";
import * as unicodeLower005 from "./migrations/005-unicode-lower.ts";
import * as hstsPreload006 from "./migrations/006-hsts-preload.ts";
import * as loginAttempts007 from "./migrations/007-login-attempts.ts";
import * as auditAlgorithm008 from "./migrations/008-audit-algorithm.ts";
import * as leadWorkspace009 from "./migrations/009-lead-workspace.ts";
import * as staffAccounts010 from "./migrations/010-staff-accounts.ts";
import * as webhooks011 from "./migrations/011-webhooks.ts";
import * as analytics012 from "./migrations/012-analytics.ts";
import * as leadCounts013 from "./migrations/013-lead-counts.ts";
import * as sessionDetails014 from "./migrations/014-session-details.ts";
import * as accessLog015 from "./migrations/015-access-log.ts";
import * as leadAttribution016 from "./migrations/016-lead-attribution.ts";
import * as analyticsRollups017 from "./migrations/017-analytics-rollups.ts";
import * as erasureSuppressions018 from "./migrations/018-erasure-suppressions.ts";
import * as twoFactor019 from "./migrations/019-two-factor.ts";
import * as retention020 from "./migrations/020-retention.ts";
import * as signInAttempts021 from "./migrations/021-sign-in-attempts.ts";
import * as staffRoles022 from "./migrations/022-staff-roles.ts";
import * as worklist023 from "./migrations/023-worklist.ts";
import * as leadIntake024 from "./migrations/024-lead-intake.ts";
import * as leadListIndexes025 from "./migrations/025-lead-list-indexes.ts";
import * as media026 from "./migrations/026-media.ts";
import * as posts027 from "./migrations/027-posts.ts";
import * as labChecks028 from "./migrations/028-lab-checks.ts";
import * as watches030 from "./migrations/030-watches.ts";
import * as codeFailures031 from "./migrations/031-code-failures.ts";
import * as leadCountsPerSession032 from "./migrations/032-lead-counts-per-session.ts";
import * as meetings033 from "./migrations/033-meetings.ts";
import * as calendarConnections034 from "./migrations/034-calendar-connections.ts";
import * as meetingFeeds035 from "./migrations/035-meeting-feeds.ts";
import * as meetingReminders036 from "./migrations/036-meeting-reminders.ts";
import * as leadActivities037 from "./migrations/037-lead-activities.ts";
import * as notifications038 from "./migrations/038-notifications.ts";
import * as listPageSize039 from "./migrations/039-list-page-size.ts";
import * as leadSortIndexes040 from "./migrations/040-lead-sort-indexes.ts";
import * as leadFormerEmails041 from "./migrations/041-lead-former-emails.ts";

// Migrations are imported, not read from a folder at run time, so the bundled server build carries
// them. Names sort in the order they apply; never rename or edit one that has shipped.
export const migrations: Record<string, Migration> = {
  "001-leads": leads001,
  "002-admin": admin002,
  "003-lead-search-index": leadSearch003,
  "004-audits": audits004,
  "005-unicode-lower": unicodeLower005,
  "006-hsts-preload": hstsPreload006,
  "007-login-attempts": loginAttempts007,
  "008-audit-algorithm": auditAlgorithm008,
  "009-lead-workspace": leadWorkspace009,
  "010-staff-accounts": staffAccounts010,
  "011-webhooks": webhooks011,
  "012-analytics": analytics012,
  "013-lead-counts": leadCounts013,
  "014-session-details": sessionDetails014,
  "015-access-log": accessLog015,
  "016-lead-attribution": leadAttribution016,
  "017-analytics-rollups": analyticsRollups017,
  "018-erasure-suppressions": erasureSuppressions018,
  "019-two-factor": twoFactor019,
  "020-retention": retention020,
  "021-sign-in-attempts": signInAttempts021,
  "022-staff-roles": staffRoles022,
  "023-worklist": worklist023,
  "024-lead-intake": leadIntake024,
  "025-lead-list-indexes": leadListIndexes025,
  "026-media": media026,
  "027-posts": posts027,
  "028-lab-checks": labChecks028,
  "030-watches": watches030,
  "031-code-failures": codeFailures031,
  "032-lead-counts-per-session": leadCountsPerSession032,
  "033-meetings": meetings033,
  "034-calendar-connections": calendarConnections034,
  "035-meeting-feeds": meetingFeeds035,
  "036-meeting-reminders": meetingReminders036,
  "037-lead-activities": leadActivities037,
  "038-notifications": notifications038,
  "039-list-page-size": listPageSize039,
  "040-lead-sort-indexes": leadSortIndexes040,
  "041-lead-former-emails": leadFormerEmails041,
};

export class MigrationError extends Error {}

/**
 * The migrator's view of the database, scoped to one PostgreSQL schema. Kysely asks its introspector
 * whether the migration tables exist, and PostgreSQL's introspector lists every column of every table
 * in every schema, calling pg_get_serial_sequence on each: a schema another application (or test)
 * creates or drops during that listing fails it ("schema … does not exist", "relation … does not
 * exist", "column … of relation … does not exist"). The migrator only needs our schema's table names.
 */
function scopedToSchema<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
      return rows.map(({ name }) => ({ name, schema, isView: false, isForeign: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "introspection") return introspection;
      const value = Reflect.get(target, property, target);
      // Kysely's methods read private fields, so they must run on the instance itself.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Brings the schema up to date. Safe to run from several instances at once (Kysely takes a lock). */
export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
  db: Kysely<any>,
  list: Record<string, Migration> = migrations,
): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every PostgreSQL schema unless told which one; name the
  // connection's own (search_path may point elsewhere than `public`) so schemas never mix.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({
    db: migrationTableSchema ? scopedToSchema(db, migrationTableSchema) : db,
    migrationTableSchema,
    provider: { getMigrations: async () => list },
    // 007 and 008 were written side by side and 008 landed first: a database that already has 008
    // still takes 007. Each migration stands alone, so their order does not matter.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new MigrationError(
      failed
        ? `Database migration "${failed.migrationName}" failed: ${cause}`
        : `Database migration failed: ${cause}`,
    );
  }
  return (results ?? [])
    .filter((result) => result.status === "Success")
    .map((result) => result.migrationName);
}

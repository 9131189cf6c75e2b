import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { openDatabase } from "./database.server.ts";
import { migrations } from "./migrate.server.ts";
import { checkReadiness } from "./readiness.server.ts";

describeEachDatabase("readiness (GET /readyz)", (use) => {
  it("is ready when the database answers and carries every migration of this build", async () => {
    await expect(checkReadiness(use().db)).resolves.toEqual({ ready: true });
  });

  it("is not ready while a migration of this build is missing, and names it", async () => {
    const newer = { ...migrations, "999-next": { up: async () => {} } };
    await expect(checkReadiness(use().db, { migrations: newer })).resolves.toEqual({
      ready: false,
      reason: "migrations not applied: 999-next",
    });
  });
});

it("is not ready on a database that was never migrated", async () => {
  const empty = openDatabase(":memory:");
  try {
    await expect(checkReadiness(empty.db)).resolves.toEqual({
      ready: false,
      reason: "the database has not been migrated",
    });
  } finally {
    await empty.close();
  }
});

it("is not ready when the database does not answer within the time-out, and does not wait longer", async () => {
  // A database whose connections never come: a pool exhausted or a server that stopped answering.
  const hanging = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: () => new Promise(() => {}),
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  await expect(checkReadiness(hanging, { timeoutMs: 50 })).resolves.toEqual({
    ready: false,
    reason: "the database did not answer within 50 ms",
  });
});

it("is not ready when the database refuses the connection", async () => {
  const gone = openDatabase("postgres://nobody@127.0.0.1:1/none", { poolSize: 1 });
  try {
    const readiness = await checkReadiness(gone.db);
    expect(readiness.ready).toBe(false);
    // The reason says what is wrong without the connection string.
    expect(readiness).toEqual({ ready: false, reason: "the database is unreachable" });
  } finally {
    await gone.close();
  }
});

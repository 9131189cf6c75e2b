import { describe, expect, it } from "vitest";
import { createHashingQueue, defaultMaxHashing } from "./hashing-queue.server.ts";

/** Tasks that record when they start and finish only when released, in start order. */
function heldTasks() {
  const order: string[] = [];
  const releases: (() => void)[] = [];
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      order.push(name);
      releases.push(() => resolve(name));
    });
  return { order, releases, task };
}

describe("hashing queue", () => {
  it("runs at most maxRunning at once, lets maxWaiting wait and answers busy beyond", async () => {
    const queue = createHashingQueue({ maxRunning: 2, maxWaiting: 3 });
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve("done");
        });
      });
    const results = Array.from({ length: 8 }, () => queue.run(task));
    await Promise.resolve();
    expect(queue.stats()).toEqual({ running: 2, waiting: 3, trustedWaiting: 0 });
    expect(queue.hasRoom()).toBe(false);
    // The 3 beyond running + waiting are refused at once, without running.
    expect(await Promise.all(results.slice(5))).toEqual([{ busy: true }, { busy: true }, { busy: true }]);
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(results.slice(0, 5))).toEqual(Array(5).fill({ busy: false, value: "done" }));
    expect(peak).toBe(2);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, trustedWaiting: 0 });
    expect(queue.hasRoom()).toBe(true);
  });

  it("keeps waiting places for the trusted lane that open tasks cannot fill, and starts trusted tasks first", async () => {
    const queue = createHashingQueue({ maxRunning: 1, maxWaiting: 2, maxTrustedWaiting: 1 });
    const { order, releases, task } = heldTasks();
    const open = ["open 1", "open 2", "open 3", "open 4"].map((name) => queue.run(task(name)));
    await Promise.resolve();
    // The flood holds the slot and every open waiting place: open tasks are refused…
    expect(queue.hasRoom()).toBe(false);
    expect(await open[3]).toEqual({ busy: true });
    // …a trusted one is not, and it runs before the open ones that waited longer.
    expect(queue.hasRoom("trusted")).toBe(true);
    const trusted = queue.run(task("trusted"), "trusted");
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, trustedWaiting: 1 });
    expect(queue.hasRoom("trusted")).toBe(false);
    expect(await queue.run(task("trusted 2"), "trusted")).toEqual({ busy: true });
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await trusted).toEqual({ busy: false, value: "trusted" });
    await Promise.all(open.slice(0, 3));
    expect(order).toEqual(["open 1", "trusted", "open 2", "open 3"]);
  });

  it("gives one account one trusted place at a time: replaying its own cookie in parallel cannot fill the lane", async () => {
    const queue = createHashingQueue({ maxRunning: 1, maxWaiting: 2, maxTrustedWaiting: 2 });
    const { order, releases, task } = heldTasks();
    const busyOpen = queue.run(task("open"));
    await Promise.resolve();
    // A staff member sends five sign-ins at once with their own valid device cookie: the first waits
    // in the trusted lane, the others are sent to the open one (2 places) and refused beyond it.
    const replayed = [1, 2, 3, 4, 5].map((n) => queue.run(task(`mallory ${n}`), "trusted", "mallory"));
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, trustedWaiting: 1 });
    expect(await Promise.all(replayed.slice(3))).toEqual([{ busy: true }, { busy: true }]);
    // The owner's trusted browser still has its place, and runs before the replayed open ones.
    expect(queue.hasRoom("trusted", "owner")).toBe(true);
    expect(queue.hasRoom("trusted", "mallory")).toBe(false);
    const owner = queue.run(task("owner"), "trusted", "owner");
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    await Promise.all([busyOpen, owner, ...replayed.slice(0, 3)]);
    expect(order).toEqual(["open", "mallory 1", "owner", "mallory 2", "mallory 3"]);
    // Once mallory's trusted hash is done, the lane is theirs again.
    expect(queue.hasRoom("trusted", "mallory")).toBe(true);
  });

  it("frees the slot when a task fails", async () => {
    const queue = createHashingQueue({ maxRunning: 1, maxWaiting: 0 });
    await expect(queue.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await queue.run(async () => 1)).toEqual({ busy: false, value: 1 });
  });

  it("leaves a core and a libuv thread free by default, and runs at least one hash", () => {
    expect(defaultMaxHashing(2, 4)).toBe(1);
    expect(defaultMaxHashing(1, 4)).toBe(1);
    expect(defaultMaxHashing(4, 4)).toBe(3);
    expect(defaultMaxHashing(16, 4)).toBe(3);
    expect(defaultMaxHashing(16, 8)).toBe(7);
  });
});

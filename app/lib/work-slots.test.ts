import { describe, expect, it } from "vitest";
import { createWorkSlots } from "./work-slots.ts";

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("work slots (issue 32)", () => {
  it("runs one, lets two wait in order, and refuses the next at once", async () => {
    const slots = createWorkSlots({ running: 1, waiting: 2 });
    const first = slots.reserve();
    const second = slots.reserve();
    const third = slots.reserve();
    expect(slots.reserve()).toBeNull();
    expect(slots.load()).toEqual({ running: 1, waiting: 2 });
    expect(await settled(first?.ready as Promise<void>)).toBe(true);
    expect(await settled(second?.ready as Promise<void>)).toBe(false);
    first?.release();
    first?.release();
    expect(await settled(second?.ready as Promise<void>)).toBe(true);
    expect(await settled(third?.ready as Promise<void>)).toBe(false);
    expect(slots.load()).toEqual({ running: 1, waiting: 1 });
  });

  it("lets a waiting job leave the line, and an adopted slot is given back only by its owner", async () => {
    const slots = createWorkSlots({ running: 1, waiting: 2 });
    const running = slots.reserve();
    const leaving = slots.reserve();
    const next = slots.reserve();
    leaving?.release();
    expect(slots.load()).toEqual({ running: 1, waiting: 1 });
    const giveBack = running?.adopt() as () => void;
    running?.release();
    expect(await settled(next?.ready as Promise<void>)).toBe(false);
    giveBack();
    expect(await settled(next?.ready as Promise<void>)).toBe(true);
    next?.release();
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  });
});

import { existsSync, readFileSync } from "node:fs";

/**
 * CPU seconds (user + system) used so far by a process and its descendants, from /proc (Linux);
 * NaN elsewhere. Shows which side is saturated: with two cores, often the load generator.
 */
export function processTreeCpuSeconds(pid: number | undefined): number {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return Number.NaN;
  const ticksPerSecond = 100; // USER_HZ on Linux
  const own = (id: number): number => {
    try {
      // After `(comm) `: state is field 3; utime and stime are fields 14 and 15 (1-based).
      const stat = readFileSync(`/proc/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
    } catch {
      return 0;
    }
  };
  const children = (id: number): number[] => {
    try {
      const list = readFileSync(`/proc/${id}/task/${id}/children`, "utf8").trim();
      return list ? list.split(/\s+/).map(Number) : [];
    } catch {
      return [];
    }
  };
  let total = 0;
  const queue = [pid];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    total += own(id);
    queue.push(...children(id));
  }
  return total;
}

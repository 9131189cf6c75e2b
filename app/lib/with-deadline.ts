/** Thrown by withDeadline when the work outlasts its time; its message says what took too long. */
export class DeadlineError extends Error {}

/**
 * `promise`, or a DeadlineError(`message`) once `ms` have passed, whichever comes first. The work
 * itself is not cancelled: the caller stops waiting for it (a send, a query, a scrape).
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(message)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

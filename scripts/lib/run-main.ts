let interrupted = false;

/** True once Ctrl-C, SIGTERM or SIGHUP asked the script to stop: long loops should not start new work. */
export function wasInterrupted(): boolean {
  return interrupted;
}

/**
 * Runs a measurement script's `main` and always calls `cleanup` (stopping its servers and browsers):
 * on success, on error, and on Ctrl-C, SIGTERM or SIGHUP (its terminal closed), so no child process
 * outlives the script.
 */
export async function runMain(
  name: string,
  main: () => Promise<number>,
  cleanup: () => Promise<void>,
): Promise<void> {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: ${name} is stopping its child processes`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

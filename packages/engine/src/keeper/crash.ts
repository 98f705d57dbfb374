/**
 * Crash points for the crash-safety test: when `AUGUR_CRASH_AT` names a stage, the process kills
 * itself with SIGKILL right there — no finally block, no flush, exactly what a power cut or the
 * OOM killer does. Unset (always, outside that test), a crash point is one string comparison.
 */
export const CRASH_STAGES = ["sealed", "written", "signed", "broadcast", "receipt"] as const;
export type CrashStage = (typeof CRASH_STAGES)[number];

export function crashPoint(stage: CrashStage): void {
  if (process.env.AUGUR_CRASH_AT === stage) process.kill(process.pid, "SIGKILL");
}

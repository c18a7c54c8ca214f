// Types of scripts/test-phases.mjs (plain JavaScript, so that `npm test` starts without a compiler).
export type Phase = { name: string; script: string; env?: Record<string, string>; beside?: boolean };
export type PhaseResult = Phase & { seconds: number; ok: boolean; code: number };
export const PHASES: Phase[];
export function duration(seconds: number): string;
export function phaseTable(results: PhaseResult[], totalSeconds?: number): string;
export function runPhases(envFor?: (phase: Phase) => Record<string, string>): Promise<PhaseResult[]>;

// Types of slabcast/cases: the case-file runner (docs/case-runner.md), a separate entry from
// the library so that an application that only casts rays never loads it.
import type { Slabcast } from './slabcast.js';

/** The "format" a case file must declare. */
export const FORMAT: 'slabcast-cases/1';
/** The "format" of a results document. */
export const RESULTS_FORMAT: 'slabcast-results/1';
/** The largest case file read, in bytes. */
export const MAX_FILE_BYTES: number;
/** The most cases one file may hold. */
export const MAX_CASES: number;
/** The runner's usage line. */
export const USAGE: string;

/** A file-level refusal (not JSON, wrong format, too large...): the runner exits with status 2. */
export class CaseFileError extends Error {
  name: 'CaseFileError';
}

/** One case as read and run: its id (null when missing), the case object, and its result. */
export interface CaseEntry {
  id: string | null;
  caseObject: unknown;
  read: unknown;
  result: { error?: string; query?: string; [field: string]: unknown };
}

/** What checkCases() found. */
export interface CheckSummary {
  passed: number;
  failed: number;
  skipped: number;
  failures: { id: string | null; field: string; want: string; got: string }[];
  failedIds: (string | null)[];
  /** The FAIL lines and the summary line, as the runners print them. */
  text: string;
}

/** The "cases" array of a case file's bytes, or a CaseFileError naming `name`. */
export function parseCaseFile(bytes: Uint8Array, name: string): unknown[];
/** Reads and runs every case through a loaded slabcast. */
export function runCases(api: Slabcast, cases: unknown[]): CaseEntry[];
/** Checks every case that has an "expect" against its result. */
export function checkCases(entries: CaseEntry[]): CheckSummary;
/** The results document (`slabcast-cases run`) of runCases' output, as a byte string. */
export function formatResults(entries: CaseEntry[]): string;
/** Runs or checks one case file from disk (Node) as the command does: its output and exit code. */
export function runCaseFile(api: Slabcast, mode: 'run' | 'check', path: string):
  Promise<{ stdout: string; stderr: string; code: number; check?: CheckSummary }>;
/** The shortest decimal string that reads back as the same float32 (the runners' number format). */
export function formatFloat32(x: number): string;
/** Parses case-file JSON bytes as the native runner does; undefined when not valid JSON. */
export function parseCaseJson(bytes: Uint8Array): unknown;

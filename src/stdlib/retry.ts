/** Placeholder until this namespace lands; its owner replaces the whole file. */
import type { RetryPolicy, StdlibFunction } from './types.ts';

export const functions: StdlibFunction[] = [];
export const RETRY_POLICIES: ReadonlyMap<string, RetryPolicy> = new Map();

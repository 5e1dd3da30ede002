/** Placeholder until this namespace lands; its owner replaces the whole file. */
import type { StdlibFunction } from './types.ts';

export const functions: StdlibFunction[] = [];

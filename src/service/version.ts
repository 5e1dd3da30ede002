/** The emulator's version: package.json's, inlined by build.mjs; read from package.json when run from source. */
declare const __EMULATOR_VERSION__: string | undefined;

export const VERSION: string = typeof __EMULATOR_VERSION__ === 'string' ? __EMULATOR_VERSION__ : '0.0.0-dev';

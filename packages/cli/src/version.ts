/** Put in from package.json by the build (tsup.shared.mts) and the tests (vitest.shared.mts). */
declare const __PACKAGE_VERSION__: string;

/** This CLI's version, written into check reports and compared by `release --from-report`. Equals package.json's (a test checks). */
export const CLI_VERSION = __PACKAGE_VERSION__;

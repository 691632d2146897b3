/** This CLI's version, written into check reports and compared by `release --from-report`. Equals package.json's (a test checks). */
export const CLI_VERSION = '0.1.0';
